//! koom's batch machinery: experiment configs, the seeded parallel runner and its statistics.

pub mod agents;
pub mod atomic;
pub mod checksum;
pub mod config;
pub mod connect;
pub mod error;
pub mod external;
pub mod fit;
pub mod lines;
pub mod openings;
pub mod partial;
pub mod perft;
pub mod positions;
pub mod protocol;
pub mod records;
pub mod runner;
pub mod session;
pub mod stats;
pub mod strength;
pub mod summary;
pub mod tally;
pub mod threads;
pub mod tournament;
pub mod train;
pub mod tune;

pub use error::InputError;

/// Re-exported so that callers can name what reports serialise.
pub use serde::Serialize;
