//! Geometry of the 11×11 board as bitboards over 121 squares (`docs/rules/hnefatafl.md`, "Board and
//! pieces"), and the piece placement with its incrementally kept occupancies and Zobrist hash.
//!
//! Square `s = 11 · rank + file`, both counted from 0: `a1` is 0, `k1` is 10, `a11` is 110 and
//! `k11` is 120. Bit `s` of a `u128` stands for square `s`. A second, transposed occupancy (bit
//! `11 · file + rank`) turns every file into 11 contiguous bits, so that sliding along a file is
//! the same table look-up as sliding along a rank.

use crate::random::splitmix64;

/// Squares on a side.
pub const SIZE: usize = 11;
/// Squares on the board.
pub const SQUARES: usize = SIZE * SIZE;
/// The throne, `f6`.
pub const THRONE: Square = Square::at(5, 5);

/// A square of the board: `11 · rank + file`, both counted from 0 (`a1` is 0, `k11` is 120).
/// A newtype, as Thud's squares are, so that a square is never confused with a file, a rank, a
/// cell of a line or a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` and `rank` (both `0..SIZE`).
    #[must_use]
    pub const fn at(file: usize, rank: usize) -> Self {
        debug_assert!(file < SIZE && rank < SIZE);
        Self((rank * SIZE + file) as u8)
    }

    /// The square of index `index` (`0..SQUARES`).
    #[must_use]
    pub const fn from_index(index: usize) -> Self {
        debug_assert!(index < SQUARES);
        Self(index as u8)
    }

    /// The square's index, `11 · rank + file`: its bit in a [`Bits`] and its row in tables.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of squares.
pub type Bits = u128;

/// Every square of the board.
pub const BOARD: Bits = (1 << SQUARES) - 1;
/// The eleven squares of file `a`.
pub const FILE_A: Bits = file_mask(0);
/// The eleven squares of file `k`.
pub const FILE_K: Bits = file_mask(10);
/// Rank 1.
pub const RANK_1: Bits = 0x7ff;
/// Rank 11.
pub const RANK_11: Bits = 0x7ff << 110;
/// The forty edge squares (the corners included).
pub const EDGE: Bits = FILE_A | FILE_K | RANK_1 | RANK_11;
/// The four corners.
pub const CORNERS: Bits = 1 | 1 << 10 | 1 << 110 | 1 << 120;
/// The throne.
pub const THRONE_BIT: Bits = bit(THRONE);
/// Squares only the king may stop on.
pub const RESTRICTED: Bits = CORNERS | THRONE_BIT;

const fn file_mask(file: usize) -> Bits {
    let mut bits = 0;
    let mut rank = 0;
    while rank < SIZE {
        bits |= 1 << (rank * SIZE + file);
        rank += 1;
    }
    bits
}

#[inline]
#[must_use]
pub const fn bit(square: Square) -> Bits {
    1 << square.0
}

#[must_use]
pub const fn rank_of(square: Square) -> usize {
    square.index() / SIZE
}

#[must_use]
pub const fn file_of(square: Square) -> usize {
    square.index() % SIZE
}

/// The four orthogonal directions as (file, rank) steps.
pub const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The square one step from `square` in direction `dir` (an index into [`DIRECTIONS`]), or
/// `None` off the board.
#[inline]
#[must_use]
pub fn step(square: Square, dir: usize) -> Option<Square> {
    let next = NEIGHBOUR[square.index()][dir];
    (next != OFF).then_some(Square(next))
}

/// Marks a step off the board in [`NEIGHBOUR`].
const OFF: u8 = u8::MAX;

/// `NEIGHBOUR[s][d]`: the square next to `s` in direction `d`, or [`OFF`].
static NEIGHBOUR: [[u8; 4]; SQUARES] = {
    let mut table = [[OFF; 4]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (file, rank) = ((s % SIZE) as i8, (s / SIZE) as i8);
        let mut d = 0;
        while d < 4 {
            let (f, r) = (file + DIRECTIONS[d].0, rank + DIRECTIONS[d].1);
            if f >= 0 && f < SIZE as i8 && r >= 0 && r < SIZE as i8 {
                table[s][d] = (r as usize * SIZE + f as usize) as u8;
            }
            d += 1;
        }
        s += 1;
    }
    table
};

/// `bits` moved one square east: a square is in the result when its west neighbour is in
/// `bits`.
#[inline]
#[must_use]
pub const fn east(bits: Bits) -> Bits {
    (bits << 1) & !FILE_A & BOARD
}

/// `bits` moved one square west: a square is in the result when its east neighbour is in `bits`.
#[inline]
#[must_use]
pub const fn west(bits: Bits) -> Bits {
    (bits >> 1) & !FILE_K
}

