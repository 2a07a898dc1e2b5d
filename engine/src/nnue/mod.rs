//! Learned evaluations (issue 49): a board game's positions as network inputs ([`Features`]),
//! the float network a trainer fits ([`FloatNetwork`]), and the quantised network the searcher
//! evaluates with integer arithmetic ([`Network`]), read from and written to a versioned,
//! checksummed file.
//!
//! Inference is hand-written, as every NNUE engine's is: the first layer is a table of one row
//! per input, so a position's hidden values are the bias plus the rows of its active inputs
//! (an [`Accumulator`]), which a move changes by a few rows only. Nothing here allocates per
//! evaluation, and the module builds for wasm32 like the rest of the engine.
//!
//! The network's output is a logit from the view of the side that moves first in the game
//! (Thud: the dwarfs; Hnefatafl: the attackers), times the file's `scale`: the units of the
//! game's hand-made evaluation. Evaluators turn it to the side to move's view.

mod features;
mod network;

pub use features::{Features, MAX_ACTIVE};
pub use network::{Accumulator, FloatNetwork, MAX_HIDDEN, Network, NetworkError, QA, QB, checksum};

#[cfg(test)]
mod tests;

mod registry;
pub use registry::{FEATURE_GAMES, FeaturesVisitor, NoFeatures, visit_features_game};
