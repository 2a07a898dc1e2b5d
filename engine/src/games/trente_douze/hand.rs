//! A multiset of dice faces packed into one word, and the sources dice come from.
//!
//! Order never matters once dice are on the table (a set-aside is a multiset of faces; only the
//! *first* die's class matters, and the move names it), so a hand is six 3-bit counters: adding,
//! removing and comparing hands are single integer operations, and the Hard player can index its
//! table by a hand's rank.

use core::fmt;

use crate::random::RandomStream;

/// Dice in a turn and in an attack.
pub const DICE: usize = 6;

/// Bits per face counter (counts 0..=6 fit in three bits).
const BITS: u32 = 3;
const FIELD: u32 = (1 << BITS) - 1;

/// `M(r, m)`: the multisets of size `r` over `m` faces, `C(r + m − 1, m − 1)` (1 when `m = 0` and
/// `r = 0`).
const fn multisets(r: usize, m: usize) -> usize {
    if m == 0 {
        return (r == 0) as usize;
    }
    let mut c = 1;
    let mut i = 0;
    while i < m - 1 {
        c = c * (r + 1 + i) / (i + 1);
        i += 1;
    }
    c
}

/// `STEP[f][r][c]`: the multisets of `r` dice over faces `f+1..=6` (0-based `f`) that have fewer
/// than `c` dice on face `f+1`. Summing it face by face ranks a hand among those of its size in
/// lexicographic order of its counts (fewer 1s first, then fewer 2s...). Sized 8 so that any
/// 3-bit count indexes it without a bounds check.
const STEP: [[[u16; 8]; 8]; DICE - 1] = {
    let mut t = [[[0u16; 8]; 8]; DICE - 1];
    let mut f = 0;
    while f < DICE - 1 {
        let mut r = 0;
        while r <= DICE {
            let mut c = 1;
            while c <= r {
                t[f][r][c] = t[f][r][c - 1] + multisets(r - (c - 1), DICE - 1 - f) as u16;
                c += 1;
            }
            r += 1;
        }
        f += 1;
    }
    t
};

/// Where the hands of each size start in [`Hand::index`]: hands of `k` dice take
/// `OFFSET[k]..OFFSET[k + 1]` (1, 6, 21, 56, 126, 252 and 462 hands).
pub const OFFSET: [usize; DICE + 2] = {
    let mut o = [0; DICE + 2];
    let mut k = 0;
    while k <= DICE {
        o[k + 1] = o[k] + multisets(k, DICE);
        k += 1;
    }
    o
};

/// The number of hands of at most six dice.
pub const HANDS: usize = OFFSET[DICE + 1];

/// `SUMS[half][bits]`: the sum of the three faces (1-3 for half 0, 4-6 for half 1) whose counts
/// are packed in `bits`, so that a hand's sum is two table reads.
const SUMS: [[u8; 512]; 2] = {
    let mut t = [[0u8; 512]; 2];
    let mut half = 0;
    while half < 2 {
        let mut bits = 0;
        while bits < 512 {
            let mut sum = 0;
            let mut i = 0;
            while i < 3 {
                sum += ((bits >> (BITS as usize * i)) & FIELD as usize) * (3 * half + i + 1);
                i += 1;
            }
            t[half][bits] = sum as u8;
            bits += 1;
        }
        half += 1;
    }
    t
};

/// A multiset of at most six dice: the count of face `f` (1..=6) in bits `3(f-1)..3f`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hand(u32);

impl Hand {
    pub const EMPTY: Self = Self(0);

    /// The hand of the given faces (each 1..=6, at most six of them).
    #[must_use]
    pub const fn of(faces: &[u8]) -> Self {
        let mut hand = Self::EMPTY;
        let mut i = 0;
        while i < faces.len() {
            hand = hand.with(faces[i]);
            i += 1;
        }
        hand
    }

    /// `count` dice showing `face`.
    #[must_use]
    pub const fn repeat(face: u8, count: u8) -> Self {
        Self((count as u32) << (BITS * (face as u32 - 1)))
    }

    /// This hand with one more die showing `face`.
    #[must_use]
    pub const fn with(self, face: u8) -> Self {
        Self(self.0 + (1 << (BITS * (face as u32 - 1))))
    }

    /// How many dice show `face`.
    #[must_use]
    pub const fn count(self, face: u8) -> u8 {
        ((self.0 >> (BITS * (face as u32 - 1))) & FIELD) as u8
    }

    /// The number of dice.
    #[inline]
    #[must_use]
    pub const fn len(self) -> u8 {
        // Multiplying by 0o111111 adds every counter into the top one; no partial sum of a hand
        // of at most six dice exceeds 7, so nothing carries between counters.
        ((self.0.wrapping_mul(0o111_111) >> (BITS * 5)) & FIELD) as u8
    }

    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The sum of the faces.
    #[inline]
    #[must_use]
    pub const fn sum(self) -> u8 {
        SUMS[0][(self.0 & 0o777) as usize] + SUMS[1][(self.0 >> 9 & 0o777) as usize]
    }

