//! Moves: what identifies one, how they are generated and counted, and perft.
//!
//! One traversal of the rules serves three purposes through a [`Visitor`]: filling a move list,
//! counting moves without listing them (perft's last ply: a troll landing next to `k` dwarfs is
//! `2^k` moves, read off the cell's neighbour count), and nothing else, so the three can never
//! disagree about the rules.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use super::board::{Board, DIRS, DWARF, EMPTY, Side, Square, SquareSet, TROLL};
use super::notation::MAX_TROLLS;
use crate::game::MoveBuffer;

/// A move, identified by where the piece starts, where it lands and what it captures. A dwarf's
/// hurl captures the troll it lands on (the position says which moves are hurls); a troll's
/// captures are a mask over [`DIRS`] around `to`. A shove of one square is the step with the
/// same captures: the same value, so it is listed once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    /// Bit `i`: the dwarf on `to + DIRS[i]` is captured (trolls only).
    pub captures: u8,
}

const _: () = assert!(core::mem::size_of::<Move>() == 3);

impl Move {
    /// The dwarfs a troll move captures, in square order.
    pub fn captured_squares(self) -> impl Iterator<Item = Square> {
        (0..8)
            .filter(move |i| self.captures >> i & 1 != 0)
            .map(move |i| Square::from_cell(self.to.cell().wrapping_add_signed(DIRS[i])))
    }
}

/// Which dwarfs a troll takes after a step or a shove.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TrollCapture {
    /// Any subset of the neighbouring dwarfs, non-empty after a shove; each subset is a move
    /// (the app's rule, confirmed by the game's designer).
    #[default]
    Choose,
    /// Every neighbouring dwarf (the Finnish article's rule): one move per destination.
    All,
}

/// The most legal moves a position can have, which sizes every move list.
///
/// - Trolls, steps: at most 8 trolls × 8 destinations × 2^7 capture subsets (a destination's
///   eight neighbours include the square the troll comes from, so at most 7 hold dwarfs) = 8,192.
/// - Trolls, shoves beyond one square: a troll with `N_d` trolls in line behind it (itself
///   included) in direction `d` may shove `N_d − 1` squares further; the lines behind it in
///   different directions are disjoint, so `Σ_d (N_d − 1) ≤ 7`; each destination has at most 7
///   neighbouring dwarfs (the square before it on the path is empty), so 2^7 − 1 non-empty
///   subsets: 8 × 7 × 127 = 7,112.
/// - Dwarfs: at most 32 dwarfs × 56 (a queen's most destinations on a 15×15 grid; a hurl lands
///   on a square of the same rays) = 1,792, below the trolls' bound.
pub const MAX_MOVES: usize = 8 * 8 * 128 + 8 * 7 * 127;

/// A move list that holds any position's legal moves.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// The most legal moves under [`TrollCapture::All`], where a troll has one move per destination:
/// the dwarfs' 1,792 of [`MAX_MOVES`] dominate the trolls' 8 × (8 steps + 7 shoves) = 120.
pub const MAX_TAKE_ALL_MOVES: usize = MAX_DWARF_MOVES;

/// The most dwarf moves a position can have (see [`MAX_MOVES`]).
const MAX_DWARF_MOVES: usize = 32 * 56;

/// A move list for what the searching levels consider: the [`TrollCapture::All`] moves, and
/// for the trolls a few captures that spare one dwarf (at most 7 more per capture, so at most
/// 8 × 15 × 8 = 960 troll moves, still below the dwarfs' bound).
pub type TakeAllMoveList = ArrayVec<Move, MAX_TAKE_ALL_MOVES>;

/// What a traversal of the rules does with each legal move.
trait Visitor {
    /// A dwarf slide or hurl.
    fn dwarf(&mut self, from: usize, to: usize);
    /// A troll landing on `to`, with its capture choices still to expand; a `shove` must capture
    /// and is only visited next to a dwarf.
    fn troll(&mut self, board: &Board, from: usize, to: usize, shove: bool);
    /// Cell `c` was read as a troll's possible landing, whatever it holds: the cells the
    /// trolls' moves depend on (the perft shortcut's use).
    #[inline(always)]
    fn landing_read(&mut self, _board: &Board, _c: usize) {}
}

