//! Squares, moves and positions as text, and the board diagram.
//!
//! Squares are `A1`..`P15` with no file `I`. A move is `FROM-TO` followed by `xSQ` for each dwarf
//! a troll captures, in square order (`G7-F6xE5xF5`); a hurl is written `FROM-TO` onto the troll
//! it takes. Lower case is accepted.
//!
//! A position is its 15 ranks from rank 15 down to rank 1, separated by `/`, each listing only
//! the octagon's squares of that rank from left to right: `d` a dwarf, `T` a troll, `R` the stone
//! (always H8), and a number 1-15 for a run of empty squares; then a space and the side to move,
//! `d` or `t`. The start is
//! `dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd d`.
//! Letters are read in either case; positions are written exactly as above, so writing what was
//! read gives the text back.

use core::fmt::Write as _;

use arrayvec::ArrayVec;

use super::board::{Board, FILES, Piece, RANK_WIDTHS, Side, Square};
use super::moves::Move;
use crate::error::{ParseError, quote};

/// The most trolls and dwarfs a position may hold: the start's armies (the move-list bound rests
/// on them).
pub const MAX_TROLLS: u32 = 8;
pub const MAX_DWARFS: u32 = 32;

/// What a square's name may be, for error messages.
const SQUARE_FORMS: &str = "files A-H and J-P, ranks 1-15";

/// Reads a square name such as `H8` or `p10`.
pub fn parse_square(text: &str) -> Result<Square, ParseError> {
    let mut chars = text.chars();
    let letter = chars.next().map(|c| c.to_ascii_uppercase());
    let file = letter.and_then(|c| FILES.iter().position(|&f| char::from(f) == c));
    let Some(file) = file else {
        let why = match letter {
            None => "it is empty".to_owned(),
            Some('I') => "there is no file I".to_owned(),
            Some(c) => format!("`{c}` is not a file"),
        };
        return Err(format!("square {}: {why} ({SQUARE_FORMS})", quote(text)).into());
    };
    let digits = chars.as_str();
    let rank = match digits.parse::<usize>() {
        Ok(r) if (1..=15).contains(&r) && !digits.starts_with(['0', '+']) => r,
        _ => {
            return Err(format!(
                "square {}: {} is not a rank ({SQUARE_FORMS})",
                quote(text),
                quote(digits)
            ).into());
        }
    };
    Square::new(file, rank - 1).ok_or_else(|| {
        let (first, last) = rank_span(rank - 1);
        ParseError::new(format!(
            "square {} is in a cut corner, off the octagon (rank {rank} runs {first}-{last})",
            quote(text)
        ))
    })
}

/// The first and last squares of a rank (0-based).
fn rank_span(rank: usize) -> (Square, Square) {
    let cut = (15 - RANK_WIDTHS[rank]) / 2;
    (
        Square::new(cut, rank).expect("on the octagon"),
        Square::new(14 - cut, rank).expect("on the octagon"),
    )
}

/// A move as written, before it is matched against the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    pub from: Square,
    pub to: Square,
    /// The `xSQ` squares, in the order written.
    pub captures: ArrayVec<Square, 8>,
}

/// Reads the syntax of a move: `FROM-TO` then any number of `xSQ`.
pub fn parse_move_text(text: &str) -> Result<MoveText, ParseError> {
    const FORM: &str = "write FROM-TO, then xSQ for each dwarf a troll captures, e.g. G7-F6xE5";
    let trimmed = text.trim();
    let Some((from, rest)) = trimmed.split_once('-') else {
        return Err(format!("no `-` between the squares; {FORM}").into());
    };
    let mut parts = rest.split(['x', 'X']);
    let to = parts.next().unwrap_or_default();
    let mut captures = ArrayVec::new();
    let syntax = |e: ParseError| ParseError::new(format!("{e}; {FORM}"));
    for part in parts {
        let sq = parse_square(part).map_err(syntax)?;
        if captures.contains(&sq) {
            return Err(format!("{sq} is captured twice").into());
        }
        captures
            .try_push(sq)
            .map_err(|_| "a troll captures at most 8 dwarfs".to_owned())?;
    }
    Ok(MoveText {
        from: parse_square(from).map_err(syntax)?,
        to: parse_square(to).map_err(syntax)?,
        captures,
    })
}

/// A move in notation (captures in square order, the order of the mask's bits).
#[must_use]
pub fn format_move(mv: Move) -> String {
    let mut text = format!("{}-{}", mv.from, mv.to);
    for sq in mv.captured_squares() {
        // Writing into a String cannot fail.
        let _ = write!(text, "x{sq}");
    }
    text
}

/// What stands on a square, as a position letter.
fn letter(board: &Board, sq: Square) -> Option<char> {
    if sq == Square::STONE {
        return Some('R');
    }
    board.piece_at(sq).map(|p| match p {
        Piece::Dwarf => 'd',
        Piece::Troll => 'T',
    })
}

/// The side to move as a position letter.
const fn side_letter(side: Side) -> char {
    match side {
        Side::Dwarfs => 'd',
        Side::Trolls => 't',
    }
}

