//! A game's positions as the inputs of a network: which of its `INPUTS` binary inputs are on.

use crate::game::Game;

/// The most inputs any feature set turns on in one position (Thud: 32 dwarfs, 8 trolls and the
/// side to move), so that a caller can hold a position's features in a fixed-capacity buffer.
pub const MAX_ACTIVE: usize = 48;

/// A board game whose positions a network can read.
///
/// Every feature set so far is "every square × piece kind, plus one input for the side to
/// move", named with a version so that a network file trained on one layout is refused by
/// another.
pub trait Features: Game {
    /// Stored in position sets and network files, e.g. "thud-board-v1", "hnefatafl-board-v1".
    const FEATURE_SET: &'static str;
    /// The number of inputs.
    const INPUTS: usize;
    /// Pushes the indices (< INPUTS) of the active inputs (value 1) of this position,
    /// increasing; at most [`MAX_ACTIVE`] of them. `out` is not cleared first.
    fn features(&self, out: &mut Vec<u16>);
    /// The top level's hand-made evaluation of this position at its default weights, from the
    /// view of the side that moves first, in evaluation units: the input a network that reads
    /// the hand-made score is trained with (the level's own evaluation gives it in the search).
    fn hand_score(&self) -> i32;
}
