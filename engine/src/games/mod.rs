//! One folder per game.

pub mod hnefatafl;
pub mod ludo;
pub mod thud;
pub mod trente_douze;
