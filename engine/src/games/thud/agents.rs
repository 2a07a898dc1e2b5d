//! Thud's five computer levels (`docs/rules/thud.md`, "The computer levels").
//!
//! Beginner moves at random and grabs a capture when its dice say so; Easy plays the move whose
//! resulting position the evaluation likes best, without looking at replies; Balanced, Hard and
//! Expert are rows of the shared search layer ([`SearchingAgent`]), each with its own depth,
//! width and node budget in batch play (so results reproduce) and, with `--time-control
//! player`, the app's time per move (Hard 0.7 s, Expert 1.8 s) with iterative deepening up to
//! the node's horizon.

use super::eval::{EvalWeights, Evaluation};
use super::moves::MAX_TAKE_ALL_MOVES;
use super::node::{HORIZON, Node};
use super::{Move, Side, Thud};
use crate::agent::{Agent, AgentSetup, Analysis, Context, best_move, pick};
use crate::game::Level;
use crate::search::{
    Evaluator, SearchGame, SearchParams, SearchRoot, SearchingAgent, level_list, level_values,
};
use crate::weights::{Param, WeightSet, with_defaults};

crate::weight_set! {
    /// Beginner: how often it looks for a capture.
    pub struct BeginnerWeights = "thud-beginner" {
        /// Chance of taking a capture when one is on the board.
        capture_chance: 0.5, 0.0..=1.0, 0.05;
    }
}

const EVAL: &[Param] = EvalWeights::SET.params;
const EVAL_LEN: usize = EVAL.len();

/// Easy's table: the evaluation's, with no capture search (Easy does not look ahead), and a
/// quarter of a troll's points for each troll a dwarf threatens, even with the trolls to move:
/// Easy's dwarfs step beside trolls for the threat and are taken, which keeps the level easy
/// (at 0, the searching levels' default, Easy's dwarfs lost 16 points a round to Balanced's
/// trolls instead of all 32, and Balanced no longer won most matches against Easy). Its dwarfs
/// count their points alone (`dwarf_material` 0): the extra value per dwarf prices the
/// sacrifices a search finds, and Easy does not search; it stays the opponent that Expert's
/// figures as dwarfs against Easy were measured against, and so an ended round is its points
/// alone (`end_shape` 0).
static EASY_PARAMS: [Param; EVAL_LEN] = with_defaults(
    EVAL,
    &[
        ("capture_plies", 0.0),
        ("hurl_threat_later", 0.25),
        ("dwarf_material", 0.0),
        ("end_shape", 0.0),
    ],
);

/// Easy's table.
pub static EASY_WEIGHTS: WeightSet = WeightSet {
    name: "thud-easy",
    params: &EASY_PARAMS,
};

/// A searching level's defaults, with no contempt, no futility pruning and one depth for both
/// sides.
const fn search(
    depth: f64,
    width: f64,
    nodes: f64,
    player_depth: f64,
    time_ms: f64,
    reduction: f64,
    threats: f64,
) -> SearchParams {
    SearchParams {
        depth,
        deepen: 0.0,
        width,
        nodes,
        player_depth,
        time_ms,
        contempt: 0.0,
        reduction,
        futility: 0.0,
        threats,
        first_seat_plies: 0.0,
    }
}

