//! Seeded random streams.
//!
//! Every game gets its own seed derived from the experiment's master seed and the game's index,
//! and from it two independent PCG streams: one for the dice, one per seat for the agents'
//! tie-breaks. Changing an agent therefore never changes the dice a seed produces, which is what
//! lets two agents be compared on identical luck (common random numbers).

use rand_core::Rng;
use rand_pcg::Pcg32;

/// PCG stream selector of the dice (any constant distinct from the tie-break ones).
const DICE_STREAM: u64 = 0x0d1c_e5ee_d000_0001;
/// Base PCG stream selector of the per-seat tie-break streams.
const TIE_BREAK_STREAM: u64 = 0x7e1b_7ea4_0000_0000;

/// SplitMix64 finaliser: a bijective mixer with full avalanche, so that neighbouring indices give
/// unrelated seeds.
#[must_use]
pub const fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of game group `index` of an experiment with `master` seed.
#[must_use]
pub const fn game_seed(master: u64, index: u64) -> u64 {
    splitmix64(master ^ splitmix64(index))
}

/// One seeded random stream with exactly uniform bounded draws.
#[derive(Clone, Debug)]
pub struct RandomStream(Pcg32);

impl RandomStream {
    /// The dice stream of the game with this seed.
    #[must_use]
    pub fn dice(seed: u64) -> Self {
        Self(Pcg32::new(seed, DICE_STREAM))
    }

    /// The tie-break stream of `seat` in the game with this seed.
    #[must_use]
    pub fn tie_break(seed: u64, seat: usize) -> Self {
        Self(Pcg32::new(seed, TIE_BREAK_STREAM + seat as u64))
    }

    /// A free-standing stream for tests, simulations and tuners.
    #[must_use]
    pub fn from_seed(seed: u64, stream: u64) -> Self {
        Self(Pcg32::new(seed, stream))
    }

    /// A raw 32-bit draw.
    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// A raw 64-bit draw.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform draw in `0..n` (`n > 0`), exactly uniform by Lemire's rejection method.
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0, "below(0) has no value to return");
        let threshold = n.wrapping_neg() % n;
        loop {
            let product = u64::from(self.0.next_u32()) * u64::from(n);
            if (product as u32) >= threshold {
                return (product >> 32) as u32;
            }
        }
    }

    /// One fair six-sided die, `1..=6`.
    pub fn d6(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }

    /// A uniform float in `[0, 1)` with 53 bits of precision.
    pub fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_are_uniform_within_chi_square_bounds() {
        let mut dice = RandomStream::dice(42);
        let mut counts = [0u32; 6];
        let n = 600_000;
        for _ in 0..n {
            counts[usize::from(dice.d6() - 1)] += 1;
        }
        let expected = f64::from(n) / 6.0;
        let chi2: f64 = counts
            .iter()
            .map(|&c| (f64::from(c) - expected).powi(2) / expected)
            .sum();
        // 5 degrees of freedom: P(chi2 > 20.5) = 0.001.
        assert!(chi2 < 20.5, "chi2 = {chi2}, counts = {counts:?}");
    }

    #[test]
    fn streams_of_one_seed_are_independent_and_reproducible() {
        let a: Vec<u32> = (0..8)
            .map({
                let mut s = RandomStream::dice(7);
                move |_| s.next_u32()
            })
            .collect();
        let b: Vec<u32> = (0..8)
            .map({
                let mut s = RandomStream::dice(7);
                move |_| s.next_u32()
            })
            .collect();
        let c: Vec<u32> = (0..8)
            .map({
                let mut s = RandomStream::tie_break(7, 0);
                move |_| s.next_u32()
            })
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn below_covers_every_value_and_nothing_else() {
        let mut s = RandomStream::from_seed(1, 1);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            seen[s.below(7) as usize] = true;
        }
        assert!(seen.iter().all(|&x| x));
    }

    #[test]
    fn game_seeds_differ_by_index_and_master() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        assert_eq!(game_seed(3, 5), game_seed(3, 5));
    }
}
