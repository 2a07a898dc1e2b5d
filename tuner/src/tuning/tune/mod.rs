//! Tuning a level's evaluation weights by SPSA on self-play (or against a fixed opponent), with
//! common random numbers, checkpoints after every iteration and a verification gate at the end.
//!
//! - [`spsa`]: the update and its gain schedules (pure arithmetic, tested on a synthetic
//!   objective);
//! - [`config`]: the TOML config, checked against a game;
//! - [`session`]: the games of each iteration, resuming from a checkpoint, the verification;
//! - [`checkpoint`]: the saved state and the config hash;
//! - [`seeds`]: the verification's seed, disjoint from the tuning's;
//! - [`report`]: what `summary.json` says.
//!
//! Iteration `k` plays seed groups `k·pairs .. (k+1)·pairs` of the master seed, so no two
//! iterations share a game and θ+ and θ− meet the same dice. The verification plays on a seed
//! derived apart and checked against every tuning seed.

pub mod checkpoint;
pub mod config;
pub mod report;
pub mod seeds;
pub mod session;
pub mod spsa;

pub use checkpoint::{Checkpoint, IterationRecord};
pub use config::{TuneFile, TuneSpec};
pub use report::{TuneSummary, VerificationSummary, ZeroSignal};
pub use session::{ResumeError, TuneState, Tuner, net_wins};
pub use spsa::Spsa;