#[inline(always)]
fn visit(board: &Board, v: &mut impl Visitor) {
    match board.side() {
        Side::Dwarfs => visit_dwarfs(board, v),
        Side::Trolls => visit_trolls(board, v),
    }
}

#[inline(always)]
fn visit_dwarfs(board: &Board, v: &mut impl Visitor) {
    for sq in board.dwarfs().iter() {
        let from = sq.cell();
        for d in DIRS {
            let mut to = from.wrapping_add_signed(d);
            let mut distance = 1;
            while board.kind(to) == EMPTY {
                v.dwarf(from, to);
                to = to.wrapping_add_signed(d);
                distance += 1;
            }
            if board.kind(to) == TROLL && line_reaches(board, from, -d, distance) {
                v.dwarf(from, to);
            }
        }
    }
}

/// Whether at least `length` dwarfs stand in an unbroken line from `front` (included) stepping
/// by `back`: the line that may hurl its front dwarf `length` squares.
#[inline(always)]
fn line_reaches(board: &Board, front: usize, back: isize, length: usize) -> bool {
    let mut c = front;
    for _ in 1..length {
        c = c.wrapping_add_signed(back);
        if board.kind(c) != DWARF {
            return false;
        }
    }
    true
}

#[inline(always)]
fn visit_trolls(board: &Board, v: &mut impl Visitor) {
    for sq in board.trolls().iter() {
        visit_troll(board, sq.cell(), v);
    }
}

/// The moves of the troll on cell `from`.
#[inline(always)]
fn visit_troll(board: &Board, from: usize, v: &mut impl Visitor) {
    for d in DIRS {
        let mut to = from.wrapping_add_signed(d);
        v.landing_read(board, to);
        if board.kind(to) != EMPTY {
            continue;
        }
        v.troll(board, from, to, false);
        // Each troll in line behind lets the front one go one square further.
        let mut behind = from.wrapping_add_signed(-d);
        while board.kind(behind) == TROLL {
            to = to.wrapping_add_signed(d);
            v.landing_read(board, to);
            if board.kind(to) != EMPTY {
                break;
            }
            if board.adjacent_dwarfs(to) > 0 {
                v.troll(board, from, to, true);
            }
            behind = behind.wrapping_add_signed(-d);
        }
    }
}

/// Counts moves without listing them.
struct Counter {
    rule: TrollCapture,
    moves: u64,
}

impl Visitor for Counter {
    #[inline(always)]
    fn dwarf(&mut self, _: usize, _: usize) {
        self.moves += 1;
    }

    #[inline(always)]
    fn troll(&mut self, board: &Board, _: usize, to: usize, shove: bool) {
        self.moves += match self.rule {
            TrollCapture::All => 1,
            TrollCapture::Choose => (1 << board.adjacent_dwarfs(to)) - u64::from(shove),
        };
    }
}

/// Lists moves.
struct Collector<'a, B> {
    rule: TrollCapture,
    out: &'a mut B,
}

impl<B: MoveBuffer<Move>> Visitor for Collector<'_, B> {
    #[inline(always)]
    fn dwarf(&mut self, from: usize, to: usize) {
        self.out.push(Move {
            from: Square::from_cell(from),
            to: Square::from_cell(to),
            captures: 0,
        });
    }

    #[inline]
    fn troll(&mut self, board: &Board, from: usize, to: usize, shove: bool) {
        let (from, to_sq) = (Square::from_cell(from), Square::from_cell(to));
        let all = board.dwarf_mask(to);
        let mut push = |captures| {
            self.out.push(Move {
                from,
                to: to_sq,
                captures,
            });
        };
        match self.rule {
            TrollCapture::All => push(all),
            TrollCapture::Choose => {
                // Every subset of `all` in increasing order; a shove skips the empty one.
                let mut subset = if shove { all & all.wrapping_neg() } else { 0 };
                loop {
                    push(subset);
                    if subset == all {
                        break;
                    }
                    subset = subset.wrapping_sub(all) & all;
                }
            }
        }
    }
}

/// Fills `out` with the legal moves of the side to move under `rule`.
pub fn generate(board: &Board, rule: TrollCapture, out: &mut impl MoveBuffer<Move>) {
    out.clear();
    visit(board, &mut Collector { rule, out });
}

