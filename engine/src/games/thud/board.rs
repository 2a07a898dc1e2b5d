//! The octagon, the stone and a position.
//!
//! A position is one byte per cell of a padded grid, 16 cells wide (15 files and one guard
//! column, which serves as both the left and the right edge) and 17 rows high (15 ranks and a
//! guard row below and above). Cut corners, guards and the stone are all *wall* cells, so every
//! ray walk, line count and neighbour test is a plain load with no bounds test, and every real
//! square's index fits in a `u8` (21..=249). The low two bits of a cell say what stands there;
//! the upper bits count the dwarfs on its eight neighbours, kept up to date as dwarfs come and go,
//! so that a troll's capture choices are read with one load (the 2^k subsets perft counts without
//! enumerating them). 256-bit sets of dwarfs and trolls sit beside the cells for iterating over
//! pieces. The whole position is about 340 bytes: the searcher copies it per move (its
//! contract), while perft plays and takes back moves on one board, which measured faster.

use core::fmt;

use crate::random::splitmix64;

/// Files left to right as the Thud community writes them: there is no `I`.
pub const FILES: [u8; 15] = *b"ABCDEFGHJKLMNOP";
/// Squares on each rank, rank 1 first: a 15×15 grid with a 15-square triangle cut from each
/// corner.
pub const RANK_WIDTHS: [usize; 15] = [5, 7, 9, 11, 13, 15, 15, 15, 15, 15, 13, 11, 9, 7, 5];
/// Squares on the octagon.
pub const SQUARE_COUNT: usize = 165;
/// Cells per row of the padded grid.
pub(super) const STRIDE: usize = 16;
/// Cells of the padded grid: every neighbour of a real square is a cell.
pub(super) const CELLS: usize = 17 * STRIDE;

/// The eight directions as cell offsets, in increasing order: a capture mask whose bit `i`
/// stands for the neighbour at `DIRS[i]` therefore lists the captured squares in square order
/// when read from bit 0 up, and the opposite of direction `i` is `7 - i`.
pub const DIRS: [isize; 8] = [-17, -16, -15, -1, 1, 15, 16, 17];

/// What a cell holds (low two bits).
pub(super) const EMPTY: u8 = 0;
pub(super) const DWARF: u8 = 1;
pub(super) const TROLL: u8 = 2;
/// Off the octagon, a guard cell, or the stone: nothing moves onto or through it.
pub(super) const WALL: u8 = 3;
pub(super) const KIND: u8 = 3;
/// One neighbouring dwarf in a cell's upper bits.
const ADJ_UNIT: u8 = 4;

/// A square of the octagon, as its index in the padded grid: ordering squares by index orders
/// them by rank, then by file (the "square order" of capture lists).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The stone's square, H8.
    pub const STONE: Self = Self(cell(7, 7) as u8);

    /// The square on `file` (0 = A .. 14 = P) and `rank` (0 = rank 1 .. 14 = rank 15), if it is
    /// on the octagon.
    #[must_use]
    pub const fn new(file: usize, rank: usize) -> Option<Self> {
        if on_octagon(file, rank) {
            Some(Self(cell(file, rank) as u8))
        } else {
            None
        }
    }

    /// The square of a cell index known to be on the octagon.
    pub(super) const fn from_cell(cell: usize) -> Self {
        Self(cell as u8)
    }

    /// 0 = file A .. 14 = file P.
    #[must_use]
    pub const fn file(self) -> usize {
        self.0 as usize % STRIDE
    }

    /// 0 = rank 1 .. 14 = rank 15.
    #[must_use]
    pub const fn rank(self) -> usize {
        self.0 as usize / STRIDE - 1
    }

    /// The cell index in the padded grid.
    #[must_use]
    pub const fn cell(self) -> usize {
        self.0 as usize
    }

    /// The neighbouring square in direction `dir` (an index into [`DIRS`]), if it is on the
    /// octagon (the stone's square included).
    #[must_use]
    pub fn neighbour(self, dir: usize) -> Option<Self> {
        let c = self.cell().wrapping_add_signed(DIRS[dir]);
        Self::new(c % STRIDE, (c / STRIDE).wrapping_sub(1))
    }

    /// The number of king steps between two squares.
    #[must_use]
    pub const fn distance(self, other: Self) -> usize {
        let files = self.file().abs_diff(other.file());
        let ranks = self.rank().abs_diff(other.rank());
        if files > ranks { files } else { ranks }
    }

    /// Every square of the octagon in square order.
    pub fn all() -> impl Iterator<Item = Self> {
        (0..15).flat_map(|rank| (0..15).filter_map(move |file| Self::new(file, rank)))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(FILES[self.file()]), self.rank() + 1)
    }
}