/// `bits` moved one square north: a square is in the result when its south neighbour is in
/// `bits`.
#[inline]
#[must_use]
pub const fn north(bits: Bits) -> Bits {
    (bits << SIZE) & BOARD
}

/// `bits` moved one square south: a square is in the result when its north neighbour is in
/// `bits`.
#[inline]
#[must_use]
pub const fn south(bits: Bits) -> Bits {
    bits >> SIZE
}

/// The squares next to any square of `bits`, orthogonally.
#[inline]
#[must_use]
pub const fn neighbours(bits: Bits) -> Bits {
    north(bits) | south(bits) | east(bits) | west(bits)
}

/// Grows `seed` through `passable` squares (orthogonal steps) until it stops growing. Each
/// round grows it along whole lines ([`fill_lines`]), so an open board floods in a few rounds
/// rather than one round per square of the longest path.
#[must_use]
pub fn flood(mut seed: Bits, passable: Bits) -> Bits {
    loop {
        let grown = fill_lines(seed, passable);
        if grown == seed {
            return seed;
        }
        seed = grown;
    }
}

/// `from` and the squares reached from it along straight lines, in each of the four
/// directions, through `open` squares only: a rook's sweep when `open` is the empty squares.
#[must_use]
pub fn fill_lines(from: Bits, open: Bits) -> Bits {
    let [e, w, n, s] = directed_fills(from, open);
    e | w | n | s
}

/// [`fill_lines`] one direction at a time: `from` grown eastward, westward, northward and
/// southward through `open` squares (each includes `from`). Kept apart for the callers that
/// need to know which way a square was reached.
#[must_use]
pub fn directed_fills(from: Bits, open: Bits) -> [Bits; 4] {
    let (step, open) = (SIZE as u32, open & BOARD);
    [
        fill(from, open & !FILE_A, 1, |b, n| b << n),
        fill(from, open & !FILE_K, 1, |b, n| b >> n),
        fill(from, open, step, |b, n| b << n),
        fill(from, open, step, |b, n| b >> n),
    ]
}

/// `from` grown along one direction through `open` squares (`shift(b, n)` moves a set `n` bits
/// along it, one square being `unit` bits) by doubling shifts, 1, 2, 4 and 8 squares: a
/// Kogge-Stone fill, four rounds instead of up to ten single steps. `open` must leave out the
/// squares a step would wrap onto.
fn fill(mut from: Bits, mut open: Bits, unit: u32, shift: impl Fn(Bits, u32) -> Bits) -> Bits {
    for doubling in [1, 2, 4, 8] {
        from |= open & shift(from, unit * doubling);
        open &= shift(open, unit * doubling);
    }
    from
}

/// `SLIDE[p][occupied]`: the cells a rook on cell `p` of an 11-cell line reaches when the line's
/// occupancy is `occupied` (the rook's own bit ignored), stopping before the first occupied
/// cell each way. Restricted squares are removed afterwards by the caller's mask, so the table
/// is pure geometry: 11 × 2048 entries, 44 KiB.
static SLIDE: [[u16; 1 << SIZE]; SIZE] = {
    let mut table = [[0u16; 1 << SIZE]; SIZE];
    let mut p = 0;
    while p < SIZE {
        let mut occupied = 0;
        while occupied < 1 << SIZE {
            let mut reach = 0u16;
            let mut i = p + 1;
            while i < SIZE && occupied & (1 << i) == 0 {
                reach |= 1 << i;
                i += 1;
            }
            let mut i = p;
            while i > 0 && occupied & (1 << (i - 1)) == 0 {
                reach |= 1 << (i - 1);
                i -= 1;
            }
            table[p][occupied] = reach;
            occupied += 1;
        }
        p += 1;
    }
    table
};

/// The cells a rook on cell `p` of a line with occupancy `line` reaches.
#[inline]
#[must_use]
pub fn slide(p: usize, line: u16) -> u16 {
    SLIDE[p][line as usize]
}

/// The 11 bits of line `index` of a (plain or transposed) occupancy.
#[inline]
#[must_use]
pub const fn line_bits(occupancy: Bits, index: usize) -> u16 {
    (occupancy >> (index * SIZE)) as u16 & 0x7ff
}

/// On line `index` (a rank, or a file: the geometry is symmetric), the cells a soldier may stop
/// on: all but the corners on the two edge lines and the throne on the middle line.
#[inline]
#[must_use]
pub const fn soldier_stops(index: usize) -> u16 {
    match index {
        0 | 10 => 0x7ff & !(1 | 1 << 10),
        5 => 0x7ff & !(1 << 5),
        _ => 0x7ff,
    }
}