/// Lists the captures only, each troll landing taking every dwarf beside it: what the searching
/// levels resolve at their horizon.
struct Captures<'a, B> {
    board: &'a Board,
    out: &'a mut B,
}

impl<B: MoveBuffer<Move>> Visitor for Captures<'_, B> {
    #[inline(always)]
    fn dwarf(&mut self, from: usize, to: usize) {
        if self.board.kind(to) == TROLL {
            self.out.push(Move {
                from: Square::from_cell(from),
                to: Square::from_cell(to),
                captures: 0,
            });
        }
    }

    #[inline]
    fn troll(&mut self, board: &Board, from: usize, to: usize, _: bool) {
        let all = board.dwarf_mask(to);
        if all != 0 {
            self.out.push(Move {
                from: Square::from_cell(from),
                to: Square::from_cell(to),
                captures: all,
            });
        }
    }
}

/// Fills `out` with the side to move's captures: hurls, and troll moves taking every dwarf
/// beside their destination.
pub fn generate_captures(board: &Board, out: &mut impl MoveBuffer<Move>) {
    out.clear();
    visit(board, &mut Captures { board, out });
}

/// The number of legal moves, without listing them.
#[must_use]
pub fn count(board: &Board, rule: TrollCapture) -> u64 {
    let mut counter = Counter { rule, moves: 0 };
    visit(board, &mut counter);
    counter.moves
}

/// Whether the side to move has any legal move: a dwarf next to an empty square or a troll (a
/// hurl of one), or a troll next to an empty square (a step, whatever the capture rule).
#[must_use]
pub fn has_legal_move(board: &Board) -> bool {
    let free = |sq: Square, also: u8| {
        DIRS.iter().any(|&d| {
            let k = board.kind(sq.cell().wrapping_add_signed(d));
            k == EMPTY || k == also
        })
    };
    match board.side() {
        Side::Dwarfs => board.dwarfs().iter().any(|sq| free(sq, TROLL)),
        Side::Trolls => board.trolls().iter().any(|sq| free(sq, EMPTY)),
    }
}

/// The number of move sequences `depth` plies long under the movement rules (the batch round
/// end — the no-capture window and the ply cap — is a match convention, not a movement rule, and
/// is not applied). The last ply is counted in bulk, without playing its moves.
#[must_use]
pub fn perft(board: &Board, rule: TrollCapture, depth: u32) -> u64 {
    if depth <= 1 {
        return if depth == 0 { 1 } else { count(board, rule) };
    }
    perft_in_place(&mut board.clone(), rule, depth)
}

/// Perft with make/unmake on one board: measured faster than copying the board for each move
/// (the copy was a quarter of perft(4)'s time). `depth >= 2`.
fn perft_in_place(board: &mut Board, rule: TrollCapture, depth: u32) -> u64 {
    if depth == 2 && board.side() == Side::Dwarfs && board.troll_count() <= MAX_TROLLS {
        return perft2_dwarfs(board, rule);
    }
    let mut moves = MoveList::new();
    generate(board, rule, &mut moves);
    let mut leaves = 0;
    for &mv in moves.iter() {
        let hurl = board.kind(mv.to.cell()) == TROLL;
        board.play(mv);
        leaves += if depth == 2 {
            count(board, rule)
        } else {
            perft_in_place(board, rule, depth - 1)
        };
        board.unplay(mv, hurl);
    }
    leaves
}

