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
    #[must_use]
    pub const fn len(self) -> u8 {
        // Each counter's bits are weighed 1, 2 and 4.
        const B0: u32 = 0o111_111;
        (self.0 & B0).count_ones() as u8
            + 2 * (self.0 & (B0 << 1)).count_ones() as u8
            + 4 * (self.0 & (B0 << 2)).count_ones() as u8
    }

    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The sum of the faces.
    #[must_use]
    pub const fn sum(self) -> u8 {
        let mut sum = 0;
        let mut face = 1;
        while face <= 6 {
            sum += face * self.count(face);
            face += 1;
        }
        sum
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
