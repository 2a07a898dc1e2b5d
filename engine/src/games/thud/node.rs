//! The position as the searcher sees it: the board plus how many plies the round has left, and
//! the squares each side threatens, worked out once per position when first needed.
//!
//! The searcher considers, for each troll destination, only the move that takes every
//! neighbouring dwarf (the moves of [`TrollCapture::All`], legal under either rule). Taking fewer
//! spares a dwarf worth a point to the other side, and it never protects the troll that moved: a
//! dwarf left beside it is a line of one that can hurl onto it. It could only shield another
//! troll, by blocking the path of a line aimed at it, and the dwarfs still take one troll a
//! turn; the 2^k subsets would meanwhile swamp the selection of promising moves.

use core::cell::Cell;

use super::board::{Board, DIRS, DWARF, EMPTY, Side, SquareSet, TROLL};
use super::moves::{Move, TakeAllMoveList, TrollCapture, generate, has_legal_move};
use super::{DWARF_POINTS, TROLL_POINTS, Thud};
use crate::random::splitmix64;
use crate::search::SearchGame;

/// Evaluation units per point of score.
pub const POINT: i32 = 100;

/// Within this many plies of the no-capture window or the ply cap, the plies left are part of
/// the hash: a search of depth `d` from a position with more than `d` plies left cannot reach
/// either end, so its result holds for any such count, and positions far from both share their
/// table entries. No level searches deeper than this (the search parameters' largest depth),
/// captures beyond the horizon aside: they reset the window.
pub const HORIZON: u32 = 64;

/// The threats of a position, whoever is to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Zones {
    /// Squares where a dwarf would be taken by some troll move now without a hurl in reply:
    /// next to a square a troll can step or shove to and no hurl reaches (a dwarf next to
    /// nothing but covered squares is covered).
    pub dwarf_danger: SquareSet,
    /// Squares a dwarf's hurl reaches now: a troll standing on one can be taken.
    pub troll_danger: SquareSet,
    /// The most dwarfs one troll move can take now, landing where no hurl reaches.
    pub troll_best: u32,
    /// Troll steps to empty squares that no hurl reaches: the trolls' safe room to manoeuvre.
    pub troll_safe_steps: u32,
}

impl Zones {
    /// Works the threats out from the board.
    #[must_use]
    pub fn of(board: &Board) -> Self {
        let mut zones = Self {
            troll_danger: hurl_reach(board),
            ..Self::default()
        };
        let mut reach = SquareSet::default();
        for sq in board.trolls().iter() {
            let from = sq.cell();
            for d in DIRS {
                let mut to = from.wrapping_add_signed(d);
                if board.kind(to) != EMPTY {
                    continue;
                }
                zones.troll_safe_steps += u32::from(!zones.troll_danger.has_cell(to));
                zones.land(board, to, &mut reach);
                let mut behind = from.wrapping_add_signed(-d);
                while board.kind(behind) == TROLL {
                    to = to.wrapping_add_signed(d);
                    if board.kind(to) != EMPTY {
                        break;
                    }
                    zones.land(board, to, &mut reach);
                    behind = behind.wrapping_add_signed(-d);
                }
            }
        }
        zones.dwarf_danger = reach.neighbours();
        zones
    }
}

impl Zones {
    /// A troll can land on the empty square `to`: where no hurl reaches, its neighbours are in
    /// danger (`reach` collects such squares).
    fn land(&mut self, board: &Board, to: usize, reach: &mut SquareSet) {
        if !self.troll_danger.has_cell(to) {
            reach.insert_cell(to);
            self.troll_best = self.troll_best.max(board.adjacent_dwarfs(to));
        }
    }
}

