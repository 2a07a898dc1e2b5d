//! Thud's positions as network inputs ("thud-board-v1"): a dwarf or a troll on each of the
//! octagon's 165 squares (the stone's square included, never occupied), then the trolls to
//! move. Sides, not seats: the dwarfs always move first in a round, and the network's output is
//! from their view.

use super::board::{Board, CELLS, SQUARE_COUNT, Side, Square};
use super::{Node, Thud};
use crate::nnue::{ActiveFeatures, Features};
use crate::search::Evaluator;

/// Input of the trolls to move (none for the dwarfs to move).
const TROLLS_TO_MOVE: u16 = 2 * SQUARE_COUNT as u16;

/// Each cell's square number in square order (rank, then file), for the cells of real squares.
const SQUARE_NUMBER: [u16; CELLS] = {
    let mut table = [0; CELLS];
    let mut n = 0;
    let mut rank = 0;
    while rank < 15 {
        let mut file = 0;
        while file < 15 {
            if let Some(sq) = Square::new(file, rank) {
                table[sq.cell()] = n;
                n += 1;
            }
            file += 1;
        }
        rank += 1;
    }
    table
};

/// Pushes the active inputs of `board`, increasing: square order within each kind, and cells
/// in square order are increasing ([`Square`]).
fn board_features(board: &Board, out: &mut impl Extend<u16>) {
    for (set, base) in [(board.dwarfs(), 0), (board.trolls(), SQUARE_COUNT as u16)] {
        out.extend(set.iter().map(|sq| base + SQUARE_NUMBER[sq.cell()]));
    }
    if board.side() == Side::Trolls {
        out.extend([TROLLS_TO_MOVE]);
    }
}

impl Features for Thud {
    const FEATURE_SET: &'static str = "thud-board-v1";
    const INPUTS: usize = 2 * SQUARE_COUNT + 1;

    fn features(&self, out: &mut Vec<u16>) {
        board_features(self.board(), out);
    }

    /// Expert's evaluation with its captures resolved, as its search scores a leaf.
    fn hand_score(&self) -> i32 {
        let node = Node::new(self);
        let to_move = super::agents::top_evaluation().evaluate(&node);
        node.for_side_to_move(to_move)
    }
}

impl ActiveFeatures for Node {
    fn active_features(&self, out: &mut impl Extend<u16>) {
        board_features(self.board(), out);
    }
}
