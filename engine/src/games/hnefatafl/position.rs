//! Reading a position in OpenTafl form (`/3ttttt3/5t5/11/…/3ttttt3/ a`) in two steps, as
//! cozy-chess does: [`parse`] reads the text into pieces on squares and the side to move, and
//! [`validate`] checks them against the rules (one king, soldiers off the restricted squares,
//! no more soldiers than the start has) and builds the board.

use super::board::{Board, Piece, RESTRICTED, SIZE, Side, Square, bit};
use super::notation::square_name;
use crate::error::{ParseError, quote};

/// Soldiers a side may have on the board.
const MAX_ATTACKERS: u32 = 24;
const MAX_DEFENDERS: u32 = 12;

const EXAMPLE: &str =
    "e.g. `/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ a`";

/// Reads a position with the side to move: parse, then validate.
pub(super) fn read(text: &str) -> Result<(Board, Side), ParseError> {
    validate(parse(text)?)
}

/// A position as written, before the rules have checked it.
struct Placement {
    pieces: Vec<(Piece, Square)>,
    to_move: Side,
}

fn parse(text: &str) -> Result<Placement, ParseError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [board, side] = fields[..] else {
        return Err(ParseError::new(format!(
            "a position is an OpenTafl board string, a space and the side to move (`a` or `d`), {EXAMPLE}"
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
    let inner = board
        .strip_prefix('/')
        .and_then(|p| p.strip_suffix('/'))
        .ok_or_else(|| {
            ParseError::new(format!(
                "the board string must begin and end with `/`, {EXAMPLE}"
            ))
        })?;
    let ranks: Vec<&str> = inner.split('/').collect();
    if ranks.len() != SIZE {
        return Err(ParseError::new(format!(
            "the board string has {} ranks; it needs 11, from rank 11 down to rank 1, between slashes",
            ranks.len()
        )));
    }
    let mut pieces = Vec::new();
    for (i, rank_text) in ranks.iter().enumerate() {
        parse_rank(SIZE - 1 - i, rank_text, &mut pieces)?;
    }
    Ok(Placement { pieces, to_move })
}

/// Reads one rank (`rank` 0-based), which must cover exactly 11 squares, onto `pieces`.
fn parse_rank(
    rank: usize,
    text: &str,
    pieces: &mut Vec<(Piece, Square)>,
) -> Result<(), ParseError> {
    let place = || format!("rank {}", rank + 1);
    let mut file: usize = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let piece = match c {
            't' => Piece::Attacker,
            'T' => Piece::Defender,
            'K' => Piece::King,
            '1'..='9' => {
                let mut end = at + 1;
                while let Some((j, _)) = chars.next_if(|(_, d)| d.is_ascii_digit()) {
                    end = j + 1;
                }
                // Too long a run fails to parse; either way the width check below reports it.
                let run = text[at..end].parse::<usize>().unwrap_or(usize::MAX);
                file = file.saturating_add(run);
                continue;
            }
            _ => {
                return Err(ParseError::at(
                    place(),
                    format!(
                        "unexpected {}; use `t` (attacker), `T` (defender), `K` (king) \
                         or a count 1-11 of empty squares",
                        quote(c.encode_utf8(&mut [0; 4]))
                    ),
                ));
            }
        };
        if file < SIZE {
            pieces.push((piece, Square::at(file, rank)));
        }
        file = file.saturating_add(1);
    }
    if file != SIZE {
        let covered = if file > SIZE {
            "more than 11".to_owned()
        } else {
            format!("only {file}")
        };
        return Err(ParseError::at(
            format!("{} ({})", place(), quote(text)),
            format!("covers {covered} squares; each rank must cover exactly 11"),
        ));
    }
    Ok(())
}

/// Checks the pieces against the rules and builds the board.
fn validate(placement: Placement) -> Result<(Board, Side), ParseError> {
    let Placement { pieces, to_move } = placement;
    let kings: Vec<Square> = pieces
        .iter()
        .filter(|(piece, _)| *piece == Piece::King)
        .map(|&(_, square)| square)
        .collect();
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
        if piece == Piece::King {
            continue;
        }
        if RESTRICTED & bit(square) != 0 {
            return Err(ParseError::new(format!(
                "a soldier on {}, a restricted square only the king may stand on",
                square_name(square)
            )));
        }
        board.put(piece, square);
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