crate::search_levels! {
    game "thud", evaluation EVAL;
    /// The searching levels, weakest first. Under the player time control Balanced keeps its
    /// two plies, and Hard and Expert deepen until their time is up (up to the node's horizon,
    /// which the time binds long before). Thud has no repetition to avoid (a quiet cycle only
    /// runs the no-capture window down), so the contempt is 0 and [`Node`] opts out of cycle
    /// scoring.
    const ROWS;
    /// The searching levels' tables: the evaluation's weights, then the search parameters.
    pub static SEARCH_SETS;
    "balanced" {
        summary: "alpha-beta, 2 plies among the 8 most promising moves, captures resolved beyond, a threatened dwarf's answers searched one ply more",
        table_bits: 15,
        // Threat search on: at two plies a dwarf move that lets a troll take next turn was
        // only guessed (`troll_threat_later`), and Balanced's dwarfs fed Easy's trolls. As
        // dwarfs against Easy, 12 matches, seed 2: dwarf margin -20.5 [-24.8, -16.2] a round
        // without, -3.3 [-6.1, -0.4] with (20 matches, seed 3: -3.0 [-4.3, -1.7]).
        search: search(2.0, 8.0, 20_000.0, 2.0, 300.0, 0.0, 1.0),
        // Playing the dwarfs, Balanced prices weaknesses low: with the shared terms a dwarf fed
        // to a troll cost it little (the troll that took it stood alone, the dwarf's own
        // `isolated` and `exposed` went with it), and its dwarfs lost to Easy's trolls. As
        // dwarfs against Easy, 48 matches, seed 1: margin -3.5 a round with the shared terms,
        // +1.50 [+0.55, +2.45] with these. Its trolls keep the shared terms: with these both
        // ways, Balanced's trolls beat Hard's dwarfs by 18.3 points a round and Hard won only
        // 10.5 of 24 matches.
        eval_defaults: &[
            ("dwarfs_isolated", 0.05),
            ("dwarfs_exposed", 0.1),
            ("dwarfs_lone_troll", 0.0),
            ("dwarfs_hunt", 0.0),
            ("dwarfs_hunt_few", 0.0),
            ("dwarfs_troll_threat_later", 0.1),
        ],
    }
    "hard" {
        summary: "alpha-beta, 3 plies among 16 moves (5 as the dwarfs, late quiet moves a ply shallower), captures resolved beyond (player: 0.7 s a move)",
        table_bits: 15,
        // No threat search: as dwarfs against Balanced (12 matches, seed 2) Hard's margin was
        // -9.0 [-11.2, -6.8] a round with it, -6.2 [-8.3, -4.1] without; width 32 -7.2.
        // Two plies more as the dwarfs, with late quiet moves a ply shallower (the reduction
        // starts at 3 plies left, so the trolls' 3-ply search is unchanged by it). As dwarfs
        // against Balanced, 100 matches: seed 1, margin +0.66 ± 0.50 a round (-1.79 ± 0.52 at
        // 3 plies), seed 2 +0.72 ± 0.41 (-2.15); from the opening suite, -1.21 ± 1.07 (-4.08 ±
        // 1.33). Without the reduction, 5 plies scored -6.13 (30 matches) and 4 plies -2.95.
        search: SearchParams {
            first_seat_plies: 2.0,
            ..search(3.0, 16.0, 60_000.0, HORIZON as f64, 700.0, 1.0, 0.0)
        },
        // Hard's dwarfs pay nothing for a dwarf standing alone: at the shared 0.3 (most start
        // dwarfs stand alone) they spent the opening pulling edge dwarfs into groups and into
        // the trolls' shoves, and lost a dwarf by ply 3 or 7 in every round. As dwarfs against
        // Balanced, 100 matches: seed 1, margin -1.79 ± 0.52 a round, 18 rounds won (-6.27 ±
        // 0.72 and 1 at 0.3; 0.05: -2.66); seed 2, -2.15 ± 0.67, 20 won (-6.89, 2). The SPSA
        // tune of all six dwarf terms against Hard's own trolls
        // (`configs/tuned/thud-hard-dwarfs.toml`) scores -3.61 ± 1.09 there. Expert keeps 0.3:
        // at 0.05 its dwarfs scored -6.45 against Hard (20 matches), -0.25 at 0.3.
        eval_defaults: &[("dwarfs_isolated", 0.0)],
    }
    "expert" {
        summary: "alpha-beta, 6 plies among 24 moves, late quiet moves a ply shallower, captures resolved beyond (player: 1.8 s a move)",
        table_bits: 17,
        // Depth is what the dwarfs lacked: as dwarfs against Hard (12 matches, seed 2) Expert's
        // margin was -9.7 [-11.7, -7.6] a round at 4 plies, -2.0 [-4.1, +0.1] at 6 plies with
        // late quiet moves reduced a ply (-5.3 at 5 plies); against Easy's trolls it won 19
        // of 20 rounds (seed 3, margin +4.4 [+3.0, +5.8]). The threat search cost it: -10.6 at
        // 6 plies against Hard, at three times the nodes. Its median move over the first 80
        // plies of self-play takes about 90 ms on one core (`level_timings`), within the
        // 100 ms a batch move may take; the node budget only stops outliers.
        // Past 6 plies depth stops paying, so Expert keeps `first_seat_plies` 0: as dwarfs
        // against Hard's trolls from the opening suite (60 matches, seed 1, the same openings)
        // its margin is -3.12 ± 1.49 a round at 6 plies and -2.80 ± 1.39 at 8 (paired gain
        // +0.32 ± 1.86), at three times the time; from the start position (10 matches) -0.10
        // at 6 plies, -4.20 at 8 and -1.38 at 7 (40 matches). Depth, width and capture depth
        // together do pay, far past the batch budget: 8 plies as the dwarfs, width 40,
        // `capture_plies` 6 and 4,000,000 nodes (46 times the time on a position 4 plies in)
        // score -1.52 ± 1.30 a round against Hard's trolls from 40 openings of 2 random plies
        // (the ones below; seed 1), a paired gain of +3.33 ± 2.01 over these settings, and
        // still lose the round; width 40 and `capture_plies` 6 alone, at 6 plies, gain +1.45 ±
        // 2.47 (20 matches) at twice the time.
        search: search(6.0, 24.0, 1_000_000.0, HORIZON as f64, 1800.0, 1.0, 0.0),
        // Late in a round, the dwarfs close on a lone troll at 0.4 a dwarf. As dwarfs against
        // Easy, seed 1, 200 matches: 185 rounds won (175 at the shared 0.05), margin +2.62
        // (+3.69); seed 2, 100 matches: 94 won (86). Against Hard, seed 1, 100 matches: margin
        // -0.25 ± 0.59 a round, 50 won (at 0.05, first 50: -2.44 ± 0.92, 11 won). At 0.2: 63 of 80
        // won against Easy (72). Hard gains nothing from it (-6.43 against Balanced, -6.27).
        // These are start-position figures, a few lines each. From 60 openings of 2 random plies
        // (`koom openings --game thud --plies 2 --count 60 --level beginner --keep 0..1 --games
        // 1 --seed 5`; matches on seed 1) Expert's dwarfs win 25 of 60 rounds against Easy,
        // margin -0.62 ± 1.06 (22 and -0.68 at 0.05, paired -0.07 ± 0.85), and score -4.63 ±
        // 1.32 against Hard.
        eval_defaults: &[("dwarfs_hunt_few", 0.4)],
    }
}

