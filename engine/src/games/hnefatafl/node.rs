//! The game as the generic searcher sees it: a position plus the hashes of the few positions
//! before it, so that the searching levels see, and avoid, repeated positions.
//!
//! The rules have no repetition draw and the engine keeps no history; without this the searchers
//! happily shuffle a piece back and forth until the ply cap. A repeated position costs the side
//! that repeated it ([`REPETITION`]), so that both sides vary their play when they can afford
//! to: it is a trait of the computer levels, never a rule.

use super::board::SQUARES;
use super::eval::Evaluation;
use super::{Hnefatafl, Move, MoveList};
use crate::game::Game;
use crate::search::{Evaluator, MATE, SearchGame};

/// Positions remembered: a repetition after 2, 4, 6 or 8 plies is seen.
pub const RECENT: usize = 8;

/// The score of a repeated position for the side to move there: the side that repeated it
/// pays three attackers' worth, so that either side varies its play when it can afford to.
const REPETITION: i32 = 300;

/// Puts `hash` first in `recent`, forgetting the oldest.
pub fn remember(recent: &mut [u64; RECENT], hash: u64) {
    recent.copy_within(..RECENT - 1, 1);
    recent[0] = hash;
}

/// A position and the hashes of the `RECENT` positions before it, the latest first (0 where
/// the game is shorter).
#[derive(Clone, Copy, Debug)]
pub struct Node {
    pub game: Hnefatafl,
    pub recent: [u64; RECENT],
}

impl SearchGame for Node {
    type Move = Move;
    type MoveList = MoveList;

    fn generate(&self, out: &mut MoveList) {
        self.game.legal_moves(out);
    }

    fn after(&self, mv: Move) -> Self {
        let mut next = *self;
        remember(&mut next.recent, self.game.hash());
        next.game.apply(mv);
        next
    }

    /// The placement and the side to move. The ply count is left out: it only matters when a
    /// game nears its cap (1000 plies by default), far beyond any search horizon in practice.
    fn hash(&self) -> u64 {
        self.game.hash()
    }

    fn terminal(&self, ply: u32) -> Option<i32> {
        if let Some(outcome) = self.game.outcome() {
            let mate = MATE - ply as i32;
            return Some(match outcome.sole_winner() {
                Some(winner) if winner == self.game.side_to_move().seat() => mate,
                Some(_) => -mate,
                None => 0,
            });
        }
        let hash = self.game.hash();
        (ply > 0 && self.recent.contains(&hash)).then_some(REPETITION)
    }

    /// One slot per side, square left and square reached.
    const HISTORY_SLOTS: usize = 2 * SQUARES * SQUARES;

    fn history_slot(&self, mv: Move) -> usize {
        (self.game.side_to_move().seat() * SQUARES + usize::from(mv.from)) * SQUARES
            + usize::from(mv.to)
    }
}

impl Evaluator<Node> for Evaluation {
    fn evaluate(&self, pos: &Node) -> i32 {
        self.for_side_to_move(&pos.game)
    }

    fn order(&self, pos: &Node, mv: Move) -> i32 {
        self.move_order(&pos.game, mv)
    }
}