/// The position in its text form.
#[must_use]
pub fn format_position(board: &Board) -> String {
    let mut text = String::with_capacity(96);
    for rank in (0..15).rev() {
        let mut run = 0;
        for sq in (0..15).filter_map(|file| Square::new(file, rank)) {
            match letter(board, sq) {
                None => run += 1,
                Some(c) => {
                    if run > 0 {
                        let _ = write!(text, "{run}");
                        run = 0;
                    }
                    text.push(c);
                }
            }
        }
        if run > 0 {
            let _ = write!(text, "{run}");
        }
        text.push(if rank > 0 { '/' } else { ' ' });
    }
    text.push(side_letter(board.side()));
    text
}

/// Reads a position in its text form.
pub fn parse_position(text: &str) -> Result<Board, ParseError> {
    const FORM: &str = "15 ranks from rank 15 down, separated by `/`, then `d` or `t`";
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [ranks, side] = fields[..] else {
        return Err(ParseError::new(format!(
            "{} space-separated fields, expected 2 ({FORM})",
            fields.len()
        )));
    };
    let side = match side {
        "d" | "D" => Side::Dwarfs,
        "t" | "T" => Side::Trolls,
        other => {
            return Err(ParseError::at(
                "side to move",
                format!("{} is neither `d` (dwarfs) nor `t` (trolls)", quote(other)),
            ));
        }
    };
    let ranks: Vec<&str> = ranks.split('/').collect();
    if ranks.len() != 15 {
        return Err(ParseError::new(format!(
            "{} ranks, expected 15 ({FORM})",
            ranks.len()
        )));
    }
    let mut board = Board::empty(side);
    for (row, field) in ranks.iter().enumerate() {
        parse_rank(&mut board, 14 - row, field)?;
    }
    if board.troll_count() > MAX_TROLLS || board.dwarf_count() > MAX_DWARFS {
        return Err(ParseError::new(format!(
            "{} trolls and {} dwarfs, at most {MAX_TROLLS} and {MAX_DWARFS}",
            board.troll_count(),
            board.dwarf_count()
        )));
    }
    Ok(board)
}

/// Reads one rank's field (`rank` 0-based) onto `board`.
fn parse_rank(board: &mut Board, rank: usize, field: &str) -> Result<(), ParseError> {
    let (first, last) = rank_span(rank);
    let width = RANK_WIDTHS[rank];
    let name = rank + 1;
    let mut file = first.file();
    let mut chars = field.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let here = |why: String| ParseError::at(format!("rank {name}, character {}", at + 1), why);
        // The square this character starts on, if the rank still has room.
        let square = Square::new(file, rank).filter(|sq| sq.file() <= last.file());
        if c.is_ascii_digit() {
            let mut end = at + 1;
            while let Some((j, _)) = chars.next_if(|(_, d)| d.is_ascii_digit()) {
                end = j + 1;
            }
            let digits = &field[at..end];
            // A run too long for a usize (18446744073709551617) is as wrong as 16: no wrapping.
            let run = digits.parse::<usize>().unwrap_or(usize::MAX);
            if c == '0' || run > width {
                return Err(here(format!(
                    "{} is not a run of empty squares (1-{width} on rank {name}, no leading zero)",
                    quote(digits)
                )));
            }
            if (file..file + run).contains(&Square::STONE.file()) && rank == Square::STONE.rank() {
                return Err(here("the run covers H8, where the stone `R` stands".into()));
            }
            file += run;
            if file > last.file() + 1 {
                return Err(overflow(name, first, last, width, file - first.file()));
            }
            continue;
        }
        let Some(sq) = square else {
            return Err(overflow(name, first, last, width, file - first.file() + 1));
        };
        match c {
            'd' | 'D' | 't' | 'T' => {
                if sq == Square::STONE {
                    return Err(here(format!("`{c}` on H8, where the stone `R` stands")));
                }
                let piece = if c.eq_ignore_ascii_case(&'d') {
                    Piece::Dwarf
                } else {
                    Piece::Troll
                };
                board.put(sq, piece);
            }
            'r' | 'R' if sq != Square::STONE => {
                return Err(here(format!("the stone `R` stands on H8, not on {sq}")));
            }
            'r' | 'R' => {}
            _ => {
                return Err(here(format!(
                    "{} is not a piece (accepted: d dwarf, T troll, R stone, 1-15 empty squares)",
                    quote(c.encode_utf8(&mut [0; 4]))
                )));
            }
        }
        file += 1;
    }
    if file <= last.file() {
        return Err(ParseError::new(format!(
            "rank {name} lists {} squares, the octagon has {width} on rank {name} ({first}-{last})",
            file - first.file()
        )));
    }
    Ok(())
}

fn overflow(name: usize, first: Square, last: Square, width: usize, listed: usize) -> ParseError {
    ParseError::new(format!(
        "rank {name} lists at least {listed} squares, the octagon has {width} on rank {name} ({first}-{last})"
    ))
}

/// A text diagram: `d` dwarfs, `T` trolls, `R` the stone, `.` empty squares.
#[must_use]
pub fn render(board: &Board) -> String {
    let mut text = String::new();
    for rank in (0..15).rev() {
        let _ = write!(text, "{:>2} ", rank + 1);
        let row: String = (0..15)
            .map(|file| Square::new(file, rank).map_or(' ', |sq| letter(board, sq).unwrap_or('.')))
            .flat_map(|c| [' ', c])
            .collect();
        text.push_str(row.trim_end());
        text.push('\n');
    }
    text.push_str("   ");
    for f in FILES {
        text.push(' ');
        text.push(char::from(f));
    }
    let _ = write!(text, "\n{} to move\n", board.side().name());
    text
}
