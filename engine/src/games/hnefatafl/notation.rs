//! Text forms (`rules/hnefatafl.md`, "Notation").
//!
//! - A square is a file letter `a`..`k` and a rank `1`..`11`: `a1` is the bottom left corner.
//! - A move is `from-to`, e.g. `d1-d3`. When read, a list of the squares it captures may follow
//!   after `x`, separated by `/` (`d1-d3xd4/e3`); it must then be exactly what the move captures.
//! - A position is OpenTafl's board string — the ranks from 11 down to 1, each between slashes,
//!   `t` an attacker, `T` a defender, `K` the king and a number a run of empty squares — then a
//!   space and the side to move, `a` (attackers) or `d` (defenders):
//!   `/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ a`.
//!   Runs of empty squares are always written as one number, so reading then writing gives the
//!   same text back, and writing then reading the same position.

use core::fmt::Write as _;

use super::board::{
    Board, Piece, RESTRICTED, SIZE, Side, THRONE, bit, file_of, rank_of, square_at, squares,
};
use super::moves::Move;
use super::rules::Capture;
use super::{Hnefatafl, REASON_CAP};
use crate::error::{ParseError, quote};
use crate::game::{Game, Outcome};

/// The start position.
pub const START: &str = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ a";

const FILES: &[u8; SIZE] = b"abcdefghijk";

/// Soldiers a side may have on the board.
const MAX_ATTACKERS: u32 = 24;
const MAX_DEFENDERS: u32 = 12;

/// The name of a square, `a1`..`k11`.
#[must_use]
pub fn square_name(square: u8) -> String {
    SquareName(square).to_string()
}

/// Reads a square name (case-insensitive).
pub fn parse_square(text: &str) -> Result<u8, String> {
    let bad = || {
        format!(
            "{} is not a square (files a-k, ranks 1-11, e.g. `d1`)",
            quote(text)
        )
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
    Ok(square_at(file, rank - 1))
}

#[must_use]
pub fn format_move(mv: Move) -> String {
    MoveText(mv, Capture::default()).to_string()
}

/// The move followed by what it captured, `d1-d3xd4/e3`, and ` (king captured)` when it took
/// the king. A `Display` value, so that a game narrated into [`crate::game::NoLog`] never
/// formats it.
#[derive(Clone, Copy, Debug)]
pub struct MoveText(pub Move, pub Capture);

impl core::fmt::Display for MoveText {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let Self(mv, capture) = self;
        write!(f, "{}-{}", SquareName(mv.from), SquareName(mv.to))?;
        for (i, square) in squares(capture.soldiers).enumerate() {
            let separator = if i == 0 { 'x' } else { '/' };
            write!(f, "{separator}{}", SquareName(square))?;
        }
        if capture.king {
            f.write_str(" (king captured)")?;
        }
        Ok(())
    }
}

/// A square's name as a `Display` value.
struct SquareName(u8);

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
pub fn parse_move(game: &Hnefatafl, text: &str) -> Result<Move, String> {
    let text = text.trim();
    if let Some(outcome) = game.outcome() {
        return Err(format!("the game is over ({})", describe_outcome(&outcome)));
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
    let (from, to) = (parse_square(from)?, parse_square(to)?);
    let mv = Move { from, to };
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
        ));
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
    let stride = if df != 0 {
        df.signum()
    } else {
        dr.signum() * SIZE as i32
    };
    let mut square = i32::from(from);
    loop {
        square += stride;
        let s = square as u8;
        if board.occupied() & bit(s) != 0 {
            return Err(format!("the way is blocked at {}", square_name(s)));
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
        ));
    }
    if let Some(listed) = listed {
        let actual = game.apply_preview(mv).soldiers;
        let mut written = 0;
        for name in listed.split('/') {
            written |= bit(parse_square(name)?);
        }
        if written != actual {
            let names: Vec<String> = squares(actual).map(square_name).collect();
            return Err(format!(
                "this move captures {}",
                if names.is_empty() {
                    "nothing".to_owned()
                } else {
                    names.join("/")
                }
            ));
        }
    }
    Ok(mv)
}

