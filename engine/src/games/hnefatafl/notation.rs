//! Text forms (`docs/rules/hnefatafl.md`, "Notation").
//!
//! - A square is a file letter `a`..`k` and a rank `1`..`11`: `a1` is the bottom left corner.
//! - A move is `from-to`, e.g. `d1-d3`, followed by each soldier it captures after an `x`, as the
//!   published human game records write it (`d1-d3xd4xe3`; the king's capture ends the game
//!   and is not written). When read, the capture list may be left out or written koom's older
//!   way (`d1-d3xd4/e3`), but when written it must be exactly what the move captures.
//! - A position is OpenTafl's board string — the ranks from 11 down to 1, each between slashes,
//!   `t` an attacker, `T` a defender, `K` the king and a number a run of empty squares — then a
//!   space and the side to move, `a` (attackers) or `d` (defenders):
//!   `/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ a`.
//!   Runs of empty squares are always written as one number, so reading then writing gives the
//!   same text back, and writing then reading the same position.

use core::fmt::Write as _;

use super::board::{
    Board, DIRECTIONS, Piece, RESTRICTED, SIZE, Side, Square, THRONE, bit, file_of, rank_of,
    squares, step,
};
use super::moves::Move;
use super::rules::Capture;
use super::{Hnefatafl, Reason};
use crate::error::{ParseError, quote};
use crate::game::{Ending, Outcome, Rules};

/// The start position.
pub const START: &str = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ a";

const FILES: &[u8; SIZE] = b"abcdefghijk";

/// The name of a square, `a1`..`k11`.
#[must_use]
pub fn square_name(square: Square) -> String {
    SquareName(square).to_string()
}

/// Reads a square name (case-insensitive).
pub fn parse_square(text: &str) -> Result<Square, ParseError> {
    let bad = || {
        ParseError::new(format!(
            "{} is not a square (files a-k, ranks 1-11, e.g. `d1`)",
            quote(text)
        ))
    };
    let mut chars = text.chars();
    let file = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
    let file = FILES
        .iter()
        .position(|&f| char::from(f) == file)
        .ok_or_else(bad)?;
    let rank: usize = chars.as_str().parse().map_err(|_| bad())?;
    if !(1..=SIZE).contains(&rank) || chars.as_str().starts_with('0') {
        return Err(bad());
    }
    Ok(Square::at(file, rank - 1))
}

/// The move in `game`, with the soldiers it captures: `d1-d3xd4xe3`.
#[must_use]
pub fn format_move(game: &Hnefatafl, mv: Move) -> String {
    let soldiers = game.apply_preview(mv).soldiers;
    MoveText(
        mv,
        Capture {
            soldiers,
            king: false,
        },
    )
    .to_string()
}

/// The move followed by what it captured, `d1-d3xd4xe3`, and ` (king captured)` when it took
/// the king. A `Display` value, so that a game narrated into [`crate::game::NoLog`] never
/// formats it.
#[derive(Clone, Copy, Debug)]
pub struct MoveText(pub Move, pub Capture);

impl core::fmt::Display for MoveText {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let Self(mv, capture) = self;
        write!(f, "{}-{}", SquareName(mv.from), SquareName(mv.to))?;
        for square in squares(capture.soldiers) {
            write!(f, "x{}", SquareName(square))?;
        }
        if capture.king {
            f.write_str(" (king captured)")?;
        }
        Ok(())
    }
}

/// A square's name as a `Display` value.
struct SquareName(Square);

impl core::fmt::Display for SquareName {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(FILES[file_of(self.0)]),
            rank_of(self.0) + 1
        )
    }
}

/// Reads a move and says precisely why it is not legal here when it is not.
pub fn parse_move(game: &Hnefatafl, text: &str) -> Result<Move, ParseError> {
    let text = text.trim();
    if let Some(outcome) = game.outcome() {
        return Err(format!("the game is over ({})", describe_outcome(&outcome)).into());
    }
    let (squares_part, listed) = match text.find(['x', 'X']) {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    };
    let (from, to) = squares_part.split_once('-').ok_or_else(|| {
        format!(
            "{} is not a move: write the square left and the square reached, e.g. `d1-d3`",
            quote(text)
        )
    })?;
    let mv = Move {
        from: parse_square(from)?,
        to: parse_square(to)?,
    };
    check_path(game, mv)?;
    match listed {
        Some(listed) => check_captures(game, mv, listed).map(|()| mv),
        None => Ok(mv),
    }
}

