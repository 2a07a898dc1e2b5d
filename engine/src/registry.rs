//! The list of games. Adding a game is one folder under `games/` and one line here; everything
//! else (runner, statistics, reports, command line) reaches games only through this visitor.

use core::fmt;

use crate::game::Game;
use crate::games;

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

macro_rules! registry {
    ($($game:ty),* $(,)?) => {
        /// The names of every game, as accepted on the command line.
        pub const GAME_NAMES: &[&str] = &[$(<$game>::NAME),*];

        /// Runs `visitor` with the game called `name` (case-insensitive).
        pub fn visit_game<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output, UnknownGame> {
            let lower = name.to_ascii_lowercase();
            $(
                if lower == <$game>::NAME {
                    return Ok(visitor.visit::<$game>());
                }
            )*
            Err(UnknownGame(name.to_owned()))
        }
    };
}

registry! {
    games::ludo::Ludo,
    games::thud::Thud,
    games::trente_douze::TrenteDouze,
    games::hnefatafl::Hnefatafl,
}

impl core::error::Error for UnknownGame {}
