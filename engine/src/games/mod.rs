//! One folder per game.

pub mod ludo;
