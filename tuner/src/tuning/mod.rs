//! Improving a level: SPSA tuning on self-play, fitting weights to game results, and the
//! position sets and trainer of a learned evaluation.

pub mod fit;
pub mod positions;
pub mod train;
pub mod tune;
