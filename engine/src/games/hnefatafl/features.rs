//! Copenhagen Hnefatafl's positions as network inputs ("hnefatafl-board-v1"): an attacker, a
//! defender or the king on each of the 121 squares, then the defenders to move. The network's
//! output is from the attackers' view, who move first.

use super::Hnefatafl;
use super::board::{Piece, SQUARES, Side, bit, squares};
use crate::nnue::{ActiveFeatures, Features};

/// Input of the defenders to move (none for the attackers to move).
const DEFENDERS_TO_MOVE: u16 = 3 * SQUARES as u16;

impl ActiveFeatures for Hnefatafl {
    /// By piece kind, then by square.
    fn active_features(&self, out: &mut impl Extend<u16>) {
        let board = self.board();
        for (piece, set) in [
            (Piece::Attacker, board.attackers),
            (Piece::Defender, board.defenders),
            (Piece::King, bit(board.king)),
        ] {
            let base = piece as u16 * SQUARES as u16;
            out.extend(squares(set).map(|sq| base + sq.index() as u16));
        }
        if self.side_to_move() == Side::Defenders {
            out.extend([DEFENDERS_TO_MOVE]);
        }
    }
}

impl Features for Hnefatafl {
    const FEATURE_SET: &'static str = "hnefatafl-board-v1";
    const INPUTS: usize = 3 * SQUARES + 1;

    fn features(&self, out: &mut Vec<u16>) {
        self.active_features(out);
    }

    fn hand_score(&self) -> i32 {
        let to_move = super::agents::top_evaluation().for_side_to_move(self);
        match self.side_to_move() {
            Side::Attackers => to_move,
            Side::Defenders => -to_move,
        }
    }
}
