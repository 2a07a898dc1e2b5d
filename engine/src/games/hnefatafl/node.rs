//! The game as the generic searcher sees it: a position plus the hashes of the few positions
//! before it, so that the searching levels treat a repeated position as a draw.
//!
//! The rules have no repetition draw and the engine keeps no history; without this the searchers
//! happily shuffle a piece back and forth until the ply cap. Scoring a repetition as 0 makes the
//! side that thinks it is ahead vary its play, which is all it is for: it is a trait of the
//! computer levels, never a rule.

use super::eval::Evaluation;
use super::{Hnefatafl, Move, MoveList};
use crate::game::Game;
use crate::search::{Evaluator, MATE, SearchGame};

/// Positions remembered: a repetition after 2, 4, 6 or 8 plies is seen.
pub const RECENT: usize = 8;

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
        next.recent.copy_within(..RECENT - 1, 1);
        next.recent[0] = self.game.hash();
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
        (ply > 0 && self.recent.contains(&hash)).then_some(300)
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
