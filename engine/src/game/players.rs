//! A game's computer players: its levels, how to build one, and what a level's evaluation sees.

use super::rules::Rules;
use crate::agent::{Agent, AgentSetup};
use crate::error::{UnknownLevel, quote};
use crate::nnue::{Network, NetworkError};
use crate::weights::WeightSet;

/// A computer level of a game: its name, what it does, and its tunable weight set if it has one.
#[derive(Clone, Copy, Debug)]
pub struct Level {
    pub name: &'static str,
    pub summary: &'static str,
    pub weights: Option<&'static WeightSet>,
    /// The file name of the learned evaluation the level searches with by default, if any
    /// (`koom list` and `--help` show it).
    pub network: Option<&'static str>,
}

/// The index in [`Players::levels`] of the level called `name` (any case, spaces around
/// ignored): the one lookup behind `--agents`, a tuning config's `level` and the browser's level
/// menu.
pub fn level_index<G: Players>(name: &str) -> Result<usize, UnknownLevel> {
    let levels = G::levels();
    let name = name.trim();
    levels
        .iter()
        .position(|l| l.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| UnknownLevel {
            game: G::NAME,
            name: quote(name),
            accepted: levels.iter().map(|l| l.name).collect(),
        })
}

/// The computer players of one game.
pub trait Players: Rules {
    /// The computer levels, weakest first.
    fn levels() -> &'static [Level];

    /// Builds an agent of one level.
    fn new_agent(setup: &AgentSetup) -> Box<dyn Agent<Self>>;

    /// Whether level `level` (an index into [`Players::levels`]) can search with the learned
    /// evaluation `net` ([`AgentSetup::network`]): a searching level of a game with a feature
    /// set, and a network trained for that game and feature set. The default: no level can.
    ///
    /// # Errors
    /// Why not, as one line.
    fn accepts_network(level: usize, net: &Network) -> Result<(), NetworkError> {
        let _ = (level, net);
        Err(NetworkError::Mismatch(format!(
            "{} has no learned evaluation",
            Self::NAME
        )))
    }

    /// The terms of the computer levels' evaluation here, from seat 0's point of view, for games
    /// whose evaluation is linear in its weights: a level's static score is then the dot product
    /// of these terms with the first weights of its weight set, which lets `koom fit` fit those
    /// weights to game results (Texel's method). `None`, the default: no linear evaluation.
    fn evaluation_terms(&self) -> Option<Vec<f64>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_found_by_name_in_any_case() {
        use crate::games::thud::Thud;
        assert_eq!(level_index::<Thud>("beginner"), Ok(0));
        assert_eq!(level_index::<Thud>(" Expert "), Ok(4));
        let err = level_index::<Thud>("master\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown thud level `master` (accepted: beginner, easy, balanced, hard, expert)"
        );
    }
}
