//! koom's engine: the rules of each game and its computer players.
//!
//! This crate ships to players (in a browser, through WebAssembly), so it stays pure: no threads,
//! no files, no clock and no printing. Time reaches a searcher through an injected [`agent::Clock`]
//! and text leaves through a [`game::Log`] the caller supplies.

extern crate alloc;

pub mod agent;
pub mod error;
pub mod game;
pub mod games;
pub mod random;
pub mod registry;
pub mod search;
pub mod selfplay;
pub mod tally;
pub mod weights;

pub use agent::{Agent, AgentSetup, Clock, Context, NoClock, TimeControl};
pub use error::{ParseError, PlayError, quote};
pub use game::{
    Counters, Game, GameStats, Level, Log, MAX_SEATS, MoveBuffer, NoLog, OptionDoc, Outcome,
    SeatResult, SeatSet, seat_agent,
};
pub use random::{RandomStream, game_seed};
pub use registry::{GAME_NAMES, GameVisitor, UnknownGame, visit_game};
pub use weights::{Param, WeightError, WeightSet};