const fn cell(file: usize, rank: usize) -> usize {
    (rank + 1) * STRIDE + file
}

const fn on_octagon(file: usize, rank: usize) -> bool {
    if rank >= 15 || file >= 15 {
        return false;
    }
    let cut = (15 - RANK_WIDTHS[rank]) / 2;
    file >= cut && file < 15 - cut
}

/// The eight trolls around the stone.
pub const START_TROLLS: [Square; 8] = [
    at(b'G', 7), at(b'H', 7), at(b'J', 7), at(b'G', 8),
    at(b'J', 8), at(b'G', 9), at(b'H', 9), at(b'J', 9),
];
/// The 32 dwarfs on the rim, all but the four squares in line with the stone.
pub const START_DWARFS: [Square; 32] = [
    at(b'F', 1), at(b'G', 1), at(b'J', 1), at(b'K', 1),
    at(b'E', 2), at(b'L', 2), at(b'D', 3), at(b'M', 3),
    at(b'C', 4), at(b'N', 4), at(b'B', 5), at(b'O', 5),
    at(b'A', 6), at(b'P', 6), at(b'A', 7), at(b'P', 7),
    at(b'A', 9), at(b'P', 9), at(b'A', 10), at(b'P', 10),
    at(b'B', 11), at(b'O', 11), at(b'C', 12), at(b'N', 12),
    at(b'D', 13), at(b'M', 13), at(b'E', 14), at(b'L', 14),
    at(b'F', 15), at(b'G', 15), at(b'J', 15), at(b'K', 15),
];

/// The square named `file` (a letter of [`FILES`]) and `rank` (from 1), as the rules write it;
/// evaluated at compile time, so a name off the octagon does not build.
const fn at(file: u8, rank: usize) -> Square {
    let mut index = 0;
    while FILES[index] != file {
        index += 1;
    }
    match Square::new(index, rank - 1) {
        Some(square) => square,
        None => panic!("a start square off the octagon"),
    }
}

/// The two armies; the dwarfs move first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Dwarfs,
    Trolls,
}

impl Side {
    /// The seat playing this side: seat 0 holds the dwarfs.
    #[must_use]
    pub const fn seat(self) -> usize {
        self as usize
    }

    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Self::Dwarfs => Self::Trolls,
            Self::Trolls => Self::Dwarfs,
        }
    }

    /// The side's name in narration and errors.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Dwarfs => "dwarfs",
            Self::Trolls => "trolls",
        }
    }
}

/// A movable piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    Dwarf,
    Troll,
}

impl Piece {
    const fn kind(self) -> u8 {
        match self {
            Self::Dwarf => DWARF,
            Self::Troll => TROLL,
        }
    }
}

/// A set of squares: bit `i` is cell `i` (real squares are all below 256).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SquareSet([u64; 4]);

impl SquareSet {
    fn toggle(&mut self, cell: usize) {
        self.0[cell / 64] ^= 1 << (cell % 64);
    }

    /// Adds the square of cell index `cell`.
    #[inline]
    pub(super) fn insert_cell(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }

    /// Whether cell index `cell` is in the set.
    #[inline]
    pub(super) fn has_cell(&self, cell: usize) -> bool {
        self.0[cell / 64] >> (cell % 64) & 1 != 0
    }

    /// The squares in both sets.
    #[must_use]
    pub fn and(&self, other: &Self) -> Self {
        Self(core::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    /// The squares in either set.
    #[must_use]
    pub fn or(&self, other: &Self) -> Self {
        Self(core::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    #[must_use]
    pub fn contains(&self, sq: Square) -> bool {
        self.0[sq.cell() / 64] >> (sq.cell() % 64) & 1 != 0
    }

    #[must_use]
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// The squares in square order.
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            core::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    Square::from_cell(w * 64 + b)
                })
            })
        })
    }
}

/// The neighbours of every cell below 256 that are themselves below 256 (every real square's
/// neighbours on the octagon are), for growing a set by one square in every direction.
const NEIGHBOURS: [SquareSet; 256] = {
    let mut table = [SquareSet([0; 4]); 256];
    let mut c = 0;
    while c < 256 {
        let mut i = 0;
        while i < 8 {
            let n = c as isize + DIRS[i];
            if n >= 0 && n < 256 {
                table[c].0[n as usize / 64] |= 1 << (n as usize % 64);
            }
            i += 1;
        }
        c += 1;
    }
    table
};