/// The squares some dwarf line can hurl onto: empty ones, and those of the trolls it can take.
fn hurl_reach(board: &Board) -> SquareSet {
    let mut danger = SquareSet::default();
    for sq in board.dwarfs().iter() {
        let front = sq.cell();
        for d in DIRS {
            let mut line = 1;
            let mut back = front.wrapping_add_signed(-d);
            while board.kind(back) == DWARF {
                line += 1;
                back = back.wrapping_add_signed(-d);
            }
            let mut to = front;
            for _ in 0..line {
                to = to.wrapping_add_signed(d);
                match board.kind(to) {
                    EMPTY => danger.insert_cell(to),
                    TROLL => {
                        danger.insert_cell(to);
                        break;
                    }
                    _ => break,
                }
            }
        }
    }
    danger
}

/// A searched position.
#[derive(Clone, Debug)]
pub struct Node {
    board: Board,
    /// The no-capture window's length, and the plies left in it.
    window: u32,
    window_left: u32,
    /// Plies left before the ply cap.
    plies_left: u32,
    zones: Cell<Option<Zones>>,
}

impl Node {
    /// The round's position, with what is left of its window and cap.
    #[must_use]
    pub fn new(round: &Thud) -> Self {
        Self {
            board: round.board().clone(),
            window: round.no_capture_plies,
            window_left: round.window_left(),
            plies_left: round.plies_left(),
            zones: Cell::new(None),
        }
    }

    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The threats of this position, computed on first use.
    pub fn zones(&self) -> Zones {
        self.zones.get().unwrap_or_else(|| {
            let zones = Zones::of(&self.board);
            self.zones.set(Some(zones));
            zones
        })
    }

    /// Dwarf points minus troll points as the board stands.
    #[must_use]
    pub fn margin(&self) -> i32 {
        DWARF_POINTS * self.board.dwarf_count() as i32
            - TROLL_POINTS * self.board.troll_count() as i32
    }

    /// `value` seen from the dwarfs, turned to the side to move's view.
    #[must_use]
    pub fn for_side_to_move(&self, value: i32) -> i32 {
        match self.board.side() {
            Side::Dwarfs => value,
            Side::Trolls => -value,
        }
    }

    fn over(&self) -> bool {
        self.window_left == 0
            || self.plies_left == 0
            || self.board.dwarf_count() == 0
            || self.board.troll_count() == 0
            || !has_legal_move(&self.board)
    }
}

/// The hash contribution of `left` plies before one of the round's ends (`which` 0 or 1).
fn horizon_key(left: u32, which: u64) -> u64 {
    if left > HORIZON {
        0
    } else {
        splitmix64(0x686f_7269_7a6f_6e00 + which * 64 + u64::from(left))
    }
}

impl SearchGame for Node {
    type Move = Move;
    type MoveList = TakeAllMoveList;

    fn generate(&self, out: &mut TakeAllMoveList) {
        generate(&self.board, TrollCapture::All, out);
    }

    fn after(&self, mv: Move) -> Self {
        let mut board = self.board.clone();
        let captured = board.play(mv);
        Self {
            board,
            window: self.window,
            window_left: if captured > 0 {
                self.window
            } else {
                self.window_left.saturating_sub(1)
            },
            plies_left: self.plies_left.saturating_sub(1),
            zones: Cell::new(None),
        }
    }

    fn hash(&self) -> u64 {
        self.board.hash() ^ horizon_key(self.window_left, 0) ^ horizon_key(self.plies_left, 1)
    }

    /// An ended round scores its final points: there is no win beyond the points.
    fn terminal(&self, _: u32) -> Option<i32> {
        self.over()
            .then(|| self.for_side_to_move(POINT * self.margin()))
    }

    /// A quiet cycle only runs the window down: the round then ends on its points, which the
    /// search sees.
    const CYCLES_DRAW: bool = false;

    /// One slot per (from, to) cell pair.
    const HISTORY_SLOTS: usize = 1 << 16;

    fn history_slot(&self, mv: Move) -> usize {
        mv.from.cell() << 8 | mv.to.cell()
    }
}
