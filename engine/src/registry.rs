//! The list of games. Adding a game is one folder under `games/` and one line in the list at the
//! top of `games/mod.rs`, which declares the game's module and registers it here; everything
//! else (runner, statistics, reports, command line, help texts) reaches games only through this
//! visitor and these lists.

use core::fmt;

use alloc::string::String;
use alloc::vec::Vec;

use crate::game::Game;

/// Something to do with a game whose type is only known at run time.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self) -> Self::Output;
}

/// The game name was not recognised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown game `{}` (accepted: {})",
            self.0,
            GAME_NAMES.join(", ")
        )
    }
}

impl core::error::Error for UnknownGame {}

/// What help texts and error messages say of a game without visiting it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameFacts {
    /// [`Game::NAME`].
    pub name: &'static str,
    /// [`Game::SEATS`].
    pub seats: (usize, usize),
}

/// The names of the games that `keep` accepts, in the registry's order, in words: `a, b or c`
/// (for help lines such as `--game`'s, so that they list a new game by themselves).
#[must_use]
pub fn game_names_where(keep: impl Fn(&GameFacts) -> bool) -> String {
    let names: Vec<&str> = GAMES.iter().filter(|g| keep(g)).map(|g| g.name).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => String::from(*last),
        Some((last, rest)) => alloc::format!("{} or {last}", rest.join(", ")),
    }
}

/// Declares each game's module and registers its type: invoked once, in `games/mod.rs`, with
/// `module::Type` per game, so that a new game is one line there. It defines [`GAME_NAMES`],
/// [`GAMES`] and [`visit_game`] in `games`, re-exported here.
macro_rules! games {
    ($($module:ident::$game:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// The names of every game, as accepted on the command line.
        pub const GAME_NAMES: &[&str] = &[$(<$module::$game as $crate::game::Game>::NAME),*];

        /// Every game's facts, in the order of [`GAME_NAMES`].
        pub const GAMES: &[$crate::registry::GameFacts] = &[$($crate::registry::GameFacts {
            name: <$module::$game as $crate::game::Game>::NAME,
            seats: <$module::$game as $crate::game::Game>::SEATS,
        }),*];

        /// Runs `visitor` with the game called `name` (case-insensitive).
        pub fn visit_game<V: $crate::registry::GameVisitor>(
            name: &str,
            visitor: V,
        ) -> Result<V::Output, $crate::registry::UnknownGame> {
            let lower = name.to_ascii_lowercase();
            $(
                if lower == <$module::$game as $crate::game::Game>::NAME {
                    return Ok(visitor.visit::<$module::$game>());
                }
            )*
            Err($crate::registry::UnknownGame(name.into()))
        }
    };
}
pub(crate) use games;

pub use crate::games::{GAME_NAMES, GAMES, visit_game};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_lines_list_the_registered_games() {
        assert_eq!(GAME_NAMES, ["ludo", "thud", "trente-douze", "hnefatafl"]);
        assert_eq!(
            game_names_where(|_| true),
            "ludo, thud, trente-douze or hnefatafl"
        );
        assert_eq!(game_names_where(|g| g.seats == (2, 2)), "thud or hnefatafl");
        assert_eq!(game_names_where(|g| g.name == "thud"), "thud");
        assert_eq!(game_names_where(|_| false), "");
    }
}
