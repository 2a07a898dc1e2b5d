//! One folder per game.

pub mod hnefatafl;
pub mod ludo;
pub mod trente_douze;
