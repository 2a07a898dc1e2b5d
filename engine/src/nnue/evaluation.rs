//! A searching level's evaluation with a network in place of its hand-made static terms.
//!
//! The level keeps everything else of its own evaluation: move ordering, the moves its
//! quiescence stage searches, the selection of promising moves. Only the score of a position
//! the search stops at comes from the network, so that a network level differs from its
//! hand-made twin by that score alone, at the same depth, width and node budget.

use std::sync::Arc;

use arrayvec::ArrayVec;

use super::{MAX_ACTIVE, Network};
use crate::search::MATE;

/// A search node whose position a network reads: the inputs of its game's feature set.
pub trait ActiveFeatures {
    /// Pushes the indices of the active inputs, increasing (as [`super::Features::features`]
    /// for the node's game).
    fn active_features(&self, out: &mut impl Extend<u16>);
}

/// The hand-made evaluation `hand` of a level, whose static score is replaced by `net`'s.
#[derive(Clone, Debug)]
pub struct NetEvaluation<H> {
    /// The level's own evaluation, which still orders moves and picks tactical ones.
    pub hand: H,
    net: Arc<Network>,
}

/// Beyond this magnitude scores are wins found by search ([`crate::search::Evaluator`]'s
/// contract): a network's output is held inside it.
const LIMIT: i32 = MATE - 1001;

impl<H> NetEvaluation<H> {
    /// `hand` with `net` for its static scores (`net` checked for the game by the caller).
    #[must_use]
    pub const fn new(hand: H, net: Arc<Network>) -> Self {
        Self { hand, net }
    }

    /// The network's score of `pos` from the view of the side that moves first, in
    /// evaluation units, recomputed from the position's inputs on the stack.
    #[must_use]
    pub fn first_side_score(&self, pos: &impl ActiveFeatures) -> i32 {
        let mut active = ArrayVec::<u16, MAX_ACTIVE>::new();
        pos.active_features(&mut active);
        self.net.evaluate(&active).clamp(-LIMIT, LIMIT)
    }
}
