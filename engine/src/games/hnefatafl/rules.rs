//! Captures and the end of the game (`docs/rules/hnefatafl.md`, "Capturing soldiers", "Shield wall",
//! "The king", "End of the game"), as pure functions of the placement.

use super::board::{
    BOARD, Bits, Board, CORNERS, EDGE, FILE_A, FILE_K, RANK_1, RANK_11, RESTRICTED, Side, Square,
    THRONE_BIT, bit, east, file_of, flood, neighbours, north, rank_of, south, step, west,
};

/// What one move captured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Capture {
    /// Soldiers taken off the board.
    pub soldiers: Bits,
    /// The king was surrounded (the game is over; he stays on his square).
    pub king: bool,
}

/// Squares that close a sandwich on a soldier of the side opposing `mover`: the mover's own
/// pieces (the king is armed), the corners, and the throne — always hostile to attackers, and
/// hostile to defenders only while empty.
fn anvils(board: &Board, mover: Side) -> Bits {
    match mover {
        Side::Attackers => board.attackers | CORNERS | (THRONE_BIT & !board.king_bit()),
        Side::Defenders => board.defenders_and_king() | CORNERS | THRONE_BIT,
    }
}

/// The soldiers a piece of `mover` just arrived on `to` captures, and whether it captures the
/// king. The board is not changed.
#[must_use]
pub fn captures(board: &Board, mover: Side, to: Square) -> Capture {
    let victims = match mover {
        Side::Attackers => board.defenders,
        Side::Defenders => board.attackers,
    };
    let anvils = anvils(board, mover);
    let mut soldiers = 0;
    for dir in 0..4 {
        let Some(next) = step(to, dir) else { continue };
        if victims & bit(next) == 0 {
            continue;
        }
        if step(next, dir).is_some_and(|beyond| anvils & bit(beyond) != 0) {
            soldiers |= bit(next);
        }
    }
    if EDGE & bit(to) != 0 {
        soldiers |= shield_walls(board, mover, to);
    }
    let king = mover == Side::Attackers && king_surrounded(board, to);
    Capture { soldiers, king }
}

/// The soldiers of the shield walls a piece of `mover` closes by arriving on edge square `to`.
///
/// Walking along the edge away from `to`, the row is the run of opposing pieces (the king
/// included: he belongs to a defenders' row but is never taken with it). It is captured when it
/// has two or more pieces, each with a piece of `mover` directly in front of it (on the second
/// line), and the square after it holds a piece of `mover` or is a corner. Only a move onto the
/// edge line calls this: completing the front line never captures.
fn shield_walls(board: &Board, mover: Side, to: Square) -> Bits {
    let (row_side, own) = (board.side(mover.other()), board.side(mover));
    let (along, inward) = match (rank_of(to), file_of(to)) {
        (0, _) => ([0, 1], 2),
        (10, _) => ([0, 1], 3),
        (_, 0) => ([2, 3], 0),
        _ => ([2, 3], 1),
    };
    along
        .iter()
        .map(|&dir| {
            let mut row: Bits = 0;
            let mut next = step(to, dir);
            while let Some(square) = next.filter(|&s| row_side & bit(s) != 0) {
                if step(square, inward).is_none_or(|front| own & bit(front) == 0) {
                    return 0;
                }
                row |= bit(square);
                next = step(square, dir);
            }
            let closed = next.is_some_and(|end| (own | CORNERS) & bit(end) != 0);
            if closed && row.count_ones() >= 2 {
                row & !board.king_bit()
            } else {
                0
            }
        })
        .fold(0, |taken, row| taken | row)
}

/// Whether an attacker arriving on `to` completes the ring around the king: the king is next to
/// `to`, off the edge, and each of his four neighbours is an attacker or the (then empty) throne.
/// On the throne that means four attackers.
fn king_surrounded(board: &Board, to: Square) -> bool {
    let king = board.king_bit();
    if neighbours(bit(to)) & king == 0 || EDGE & king != 0 {
        return false;
    }
    let ring = neighbours(king);
    ring & !(board.attackers | THRONE_BIT) == 0
}

/// Whether the defenders are encircled: flooding from every empty edge square through empty
/// squares, orthogonally, reaches no defender nor the king, and none of them stands on the edge.
/// Several separate rings count as well, since only reachability matters.
#[must_use]
pub fn encircled(board: &Board) -> bool {
    let defenders = board.defenders_and_king();
    if defenders & EDGE != 0 {
        return false;
    }
    let empty = BOARD & !board.occupied();
    let mut reach = empty & EDGE;
    loop {
        let border = neighbours(reach);
        if border & defenders != 0 {
            return false;
        }
        let grown = reach | (border & empty);
        if grown == reach {
            return true;
        }
        reach = grown;
    }
}

/// Whether the king stands in an exit fort (the rules file's static test).
///
/// The king is on the edge with an empty neighbour. `R` is the flood from the king through empty
/// squares; no attacker may stand next to it (one that did could step in). The uncapturable
/// defenders are the greatest set `S` such that each member has, on each axis, a neighbour off
/// the board or in `P = S ∪ (R minus the restricted squares)` — a corner or the empty throne
/// is hostile, never protection — and, on the edge, also has its inward neighbour in `P`, so
/// that no attacker can ever stand in front of it for a shield wall. It is found by removing
/// failing defenders until none fails. The fort holds when every defender next to `R` is in `S`:
/// attackers then never enter `R` and never capture a wall piece.
#[must_use]
pub fn exit_fort(board: &Board) -> bool {
    let king = board.king_bit();
    let empty = BOARD & !board.occupied();
    if king & EDGE == 0 || neighbours(king) & empty == 0 {
        return false;
    }
    let region = flood(king, empty);
    let wall = neighbours(region) & !region;
    if wall & board.attackers != 0 {
        return false;
    }
    let inside = region & !RESTRICTED;
    let mut safe = board.defenders;
    loop {
        let p = safe | inside;
        // A square is in `east(p)` when its west neighbour is in P, and so on.
        let (e, w, n, s) = (east(p), west(p), north(p), south(p));
        let across = FILE_A | FILE_K | e | w;
        let up_down = RANK_1 | RANK_11 | n | s;
        let front = !EDGE | (RANK_1 & s) | (RANK_11 & n) | (FILE_A & w) | (FILE_K & e);
        let kept = safe & across & up_down & front;
        if kept == safe {
            break;
        }
        safe = kept;
    }
    wall & board.defenders & !safe == 0
}
