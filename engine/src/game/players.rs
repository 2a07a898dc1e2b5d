//! A game's computer players: its levels, how each builds an agent, and what a level's
//! evaluation sees.

use super::rules::Rules;
use crate::agent::{Agent, AgentSetup};
use crate::error::{UnknownLevel, quote};
use crate::nnue::{Features, Network, NetworkError};
use crate::search::LevelRow;
use crate::weights::WeightSet;

/// The constructor of a level of its own (one that is not a row of the search layer).
pub type BuildAgent<G> = fn(&AgentSetup<G>) -> Box<dyn Agent<G>>;

/// A game's constructor of its searching levels: one agent of `row`, whose table is `set`.
pub type BuildSearcher<G> =
    fn(row: &LevelRow, set: &WeightSet, setup: &AgentSetup<G>) -> Box<dyn Agent<G>>;

/// A computer level of game `G`: its name, what it does, its tunable weight set if it has one,
/// and how it builds its agents, so that holding a level is holding one the game has (there is
/// no index to fall outside the list, or to clamp into it).
pub struct Level<G: Rules> {
    pub name: &'static str,
    pub summary: &'static str,
    pub weights: Option<&'static WeightSet>,
    /// The file name of the learned evaluation the level searches with by default, if any
    /// (`koom list` and `--help` show it).
    pub network: Option<&'static str>,
    build: Build<G>,
}

/// How a level builds its agents.
enum Build<G: Rules> {
    /// The game's constructor for this level alone.
    Own(BuildAgent<G>),
    /// A row of the search layer, built by the game's searching constructor with the row's
    /// table; it may search with a network that `accepts` passes.
    Search {
        row: &'static LevelRow,
        set: &'static WeightSet,
        agent: BuildSearcher<G>,
        accepts: fn(&Network) -> Result<(), NetworkError>,
    },
}

impl<G: Rules> Level<G> {
    /// A level that the game builds itself with `agent`, and that has no learned evaluation.
    #[must_use]
    pub const fn new(
        name: &'static str,
        summary: &'static str,
        weights: Option<&'static WeightSet>,
        agent: BuildAgent<G>,
    ) -> Self {
        Self {
            name,
            summary,
            weights,
            network: None,
            build: Build::Own(agent),
        }
    }

    /// The setup of this level with its default weights, batch budgets and its own evaluation.
    #[must_use]
    pub fn setup(&'static self) -> AgentSetup<G> {
        AgentSetup {
            level: self,
            weights: self.weights.map_or_else(Vec::new, WeightSet::defaults),
            time_control: crate::agent::TimeControl::Batch,
            network: None,
        }
    }

    /// Builds an agent of `setup`'s level, which must be this one ([`AgentSetup::agent`] is
    /// the way in).
    pub(crate) fn agent(&self, setup: &AgentSetup<G>) -> Box<dyn Agent<G>> {
        match self.build {
            Build::Own(agent) => agent(setup),
            Build::Search {
                row, set, agent, ..
            } => agent(row, set, setup),
        }
    }

    /// Whether the level searches, so that a learned evaluation can replace its hand-made one.
    #[must_use]
    pub const fn searches(&self) -> bool {
        matches!(self.build, Build::Search { .. })
    }
}

impl<G: Features> Level<G> {
    /// The searching level of `row`, with its table `set` (built from the row by
    /// [`level_table`](crate::search::level_table)), built by the game's `agent`.
    #[must_use]
    pub const fn searching(
        row: &'static LevelRow,
        set: &'static WeightSet,
        agent: BuildSearcher<G>,
    ) -> Self {
        Self {
            name: row.name,
            summary: row.summary,
            weights: Some(set),
            network: match row.network {
                Some(net) => Some(net.name),
                None => None,
            },
            build: Build::Search {
                row,
                set,
                agent,
                accepts: Network::check_for::<G>,
            },
        }
    }
}