/// Perft 2 with the dwarfs to move. Each troll's reply count depends only on the cells its
/// traversal reads, so it is counted once and reused after every dwarf move that touches none of
/// them: a dwarf move far from every troll is only counted, one near some is played and only
/// those trolls are counted again, and a hurl (which removes a troll) is played and counted.
/// At most [`MAX_TROLLS`] trolls.
fn perft2_dwarfs(board: &mut Board, rule: TrollCapture) -> u64 {
    let mut trolls = ArrayVec::<TrollReach, { MAX_TROLLS as usize }>::new();
    let mut reach = *board.trolls();
    for sq in board.trolls().iter() {
        let mut troll = TrollReach {
            from: sq.cell(),
            counter: Counter { rule, moves: 0 },
            cells: SquareSet::default(),
        };
        visit_troll(board, troll.from, &mut troll);
        reach = reach.or(&troll.cells);
        trolls.push(troll);
    }
    let base: u64 = trolls.iter().map(|t| t.counter.moves).sum();
    let mut split = Split {
        reach: &reach,
        untouched: 0,
        touched: ArrayVec::new(),
    };
    visit_dwarfs(board, &mut split);
    let (untouched, touched) = (split.untouched, split.touched);
    let mut leaves = untouched * base;
    for &mv in touched.iter() {
        let (from, to) = (mv.from.cell(), mv.to.cell());
        let hurl = board.kind(to) == TROLL;
        board.play(mv);
        leaves += if hurl {
            count(board, rule)
        } else {
            trolls
                .iter()
                .map(|t| {
                    if t.cells.has_cell(from) || t.cells.has_cell(to) {
                        let mut counter = Counter { rule, moves: 0 };
                        visit_troll(board, t.from, &mut counter);
                        counter.moves
                    } else {
                        t.counter.moves
                    }
                })
                .sum()
        };
        board.unplay(mv, hurl);
    }
    leaves
}

/// Counts one troll's moves and gathers the cells that count depends on: the empty landings it
/// reads with their neighbours (whose dwarf counts it reads), and the dwarfs it meets. The other
/// cells it reads are walls, which never change, and trolls, which only a hurl changes.
struct TrollReach {
    from: usize,
    counter: Counter,
    cells: SquareSet,
}

impl Visitor for TrollReach {
    fn dwarf(&mut self, _: usize, _: usize) {}

    #[inline(always)]
    fn troll(&mut self, board: &Board, from: usize, to: usize, shove: bool) {
        self.counter.troll(board, from, to, shove);
    }

    #[inline(always)]
    fn landing_read(&mut self, board: &Board, c: usize) {
        match board.kind(c) {
            EMPTY => self.cells.insert_around(c),
            DWARF => self.cells.insert_cell(c),
            _ => {}
        }
    }
}

/// Sorts the dwarfs' moves into those touching a cell of `reach` and the others, only counted.
struct Split<'a> {
    reach: &'a SquareSet,
    untouched: u64,
    touched: ArrayVec<Move, MAX_DWARF_MOVES>,
}

impl Visitor for Split<'_> {
    #[inline(always)]
    fn dwarf(&mut self, from: usize, to: usize) {
        if self.reach.has_cell(from) || self.reach.has_cell(to) {
            self.touched.push(Move {
                from: Square::from_cell(from),
                to: Square::from_cell(to),
                captures: 0,
            });
        } else {
            self.untouched += 1;
        }
    }

    fn troll(&mut self, _: &Board, _: usize, _: usize, _: bool) {}
}

impl Board {
    /// Plays a legal move and returns the number of pieces it captured.
    pub fn play(&mut self, mv: Move) -> u32 {
        let (from, to) = (mv.from.cell(), mv.to.cell());
        let mut captured = 0;
        if self.kind(to) == TROLL {
            debug_assert_eq!(self.kind(from), DWARF, "only a dwarf lands on a troll");
            self.remove(to);
            captured += 1;
        }
        self.relocate(from, to);
        let mut mask = mv.captures;
        while mask != 0 {
            let victim = to.wrapping_add_signed(DIRS[mask.trailing_zeros() as usize]);
            debug_assert_eq!(self.kind(victim), DWARF, "a troll captures only dwarfs");
            self.remove(victim);
            captured += 1;
            mask &= mask - 1;
        }
        self.pass();
        captured
    }

    /// Takes back `mv`, just played by [`Board::play`]; `hurl` says whether it took a troll.
    pub(super) fn unplay(&mut self, mv: Move, hurl: bool) {
        let (from, to) = (mv.from.cell(), mv.to.cell());
        self.pass();
        self.relocate(to, from);
        if hurl {
            self.add(to, TROLL);
        }
        let mut mask = mv.captures;
        while mask != 0 {
            self.add(
                to.wrapping_add_signed(DIRS[mask.trailing_zeros() as usize]),
                DWARF,
            );
            mask &= mask - 1;
        }
    }

    /// The position after a legal move (copy-make).
    #[must_use]
    pub fn after(&self, mv: Move) -> Self {
        let mut next = self.clone();
        next.play(mv);
        next
    }
}
