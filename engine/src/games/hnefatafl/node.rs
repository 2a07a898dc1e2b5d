//! The game as the generic searcher sees it: the position itself. Cycles are the searcher's
//! business ([`crate::search::SearchingAgent`] hands it the game's positions), so a search node
//! needs no memory of its own.

use super::board::{SQUARES, Side, bit};
use super::eval::{Evaluation, corner_sight, king_sees_corner};
use super::{Hnefatafl, Move, MoveList};
use crate::game::Rules;
use crate::nnue::{NetEvaluation, NetNode};
use crate::search::{Evaluator, MATE, SearchGame, SearchRoot};

impl SearchGame for Hnefatafl {
    type Move = Move;
    type MoveList = MoveList;

    fn generate(&self, out: &mut MoveList) {
        self.legal_moves(out);
    }

    fn after(&self, mv: Move) -> Self {
        let mut next = *self;
        next.apply(mv);
        next
    }

    /// The placement and the side to move. The ply count is left out: it only matters when a
    /// game nears its cap (1000 plies by default), far beyond any search horizon in practice.
    fn hash(&self) -> u64 {
        Hnefatafl::hash(self)
    }

    fn terminal(&self, ply: u32) -> Option<i32> {
        let outcome = self.outcome()?;
        let mate = MATE - ply as i32;
        Some(match outcome.sole_winner() {
            Some(winner) if winner == self.side_to_move().seat() => mate,
            Some(_) => -mate,
            None => 0,
        })
    }

    /// The attackers to move while the king sees a corner: they must block him now.
    fn forcing(&self) -> bool {
        self.side_to_move() == Side::Attackers && king_sees_corner(self.board())
    }

    /// The moves onto the king's line to a corner he sees. Nothing else saves the attackers or
    /// wins for them: a king on the edge (where every corner he sees lies) cannot be captured,
    /// and with a free line to the edge he is neither encircled nor without a move.
    fn answers(&self, out: &mut MoveList) {
        self.legal_moves(out);
        let sight = corner_sight(self.board());
        out.retain(|mv| sight & bit(mv.to) != 0);
    }

    /// One slot per side, square left and square reached.
    const HISTORY_SLOTS: usize = 2 * SQUARES * SQUARES;

    fn history_slot(&self, mv: Move) -> usize {
        (self.side_to_move().seat() * SQUARES + mv.from.index()) * SQUARES + mv.to.index()
    }
}

impl SearchRoot for Hnefatafl {
    type Node = Self;

    fn node(&self) -> Self {
        *self
    }

    /// The attackers' cycles cost the level's contempt; the defenders' cost `DEFENDERS_CYCLE`,
    /// as good as a loss: Copenhagen's own rules make a perpetual repetition a loss for the
    /// defenders, and koom's rules have no repetition rule, so the players carry it.
    fn contempt(&self, level: i32) -> i32 {
        match self.side_to_move() {
            Side::Attackers => level,
            Side::Defenders => DEFENDERS_CYCLE,
        }
    }
}

/// What a cycle costs the defenders when they search: far beyond what the evaluation gives any
/// material deficit (a soldier is worth 100 to 250), short of a proved loss, so that they leave
/// a cycle for anything but a loss.
pub(super) const DEFENDERS_CYCLE: i32 = 50_000;

impl Evaluator<Hnefatafl> for Evaluation {
    fn evaluate(&self, pos: &Hnefatafl) -> i32 {
        self.for_side_to_move(pos)
    }

    fn order(&self, pos: &Hnefatafl, mv: Move) -> i32 {
        self.move_order(pos, mv)
    }

    fn tactical(&self, pos: &Hnefatafl, mv: Move) -> bool {
        Evaluation::tactical(self, pos, mv)
    }
}

/// A network's score in place of the hand-made one, from the node's accumulator (plus the
/// hand-made score at its weight for a network that reads it); the ordering and the tactical
/// moves stay the level's own.
impl Evaluator<NetNode<Hnefatafl>> for NetEvaluation<Evaluation> {
    fn evaluate(&self, node: &NetNode<Hnefatafl>) -> i32 {
        let to_move = node.inner.side_to_move();
        let view = |s: i32| match to_move {
            Side::Attackers => s,
            Side::Defenders => -s,
        };
        view(node.first_side_score(|| view(self.hand.for_side_to_move(&node.inner))))
    }

    fn order(&self, node: &NetNode<Hnefatafl>, mv: Move) -> i32 {
        self.hand.move_order(&node.inner, mv)
    }

    fn tactical(&self, node: &NetNode<Hnefatafl>, mv: Move) -> bool {
        self.hand.tactical(&node.inner, mv)
    }
}