/// A square's bit in the transposed (file-major) occupancy.
#[inline]
#[must_use]
pub const fn transposed_bit(square: Square) -> Bits {
    1 << (file_of(square) * SIZE + rank_of(square))
}

/// Who a piece belongs to; the index is also the seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The 24 attackers, who move first: seat 0.
    Attackers = 0,
    /// The 12 defenders and the king: seat 1.
    Defenders = 1,
}

impl Side {
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Self::Attackers => Self::Defenders,
            Self::Defenders => Self::Attackers,
        }
    }

    #[must_use]
    pub const fn seat(self) -> usize {
        self as usize
    }

    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Attackers => "attackers",
            Self::Defenders => "defenders",
        }
    }
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    Attacker = 0,
    Defender = 1,
    King = 2,
}

impl Piece {
    /// The letter OpenTafl writes: `t` attacker, `T` defender, `K` king.
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            Self::Attacker => 't',
            Self::Defender => 'T',
            Self::King => 'K',
        }
    }

    #[must_use]
    pub const fn side(self) -> Side {
        match self {
            Self::Attacker => Side::Attackers,
            Self::Defender | Self::King => Side::Defenders,
        }
    }
}

/// Zobrist keys: one per piece kind and square, and one for the defenders to move.
struct Keys {
    pieces: [[u64; SQUARES]; 3],
    defenders_to_move: u64,
}

static KEYS: Keys = {
    let mut pieces = [[0; SQUARES]; 3];
    let mut i = 0;
    while i < 3 * SQUARES {
        pieces[i / SQUARES][i % SQUARES] = splitmix64(0x4e6e_6566_0000_0000 + i as u64);
        i += 1;
    }
    Keys {
        pieces,
        defenders_to_move: splitmix64(0x4e6e_6566_ffff_ffff),
    }
};

/// The key of `piece` on `square`.
#[inline]
#[must_use]
pub fn piece_key(piece: Piece, square: Square) -> u64 {
    KEYS.pieces[piece as usize][square.index()]
}

/// The key toggled when the side to move changes.
#[must_use]
pub fn side_key(side: Side) -> u64 {
    match side {
        Side::Attackers => 0,
        Side::Defenders => KEYS.defenders_to_move,
    }
}

/// Piece placement. The occupancies are kept in step with the pieces by `put` and `remove` only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub attackers: Bits,
    /// The defenders' soldiers, the king excluded.
    pub defenders: Bits,
    pub king: Square,
    /// Every piece, in the transposed layout: bit `11 · file + rank`.
    pub occupied_t: Bits,
    /// The Zobrist hash of the placement (the side to move is added by the game).
    pub hash: u64,
}

impl Board {
    /// An empty board with the king on `king`.
    #[must_use]
    pub fn with_king(king: Square) -> Self {
        Self {
            attackers: 0,
            defenders: 0,
            king,
            occupied_t: transposed_bit(king),
            hash: piece_key(Piece::King, king),
        }
    }

    #[inline]
    #[must_use]
    pub const fn king_bit(&self) -> Bits {
        bit(self.king)
    }

    #[inline]
    #[must_use]
    pub const fn occupied(&self) -> Bits {
        self.attackers | self.defenders | self.king_bit()
    }

    /// The king and the defenders' soldiers.
    #[inline]
    #[must_use]
    pub const fn defenders_and_king(&self) -> Bits {
        self.defenders | self.king_bit()
    }

    /// Every piece of `side`, the king included for the defenders.
    #[inline]
    #[must_use]
    pub const fn side(&self, side: Side) -> Bits {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders_and_king(),
        }
    }

    #[must_use]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let b = bit(square);
        if self.attackers & b != 0 {
            Some(Piece::Attacker)
        } else if self.defenders & b != 0 {
            Some(Piece::Defender)
        } else if square == self.king {
            Some(Piece::King)
        } else {
            None
        }
    }

    /// Places a soldier or moves the king to an empty square.
    #[inline]
    pub fn put(&mut self, piece: Piece, square: Square) {
        match piece {
            Piece::Attacker => self.attackers |= bit(square),
            Piece::Defender => self.defenders |= bit(square),
            Piece::King => self.king = square,
        }
        self.occupied_t |= transposed_bit(square);
        self.hash ^= piece_key(piece, square);
    }

    /// Lifts `piece` off `square` (the king's square is left stale until the next `put`).
    #[inline]
    pub fn remove(&mut self, piece: Piece, square: Square) {
        match piece {
            Piece::Attacker => self.attackers &= !bit(square),
            Piece::Defender => self.defenders &= !bit(square),
            Piece::King => {}
        }
        self.occupied_t &= !transposed_bit(square);
        self.hash ^= piece_key(piece, square);
    }

    /// The hash computed from scratch, to check the incremental one.
    #[must_use]
    pub fn full_hash(&self) -> u64 {
        let mut hash = piece_key(Piece::King, self.king);
        for (piece, bits) in [
            (Piece::Attacker, self.attackers),
            (Piece::Defender, self.defenders),
        ] {
            for square in squares(bits) {
                hash ^= piece_key(piece, square);
            }
        }
        hash
    }
}