/// For each cell below 256, the real squares within two king steps of it (itself included).
const WITHIN_TWO: [SquareSet; 256] = {
    let mut table = [SquareSet([0; 4]); 256];
    let mut c = 0;
    while c < 256 {
        let (file, row) = (c % STRIDE, c / STRIDE);
        let mut dr = 0;
        while dr < 5 {
            let mut df = 0;
            while df < 5 {
                let (f, r) = ((file + df).wrapping_sub(2), (row + dr).wrapping_sub(3));
                if on_octagon(f, r) {
                    let n = cell(f, r);
                    table[c].0[n / 64] |= 1 << (n % 64);
                }
                df += 1;
            }
            dr += 1;
        }
        c += 1;
    }
    table
};

/// The octagon's squares but the stone's: where a piece may stand.
const FREE: SquareSet = {
    let mut set = SquareSet([0; 4]);
    let mut rank = 0;
    while rank < 15 {
        let mut file = 0;
        while file < 15 {
            let c = cell(file, rank);
            if on_octagon(file, rank) && c != Square::STONE.cell() {
                set.0[c / 64] |= 1 << (c % 64);
            }
            file += 1;
        }
        rank += 1;
    }
    set
};

impl SquareSet {
    /// The real squares within two king steps of `sq`, itself included.
    #[must_use]
    pub fn within_two(sq: Square) -> Self {
        WITHIN_TWO[sq.cell()]
    }

    /// The squares in this set but not in `other`.
    #[must_use]
    pub fn minus(&self, other: &Self) -> Self {
        Self(core::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    /// The set moved one step in direction `d` (one of [`DIRS`]): cell `c` becomes `c + d`.
    /// Cells moved past either end of the 256 are dropped (they are walls).
    #[must_use]
    pub(super) fn shifted(&self, d: isize) -> Self {
        let [w0, w1, w2, w3] = self.0;
        let s = d.unsigned_abs() as u32;
        debug_assert!((1..64).contains(&s));
        let back = 64 - s;
        Self(if d > 0 {
            [
                w0 << s,
                w1 << s | w0 >> back,
                w2 << s | w1 >> back,
                w3 << s | w2 >> back,
            ]
        } else {
            [
                w0 >> s | w1 << back,
                w1 >> s | w2 << back,
                w2 >> s | w3 << back,
                w3 >> s,
            ]
        })
    }

    /// Adds cell `c` and its eight neighbours (walls included).
    #[inline]
    pub(super) fn insert_around(&mut self, c: usize) {
        self.insert_cell(c);
        *self = self.or(&NEIGHBOURS[c]);
    }

    /// The squares next to a square of this set (walls included, which hold no piece).
    #[must_use]
    pub fn neighbours(&self) -> Self {
        self.iter()
            .fold(Self::default(), |acc, sq| acc.or(&NEIGHBOURS[sq.cell()]))
    }
}

/// Zobrist keys: `KEYS[0]` dwarfs, `KEYS[1]` trolls, by cell; generated at compile time from a
/// fixed seed so that hashes are the same on every machine and in every build.
const KEYS: [[u64; 256]; 2] = {
    let mut keys = [[0; 256]; 2];
    let mut i = 0;
    while i < 512 {
        keys[i / 256][i % 256] = splitmix64(0x7470_7564_0000_0000 + i as u64);
        i += 1;
    }
    keys
};
/// Toggled when the trolls are to move.
const TROLLS_TO_MOVE_KEY: u64 = splitmix64(0x7470_7564_ffff_ffff);

/// A position: where every piece stands and whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    cells: [u8; CELLS],
    dwarfs: SquareSet,
    trolls: SquareSet,
    hash: u64,
    side: Side,
}

impl Board {
    /// The octagon with only the stone, `side` to move.
    #[must_use]
    pub fn empty(side: Side) -> Self {
        let mut cells = [WALL; CELLS];
        for sq in Square::all() {
            cells[sq.cell()] = EMPTY;
        }
        cells[Square::STONE.cell()] = WALL;
        Self {
            cells,
            dwarfs: SquareSet::default(),
            trolls: SquareSet::default(),
            hash: if side == Side::Trolls {
                TROLLS_TO_MOVE_KEY
            } else {
                0
            },
            side,
        }
    }

    /// The classic start: 32 dwarfs on the rim, 8 trolls round the stone, dwarfs to move.
    #[must_use]
    pub fn start() -> Self {
        let mut board = Self::empty(Side::Dwarfs);
        for square in START_DWARFS {
            board.put(square, Piece::Dwarf);
        }
        for square in START_TROLLS {
            board.put(square, Piece::Troll);
        }
        board
    }

    #[must_use]
    pub const fn side(&self) -> Side {
        self.side
    }

