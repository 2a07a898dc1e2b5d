//! The four computer levels: one evaluation ([`EvalWeights`]) searched by the shared searching
//! agent ([`crate::search::SearchingAgent`]), each level a row of search defaults.
//!
//! Each level's tunable table is the evaluation weights followed by the shared search
//! parameters ([`SearchParams`]) with that level's defaults, so that a weights file or the tuner
//! can move the budgets and the contempt as well as the weights.

use super::Hnefatafl;
use super::eval::{EvalWeights, Evaluation};
use crate::agent::{Agent, AgentSetup};
use crate::game::Level;
use crate::search::{SearchParams, SearchingAgent, level_list, level_values};

/// Full-width search defaults with Hnefatafl's contempt.
const fn search(
    depth: f64,
    deepen: f64,
    nodes: f64,
    player_depth: f64,
    time_ms: f64,
    reduction: f64,
    futility: f64,
) -> SearchParams {
    SearchParams {
        depth,
        deepen,
        width: 0.0,
        nodes,
        player_depth,
        time_ms,
        contempt: 300.0,
        reduction,
        futility,
        threats: 1.0,
        first_seat_plies: 0.0,
    }
}

crate::search_levels! {
    game "hnefatafl", evaluation EvalWeights::SET.params;
    /// The levels, weakest first. Full width throughout: the ordering is too coarse to prune by
    /// (three plies on the 24 best-ordered moves lost to two plies at full width). Every level
    /// has a node budget: on an emptied board the king's free lines extend the search, and an
    /// uncapped Hard move once took 91 million nodes (1.9 million for Easy's single ply) before
    /// the quiescence stage ordered its moves; the caps sit above each level's 90th percentile
    /// of nodes (Expert's also keeps its median move under 100 ms on one core). A cycle costs
    /// the attackers, when they search, 300 (three soldiers): at 20, a side ahead on material
    /// still let a king shuttling between two squares hold it in a cycle to the cap. When the
    /// defenders search, a cycle costs them far more (`node::DEFENDERS_CYCLE`), as Copenhagen's
    /// perpetual-repetition rule would.
    ///
    /// Hard searches an even horizon: an odd one ends on the attackers' own move, so they never
    /// see the defenders' reply, and Hard at three plies won only half its games as attackers
    /// against Normal (0.50 [0.30, 0.70], 40 games; at four plies 0.58-0.70). Four plies cost
    /// 15-60 times three at full width, almost all of it in horizon evaluations, so Hard and
    /// Expert prune quiet moves that cannot reach alpha within 100 a ply (futility), and Expert
    /// also searches late quiet moves a ply shallower, which lets its 250,000 nodes reach five
    /// plies in quiet positions. Expert stops at five: at six, every move used its whole budget
    /// and the median move of the browser's timing game took 183-198 ms natively on a loaded
    /// machine (at five, 80 ms), above the 100 ms a batch move may take, for a score against
    /// Hard within noise of five's (0.725 against 0.66, 40 games each). Where five plies cost
    /// little (a lone king among attackers, an emptied board), Expert deepens up to nine while
    /// an eighth of its nodes is unused: at five, its attackers walked into an ending where the
    /// lone king shuttles e4-e5 with a free line each time and one attacker must shuttle f4-f5
    /// to block it, a perpetual both sides are forced into that they saw only once in it; it
    /// capped 3 of 100 distinct self-play games (seed 4).
    const ROWS;
    /// Each level's table: the evaluation's weights, then the search parameters.
    static SETS;
    "easy" {
        summary: "one ply: the move with the best evaluation, wins taken, at most 50,000 nodes (player: 0.1 s)",
        table_bits: 10,
        search: search(1.0, 0.0, 50_000.0, 1.0, 100.0, 0.0, 0.0),
        eval_defaults: &[],
    }
    "normal" {
        summary: "two plies, full width, at most 100,000 nodes (player: 0.3 s)",
        table_bits: 14,
        search: search(2.0, 0.0, 100_000.0, 2.0, 300.0, 0.0, 0.0),
        eval_defaults: &[],
    }
    "hard" {
        summary: "four plies, futility pruning near the horizon, at most 150,000 nodes (player: up to four plies in 1 s)",
        table_bits: 16,
        search: search(4.0, 0.0, 150_000.0, 4.0, 1000.0, 0.0, 100.0),
        eval_defaults: &[],
    }
    "expert" {
        summary: "five plies (up to nine where they cost little), late moves reduced, futility pruning, at most 250,000 nodes (player: deepening for 1.8 s)",
        table_bits: 18,
        search: search(5.0, 4.0, 250_000.0, 12.0, 1800.0, 1.0, 100.0),
        eval_defaults: &[],
    }
}

pub(super) static LEVELS: [Level; 4] = level_list([], &ROWS, &SETS);

pub(super) fn new_agent(setup: &AgentSetup) -> Box<dyn Agent<Hnefatafl>> {
    Box::new(searching_agent(setup))
}

/// The level `setup` asks for (the strongest when its index is beyond them).
pub(super) fn searching_agent(setup: &AgentSetup) -> SearchingAgent<Hnefatafl, Evaluation> {
    let level = setup.level.min(ROWS.len() - 1);
    let (eval, search) = level_values(&SETS[level], &setup.weights);
    SearchingAgent::new(
        &ROWS[level],
        Evaluation::new(EvalWeights::from_values(&eval)),
        &search,
        setup.time_control,
    )
}
