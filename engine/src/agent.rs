//! The one agent trait every computer level implements, and what an agent is given.

use crate::game::Game;
use crate::random::RandomStream;

/// Wall-clock time, injected by the caller so that the engine itself reads no clock (it must
/// build for wasm32, and batch runs must not depend on timing).
pub trait Clock {
    /// Milliseconds since an arbitrary fixed origin.
    fn now_ms(&self) -> u64;
}

/// The clock of reproducible batch runs: time never passes, so only depth and node budgets bind.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoClock;

impl Clock for NoClock {
    fn now_ms(&self) -> u64 {
        0
    }
}

/// Which budgets a searching agent obeys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeControl {
    /// Deterministic depth / node budgets: results reproduce exactly.
    #[default]
    Batch,
    /// The limits players meet in the app (per-move time caps).
    Player,
}

/// How to build one agent: a level of the game, its weights (in the order of the level's
/// weight-set table; empty for a level without one) and the time control.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSetup {
    pub level: usize,
    pub weights: Vec<f64>,
    pub time_control: TimeControl,
}

/// What an agent may use while choosing.
#[derive(Debug)]
pub struct Context<'a> {
    /// The seat's own tie-break stream: never the dice.
    pub rng: &'a mut RandomStream,
    pub clock: &'a dyn Clock,
}

impl core::fmt::Debug for dyn Clock + '_ {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Clock")
    }
}

/// A computer player.
pub trait Agent<G: Game>: Send {
    /// Called before each game, so that an agent reused across games (to keep its allocations)
    /// starts every game in the same state and results stay reproducible.
    fn new_game(&mut self) {}

    /// Picks one of `moves` (the non-empty legal moves of `game`).
    fn choose(&mut self, game: &G, moves: &[G::Move], ctx: &mut Context<'_>) -> G::Move;
}

/// Picks uniformly among `count` candidates with a single draw, and draws nothing when there is
/// only one (so a forced choice never shifts the stream).
pub fn pick(count: usize, rng: &mut RandomStream) -> usize {
    if count > 1 {
        rng.below(count as u32) as usize
    } else {
        0
    }
}
