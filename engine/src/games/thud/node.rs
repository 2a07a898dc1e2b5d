//! The position as the searcher sees it: the board plus how many plies the round has left, and
//! the squares each side threatens, worked out once per position when first needed.
//!
//! The searcher considers, for each troll destination, the move that takes every neighbouring
//! dwarf (the moves of [`TrollCapture::All`], legal under either rule) and, under the "choose"
//! rule, the captures that spare one dwarf where sparing it can matter ([`shielding`]). Taking
//! fewer never protects the troll that moved: a dwarf left beside it is a line of one that can
//! hurl onto it. A spared dwarf can only shield another troll, by standing in the path of a line
//! aimed at it, and the dwarfs take one troll a turn; the other 2^k subsets spare a point for
//! nothing, and would swamp the selection of promising moves.

use core::cell::OnceCell;

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
    /// next to a square a troll can step or shove to and that no hurl reaches once the troll
    /// has taken the dwarfs beside it (a dwarf next to nothing but covered squares is covered).
    pub dwarf_danger: SquareSet,
    /// Squares a troll can land on now to take dwarfs without a hurl in reply.
    pub troll_landings: SquareSet,
    /// Squares a dwarf's hurl reaches now: a troll standing on one can be taken.
    pub troll_danger: SquareSet,
    /// The most dwarfs one troll move can take now without a hurl in reply.
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
                zones.land(board, from, to, &mut reach);
                let mut behind = from.wrapping_add_signed(-d);
                while board.kind(behind) == TROLL {
                    to = to.wrapping_add_signed(d);
                    if board.kind(to) != EMPTY {
                        break;
                    }
                    zones.land(board, from, to, &mut reach);
                    behind = behind.wrapping_add_signed(-d);
                }
            }
        }
        zones.dwarf_danger = reach.neighbours();
        zones.troll_landings = reach;
        zones
    }
}

impl Zones {
    /// A troll from `from` can land on the empty square `to`: unless a hurl reaches it there
    /// after it has taken the dwarfs beside it, those dwarfs are in danger (`reach` collects
    /// such squares).
    fn land(&mut self, board: &Board, from: usize, to: usize, reach: &mut SquareSet) {
        let taken = board.adjacent_dwarfs(to);
        if taken > 0 && !covered_after_capture(board, from, to) {
            reach.insert_cell(to);
            self.troll_best = self.troll_best.max(taken);
        }
    }
}

/// Whether a dwarf line can hurl onto `to` after a troll from `from` has landed there and taken
/// every dwarf beside it: the dwarfs it takes, and the square it leaves, no longer block or
/// form a line (a capture that breaks the line covering its square is not covered).
fn covered_after_capture(board: &Board, from: usize, to: usize) -> bool {
    let passable = |c: usize, distance: usize| {
        c == from
            || match board.kind(c) {
                EMPTY => true,
                DWARF => distance == 1,
                _ => false,
            }
    };
    DIRS.iter().any(|&d| {
        let mut front = to.wrapping_add_signed(d);
        let mut distance = 1;
        while passable(front, distance) {
            front = front.wrapping_add_signed(d);
            distance += 1;
        }
        board.kind(front) == DWARF && line_length(board, front, d) >= distance
    })
}

/// The squares some dwarf line can hurl onto: empty ones, and those of the trolls it can take.
///
/// Worked out a direction at a time on whole sets, a step further each round: the squares `k`
/// steps ahead of a dwarf with at least `k - 1` dwarfs behind it, along a path of empty squares.
fn hurl_reach(board: &Board) -> SquareSet {
    let empty = board.empties();
    let open = empty.or(board.trolls());
    let mut danger = SquareSet::default();
    for d in DIRS {
        // `ahead`: the dwarfs moved k steps; `lines`: those with k - 1 dwarfs behind them,
        // moved k steps; `path`: squares k steps ahead of a dwarf over empty squares.
        let mut ahead = board.dwarfs().shifted(d);
        let mut lines = ahead;
        let mut reached = ahead;
        loop {
            danger = danger.or(&reached.and(&open));
            let path = reached.and(&empty);
            if path.is_empty() {
                break;
            }
            ahead = ahead.shifted(d);
            lines = ahead.and(&lines.shifted(d).shifted(d));
            reached = path.shifted(d).and(&lines);
        }
    }
    danger
}

/// Adds to the take-all troll moves in `out` each capture that spares one dwarf whose square,
/// emptied by the take-all capture, would open a hurl onto another troll: the spared dwarf
/// shields that troll (at the cost of its point, and of the troll that moved being in its
/// reach). A shove still takes at least one dwarf.
fn shielding(board: &Board, out: &mut TakeAllMoveList) {
    for i in 0..out.len() {
        let mv = out[i];
        if mv.captures == 0 {
            continue;
        }
        let after = board.after(mv);
        let shove = mv.from.distance(mv.to) > 1;
        for (bit, &d) in DIRS.iter().enumerate() {
            let spare = 1 << bit;
            if mv.captures & spare == 0 || (shove && mv.captures == spare) {
                continue;
            }
            let cell = mv.to.cell().wrapping_add_signed(d);
            if opens_hurl(&after, cell, mv.to.cell()) {
                out.push(Move {
                    captures: mv.captures & !spare,
                    ..mv
                });
            }
        }
    }
}

