//! Thud's five computer levels (`rules/thud.md`, "The computer levels").
//!
//! Beginner moves at random and grabs a capture when its dice say so; Easy plays the move whose
//! resulting position the evaluation likes best, without looking at replies; Balanced, Hard and
//! Expert search with the generic alpha-beta searcher, each to its own depth and width. In batch
//! play (the default) a search is bounded by depth and nodes only, so results reproduce; with
//! `--time-control player` Hard and Expert get the app's time per move instead of the node
//! budget.

use super::eval::{Eval, EvalWeights};
use super::moves::MAX_TAKE_ALL_MOVES;
use super::node::{HORIZON, Node};
use super::{Side, Thud, ThudMove};
use crate::agent::{Agent, AgentSetup, Analysis, Budget, Context, TimeControl, best_move, pick};
use crate::game::Level;
use crate::search::{Evaluator, Limits, SearchGame, Searcher};
use crate::weights::{Param, WeightSet};

crate::weight_set! {
    /// Beginner: how often it looks for a capture.
    pub struct BeginnerWeights = "thud-beginner" {
        /// Chance of taking a capture when one is on the board.
        capture_chance: 0.5, 0.0..=1.0, 0.05;
    }
}

crate::weight_set! {
    /// How deep and how wide a searching level looks. Each level's table holds these after the
    /// evaluation's weights, with the level's own defaults.
    pub struct SearchWeights = "thud-search" {
        /// The deepest iteration, in plies.
        depth: 3.0, 1.0..=16.0, 1.0;
        /// Moves searched at each node: the most promising by move ordering.
        width: 16.0, 1.0..=256.0, 1.0;
        /// The node budget of one move in batch play, in thousands.
        kilonodes: 50.0, 1.0..=10000.0, 5.0;
    }
}

const EVAL_PARAMS: usize = EvalWeights::SET.params.len();
const SEARCH_PARAMS: usize = SearchWeights::SET.params.len();
const LEVEL_PARAMS: usize = EVAL_PARAMS + SEARCH_PARAMS;
const _: () = assert!(
    HORIZON >= 16,
    "the hash is exact up to the deepest allowed depth"
);

/// A searching level's table: the evaluation's parameters, then the search's with the level's
/// defaults (`search[i]` for the `i`-th search parameter).
const fn level_params(search: [f64; SEARCH_PARAMS]) -> [Param; LEVEL_PARAMS] {
    let mut params = [EvalWeights::SET.params[0]; LEVEL_PARAMS];
    let mut i = 0;
    while i < LEVEL_PARAMS {
        params[i] = if i < EVAL_PARAMS {
            EvalWeights::SET.params[i]
        } else {
            let mut p = SearchWeights::SET.params[i - EVAL_PARAMS];
            p.default = search[i - EVAL_PARAMS];
            p
        };
        i += 1;
    }
    params
}

const BALANCED_PARAMS: [Param; LEVEL_PARAMS] = level_params([2.0, 8.0, 20.0]);
const HARD_PARAMS: [Param; LEVEL_PARAMS] = level_params([3.0, 16.0, 100.0]);
const EXPERT_PARAMS: [Param; LEVEL_PARAMS] = level_params([5.0, 24.0, 400.0]);

/// The searching levels' tables.
pub const BALANCED_WEIGHTS: WeightSet = WeightSet {
    name: "thud-balanced",
    params: &BALANCED_PARAMS,
};
pub const HARD_WEIGHTS: WeightSet = WeightSet {
    name: "thud-hard",
    params: &HARD_PARAMS,
};
pub const EXPERT_WEIGHTS: WeightSet = WeightSet {
    name: "thud-expert",
    params: &EXPERT_PARAMS,
};

/// The app's time per move under `--time-control player`: Hard about 0.7 s, Expert 1.8 s.
const HARD_MS: u64 = 700;
const EXPERT_MS: u64 = 1800;

pub(super) const LEVELS: &[Level] = &[
    Level {
        name: "beginner",
        summary: "random moves; takes a capture when one is there with probability capture_chance",
        weights: Some(&BeginnerWeights::SET),
    },
    Level {
        name: "easy",
        summary: "the move whose position the evaluation likes best (captures, formations); no lookahead",
        weights: Some(&EvalWeights::SET),
    },
    Level {
        name: "balanced",
        summary: "alpha-beta, 2 plies among the 8 most promising moves",
        weights: Some(&BALANCED_WEIGHTS),
    },
    Level {
        name: "hard",
        summary: "alpha-beta, 3 plies among 16 moves (0.7 s a move under the player time control)",
        weights: Some(&HARD_WEIGHTS),
    },
    Level {
        name: "expert",
        summary: "alpha-beta, up to 5 plies among 24 moves (1.8 s a move under the player time control)",
        weights: Some(&EXPERT_WEIGHTS),
    },
];