    /// The Zobrist hash of the pieces and the side to move, kept up to date move by move.
    #[must_use]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch (what the incremental one must always equal).
    #[must_use]
    pub fn full_hash(&self) -> u64 {
        let side = if self.side == Side::Trolls {
            TROLLS_TO_MOVE_KEY
        } else {
            0
        };
        self.dwarfs
            .iter()
            .map(|sq| KEYS[0][sq.cell()])
            .chain(self.trolls.iter().map(|sq| KEYS[1][sq.cell()]))
            .fold(side, |h, k| h ^ k)
    }

    #[must_use]
    pub const fn dwarfs(&self) -> &SquareSet {
        &self.dwarfs
    }

    #[must_use]
    pub const fn trolls(&self) -> &SquareSet {
        &self.trolls
    }

    /// The squares where a piece may stand and none does.
    #[must_use]
    pub fn empties(&self) -> SquareSet {
        FREE.minus(&self.dwarfs).minus(&self.trolls)
    }

    #[must_use]
    pub fn dwarf_count(&self) -> u32 {
        self.dwarfs.len()
    }

    #[must_use]
    pub fn troll_count(&self) -> u32 {
        self.trolls.len()
    }

    /// The piece on `sq`, if any (the stone is not a piece).
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        match self.kind(sq.cell()) {
            DWARF => Some(Piece::Dwarf),
            TROLL => Some(Piece::Troll),
            _ => None,
        }
    }

    /// What cell `c` holds: [`EMPTY`], [`DWARF`], [`TROLL`] or [`WALL`].
    #[inline(always)]
    pub(super) fn kind(&self, c: usize) -> u8 {
        self.cells[c] & KIND
    }

    /// How many dwarfs stand next to cell `c`.
    #[inline(always)]
    pub(super) fn adjacent_dwarfs(&self, c: usize) -> u32 {
        u32::from(self.cells[c] / ADJ_UNIT)
    }

    /// The neighbours of cell `c` holding a dwarf, as a mask over [`DIRS`].
    #[inline]
    pub(super) fn dwarf_mask(&self, c: usize) -> u8 {
        if self.adjacent_dwarfs(c) == 0 {
            return 0;
        }
        DIRS.iter().enumerate().fold(0, |mask, (i, &d)| {
            mask | u8::from(self.kind(c.wrapping_add_signed(d)) == DWARF) << i
        })
    }

    /// Puts `piece` on the empty square `sq` (setting up positions).
    pub fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert_eq!(self.kind(sq.cell()), EMPTY, "{sq} is not empty");
        self.add(sq.cell(), piece.kind());
    }

    /// Sets whose turn it is.
    pub fn set_side(&mut self, side: Side) {
        if side != self.side {
            self.pass();
        }
    }

    /// Hands the turn to the other side.
    #[inline]
    pub(super) fn pass(&mut self) {
        self.side = self.side.other();
        self.hash ^= TROLLS_TO_MOVE_KEY;
    }

    #[inline]
    pub(super) fn add(&mut self, c: usize, kind: u8) {
        self.cells[c] |= kind;
        if kind == DWARF {
            self.dwarfs.toggle(c);
            self.count_around(c, ADJ_UNIT);
        } else {
            self.trolls.toggle(c);
        }
        self.hash ^= KEYS[usize::from(kind - 1)][c];
    }

    #[inline]
    pub(super) fn remove(&mut self, c: usize) {
        let kind = self.kind(c);
        self.cells[c] &= !KIND;
        if kind == DWARF {
            self.dwarfs.toggle(c);
            self.count_around(c, ADJ_UNIT.wrapping_neg());
        } else {
            self.trolls.toggle(c);
        }
        self.hash ^= KEYS[usize::from(kind - 1)][c];
    }

    /// Moves the piece on cell `from` to the empty cell `to`.
    #[inline]
    pub(super) fn relocate(&mut self, from: usize, to: usize) {
        let kind = self.kind(from);
        self.remove(from);
        self.add(to, kind);
    }

    /// Adds `delta` (±one dwarf) to the neighbour counts around cell `c`.
    #[inline(always)]
    fn count_around(&mut self, c: usize, delta: u8) {
        for d in DIRS {
            let n = c.wrapping_add_signed(d);
            self.cells[n] = self.cells[n].wrapping_add(delta);
        }
    }

    /// Whether the neighbour counts agree with the pieces (a test of the incremental updates).
    #[must_use]
    pub fn counts_are_consistent(&self) -> bool {
        Square::all().all(|sq| {
            let c = sq.cell();
            let dwarfs = DIRS
                .iter()
                .filter(|&&d| self.kind(c.wrapping_add_signed(d)) == DWARF)
                .count();
            self.adjacent_dwarfs(c) as usize == dwarfs
        })
    }
}