/// Why `mv` breaks the movement rules, if it does: a piece of the side to move, along a rank or
/// a file, over empty squares, and onto the throne or a corner only for the king.
fn check_path(game: &Hnefatafl, mv: Move) -> Result<(), ParseError> {
    let Move { from, to } = mv;
    let board = game.board();
    let side = game.side_to_move();
    let piece = board
        .piece_at(from)
        .ok_or_else(|| format!("no piece on {}", square_name(from)))?;
    if piece.side() != side {
        return Err(format!(
            "{} holds a piece of the {}, but the {} are to move",
            square_name(from),
            piece.side().name(),
            side.name()
        ).into());
    }
    if from == to {
        return Err("a move must leave its square".into());
    }
    let (df, dr) = (
        file_of(to) as i32 - file_of(from) as i32,
        rank_of(to) as i32 - rank_of(from) as i32,
    );
    if df != 0 && dr != 0 {
        return Err("pieces move along a rank or a file only".into());
    }
    let way = (df.signum() as i8, dr.signum() as i8);
    let dir = DIRECTIONS
        .iter()
        .position(|&d| d == way)
        .expect("a move along a rank or a file has a direction");
    let mut s = from;
    loop {
        s = step(s, dir).expect("the way to a square on the board stays on it");
        if board.occupied() & bit(s) != 0 {
            return Err(format!("the way is blocked at {}", square_name(s)).into());
        }
        if s == to {
            break;
        }
    }
    if piece != Piece::King && RESTRICTED & bit(to) != 0 {
        let what = if to == THRONE {
            "the throne"
        } else {
            "a corner"
        };
        return Err(format!(
            "only the king may stop on {} ({what})",
            square_name(to)
        ).into());
    }
    Ok(())
}

/// Checks the written capture list (`e5/f4`, after the `x`) against what `mv` captures.
fn check_captures(game: &Hnefatafl, mv: Move, listed: &str) -> Result<(), ParseError> {
    let actual = game.apply_preview(mv).soldiers;
    let mut written = 0;
    // koom writes `xd1/e1`; the published human records write `xd1xe1`.
    for name in listed.split(['/', 'x', 'X']) {
        written |= bit(parse_square(name)?);
    }
    if written == actual {
        return Ok(());
    }
    let names: Vec<String> = squares(actual).map(square_name).collect();
    Err(format!(
        "this move captures {}",
        if names.is_empty() {
            "nothing".to_owned()
        } else {
            names.join("/")
        }
    ).into())
}

/// The position in OpenTafl form with the side to move.
#[must_use]
pub fn write_position(board: &Board, to_move: Side) -> String {
    let mut text = String::with_capacity(80);
    for rank in (0..SIZE).rev() {
        text.push('/');
        let mut empty = 0;
        for file in 0..SIZE {
            let Some(piece) = board.piece_at(Square::at(file, rank)) else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                let _ = write!(text, "{empty}");
                empty = 0;
            }
            text.push(piece.symbol());
        }
        if empty > 0 {
            let _ = write!(text, "{empty}");
        }
    }
    text.push_str(match to_move {
        Side::Attackers => "/ a",
        Side::Defenders => "/ d",
    });
    text
}

/// Why a game ended, in words.
#[must_use]
pub fn describe_outcome(outcome: &Outcome<Reason>) -> String {
    let reason = outcome.reason.name();
    match outcome.sole_winner() {
        Some(0) => format!("attackers win ({reason})"),
        Some(_) => format!("defenders win ({reason})"),
        None if outcome.reason == Ending::Rules(Reason::Cap) => "draw (ply cap)".into(),
        None => format!("draw ({reason})"),
    }
}

/// The board with rank 11 at the top: `t` attacker, `T` defender, `K` king, `#` an empty
/// restricted square, `.` an empty square; then who is to move or how the game ended.
#[must_use]
pub fn render(game: &Hnefatafl) -> String {
    let board = game.board();
    let files = "    a b c d e f g h i j k\n";
    let mut text = String::from(files);
    for rank in (0..SIZE).rev() {
        let _ = write!(text, "{:>2} ", rank + 1);
        for file in 0..SIZE {
            let square = Square::at(file, rank);
            let symbol = match board.piece_at(square) {
                Some(piece) => piece.symbol(),
                None if RESTRICTED & bit(square) != 0 => '#',
                None => '.',
            };
            let _ = write!(text, " {symbol}");
        }
        let _ = writeln!(text, " {}", rank + 1);
    }
    text.push_str(files);
    match game.outcome() {
        Some(outcome) => {
            let _ = writeln!(text, "{}", describe_outcome(&outcome));
        }
        None => {
            let _ = writeln!(
                text,
                "{} to move, ply {}",
                game.side_to_move().name(),
                game.plies()
            );
        }
    }
    text
}
