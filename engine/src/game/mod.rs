//! What a game is, in rooms of one purpose each, as shakmaty splits `Position`, `Setup` and
//! `san`: the [`Rules`] (positions, moves, outcome), its [`Notation`], its computer [`Players`],
//! its [`Analytics`] and its command-line [`Hints`]. [`Game`] is all of them together, for the
//! generic code (runner, tools) that needs every room; code that needs one names that one.

#[cfg(feature = "analytics")]
pub(crate) mod analytics;
pub(crate) mod hints;
pub(crate) mod notation;
pub(crate) mod outcome;
pub(crate) mod players;
pub(crate) mod rules;

#[cfg(feature = "analytics")]
pub use analytics::{Analytics, GameStats, NoGameStats};
pub use hints::{Hints, OptionDoc};
pub use notation::{Notation, move_texts};
pub use outcome::{
    Adjudicated, EndReason, Ending, Forfeit, MAX_SEATS, Outcome, SeatResult, SeatSet,
    deserialize_endings, pad_old_endings,
};
pub use players::{BuildAgent, BuildSearcher, Level, Players};
pub use rules::{Counters, Log, MoveBuffer, NoLog, Rules, seat_agent};

/// A whole game: every room a game implements. Implemented for every type that implements them
/// all, so a game never writes it.
#[cfg(feature = "analytics")]
pub trait Game: Rules + Notation + Players + Analytics + Hints {}

#[cfg(feature = "analytics")]
impl<G: Rules + Notation + Players + Analytics + Hints> Game for G {}

/// A whole game as players get it: without the `analytics` feature (the browser package), no
/// statistics.
#[cfg(not(feature = "analytics"))]
pub trait Game: Rules + Notation + Players + Hints {}

#[cfg(not(feature = "analytics"))]
impl<G: Rules + Notation + Players + Hints> Game for G {}