/// `given` completed with the table's defaults where it is short.
fn values(set: &WeightSet, given: &[f64]) -> Vec<f64> {
    set.params
        .iter()
        .enumerate()
        .map(|(i, p)| given.get(i).copied().unwrap_or(p.default))
        .collect()
}

pub(super) fn new_agent(setup: &AgentSetup) -> Box<dyn Agent<Thud>> {
    let level = setup.level.min(LEVELS.len() - 1);
    let set = LEVELS[level]
        .weights
        .expect("every Thud level has a weight set");
    let w = values(set, &setup.weights);
    let eval = || Eval::new(&EvalWeights::from_values(&w[..EVAL_PARAMS.min(w.len())]));
    match level {
        0 => Box::new(Beginner {
            weights: BeginnerWeights::from_values(&w),
        }),
        1 => Box::new(Easy { eval: eval() }),
        _ => {
            let search = SearchWeights::from_values(&w[EVAL_PARAMS..]);
            let time_ms = match (setup.time_control, level) {
                (TimeControl::Batch, _) | (TimeControl::Player, 2) => None,
                (TimeControl::Player, 3) => Some(HARD_MS),
                (TimeControl::Player, _) => Some(EXPERT_MS),
            };
            let limits = Limits {
                depth: search.depth.round() as u32,
                width: Some(search.width.round() as usize),
                // The player's clock replaces the node budget.
                nodes: time_ms
                    .is_none()
                    .then(|| (search.kilonodes * 1000.0).round() as u64),
                time_ms,
            };
            Box::new(Searching {
                searcher: Searcher::new(if level == 4 { 17 } else { 15 }),
                eval: eval(),
                base: limits,
                limits,
            })
        }
    }
}

/// Whether `mv` takes something in `game`.
fn is_capture(game: &Thud, mv: ThudMove) -> bool {
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
    fn choose(&mut self, game: &Thud, moves: &[ThudMove], ctx: &mut Context<'_>) -> ThudMove {
        let board = game.board();
        let take_all = |m: ThudMove| {
            board.side() == Side::Dwarfs || m.captures == board.dwarf_mask(m.to.cell())
        };
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
    eval: Eval,
}

impl Easy {
    /// The evaluation of the position after `mv`, from the mover's side.
    fn score(&self, node: &Node, mv: ThudMove) -> i32 {
        let next = node.after(mv);
        -next
            .terminal(1)
            .unwrap_or_else(|| self.eval.evaluate(&next))
    }
}

impl Agent<Thud> for Easy {
    fn choose(&mut self, game: &Thud, _: &[ThudMove], ctx: &mut Context<'_>) -> ThudMove {
        let node = Node::new(game);
        let mut moves = <Node as SearchGame>::MoveList::default();
        node.generate(&mut moves);
        best_move::<_, _, MAX_TAKE_ALL_MOVES>(&moves, |mv| self.score(&node, mv), ctx.rng)
    }

    fn analyse(
        &mut self,
        game: &Thud,
        moves: &[ThudMove],
        ctx: &mut Context<'_>,
    ) -> Analysis<ThudMove> {
        let best = self.choose(game, moves, ctx);
        let node = Node::new(game);
        Analysis {
            score: Some(f64::from(self.score(&node, best))),
            ..Analysis::of_move(best)
        }
    }
}

/// Balanced, Hard and Expert: alpha-beta within the level's limits, reusing its tables across
/// games (cleared at each new game so that batch results reproduce).
struct Searching {
    searcher: Searcher<Node>,
    eval: Eval,
    /// The level's own limits, and those in force (a caller's [`Budget`] over them).
    base: Limits,
    limits: Limits,
}

impl Agent<Thud> for Searching {
    fn set_budget(&mut self, budget: Budget) {
        self.limits = self.base.with_budget(budget);
    }

    fn new_game(&mut self) {
        self.searcher.clear();
    }

    fn choose(&mut self, game: &Thud, moves: &[ThudMove], ctx: &mut Context<'_>) -> ThudMove {
        self.analyse(game, moves, ctx).best
    }

    fn analyse(
        &mut self,
        game: &Thud,
        _: &[ThudMove],
        ctx: &mut Context<'_>,
    ) -> Analysis<ThudMove> {
        Analysis::from(self.searcher.search(
            &Node::new(game),
            &self.eval,
            &self.limits,
            ctx.clock,
            ctx.rng,
        ))
    }
}

impl core::fmt::Debug for Searching {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Searching")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}
