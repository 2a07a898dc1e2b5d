//! Why a written move is not legal: the one-line explanation `parse_move` gives. The move list
//! stays the authority on what is legal; this only finds the first rule the move breaks.

use super::board::{Board, DIRS, Piece, Side, Square};
use super::moves::{Move, TrollCapture};
use super::notation::MoveText;

/// The direction index and the distance from `from` to `to` along one of the eight lines, if
/// they share one.
fn line_between(from: Square, to: Square) -> Option<(usize, usize)> {
    let df = to.file() as isize - from.file() as isize;
    let dr = to.rank() as isize - from.rank() as isize;
    let distance = df.unsigned_abs().max(dr.unsigned_abs());
    if distance == 0 || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        return None;
    }
    let step = df.signum() + 16 * dr.signum();
    DIRS.iter()
        .position(|&d| d == step)
        .map(|dir| (dir, distance))
}

/// The squares strictly between `from` and `to` along direction `dir`.
fn path(from: Square, dir: usize, distance: usize) -> impl Iterator<Item = Square> {
    (1..distance)
        .map(move |k| Square::from_cell(from.cell().wrapping_add_signed(DIRS[dir] * k as isize)))
}

/// How many pieces of `piece` stand in an unbroken line from `front` (included) backwards
/// against direction `dir`.
fn line_length(board: &Board, front: Square, dir: usize, piece: Piece) -> usize {
    let mut sq = Some(front);
    let mut length = 0;
    while let Some(s) = sq.filter(|&s| board.piece_at(s) == Some(piece)) {
        length += 1;
        sq = s.neighbour(7 - dir);
    }
    length
}

/// The first rule `text` breaks in `board`, for a move the legal list does not hold.
pub fn why_illegal(board: &Board, rule: TrollCapture, text: &MoveText) -> String {
    let MoveText { from, to, .. } = *text;
    let side = board.side();
    let piece = match side {
        Side::Dwarfs => Piece::Dwarf,
        Side::Trolls => Piece::Troll,
    };
    if board.piece_at(from) != Some(piece) {
        return format!("{from} holds no {} ({} to move)", noun(piece), side.name());
    }
    let Some((dir, distance)) = line_between(from, to) else {
        return format!("{to} is not on a straight line from {from}");
    };
    if let Some(block) =
        path(from, dir, distance).find(|&s| s == Square::STONE || board.piece_at(s).is_some())
    {
        return format!("the way from {from} to {to} is blocked on {block}");
    }
    let target = board.piece_at(to);
    if to == Square::STONE {
        return format!("{to} is the stone's square: nothing moves onto it");
    }
    match side {
        Side::Dwarfs => dwarf_reason(board, text, dir, distance, target),
        Side::Trolls => troll_reason(board, rule, text, dir, distance, target),
    }
}

fn noun(piece: Piece) -> &'static str {
    match piece {
        Piece::Dwarf => "dwarf",
        Piece::Troll => "troll",
    }
}

fn dwarf_reason(
    board: &Board,
    text: &MoveText,
    dir: usize,
    distance: usize,
    target: Option<Piece>,
) -> String {
    let MoveText { from, to, .. } = *text;
    if let Some(&sq) = text.captures.first() {
        return format!("x{sq}: a dwarf captures by landing on a troll, never with `x`");
    }
    match target {
        Some(Piece::Dwarf) => format!("{to} holds a dwarf"),
        Some(Piece::Troll) => {
            let line = line_length(board, from, dir, Piece::Dwarf);
            format!(
                "a hurl of {distance} squares needs a line of {distance} dwarfs; {line} stand in line from {from}"
            )
        }
        None => format!("{from}-{to} is not legal here"),
    }
}

fn troll_reason(
    board: &Board,
    rule: TrollCapture,
    text: &MoveText,
    dir: usize,
    distance: usize,
    target: Option<Piece>,
) -> String {
    let MoveText { from, to, .. } = *text;
    if let Some(piece) = target {
        return format!(
            "{to} holds a {}: a troll moves only to an empty square",
            noun(piece)
        );
    }
    let line = line_length(board, from, dir, Piece::Troll);
    if distance > line {
        return format!(
            "a shove of {distance} squares needs a line of {distance} trolls; {line} stand in line from {from}"
        );
    }
    let mut captures = 0u8;
    for &sq in &text.captures {
        let Some(bit) = (0..8).find(|&i| to.neighbour(i) == Some(sq)) else {
            return format!("x{sq}: {sq} is not next to {to}");
        };
        if board.piece_at(sq) != Some(Piece::Dwarf) {
            return format!("x{sq}: no dwarf on {sq}");
        }
        captures |= 1 << bit;
    }
    let all = (0..8)
        .filter(|&i| {
            to.neighbour(i)
                .is_some_and(|s| board.piece_at(s) == Some(Piece::Dwarf))
        })
        .fold(0u8, |m, i| m | 1 << i);
    if distance > 1 && captures == 0 {
        return if all == 0 {
            format!("a shove must end next to a dwarf; {to} has none")
        } else {
            "a shove must capture at least one dwarf: add xSQ".to_owned()
        };
    }
    if rule == TrollCapture::All && captures != all {
        let every = Move {
            from,
            to,
            captures: all,
        };
        return format!(
            "with troll_capture = \"all\" a troll takes every neighbouring dwarf: {}",
            super::notation::format_move(every)
        );
    }
    format!("{from}-{to} is not legal here")
}
