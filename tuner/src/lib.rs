//! koom's batch machinery: experiment configs, the seeded parallel runner and its statistics.

pub mod agents;
pub mod atomic;
pub mod batch;
pub mod checksum;
pub mod config;
pub mod error;
pub mod interop;
pub mod lines;
pub mod observer;
pub mod openings;
pub mod perft;
pub mod strength;
pub mod threads;
pub mod tuning;

pub use error::InputError;

/// Re-exported so that callers can name what reports serialise.
pub use serde::Serialize;