/// Beginner and Easy, which do not search, then the searching levels.
pub(super) static LEVELS: [Level; 5] = level_list(
    [
        Level {
            name: "beginner",
            summary: "random moves; takes a capture when one is there with probability capture_chance",
            weights: Some(&BeginnerWeights::SET),
        },
        Level {
            name: "easy",
            summary: "the move whose position the evaluation likes best (captures, formations); no lookahead",
            weights: Some(&EASY_WEIGHTS),
        },
    ],
    &ROWS,
    &SEARCH_SETS,
);

impl SearchRoot for Thud {
    type Node = Node;

    fn node(&self) -> Node {
        Node::new(self)
    }
}

pub(super) fn new_agent(setup: &AgentSetup) -> Box<dyn Agent<Thud>> {
    match setup.level {
        0 => Box::new(Beginner {
            weights: BeginnerWeights::from_values(&setup.weights),
        }),
        1 => Box::new(Easy {
            eval: Evaluation::new(&EvalWeights::from_values(
                &EASY_WEIGHTS.completed(&setup.weights),
            )),
        }),
        level => {
            let row = (level - 2).min(ROWS.len() - 1);
            let (eval, search) = level_values(&SEARCH_SETS[row], &setup.weights);
            Box::new(SearchingAgent::<Thud, _>::new(
                &ROWS[row],
                Evaluation::new(&EvalWeights::from_values(&eval)),
                &search,
                setup.time_control,
            ))
        }
    }
}

/// Whether `mv` takes something in `game`.
fn is_capture(game: &Thud, mv: Move) -> bool {
    mv.captures != 0 || game.board().piece_at(mv.to).is_some()
}

/// Random moves, with a capture taken at the rate of its weight.
#[derive(Clone, Copy, Debug)]
struct Beginner {
    weights: BeginnerWeights,
}

impl Agent<Thud> for Beginner {
    /// One draw decides whether to look for a capture (a troll then takes every dwarf it can at
    /// its destination); otherwise a uniform draw among the moves that take nothing (among all
    /// moves when every one captures).
    fn choose(&mut self, game: &Thud, moves: &[Move], ctx: &mut Context<'_>) -> Move {
        let board = game.board();
        let take_all =
            |m: Move| board.side() == Side::Dwarfs || m.captures == board.dwarf_mask(m.to.cell());
        let mut captures = moves
            .iter()
            .copied()
            .filter(|&m| is_capture(game, m) && take_all(m));
        if captures.clone().next().is_some() && ctx.rng.unit() < self.weights.capture_chance {
            let count = captures.clone().count();
            return captures
                .nth(pick(count, ctx.rng))
                .expect("picked among the captures");
        }
        let quiet = moves.iter().filter(|&&m| !is_capture(game, m)).count();
        if quiet == 0 {
            return moves[pick(moves.len(), ctx.rng)];
        }
        let chosen = pick(quiet, ctx.rng);
        *moves
            .iter()
            .filter(|&&m| !is_capture(game, m))
            .nth(chosen)
            .expect("picked among the quiet moves")
    }
}

/// The best position one move away by the evaluation; ties broken by one draw.
#[derive(Clone, Copy, Debug)]
struct Easy {
    eval: Evaluation,
}

impl Agent<Thud> for Easy {
    fn choose(&mut self, game: &Thud, _: &[Move], ctx: &mut Context<'_>) -> Move {
        let node = Node::new(game);
        let mut moves = <Node as SearchGame>::MoveList::default();
        node.generate(&mut moves);
        best_move::<_, _, MAX_TAKE_ALL_MOVES>(&moves, |mv| self.eval.root_order(&node, mv), ctx.rng)
    }

    fn analyse(&mut self, game: &Thud, moves: &[Move], ctx: &mut Context<'_>) -> Analysis<Move> {
        let best = self.choose(game, moves, ctx);
        let node = Node::new(game);
        Analysis {
            score: Some(f64::from(self.eval.root_order(&node, best))),
            ..Analysis::of_move(best)
        }
    }
}