/// Whether some dwarf line can hurl across the empty cell `c` onto a troll other than the one
/// on `mover`.
fn opens_hurl(board: &Board, c: usize, mover: usize) -> bool {
    DIRS.iter().any(|&d| {
        let (troll, beyond) = first_piece(board, c, d);
        if board.kind(troll) != TROLL || troll == mover {
            return false;
        }
        let (front, before) = first_piece(board, c, -d);
        board.kind(front) == DWARF && line_length(board, front, -d) >= before + beyond
    })
}

/// The first cell from `c` in direction `d` that is not empty, and how many steps away it is.
fn first_piece(board: &Board, c: usize, d: isize) -> (usize, usize) {
    let (mut cell, mut steps) = (c.wrapping_add_signed(d), 1);
    while board.kind(cell) == EMPTY {
        cell = cell.wrapping_add_signed(d);
        steps += 1;
    }
    (cell, steps)
}

/// The number of dwarfs in an unbroken line from the dwarf on `front` stepping by `back`.
fn line_length(board: &Board, front: usize, back: isize) -> usize {
    let mut length = 1;
    let mut cell = front.wrapping_add_signed(back);
    while board.kind(cell) == DWARF {
        length += 1;
        cell = cell.wrapping_add_signed(back);
    }
    length
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
    /// Which dwarfs a troll may take: "all" leaves it no choice to search.
    rule: TrollCapture,
    /// The side to move at the root of the search: the side the searching level plays.
    root_side: Side,
    zones: OnceCell<Zones>,
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
            rule: round.rule(),
            root_side: round.board().side(),
            zones: OnceCell::new(),
        }
    }

    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The threats of this position, computed on first use.
    pub fn zones(&self) -> &Zones {
        self.zones.get_or_init(|| Zones::of(&self.board))
    }

    /// The side to move at the root of the search.
    #[must_use]
    pub const fn root_side(&self) -> Side {
        self.root_side
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

    /// Whether the round has ended on its no-capture window or its ply cap: the evaluation
    /// scores such an end ([`SearchGame::terminal`] leaves it out).
    #[must_use]
    pub fn out_of_plies(&self) -> bool {
        self.window_left == 0 || self.plies_left == 0
    }

    /// Whether the round is decided on its board: a side taken or stuck.
    fn decided(&self) -> bool {
        self.board.dwarf_count() == 0
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

    /// No move once the round is out of plies: the searcher then asks the evaluation.
    fn generate(&self, out: &mut TakeAllMoveList) {
        if self.out_of_plies() {
            out.clear();
            return;
        }
        generate(&self.board, TrollCapture::All, out);
        if self.rule == TrollCapture::Choose && self.board.side() == Side::Trolls {
            shielding(&self.board, out);
        }
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
            rule: self.rule,
            root_side: self.root_side,
            zones: OnceCell::new(),
        }
    }

    fn hash(&self) -> u64 {
        self.board.hash() ^ horizon_key(self.window_left, 0) ^ horizon_key(self.plies_left, 1)
    }

    /// A decided round scores its final points: there is no win beyond the points. A round out
    /// of plies is left to the evaluation (it has no moves), which may score what its board
    /// still says ([`super::eval::EvalWeights::end_shape`]).
    fn terminal(&self, _: u32) -> Option<i32> {
        (!self.out_of_plies() && self.decided())
            .then(|| self.for_side_to_move(POINT * self.margin()))
    }

    /// The dwarfs, to move, face a troll capture with no hurl in reply. Where a level searches
    /// threats (its `threats` parameter), such a position is searched over its answers, one ply
    /// more at the horizon: whether the dwarfs can answer the threat is then searched, not
    /// guessed by `troll_threat_later`. The trolls' side has no such extension: a troll in a
    /// hurl's reach is nearly always there because the dwarfs have just moved beside it, and
    /// extending those too chained the extensions and multiplied Expert's nodes by 30.
    fn forcing(&self) -> bool {
        self.board.side() == Side::Dwarfs && !self.out_of_plies() && self.zones().troll_best > 0
    }

    /// The moves that may answer the trolls' threat: a hurl, a threatened dwarf leaving, or a
    /// dwarf standing on a square a troll would land on. All moves when none of these exists
    /// (the searcher would score a node without answers as lost outright).
    fn answers(&self, out: &mut TakeAllMoveList) {
        self.generate(out);
        let zones = self.zones();
        let board = &self.board;
        let answers = |mv: &Move| {
            let (from, to) = (mv.from.cell(), mv.to.cell());
            board.kind(to) == TROLL
                || zones.dwarf_danger.has_cell(from)
                || zones.troll_landings.has_cell(to)
        };
        if out.iter().any(answers) {
            out.retain(|mv| answers(mv));
        }
    }

    /// A threatened dwarf may be worth leaving for a hurl or a stronger move elsewhere: the
    /// answers alone are searched only in the extra ply at the horizon.
    const ONLY_ANSWERS: bool = false;

    /// A quiet cycle only runs the window down: the round then ends on its points, which the
    /// search sees.
    const CYCLES_DRAW: bool = false;

    /// One slot per (from, to) cell pair.
    const HISTORY_SLOTS: usize = 1 << 16;

    fn history_slot(&self, mv: Move) -> usize {
        mv.from.cell() << 8 | mv.to.cell()
    }
}
