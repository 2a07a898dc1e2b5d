//! One folder per game.

pub mod ludo;
pub mod trente_douze;
