//! Every clause of `docs/rules/hnefatafl.md` on hand-made positions in OpenTafl notation (`t`
//! attacker, `T` defender, `K` king, ranks 11 down to 1), then notation, hashing, random games,
//! the computer levels and the statistics. The helpers below are shared by the submodules.

mod agents;
mod notation;
mod rules;
mod stats;

use super::*;
use crate::agent::pick;
use crate::game::{Ending, NoLog, SeatResult};

fn game(text: &str) -> Hnefatafl {
    Hnefatafl::from_position(text, &HnefataflOptions::default())
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays `text` (which must be legal) and returns the names of the captured soldiers.
fn play(game: &mut Hnefatafl, text: &str) -> Vec<String> {
    let mv = game
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let capture = game.apply(mv);
    board::squares(capture.soldiers).map(square_name).collect()
}

/// The destinations of the piece on `from`, sorted.
fn targets(game: &Hnefatafl, from: &str) -> Vec<String> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let mut names: Vec<String> = moves
        .iter()
        .filter(|mv| square_name(mv.from) == from)
        .map(|mv| square_name(mv.to))
        .collect();
    names.sort();
    names
}

/// The winner and the reason, once the game is over.
fn result(game: &Hnefatafl) -> Option<(Option<usize>, &'static str)> {
    game.outcome().map(|o| (o.sole_winner(), o.reason.name()))
}

const ATTACKERS: Option<usize> = Some(0);
const DEFENDERS: Option<usize> = Some(1);

fn piece(game: &Hnefatafl, square: &str) -> Option<Piece> {
    game.board()
        .piece_at(super::notation::parse_square(square).unwrap())
}