/// The squares of a set, in increasing order.
#[inline]
pub fn squares(mut bits: Bits) -> impl Iterator<Item = Square> {
    core::iter::from_fn(move || {
        (bits != 0).then(|| {
            let square = Square(bits.trailing_zeros() as u8);
            bits &= bits - 1;
            square
        })
    })
}

/// A random set of squares, each in it with probability one half: the tests' random boards.
#[cfg(test)]
pub(super) fn random_squares(rng: &mut crate::random::RandomStream) -> Bits {
    (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())) & BOARD
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::RandomStream;

    /// Random sets of squares: a quarter, a half and three quarters of the board.
    fn random_boards(seed: u64, count: usize) -> Vec<[Bits; 3]> {
        let mut rng = RandomStream::from_seed(seed, 0);
        (0..count)
            .map(|_| {
                let (a, b) = (random_squares(&mut rng), random_squares(&mut rng));
                [a & b, a, a | b]
            })
            .collect()
    }

    #[test]
    fn fill_lines_matches_a_walk_one_square_at_a_time() {
        let walk = |from: Bits, open: Bits| {
            let mut filled = from;
            for shift in [east, west, north, south] {
                let mut ray = shift(from) & open;
                while ray != 0 {
                    filled |= ray;
                    ray = shift(ray) & open;
                }
            }
            filled
        };
        for [quarter, half, most] in random_boards(11, 2_000) {
            for open in [quarter, half, most] {
                let from = !open & (quarter ^ most) & BOARD;
                assert_eq!(fill_lines(from, open), walk(from, open));
            }
        }
        // A rook alone in the centre sweeps its whole rank and file.
        let centre = THRONE_BIT;
        assert_eq!(fill_lines(centre, BOARD & !centre).count_ones(), 21);
    }

    #[test]
    fn flood_matches_growing_one_step_at_a_time() {
        let grow = |mut seed: Bits, passable: Bits| loop {
            let grown = seed | (neighbours(seed) & passable);
            if grown == seed {
                return seed;
            }
            seed = grown;
        };
        for [quarter, half, most] in random_boards(12, 2_000) {
            for passable in [quarter, half, most] {
                let seed = EDGE & passable;
                assert_eq!(flood(seed, passable), grow(seed, passable));
                let inner = passable & half & !quarter;
                assert_eq!(flood(inner, passable), grow(inner, passable));
            }
        }
    }

    #[test]
    fn masks_have_the_right_sizes() {
        assert_eq!(EDGE.count_ones(), 40);
        assert_eq!(RESTRICTED.count_ones(), 5);
        assert_eq!(CORNERS & EDGE, CORNERS);
        assert_eq!(neighbours(THRONE_BIT).count_ones(), 4);
        let sq = Square::from_index;
        assert_eq!(neighbours(bit(sq(0))), bit(sq(1)) | bit(sq(11)));
        assert_eq!(
            neighbours(bit(sq(10))),
            bit(sq(9)) | bit(sq(21)),
            "no wrap from k1 to a2"
        );
        assert_eq!(neighbours(bit(sq(110))), bit(sq(99)) | bit(sq(111)));
    }

    #[test]
    fn slide_stops_before_blockers() {
        // Cell 5 on a line with blockers on 2 and 8: reaches 3, 4, 6, 7.
        assert_eq!(slide(5, 1 << 2 | 1 << 8), 1 << 3 | 1 << 4 | 1 << 6 | 1 << 7);
        assert_eq!(slide(0, 0), 0x7fe);
        assert_eq!(slide(10, 1 << 9), 0);
    }

    #[test]
    fn step_stays_on_the_board() {
        let sq = Square::from_index;
        assert_eq!(step(sq(0), 1), None);
        assert_eq!(step(sq(0), 3), None);
        assert_eq!(step(sq(0), 0), Some(sq(1)));
        assert_eq!(step(sq(120), 2), None);
        assert_eq!(step(THRONE, 2), Some(sq(71)));
        assert_eq!(THRONE.index(), 60);
    }
}