    /// This hand's place among all hands of at most six dice, `0..HANDS`: hands of `k` dice
    /// take `OFFSET[k]..OFFSET[k + 1]`. What the Hard player's table and the legal-move lists
    /// are indexed by.
    #[inline]
    #[must_use]
    pub fn index(self) -> usize {
        let mut remaining = usize::from(self.len()) & 7;
        let mut index = OFFSET[remaining];
        for (f, step) in STEP.iter().enumerate() {
            let c = ((self.0 >> (BITS * f as u32)) & FIELD) as usize;
            index += usize::from(step[remaining][c]);
            remaining = remaining.wrapping_sub(c) & 7;
        }
        index
    }

    /// Every hand of exactly `k` dice, in index order (fewer 1s first, then fewer 2s...).
    #[must_use]
    pub fn all_of_size(k: u8) -> Vec<Self> {
        /// Appends the hands that put `left` dice on faces `face..=6` after `hand`.
        fn fill(hand: Hand, face: u8, left: u8, out: &mut Vec<Hand>) {
            if face == 6 {
                out.push(hand.plus(Hand::repeat(6, left)));
                return;
            }
            for c in 0..=left {
                fill(hand.plus(Hand::repeat(face, c)), face + 1, left - c, out);
            }
        }
        let mut out = Vec::with_capacity(OFFSET[usize::from(k) + 1] - OFFSET[usize::from(k)]);
        fill(Self::EMPTY, 1, k, &mut out);
        out
    }

    /// Whether every die of `self` is also in `other` (as a multiset).
    #[must_use]
    pub const fn is_within(self, other: Self) -> bool {
        let mut face = 1;
        while face <= 6 {
            if self.count(face) > other.count(face) {
                return false;
            }
            face += 1;
        }
        true
    }

    /// The union of two hands (their total must not exceed six dice).
    #[must_use]
    pub const fn plus(self, other: Self) -> Self {
        Self(self.0 + other.0)
    }

    /// `self` without the dice of `part`, which must lie within it.
    #[must_use]
    pub const fn minus(self, part: Self) -> Self {
        Self(self.0 - part.0)
    }

    /// Whether some die shows a face of `threshold`'s class.
    #[must_use]
    pub const fn has_class(self, threshold: Threshold) -> bool {
        let low = match threshold {
            Threshold::Small => 0,
            Threshold::Big => 3,
        };
        self.0 & (0o777 << (BITS * low)) != 0
    }

    /// The lowest face, if any.
    #[must_use]
    pub const fn lowest(self) -> Option<u8> {
        if self.is_empty() {
            None
        } else {
            Some((self.0.trailing_zeros() / BITS) as u8 + 1)
        }
    }

    /// The highest face, if any.
    #[must_use]
    pub const fn highest(self) -> Option<u8> {
        if self.is_empty() {
            None
        } else {
            Some(((31 - self.0.leading_zeros()) / BITS) as u8 + 1)
        }
    }

    /// The faces in increasing order.
    pub fn faces(self) -> impl Iterator<Item = u8> {
        (1..=6u8).flat_map(move |f| core::iter::repeat_n(f, usize::from(self.count(f))))
    }

    /// The raw packed counters (a stable, compact identity).
    #[must_use]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Calls `visit` with every non-empty sub-multiset of this hand, each once: an odometer over
    /// the face counters, lowest face fastest.
    #[inline]
    pub fn for_each_part(self, mut visit: impl FnMut(Self)) {
        let mut part = 0u32;
        loop {
            let mut shift = 0;
            loop {
                if shift == BITS * DICE as u32 {
                    return;
                }
                let limit = (self.0 >> shift) & FIELD;
                if (part >> shift) & FIELD < limit {
                    part += 1 << shift;
                    break;
                }
                part &= !(FIELD << shift);
                shift += BITS;
            }
            visit(Self(part));
        }
    }

    /// `count` dice thrown from `dice`.
    pub fn roll(count: u8, dice: &mut impl Dice) -> Self {
        (0..count).fold(Self::EMPTY, |hand, _| hand.with(dice.d6()))
    }
}

impl fmt::Display for Hand {
    /// The faces in increasing order, space separated (`-` for no dice).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (i, face) in self.faces().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{face}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hand[{self}]")
    }
}

/// The threshold the first die set aside fixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Threshold {
    /// First die 1, 2 or 3: the sum must be 12 or less.
    Small,
    /// First die 4, 5 or 6: the sum must be 30 or more.
    Big,
}

impl Threshold {
    pub const BOTH: [Self; 2] = [Self::Small, Self::Big];

    /// The class of a face.
    #[must_use]
    pub const fn of_face(face: u8) -> Self {
        if face <= 3 { Self::Small } else { Self::Big }
    }

    /// The sum to reach: 12 (or less) or 30 (or more).
    #[must_use]
    pub const fn target(self) -> u8 {
        match self {
            Self::Small => 12,
            Self::Big => 30,
        }
    }

    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Small => "small",
            Self::Big => "big",
        }
    }

    /// `0` for small, `1` for big: an array index.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Where dice come from: the game's seeded stream, or a script in tests.
pub trait Dice {
    /// One fair six-sided die, `1..=6`.
    fn d6(&mut self) -> u8;
}

impl Dice for RandomStream {
    #[inline]
    fn d6(&mut self) -> u8 {
        RandomStream::d6(self)
    }
}
