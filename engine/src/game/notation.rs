//! A game's text forms: moves as players write them, positions as tools exchange them, and the
//! picture `koom play` prints. Apart from the rules, as shakmaty keeps `san` apart from
//! `Position`: reading and writing never changes what is legal.

use super::rules::{NoLog, Rules};
use crate::error::ParseError;
use crate::random::RandomStream;

/// The notation of one game.
pub trait Notation: Rules {
    /// The move in the game's notation, in the current position.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Reads a move in the game's notation, matched against the legal moves (case-insensitive).
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseError> {
        let mut moves = Self::MoveList::default();
        self.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|&m| self.format_move(m).eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| {
                ParseError::new("not a legal move here")
                    .reading(format!("{} move", Self::NAME), text)
            })
    }

    /// A text picture of the position for `koom play`.
    fn render(&self) -> String;

    /// Reads a position in the game's text form (`koom perft`, `koom legal`).
    fn from_position(text: &str, options: &Self::Options) -> Result<Self, ParseError> {
        let _ = options;
        Err(ParseError::new("the game has no position notation")
            .reading(format!("{} position", Self::NAME), text))
    }

    /// The position in the game's text form, for games that have one.
    fn position(&self) -> Option<String> {
        None
    }

    /// Replaces the roll the seat to move chooses with (`koom analyse --roll`, the engine
    /// protocol's `dice`); the error says why the roll cannot stand here.
    fn set_roll(&mut self, text: &str) -> Result<(), String> {
        let _ = text;
        Err(format!("{} has no dice", Self::NAME))
    }
}

/// `line` (moves from `game`'s position) in the game's notation, each written in the position it
/// is played from; stops at the end of the game. The dice a move leads to do not change how it is
/// written, so a fixed dice stream serves (this is how `koom analyse`, the engine protocol and the
/// browser package write a principal variation).
#[must_use]
pub fn move_texts<G: Notation>(game: &G, line: &[G::Move]) -> Vec<String> {
    let mut position = game.clone();
    let mut dice = RandomStream::dice(0);
    let mut out = Vec::with_capacity(line.len());
    for &mv in line {
        if position.outcome().is_some() {
            break;
        }
        out.push(position.format_move(mv));
        position.play(mv, &mut dice, &mut NoLog);
    }
    out
}
