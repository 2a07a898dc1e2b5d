//! koom's engine: the rules of each game and its computer players.
//!
//! This crate ships to players (in a browser, through WebAssembly), so it stays pure: no threads,
//! no files, no clock and no printing. Time reaches a searcher through an injected [`agent::Clock`]
//! and text leaves through a [`game::Log`] the caller supplies.
//!
//! # Example
//!
//! Create a game, list its moves, and let a computer level choose and play one (the same loop a
//! browser page or `koom play` runs):
//!
//! ```
//! use engine::games::hnefatafl::Hnefatafl;
//! use engine::{Context, Level, NoClock, NoLog, Notation, RandomStream, Rules};
//!
//! let mut dice = RandomStream::dice(7);
//! let mut game = Hnefatafl::new(&Default::default(), 2, &mut dice, &mut NoLog);
//! let mut moves = <Hnefatafl as Rules>::MoveList::default();
//! game.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 116); // the attackers' first moves
//!
//! // A level by name (an unknown one is an error), at its default weights and batch budgets.
//! let normal = Level::<Hnefatafl>::named("normal").expect("a hnefatafl level");
//! let mut normal = normal.setup().agent();
//! let mut tie_breaks = RandomStream::tie_break(7, 0);
//! let ctx = &mut Context { rng: &mut tie_breaks, clock: &NoClock };
//! let mv = normal.choose(&game, &moves, ctx);
//! game.try_play(mv, &mut dice, &mut NoLog).expect("a level only plays legal moves");
//! assert_eq!(game.to_move(), 1); // the defenders' turn
//!
//! // A checked move from text: an illegal one is an error, never a panic.
//! assert!(game.parse_move("a1-a2").is_err());
//! ```
//!
//! Dice games work the same way; their dice come from the `dice` stream passed to `new` and
//! `play`:
//!
//! ```
//! use engine::games::ludo::Ludo;
//! use engine::{NoLog, RandomStream, Rules};
//!
//! let mut dice = RandomStream::dice(1);
//! let game = Ludo::new(&Default::default(), 4, &mut dice, &mut NoLog);
//! // `new` rolls until the first decision: seats with no legal move pass by themselves, so the
//! // game stands at a seat that has at least one pawn to move.
//! let mut moves = <Ludo as Rules>::MoveList::default();
//! game.legal_moves(&mut moves);
//! assert!(!moves.is_empty());
//! assert!(game.outcome().is_none());
//! ```

extern crate alloc;

pub mod adjudicate;
pub mod agent;
pub mod error;
pub mod game;
pub mod games;
pub mod nnue;
pub mod random;
pub mod record;
pub mod registry;
#[cfg(feature = "analytics")]
pub mod sample;
pub mod search;
pub mod selfplay;
pub mod weights;

pub use agent::{Agent, AgentSetup, Analysis, Budget, Clock, Context, NoClock, TimeControl};
pub use error::{OptionError, ParseError, PlayError, UnknownLevel, quote};
#[cfg(feature = "analytics")]
pub use game::{Analytics, GameStats, NoGameStats};
pub use game::{
    Counters, EndReason, Ending, Forfeit, Game, Hints, Level, Log, MAX_SEATS, MoveBuffer, NoLog,
    Notation, OptionDoc, Outcome, Players, Rules, SeatResult, SeatSet, move_texts, seat_agent,
};
pub use games::{GAME_NAMES, GAMES, game_names_where, visit_game};
pub use random::{RandomStream, game_seed};
pub use registry::{GameFacts, GameVisitor, UnknownGame};
pub use weights::{Param, WeightError, WeightSet};