impl<G: Players> Level<G> {
    /// The level called `name` (any case, spaces around ignored): the one lookup behind
    /// `--agents`, a tuning config's `level` and the browser's level menu.
    ///
    /// # Errors
    /// When the game has no level of that name; the error lists those it has.
    pub fn named(name: &str) -> Result<&'static Self, UnknownLevel> {
        let levels = G::levels();
        let name = name.trim();
        levels
            .iter()
            .find(|l| l.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| UnknownLevel {
                game: G::NAME,
                name: quote(name),
                accepted: levels.iter().map(|l| l.name).collect(),
            })
    }

    /// The level's place in [`Players::levels`], weakest first, for the records that number
    /// levels (a tuning run's config hash); `None` for a level that is not in the list.
    #[must_use]
    pub fn index(&self) -> Option<usize> {
        G::levels().iter().position(|l| l == self)
    }

    /// Whether the level can search with the learned evaluation `net`
    /// ([`AgentSetup::network`]): a searching level of a game with a feature set, and a network
    /// trained for that game and feature set.
    ///
    /// # Errors
    /// Why not, as one line.
    pub fn accepts_network(&self, net: &Network) -> Result<(), NetworkError> {
        if let Build::Search { accepts, .. } = self.build {
            return accepts(net);
        }
        let searching: Vec<&str> = G::levels()
            .iter()
            .filter(|l| l.searches())
            .map(|l| l.name)
            .collect();
        Err(NetworkError::Mismatch(match searching.split_last() {
            Some((last, [])) => format!(
                "{} level {} does not search (a network needs {last})",
                G::NAME,
                self.name
            ),
            Some((last, others)) => format!(
                "{} level {} does not search (a network needs {} or {last})",
                G::NAME,
                self.name,
                others.join(", ")
            ),
            None => format!("{} has no learned evaluation", G::NAME),
        }))
    }
}

// By hand: a derive would ask the game itself to be `Copy`, `Debug` and `PartialEq`.
impl<G: Rules> Clone for Level<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Rules> Copy for Level<G> {}

impl<G: Rules> Clone for Build<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Rules> Copy for Build<G> {}

/// Levels are told apart by name, which is unique within a game.
impl<G: Rules> PartialEq for Level<G> {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl<G: Rules> core::fmt::Debug for Level<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Level")
            .field("name", &self.name)
            .field("weights", &self.weights.map(|w| w.name))
            .field("network", &self.network)
            .field("searches", &self.searches())
            .finish_non_exhaustive()
    }
}

/// The computer players of one game.
pub trait Players: Rules {
    /// The computer levels, weakest first.
    fn levels() -> &'static [Level<Self>];

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
    use crate::games::ludo::Ludo;
    use crate::games::thud::Thud;

    #[test]
    fn levels_are_found_by_name_in_any_case() {
        assert_eq!(
            Level::<Thud>::named("beginner").map(|l| l.name),
            Ok("beginner")
        );
        assert_eq!(
            Level::<Thud>::named(" Expert ").map(|l| l.name),
            Ok("expert")
        );
        let hard = Level::<Thud>::named("hard").unwrap();
        assert!(core::ptr::eq(hard, &Thud::levels()[3]));
        assert_eq!(hard.index(), Some(3));
    }

    /// An unknown name is refused, never taken for the nearest or the strongest level.
    #[test]
    fn an_unknown_level_is_refused_not_clamped() {
        let err = Level::<Thud>::named("master\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown thud level `master` (accepted: beginner, easy, balanced, hard, expert)"
        );
        let err = Level::<Ludo>::named("expert").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown ludo level `expert` (accepted: easy, normal, hard)"
        );
    }

    #[test]
    fn only_searching_levels_accept_a_network() {
        use crate::games::hnefatafl::Hnefatafl;
        let net = Network::from_bytes(include_bytes!("../../nets/test-thud-material.knet"))
            .expect("the test network reads");
        let refusal = |why: &str| Err(NetworkError::Mismatch(why.to_owned()));
        let thud = |name| Level::<Thud>::named(name).map(|l| l.accepts_network(&net));
        assert_eq!(thud("hard"), Ok(Ok(())));
        assert_eq!(
            thud("easy"),
            Ok(refusal(
                "thud level easy does not search (a network needs balanced, hard or expert)"
            ))
        );
        assert_eq!(
            Level::<Hnefatafl>::named("easy").map(|l| l.accepts_network(&net)),
            Ok(refusal("it was trained for `thud`, not hnefatafl"))
        );
        assert_eq!(
            Level::<Ludo>::named("hard").map(|l| l.accepts_network(&net)),
            Ok(refusal("ludo has no learned evaluation"))
        );
    }
}
