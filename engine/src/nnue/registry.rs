//! The board games with a feature set, reached by name: `koom positions` and `koom train` take
//! a game's name and need its [`Features`], which a [`crate::GameVisitor`] (any [`Game`]) cannot
//! give. A game with a feature set is its `impl Features` and one line here.

use core::fmt;

use alloc::string::String;

use super::Features;

/// Something to do with a board game whose type is only known at run time.
pub trait FeaturesVisitor {
    type Output;
    fn visit<G: Features>(self) -> Self::Output;
}

macro_rules! feature_games {
    ($($game:ty),* $(,)?) => {
        /// The names of the games with a feature set, as accepted on the command line.
        pub const FEATURE_GAMES: &[&str] = &[$(<$game as crate::game::Rules>::NAME),*];

        /// Runs `visitor` with the game called `name` (case-insensitive), if it has a feature set.
        ///
        /// # Errors
        /// [`NoFeatures`] naming the game and those accepted.
        pub fn visit_features_game<V: FeaturesVisitor>(
            name: &str,
            visitor: V,
        ) -> Result<V::Output, NoFeatures> {
            let lower = name.to_ascii_lowercase();
            $(
                if lower == <$game as crate::game::Rules>::NAME {
                    return Ok(visitor.visit::<$game>());
                }
            )*
            Err(NoFeatures(name.into()))
        }
    };
}

feature_games!(crate::games::thud::Thud, crate::games::hnefatafl::Hnefatafl);

/// The game has no feature set (or is not a game at all).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoFeatures(pub String);

impl fmt::Display for NoFeatures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {} has no feature set for a network (accepted: {})",
            crate::quote(&self.0),
            FEATURE_GAMES.join(", ")
        )
    }
}

impl core::error::Error for NoFeatures {}

#[cfg(test)]
mod tests {
    use super::*;

    struct Inputs;

    impl FeaturesVisitor for Inputs {
        type Output = (&'static str, usize);
        fn visit<G: Features>(self) -> Self::Output {
            (G::FEATURE_SET, G::INPUTS)
        }
    }

    #[test]
    fn board_games_are_found_by_name_and_others_refused() {
        assert_eq!(
            visit_features_game("Thud", Inputs),
            Ok(("thud-board-v1", 331))
        );
        assert_eq!(
            visit_features_game("hnefatafl", Inputs).map(|v| v.0),
            Ok("hnefatafl-board-v1")
        );
        let err = visit_features_game("ludo", Inputs).unwrap_err().to_string();
        assert_eq!(
            err,
            "game `ludo` has no feature set for a network (accepted: thud, hnefatafl)"
        );
    }
}
