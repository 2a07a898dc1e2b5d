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
use crate::nnue::NetEvaluation;
use crate::search::{
    LevelRow, SearchParams, SearchingAgent, level_list, level_network, level_values,
};
use crate::weights::WeightSet;

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
    /// The levels, weakest first. Full width throughout: the ordering is too coarse to prune by.
    /// Every level has a node budget, above its 90th percentile of nodes: on an emptied board the
    /// king's free lines extend the search without bound. A cycle costs the attackers, when they
    /// search, 300 (three soldiers), so that a side ahead on material is not held in a cycle to
    /// the cap; the defenders pay far more (`node::DEFENDERS_CYCLE`), as Copenhagen's
    /// perpetual-repetition rule would.
    ///
    /// Hard searches an even horizon: an odd one ends on the attackers' own move, so they never
    /// see the defenders' reply. Hard and Expert prune quiet moves that cannot reach alpha within
    /// 100 a ply (futility), and Expert also searches late quiet moves a ply shallower, stops at
    /// five plies (the 100 ms a batch move may take), and deepens up to nine where five plies
    /// cost little (a lone king among attackers), to see the perpetuals of such endings.
    pub(super) const ROWS;
    /// Each level's table: the evaluation's weights, then the search parameters.
    pub(super) static SETS;
    "easy" {
        summary: "one ply: the move with the best evaluation, wins taken, at most 50,000 nodes (player: 0.1 s)",
        table_bits: 10,
        search: search(1.0, 0.0, 50_000.0, 1.0, 100.0, 0.0, 0.0),
        eval_defaults: &[],
        network: None,
    }
    "normal" {
        summary: "two plies, full width, at most 100,000 nodes (player: 0.3 s)",
        table_bits: 14,
        search: search(2.0, 0.0, 100_000.0, 2.0, 300.0, 0.0, 0.0),
        eval_defaults: &[],
        network: None,
    }
    "hard" {
        summary: "four plies, futility pruning near the horizon, at most 150,000 nodes (player: up to four plies in 1 s)",
        table_bits: 16,
        search: search(4.0, 0.0, 150_000.0, 4.0, 1000.0, 0.0, 100.0),
        eval_defaults: &[],
        network: None,
    }
    "expert" {
        summary: "five plies (up to nine where they cost little), late moves reduced, futility pruning, at most 250,000 nodes (player: deepening for 1.8 s)",
        table_bits: 18,
        search: search(5.0, 4.0, 250_000.0, 12.0, 1800.0, 1.0, 100.0),
        eval_defaults: &[],
        network: None,
    }
}

pub(super) static LEVELS: [Level<Hnefatafl>; 4] = level_list([], &ROWS, &SETS, searching);

/// A level of `row`, with the network `setup` names or its row's, if any.
fn searching(
    row: &LevelRow,
    set: &WeightSet,
    setup: &AgentSetup<Hnefatafl>,
) -> Box<dyn Agent<Hnefatafl>> {
    match level_network::<Hnefatafl>(row, setup) {
        Some(net) => {
            let (eval, search) = level_values(set, &setup.weights);
            Box::new(SearchingAgent::with_root(
                row,
                NetEvaluation::new(Evaluation::new(EvalWeights::from_values(&eval)), net),
                &search,
                setup.time_control,
                |game: &Hnefatafl, eval| eval.node(game),
            ))
        }
        None => Box::new(searching_agent(row, set, setup)),
    }
}

/// A level of `row` with its hand-made evaluation.
pub(super) fn searching_agent(
    row: &LevelRow,
    set: &WeightSet,
    setup: &AgentSetup<Hnefatafl>,
) -> SearchingAgent<Hnefatafl, Evaluation> {
    let (eval, search) = level_values(set, &setup.weights);
    SearchingAgent::new(
        row,
        Evaluation::new(EvalWeights::from_values(&eval)),
        &search,
        setup.time_control,
    )
}

/// The top level's hand-made evaluation, at its default weights: the base of a network that
/// reads the hand-made score ([`crate::nnue::Features::hand_score`]).
pub(super) fn top_evaluation() -> Evaluation {
    let (eval, _) = level_values(&SETS[ROWS.len() - 1], &[]);
    Evaluation::new(EvalWeights::from_values(&eval))
}

#[cfg(test)]
mod network_tests {
    use super::*;

    /// A level that names a network must be able to load it: [`level_network`] relies on it.
    #[test]
    fn every_built_in_network_reads_for_its_level() {
        crate::search::assert_embedded_networks_read::<Hnefatafl>(&ROWS);
    }
}
