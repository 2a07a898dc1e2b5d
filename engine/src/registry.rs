//! The list of games. Adding a game is one folder under `games/` and one line in the list at the
//! top of `games/mod.rs`, which declares the game's module and registers it here; everything
//! else (runner, statistics, reports, command line, help texts) reaches games only through this
//! visitor and these lists.

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

impl core::error::Error for UnknownGame {}

/// What help texts and error messages say of a game without visiting it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameFacts {
    /// [`Rules::NAME`](crate::Rules::NAME).
    pub name: &'static str,
    /// [`Rules::SEATS`](crate::Rules::SEATS).
    pub seats: (usize, usize),
}

/// The names of `games` that `keep` accepts, in their order, in words (what
/// [`game_names_where`](crate::game_names_where) says of the registry's games).
pub(crate) fn names_where(games: &[GameFacts], keep: impl Fn(&GameFacts) -> bool) -> String {
    let names: Vec<&str> = games.iter().filter(|g| keep(g)).map(|g| g.name).collect();
    in_words(&names)
}

/// `a, b or c`; `a or b`; `a`.
fn in_words(names: &[&str]) -> String {
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => String::from(*last),
        Some((last, rest)) => alloc::format!("{} or {last}", rest.join(", ")),
    }
}

/// Declares each game's module and registers its type: invoked once, in `games/mod.rs`, with
/// `module::Type` per game, so that a new game is one line there. It defines
/// [`GAME_NAMES`](crate::GAME_NAMES), [`GAMES`](crate::GAMES), [`visit_game`](crate::visit_game)
/// and [`game_names_where`](crate::game_names_where) in `games` (re-exported at the crate's root),
/// and [`UnknownGame`]'s message: everything that lists the games lives where the list is, so that
/// this module never imports the games.
macro_rules! games {
    ($($module:ident::$game:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// The names of every game, as accepted on the command line.
        pub const GAME_NAMES: &[&str] = &[$(<$module::$game as $crate::game::Rules>::NAME),*];

        /// Every game's facts, in the order of [`GAME_NAMES`].
        pub const GAMES: &[$crate::registry::GameFacts] = &[$($crate::registry::GameFacts {
            name: <$module::$game as $crate::game::Rules>::NAME,
            seats: <$module::$game as $crate::game::Rules>::SEATS,
        }),*];

        /// Runs `visitor` with the game called `name` (case-insensitive).
        pub fn visit_game<V: $crate::registry::GameVisitor>(
            name: &str,
            visitor: V,
        ) -> Result<V::Output, $crate::registry::UnknownGame> {
            let lower = name.to_ascii_lowercase();
            $(
                if lower == <$module::$game as $crate::game::Rules>::NAME {
                    return Ok(visitor.visit::<$module::$game>());
                }
            )*
            Err($crate::registry::UnknownGame(name.into()))
        }

        /// The names of the games that `keep` accepts, in the registry's order, in words:
        /// `a, b or c` (for help lines such as `--game`'s, so that they list a new game by
        /// themselves).
        #[must_use]
        pub fn game_names_where(keep: impl Fn(&$crate::registry::GameFacts) -> bool) -> String {
            $crate::registry::names_where(GAMES, keep)
        }

        impl core::fmt::Display for $crate::registry::UnknownGame {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(
                    f,
                    "unknown game `{}` (accepted: {})",
                    self.0,
                    GAME_NAMES.join(", ")
                )
            }
        }
    };
}
pub(crate) use games;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GAME_NAMES, GAMES, game_names_where};

    #[test]
    fn names_read_as_a_list_in_words() {
        assert_eq!(
            in_words(&["ludo", "thud", "hnefatafl"]),
            "ludo, thud or hnefatafl"
        );
        assert_eq!(in_words(&["thud", "hnefatafl"]), "thud or hnefatafl");
        assert_eq!(in_words(&["thud"]), "thud");
        assert_eq!(in_words(&[]), "");
    }

    /// Written so that it holds whatever games are added: every registered game is listed, in
    /// order, and the filter picks by the game's facts.
    #[test]
    fn help_lines_list_the_registered_games() {
        assert_eq!(game_names_where(|_| true), in_words(GAME_NAMES));
        let two_seats = game_names_where(|g| g.seats == (2, 2));
        assert!(two_seats.contains("thud") && two_seats.contains("hnefatafl"));
        assert!(!two_seats.contains("ludo") && !two_seats.contains("trente-douze"));
        assert_eq!(game_names_where(|g| g.name == "thud"), "thud");
        let names: Vec<_> = GAMES.iter().map(|g| g.name).collect();
        assert_eq!(names, GAME_NAMES);
    }
}
