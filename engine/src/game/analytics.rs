//! What a game adds to the generic statistics of a run: its own counts, who moved first and how
//! results name its seats. Only the runner and the reports need it, not players.

use core::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::rules::Rules;

/// Statistics particular to one game, accumulated as counts so that merging is exact and
/// order-independent (results must not depend on the thread count). Serialisable so that shards
/// and checkpoints can carry them.
pub trait GameStats<G>: Default + Clone + fmt::Debug + Send + Serialize + DeserializeOwned {
    /// What `summary.json` shows under `game_specific` (figures and intervals computed from the
    /// counts). "Summary" is what a run writes; "report" is only what the `reports` crate draws
    /// from summaries.
    type Summary: Serialize;

    /// Adds the finished games of one seed group: game `r` is rotation `r`, where seat `s` is
    /// played by agent slot [`seat_agent`](super::seat_agent)`(s, r, seats)`.
    fn add_group(&mut self, games: &[G]);

    fn merge(&mut self, other: &Self);

    /// `agents[slot]` names each agent slot.
    fn summary(&self, agents: &[String]) -> Self::Summary;
}

/// For games whose statistics are all generic.
#[derive(Clone, Copy, Debug, Default, Serialize, serde::Deserialize)]
pub struct NoGameStats;

impl<G> GameStats<G> for NoGameStats {
    type Summary = ();
    fn add_group(&mut self, _: &[G]) {}
    fn merge(&mut self, _: &Self) {}
    fn summary(&self, _: &[String]) {}
}

/// The analytics of one game.
pub trait Analytics: Rules {
    /// Statistics beyond the generic ones.
    type Stats: GameStats<Self>;

    /// What "first player" means in this game, printed next to the first-player advantage so
    /// that a reader never has to guess which seat it is about.
    const FIRST_PLAYER: &'static str = "seat 0, who always moves first";

    /// The seat that moved first (Ludo: always 0; Trente-douze: round 1's starter, drawn from
    /// the dice), for the first-player advantage.
    fn first_player(&self) -> usize {
        0
    }

    /// How results name seat `seat`: the side it plays where seats are sides (dwarfs, trolls),
    /// else its place at the table.
    fn seat_name(seat: usize) -> String {
        if seat == 0 {
            "seat 0 (first to move)".to_owned()
        } else {
            format!("seat {seat}")
        }
    }
}
