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
use crate::nnue::NetEvaluation;
use crate::search::{
    Evaluator, LevelRow, SearchGame, SearchParams, SearchRoot, SearchingAgent, level_list,
    level_network, level_values,
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
/// quarter of a troll's points for each troll a dwarf threatens, even with the trolls to move,
/// so that Easy's dwarfs step beside trolls and are taken, which keeps the level easy. Its dwarfs
/// count their points alone (`dwarf_material`, `end_shape` 0): the extra value per dwarf prices
/// the sacrifices a search finds, and Easy does not search. Measured: `docs/findings/thud-levels.md`.
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
        // Threat search on: at two plies a dwarf move that lets a troll take next turn is
        // otherwise only guessed (`troll_threat_later`).
        search: search(2.0, 8.0, 20_000.0, 2.0, 300.0, 0.0, 1.0),
        // Playing the dwarfs, Balanced prices weaknesses low: with the shared terms a dwarf fed
        // to a troll cost it little (its own `isolated` and `exposed` went with it).
        eval_defaults: &[
            ("dwarfs_isolated", 0.05),
            ("dwarfs_exposed", 0.1),
            ("dwarfs_lone_troll", 0.0),
            ("dwarfs_hunt", 0.0),
            ("dwarfs_hunt_few", 0.0),
            ("dwarfs_troll_threat_later", 0.1),
        ],
        network: None,
    }
    "hard" {
        summary: "alpha-beta, 3 plies among 16 moves (5 as the dwarfs, late quiet moves a ply shallower), captures resolved beyond (player: 0.7 s a move)",
        table_bits: 15,
        // Two plies more as the dwarfs, the weaker side, with late quiet moves a ply shallower
        // (the reduction starts at 3 plies left, so the trolls' 3-ply search is unchanged by it).
        search: SearchParams {
            first_seat_plies: 2.0,
            ..search(3.0, 16.0, 60_000.0, HORIZON as f64, 700.0, 1.0, 0.0)
        },
        // Hard's dwarfs pay nothing for a dwarf standing alone: most start dwarfs stand alone,
        // and a price pulls edge dwarfs into groups and into the trolls' shoves.
        eval_defaults: &[("dwarfs_isolated", 0.0)],
        network: None,
    }
    "expert" {
        summary: "alpha-beta, 6 plies among 24 moves, late quiet moves a ply shallower, captures resolved beyond (player: 1.8 s a move)",
        table_bits: 17,
        // Depth is what the dwarfs lack, up to 6 plies; past that it stops paying within the
        // batch budget, so Expert keeps one depth for both sides.
        search: search(6.0, 24.0, 1_000_000.0, HORIZON as f64, 1800.0, 1.0, 0.0),
        // Late in a round, the dwarfs close on a lone troll: rounds drawn with a troll out of
        // reach turn into wins.
        eval_defaults: &[("dwarfs_hunt_few", 0.4)],
        network: None,
    }
}

/// Beginner and Easy, which do not search, then the searching levels.
pub(super) static LEVELS: [Level<Thud>; 5] = level_list(
    [
        Level::new(
            "beginner",
            "random moves; takes a capture when one is there with probability capture_chance",
            Some(&BeginnerWeights::SET),
            beginner,
        ),
        Level::new(
            "easy",
            "the move whose position the evaluation likes best (captures, formations); no lookahead",
            Some(&EASY_WEIGHTS),
            easy,
        ),
    ],
    &ROWS,
    &SEARCH_SETS,
    searching,
);

impl SearchRoot for Thud {
    type Node = Node;

    fn node(&self) -> Node {
        Node::new(self)
    }
}

fn beginner(setup: &AgentSetup<Thud>) -> Box<dyn Agent<Thud>> {
    Box::new(Beginner {
        weights: BeginnerWeights::from_values(&setup.weights),
    })
}

fn easy(setup: &AgentSetup<Thud>) -> Box<dyn Agent<Thud>> {
    Box::new(Easy {
        eval: Evaluation::new(&EvalWeights::from_values(
            &EASY_WEIGHTS.completed(&setup.weights),
        )),
    })
}

/// A searching level, with the network `setup` names or its row's, if any.
fn searching(row: &LevelRow, set: &WeightSet, setup: &AgentSetup<Thud>) -> Box<dyn Agent<Thud>> {
    let (eval, search) = level_values(set, &setup.weights);
    let hand = Evaluation::new(&EvalWeights::from_values(&eval));
    match level_network::<Thud>(row, setup) {
        Some(net) => Box::new(SearchingAgent::with_root(
            row,
            NetEvaluation::new(hand, net),
            &search,
            setup.time_control,
            |game: &Thud, eval| eval.node(game),
        )),
        None => Box::new(SearchingAgent::<Thud, _>::new(
            row,
            hand,
            &search,
            setup.time_control,
        )),
    }
}

/// The top level's hand-made evaluation, at its default weights: the base of a network that
/// reads the hand-made score ([`crate::nnue::Features::hand_score`]).
pub(super) fn top_evaluation() -> Evaluation {
    let (eval, _) = level_values(&SEARCH_SETS[ROWS.len() - 1], &[]);
    Evaluation::new(&EvalWeights::from_values(&eval))
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

#[cfg(test)]
mod network_tests {
    use super::*;

    /// A level that names a network must be able to load it: [`level_network`] relies on it.
    #[test]
    fn every_built_in_network_reads_for_its_level() {
        crate::search::assert_embedded_networks_read::<Thud>(&ROWS);
    }
}
