//! koom's batch machinery: experiment configs, the seeded parallel runner and its statistics.

pub mod agents;
pub mod config;
pub mod error;
pub mod runner;
pub mod summary;
pub mod tally;

pub use error::InputError;
