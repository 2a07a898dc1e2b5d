//! A searching level's evaluation with a network in place of its hand-made static terms.
//!
//! The level keeps everything else of its own evaluation: move ordering, the moves its
//! quiescence stage searches, the selection of promising moves. Only the score of a position
//! the search stops at comes from the network, so that a network level differs from its
//! hand-made twin by that score alone, at the same depth, width and node budget.
//!
//! The searched nodes carry the network's accumulator ([`NetNode`]): copy-make moves it by
//! the inputs each move changes, which measured 1.4 times the nodes per second of recomputing
//! it at each leaf with 64 hidden units and 2.4 times with 256 (Hnefatafl, docs/nnue.md).

use std::sync::Arc;

use arrayvec::ArrayVec;

use super::{Accumulator, MAX_ACTIVE, Network};
use crate::search::{MATE, SearchGame, SearchRoot};

/// A position's active inputs, on the stack.
type Active = ArrayVec<u16, MAX_ACTIVE>;

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
    /// evaluation units, recomputed from the position's inputs on the stack; `hand` gives the
    /// level's hand-made score from the same view, asked only of a network that reads it.
    #[must_use]
    pub fn first_side_score(&self, pos: &impl ActiveFeatures, hand: impl FnOnce() -> i32) -> i32 {
        let mut active = Active::new();
        pos.active_features(&mut active);
        with_hand(&self.net, self.net.evaluate(&active), hand)
    }

    /// The network the level evaluates with.
    #[must_use]
    pub fn network(&self) -> &Network {
        &self.net
    }

    /// The search node of `game`'s position, with the network's accumulator.
    #[must_use]
    pub fn node<G: SearchRoot>(&self, game: &G) -> NetNode<G::Node>
    where
        G::Node: ActiveFeatures,
    {
        NetNode::new(game.node(), self.net.clone())
    }
}

/// A game's search node with the network's accumulator of its position: a child's is its
/// parent's moved by the inputs the move changed ([`Network::update_between`]), so a leaf's
/// score costs the output layer alone. Everything else is the game's node's.
#[derive(Clone, Debug)]
pub struct NetNode<N> {
    pub inner: N,
    active: Active,
    acc: Accumulator,
    net: Arc<Network>,
}

impl<N: ActiveFeatures> NetNode<N> {
    /// `inner` with the accumulator of its inputs, computed in full.
    #[must_use]
    pub fn new(inner: N, net: Arc<Network>) -> Self {
        let mut active = Active::new();
        inner.active_features(&mut active);
        let mut acc = Accumulator::default();
        net.refresh(&active, &mut acc);
        Self {
            inner,
            active,
            acc,
            net,
        }
    }

    /// The network's score of this position from the view of the side that moves first;
    /// `hand` as for [`NetEvaluation::first_side_score`].
    #[must_use]
    pub fn first_side_score(&self, hand: impl FnOnce() -> i32) -> i32 {
        with_hand(&self.net, self.net.output(&self.acc), hand)
    }
}

/// The network's output `net` with the hand-made score added at its weight where the network
/// reads it, held inside the searcher's non-win scores.
fn with_hand(network: &Network, net: i32, hand: impl FnOnce() -> i32) -> i32 {
    let score = if network.has_base() {
        network.with_base(net, hand())
    } else {
        net
    };
    score.clamp(-LIMIT, LIMIT)
}

impl<N: SearchGame + ActiveFeatures> SearchGame for NetNode<N> {
    type Move = N::Move;
    type MoveList = N::MoveList;

    fn generate(&self, out: &mut N::MoveList) {
        self.inner.generate(out);
    }

    fn after(&self, mv: N::Move) -> Self {
        let inner = self.inner.after(mv);
        let mut active = Active::new();
        inner.active_features(&mut active);
        let mut acc = self.acc.clone();
        self.net.update_between(&mut acc, &self.active, &active);
        Self {
            inner,
            active,
            acc,
            net: self.net.clone(),
        }
    }

    fn hash(&self) -> u64 {
        self.inner.hash()
    }

    fn terminal(&self, ply: u32) -> Option<i32> {
        self.inner.terminal(ply)
    }

    fn forcing(&self) -> bool {
        self.inner.forcing()
    }

    fn answers(&self, out: &mut N::MoveList) {
        self.inner.answers(out);
    }

    const ONLY_ANSWERS: bool = N::ONLY_ANSWERS;
    const CYCLES_DRAW: bool = N::CYCLES_DRAW;
    const HISTORY_SLOTS: usize = N::HISTORY_SLOTS;

    fn history_slot(&self, mv: N::Move) -> usize {
        self.inner.history_slot(mv)
    }
}
