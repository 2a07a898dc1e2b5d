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

mod evaluation;
mod features;
mod network;

pub use evaluation::{ActiveFeatures, NetEvaluation, NetNode};
pub use features::{Features, MAX_ACTIVE};
pub use network::{Accumulator, FloatNetwork, MAX_HIDDEN, Network, NetworkError, QA, QB, checksum};

/// Every level that searches with a built-in network by default, as `(game, level, network
/// file)`, in the registry's and the levels' order: what `koom list` and `--help` say.
#[must_use]
pub fn built_in_networks() -> Vec<(&'static str, &'static str, &'static str)> {
    struct Networks;
    impl crate::GameVisitor for Networks {
        type Output = Vec<(&'static str, &'static str, &'static str)>;
        fn visit<G: crate::Game>(self) -> Self::Output {
            G::levels()
                .iter()
                .filter_map(|level| level.network.map(|net| (G::NAME, level.name, net)))
                .collect()
        }
    }
    crate::GAME_NAMES
        .iter()
        .filter_map(|name| crate::visit_game(name, Networks).ok())
        .flatten()
        .collect()
}

/// [`built_in_networks`] in words, for help texts: "thud expert: FILE, ..." or a sentence
/// saying that every level evaluates with its hand-made terms.
#[must_use]
pub fn built_in_networks_in_words() -> String {
    let nets = built_in_networks();
    if nets.is_empty() {
        return "no level has a built-in network: every level evaluates with its hand-made terms"
            .into();
    }
    let named: Vec<String> = nets
        .iter()
        .map(|(game, level, net)| format!("{game} {level}: {net}"))
        .collect();
    format!("levels with a built-in network: {}", named.join(", "))
}

#[cfg(test)]
mod tests;

mod registry;
pub use registry::{FEATURE_GAMES, FeaturesVisitor, NoFeatures, visit_features_game};
