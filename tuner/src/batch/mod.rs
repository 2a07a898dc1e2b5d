//! Running experiments: the seeded parallel runner, its integer tallies, shards and checkpoints,
//! resumable sessions, game records and the summary computed from the counts.

pub mod partial;
pub mod records;
pub mod runner;
pub mod session;
pub mod summary;
pub mod tally;
