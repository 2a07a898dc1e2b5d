//! One interface for what a run tells the outside while it plays, and for how it is stopped:
//! progress, each finished game's row, each wave's counts, each SPRT batch, and interruption,
//! in the spirit of fastchess's `IOutput`. Every method but [`Observer::watch`] has a
//! do-nothing default, so a caller names only what it watches; [`Quiet`] watches nothing, and the terminal one lives in the CLI.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use engine::{Clock, Game, NoClock};

use crate::batch::records::RecordsFile;
use crate::batch::tally::{GameRow, RunTally};
use crate::config::Plan;
use crate::strength::stats::Sprt;

/// What worker threads read while they play: progress, the stop flag and the clock. `Sync`,
/// since every thread holds it; an [`Observer`] hands its own out.
pub trait Watch: Sync {
    /// `games` more games finished (called from worker threads).
    fn progress(&self, _games: u64) {}

    /// Whether to stop after the seed groups in flight (e.g. after Ctrl-C).
    fn interrupted(&self) -> bool {
        false
    }

    /// The clock searching agents read under `--time-control player`.
    fn clock(&self) -> &(dyn Clock + Sync) {
        &NoClock
    }
}

/// Watches a run (and stops it, through its [`Watch`]). Rows, waves and batches arrive on the
/// calling thread, so an observer need not be `Sync` (a session's holds its counts).
pub trait Observer<G: Game> {
    /// The part the worker threads read.
    fn watch(&self) -> &dyn Watch;

    /// Whether [`Observer::row`] wants the games' rows: they are built only when it does.
    fn wants_rows(&self) -> bool {
        false
    }

    /// The records file the games go to, if any: the plan then notes moves (and scores when
    /// the file keeps them) for [`Observer::row`] to write.
    fn records(&self) -> Option<&RecordsFile> {
        None
    }

    /// A finished game's row, in game order, with the plan that played it.
    fn row(&mut self, _plan: &Plan<G>, _row: &GameRow<G::Reason>) -> std::io::Result<()> {
        Ok(())
    }

    /// Hands the rows so far to the system: called after each wave's rows, before the wave is
    /// reported (and a checkpoint counts its games), so that a crash never leaves a checkpoint
    /// ahead of the rows.
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }

    /// After each wave: the counts so far and the seed groups they cover.
    fn wave(&mut self, _tally: &RunTally<G>, _done: &[Range<u64>]) -> std::io::Result<()> {
        Ok(())
    }

    /// After each batch of a gate: the test so far and the counts it read.
    fn sprt(&mut self, _sprt: &Sprt, _tally: &RunTally<G>) {}
}

/// Reports nothing and stops when its flag is set (never, by default): for tests, benchmarks
/// and library callers.
#[derive(Clone, Copy, Debug)]
pub struct Quiet<'a> {
    stop: &'a AtomicBool,
}

impl Quiet<'static> {
    /// Never interrupts.
    #[must_use]
    pub fn new() -> Self {
        static NEVER: AtomicBool = AtomicBool::new(false);
        Self { stop: &NEVER }
    }
}

impl Default for Quiet<'static> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> Quiet<'a> {
    /// Stops once `stop` is set.
    #[must_use]
    pub fn until(stop: &'a AtomicBool) -> Self {
        Self { stop }
    }
}

impl Watch for Quiet<'_> {
    fn interrupted(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl<G: Game> Observer<G> for Quiet<'_> {
    fn watch(&self) -> &dyn Watch {
        self
    }
}
