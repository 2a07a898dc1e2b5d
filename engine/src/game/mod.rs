//! What a game is, in rooms of one purpose each, as shakmaty splits `Position`, `Setup` and
//! `san`: the [`Rules`] (positions, moves, outcome), its [`Notation`], its computer [`Players`],
//! its [`Analytics`] and its command-line [`Hints`]. [`Game`] is all of them together, for the
//! generic code (runner, tools) that needs every room; code that needs one names that one.

pub(crate) mod analytics;
pub(crate) mod hints;
pub(crate) mod notation;
pub(crate) mod outcome;
pub(crate) mod players;
pub(crate) mod rules;

pub use analytics::{Analytics, GameStats, NoGameStats};
pub use hints::{Hints, OptionDoc};
pub use notation::{Notation, move_texts};
pub use outcome::{
    Adjudicated, EndReason, Ending, Forfeit, MAX_SEATS, Outcome, SeatResult, SeatSet,
    deserialize_endings, pad_old_endings,
};
pub use players::{Level, Players, level_index};
pub use rules::{Counters, Log, MoveBuffer, NoLog, Rules, seat_agent};

/// A whole game: every room a game implements. Implemented for every type that implements them
/// all, so a game never writes it.
pub trait Game: Rules + Notation + Players + Analytics + Hints {}

impl<G: Rules + Notation + Players + Analytics + Hints> Game for G {}