/// The position in OpenTafl form with the side to move.
#[must_use]
pub fn write_position(board: &Board, to_move: Side) -> String {
    let mut text = String::with_capacity(80);
    for rank in (0..SIZE).rev() {
        text.push('/');
        let mut empty = 0;
        for file in 0..SIZE {
            let Some(piece) = board.piece_at(square_at(file, rank)) else {
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

/// Reads a position in OpenTafl form with the side to move.
pub fn read_position(text: &str) -> Result<(Board, Side), ParseError> {
    let example =
        "e.g. `/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ a`";
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [placement, side] = fields[..] else {
        return Err(ParseError::new(format!(
            "a position is an OpenTafl board string, a space and the side to move (`a` or `d`), {example}"
        )));
    };
    let to_move = match side {
        "a" => Side::Attackers,
        "d" => Side::Defenders,
        _ => {
            return Err(ParseError::at(
                "side to move",
                format!(
                    "{} is neither `a` (attackers) nor `d` (defenders)",
                    quote(side)
                ),
            ));
        }
    };
    let inner = placement
        .strip_prefix('/')
        .and_then(|p| p.strip_suffix('/'))
        .ok_or_else(|| format!("the board string must begin and end with `/`, {example}"))?;
    let ranks: Vec<&str> = inner.split('/').collect();
    if ranks.len() != SIZE {
        return Err(ParseError::new(format!(
            "the board string has {} ranks; it needs 11, from rank 11 down to rank 1, between slashes",
            ranks.len()
        )));
    }
    let mut kings = Vec::new();
    let mut pieces: Vec<(Piece, u8)> = Vec::new();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = SIZE - 1 - i;
        let mut file: usize = 0;
        let mut chars = rank_text.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            let piece = match c {
                't' => Piece::Attacker,
                'T' => Piece::Defender,
                'K' => Piece::King,
                '1'..='9' => {
                    let mut end = at + 1;
                    while let Some(&(j, '0'..='9')) = chars.peek() {
                        end = j + 1;
                        chars.next();
                    }
                    // Too long a run fails to parse; either way the width check below reports it.
                    let run = rank_text[at..end].parse::<usize>().unwrap_or(usize::MAX);
                    file = file.saturating_add(run);
                    continue;
                }
                _ => {
                    return Err(ParseError::at(
                        format!("rank {}", rank + 1),
                        format!(
                            "unexpected {}; use `t` (attacker), `T` (defender), `K` (king) \
                             or a count 1-11 of empty squares",
                            quote(c.encode_utf8(&mut [0; 4]))
                        ),
                    ));
                }
            };
            file = file.saturating_add(1);
            if file > SIZE {
                continue;
            }
            let square = square_at(file - 1, rank);
            if piece == Piece::King {
                kings.push(square);
            } else if RESTRICTED & bit(square) != 0 {
                return Err(ParseError::at(
                    format!("rank {}", rank + 1),
                    format!(
                        "a soldier on {}, a restricted square only the king may stand on",
                        square_name(square)
                    ),
                ));
            }
            pieces.push((piece, square));
        }
        if file != SIZE {
            let covered = if file > SIZE {
                "more than 11".to_owned()
            } else {
                format!("only {file}")
            };
            return Err(ParseError::at(
                format!("rank {} ({})", rank + 1, quote(rank_text)),
                format!("covers {covered} squares; each rank must cover exactly 11"),
            ));
        }
    }
    let king = match kings[..] {
        [king] => king,
        [] => return Err("the board has no king (`K`); it needs exactly one".into()),
        _ => {
            let names: Vec<String> = kings.iter().map(|&k| square_name(k)).collect();
            return Err(ParseError::new(format!(
                "the board has {} kings ({}); it needs exactly one",
                kings.len(),
                names.join(", ")
            )));
        }
    };
    let mut board = Board::with_king(king);
    for (piece, square) in pieces {
        if piece != Piece::King {
            board.put(piece, square);
        }
    }
    let (attackers, defenders) = (board.attackers.count_ones(), board.defenders.count_ones());
    if attackers > MAX_ATTACKERS || defenders > MAX_DEFENDERS {
        return Err(ParseError::new(format!(
            "the board has {attackers} attackers and {defenders} defenders; at most \
             {MAX_ATTACKERS} and {MAX_DEFENDERS} (the king apart)"
        )));
    }
    Ok((board, to_move))
}

/// Why a game ended, in words.
#[must_use]
pub fn describe_outcome(outcome: &Outcome) -> String {
    let reason = Hnefatafl::REASONS[usize::from(outcome.reason)];
    match outcome.sole_winner() {
        Some(0) => format!("attackers win ({reason})"),
        Some(_) => format!("defenders win ({reason})"),
        None if outcome.reason == REASON_CAP => "draw (ply cap)".into(),
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
            let square = square_at(file, rank);
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
