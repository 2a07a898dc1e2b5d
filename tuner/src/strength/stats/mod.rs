//! Strength statistics: Elo with intervals and LOS from group scores (trinomial for single
//! games, pentanomial for side-swapped pairs, the same construction for larger seat rotations),
//! the generalized SPRT, and Bradley–Terry rating ladders.

pub mod elo;
pub mod ladder;
pub mod sequential;
pub mod sprt;
pub mod transitivity;

pub use elo::{EloEstimate, GroupScores};
pub use ladder::{LadderFit, fit_bradley_terry};
pub use sequential::{SequentialElo, sequential_elo};
pub use sprt::{Bounds, EloModel, Sprt, Verdict};
pub use transitivity::{Intransitive, TripleKind, intransitive_triples};

/// The standard normal distribution function, by `libm`'s complementary error function (to
/// double precision, deep into the tails where fishtest's Siegmund approximation evaluates it).
#[must_use]
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

/// Elo difference of an expected score (logistic model): infinite at 0 and 1, where no finite
/// difference explains the score.
#[must_use]
pub fn elo_of_score(score: f64) -> f64 {
    if score >= 1.0 {
        f64::INFINITY
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score of an Elo difference (logistic model).
#[must_use]
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// `800 / ln 10`: the slope that turns a t-value per game into normalized Elo.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_cdf_matches_tables() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-15);
        assert!((normal_cdf(1.959_963_985) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158_655_254).abs() < 1e-6);
        assert!((normal_cdf(3.0) - 0.998_650_102).abs() < 1e-6);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert!(
            (elo_of_score(0.75) - 190.848_501_887_865).abs() < 1e-9,
            "400 log10 3"
        );
        assert!((score_of_elo(elo_of_score(0.3)) - 0.3).abs() < 1e-12);
        assert_eq!(elo_of_score(0.5), 0.0);
    }
}
