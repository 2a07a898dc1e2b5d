//! The four computer levels: one evaluation ([`EvalWeights`]) searched by the generic
//! alpha-beta searcher ([`crate::search`]) with budgets that grow from level to level.
//!
//! Each level's tunable table is the evaluation weights followed by its search parameters
//! ([`SearchParams`]) with that level's defaults, so that a weights file or the tuner can move
//! the budgets as well as the weights.

use super::eval::{EvalWeights, Evaluation};
use super::node::{Node, RECENT, remember};
use super::{Hnefatafl, Move};
use crate::agent::{Agent, AgentSetup, Analysis, Budget, Context, TimeControl};
use crate::game::Level;
use crate::search::{Limits, Searcher};
use crate::weights::{Param, WeightSet};

crate::weight_set! {
    /// One level's search budgets. Batch runs bind `depth`, `width` and `nodes`, so that results
    /// reproduce; player time control binds `player_depth`, `width` and `time_ms`.
    pub struct SearchParams = "hnefatafl-search" {
        /// Deepest iteration of a batch search, in plies.
        depth: 3.0, 1.0..=12.0, 1.0;
        /// Moves searched at each node, the most promising first; 0 searches them all.
        width: 0.0, 0.0..=400.0, 2.0;
        /// Node budget of a batch search; 0 for none.
        nodes: 0.0, 0.0..=20_000_000.0, 1000.0;
        /// Deepest iteration under player time control, in plies.
        player_depth: 3.0, 1.0..=32.0, 1.0;
        /// Time per move under player time control, in milliseconds.
        time_ms: 1000.0, 10.0..=60_000.0, 50.0;
    }
}

const EVAL: &[Param] = EvalWeights::SET.params;
const SEARCH: &[Param] = SearchParams::SET.params;
const SEARCH_LEN: usize = SEARCH.len();
const LEVEL_LEN: usize = EVAL.len() + SEARCH_LEN;

/// A level's table: the evaluation weights, then the search parameters with `search` as their
/// defaults.
const fn level_params(search: [f64; SEARCH_LEN]) -> [Param; LEVEL_LEN] {
    let mut params = [EVAL[0]; LEVEL_LEN];
    let mut i = 0;
    while i < EVAL.len() {
        params[i] = EVAL[i];
        i += 1;
    }
    let mut j = 0;
    while j < SEARCH_LEN {
        params[EVAL.len() + j] = Param {
            default: search[j],
            ..SEARCH[j]
        };
        j += 1;
    }
    params
}

/// `[depth, width, nodes, player_depth, time_ms]` of each level. Full width throughout: the
/// ordering is too coarse to prune by (three plies on the 24 best-ordered moves lost to two plies
/// at full width). Expert's node budget keeps its median move near 40 ms on one core.
static EASY: [Param; LEVEL_LEN] = level_params([1.0, 0.0, 0.0, 1.0, 100.0]);
static NORMAL: [Param; LEVEL_LEN] = level_params([2.0, 0.0, 0.0, 2.0, 300.0]);
static HARD: [Param; LEVEL_LEN] = level_params([3.0, 0.0, 0.0, 4.0, 1000.0]);
static EXPERT: [Param; LEVEL_LEN] = level_params([4.0, 0.0, 150_000.0, 12.0, 1800.0]);

static SETS: [WeightSet; 4] = [
    WeightSet {
        name: "hnefatafl-easy",
        params: &EASY,
    },
    WeightSet {
        name: "hnefatafl-normal",
        params: &NORMAL,
    },
    WeightSet {
        name: "hnefatafl-hard",
        params: &HARD,
    },
    WeightSet {
        name: "hnefatafl-expert",
        params: &EXPERT,
    },
];

pub(super) static LEVELS: [Level; 4] = [
    Level {
        name: "easy",
        summary: "one ply: the move with the best evaluation, wins taken (player: 0.1 s)",
        weights: Some(&SETS[0]),
    },
    Level {
        name: "normal",
        summary: "two plies, full width (player: 0.3 s)",
        weights: Some(&SETS[1]),
    },
    Level {
        name: "hard",
        summary: "three plies, full width (player: up to four plies in 1 s)",
        weights: Some(&SETS[2]),
    },
    Level {
        name: "expert",
        summary: "four plies, full width, at most 150,000 nodes (player: deepening for 1.8 s)",
        weights: Some(&SETS[3]),
    },
];

/// log2 of the transposition table entries of each level.
const TABLE_BITS: [u8; 4] = [10, 14, 16, 18];

pub(super) fn new_agent(setup: &AgentSetup) -> Box<dyn Agent<Hnefatafl>> {
    let level = setup.level.min(LEVELS.len() - 1);
    let defaults;
    let values = if setup.weights.is_empty() {
        defaults = SETS[level].defaults();
        &defaults
    } else {
        &setup.weights
    };
    let (eval, search) = values.split_at(EVAL.len().min(values.len()));
    let params = SearchParams::from_values(search);
    let budget = |x: f64| (x > 0.0).then_some(x as u64);
    let width = (params.width >= 1.0).then_some(params.width as usize);
    let limits = match setup.time_control {
        TimeControl::Batch => Limits {
            depth: params.depth as u32,
            width,
            nodes: budget(params.nodes),
            time_ms: None,
        },
        TimeControl::Player => Limits {
            depth: params.player_depth as u32,
            width,
            nodes: None,
            time_ms: budget(params.time_ms),
        },
    };
    Box::new(Searching {
        searcher: Searcher::new(TABLE_BITS[level]),
        eval: Evaluation::new(EvalWeights::from_values(eval)),
        base: limits,
        limits,
        recent: [0; RECENT],
    })
}

/// A level: the shared evaluation, its budgets, a searcher kept across games, and the hashes of
/// the last positions of the current game (its own turns and the positions its moves made,
/// which together are every position), so that its search sees repetitions.
struct Searching {
    searcher: Searcher<Node>,
    eval: Evaluation,
    /// The level's own limits, and those in force (a caller's [`Budget`] over them).
    base: Limits,
    limits: Limits,
    recent: [u64; RECENT],
}

impl Agent<Hnefatafl> for Searching {
    fn set_budget(&mut self, budget: Budget) {
        self.limits = self.base.with_budget(budget);
    }

    fn new_game(&mut self) {
        self.searcher.clear();
        self.recent = [0; RECENT];
    }

    fn choose(&mut self, game: &Hnefatafl, moves: &[Move], ctx: &mut Context<'_>) -> Move {
        self.analyse(game, moves, ctx).best
    }

    fn analyse(
        &mut self,
        game: &Hnefatafl,
        moves: &[Move],
        ctx: &mut Context<'_>,
    ) -> Analysis<Move> {
        let analysis = if let [only] = moves {
            Analysis::of_move(*only)
        } else {
            let root = Node {
                game: *game,
                recent: self.recent,
            };
            Analysis::from(self.searcher.search(
                &root,
                &self.eval,
                &self.limits,
                ctx.clock,
                ctx.rng,
            ))
        };
        remember(&mut self.recent, game.hash());
        let mut after = *game;
        after.apply(analysis.best);
        remember(&mut self.recent, after.hash());
        analysis
    }
}
