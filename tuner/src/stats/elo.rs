//! Elo from group scores.
//!
//! A *group* is the set of games played on one seed: a single game (trinomial: scores 0, ½, 1), a
//! side-swapped pair (pentanomial: 0, ¼, ½, ¾, 1 as the pair's mean score), or a rotation of
//! four seats. Counting groups rather than games keeps the common-random-numbers correlation
//! inside each observation, so the variance — and every interval — is honest, as in fastchess
//! and fishtest's pentanomial model.

use serde::{Deserialize, Serialize};

use super::{NELO_PER_T, elo_of_score, normal_cdf};
use engine::tally::Z95;

/// Histogram of group scores: `counts[k]` groups scored `k / (counts.len() - 1)` for the
/// candidate (team A). For pairs this is the pentanomial `[LL, LD, DD+WL, WD, WW]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupScores {
    pub counts: Vec<u64>,
}

/// What a match says about strength.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    pub groups: u64,
    /// Mean score per game of the candidate.
    pub score: f64,
    pub score_ci95: [f64; 2],
    /// Logistic Elo difference, candidate minus baseline.
    pub elo: f64,
    pub elo_ci95: [f64; 2],
    /// Likelihood of superiority: P(true score > ½).
    pub los: f64,
    /// Normalized Elo: the score's t-value per game times 800 / ln 10.
    pub nelo: f64,
    pub nelo_ci95: [f64; 2],
    /// Variance of one group's mean score.
    pub group_variance: f64,
}

impl std::fmt::Display for EloEstimate {
    /// `Elo +x [lo, hi], nElo +y [lo, hi], LOS z%`: the line gates and tuners print.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Elo {:+.1} [{:+.1}, {:+.1}], nElo {:+.1} [{:+.1}, {:+.1}], LOS {:.1}%",
            self.elo,
            self.elo_ci95[0],
            self.elo_ci95[1],
            self.nelo,
            self.nelo_ci95[0],
            self.nelo_ci95[1],
            100.0 * self.los
        )
    }
}

impl GroupScores {
    /// A histogram for groups of `games` games (2·games + 1 half-point levels).
    #[must_use]
    pub fn new(games: usize) -> Self {
        Self {
            counts: vec![0; 2 * games + 1],
        }
    }

    /// Records a group in which the candidate scored `half_points` half-points.
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points] += 1;
    }

    pub fn merge(&mut self, other: &Self) {
        self.counts
            .iter_mut()
            .zip(&other.counts)
            .for_each(|(a, b)| *a += b);
    }

    #[must_use]
    pub fn groups(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Games per group.
    #[must_use]
    pub fn games_per_group(&self) -> usize {
        (self.counts.len() - 1) / 2
    }

    /// The score of level `k`.
    #[must_use]
    pub fn value(&self, k: usize) -> f64 {
        k as f64 / (self.counts.len() - 1) as f64
    }

    /// Mean and variance of the group score (population moments of the sample).
    #[must_use]
    pub fn moments(&self) -> (f64, f64) {
        let n = self.groups() as f64;
        if n == 0.0 {
            return (0.5, 0.0);
        }
        let mean = self
            .counts
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * self.value(k))
            .sum::<f64>()
            / n;
        let var = self
            .counts
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * (self.value(k) - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, var)
    }

    /// Elo, intervals and LOS by the normal approximation to the mean group score.
    #[must_use]
    pub fn estimate(&self) -> EloEstimate {
        let n = self.groups() as f64;
        let (mean, var) = self.moments();
        let se = if n > 0.0 { (var / n).sqrt() } else { 0.0 };
        let (lo, hi) = ((mean - Z95 * se).max(0.0), (mean + Z95 * se).min(1.0));
        // Per-game standard deviation: a group mean of R games has R times less variance.
        let sd_game = (var * self.games_per_group() as f64).sqrt();
        let nelo_of = |s: f64| {
            if sd_game > 0.0 {
                (s - 0.5) / sd_game * NELO_PER_T
            } else {
                0.0
            }
        };
        EloEstimate {
            groups: self.groups(),
            score: mean,
            score_ci95: [lo, hi],
            elo: elo_of_score(mean),
            elo_ci95: [elo_of_score(lo), elo_of_score(hi)],
            los: if se > 0.0 {
                normal_cdf((mean - 0.5) / se)
            } else if mean == 0.5 {
                0.5
            } else {
                f64::from(u8::from(mean > 0.5))
            },
            nelo: nelo_of(mean),
            nelo_ci95: [nelo_of(lo), nelo_of(hi)],
            group_variance: var,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trinomial_elo_matches_a_hand_computation() {
        // 60 wins, 20 draws, 20 losses over 100 single games: score 0.7.
        let g = GroupScores {
            counts: vec![20, 20, 60],
        };
        let e = g.estimate();
        assert!((e.score - 0.7).abs() < 1e-12);
        assert!((e.elo - 147.19).abs() < 0.01, "{}", e.elo);
        // Variance: 0.6·0.3² + 0.2·0.2² + 0.2·0.7² = 0.054 + 0.008 + 0.098 = 0.16.
        assert!((e.group_variance - 0.16).abs() < 1e-12);
        let half = Z95 * (0.16f64 / 100.0).sqrt();
        assert!((e.score_ci95[0] - (0.7 - half)).abs() < 1e-12);
        assert!((e.elo_ci95[1] - elo_of_score(0.7 + half)).abs() < 1e-9);
        // LOS = Φ(0.2 / 0.04) = Φ(5).
        assert!((e.los - 0.999_999_713).abs() < 1e-6);
        // nElo = 0.2 / 0.4 · 800 / ln 10.
        assert!((e.nelo - 0.5 * NELO_PER_T).abs() < 1e-9);
    }

    #[test]
    fn pentanomial_variance_matches_a_hand_computation() {
        // Pairs: LL 1, LD 2, (DD or WL) 4, WD 2, WW 1 — symmetric, so the score is 0.5.
        let g = GroupScores {
            counts: vec![1, 2, 4, 2, 1],
        };
        let e = g.estimate();
        assert!((e.score - 0.5).abs() < 1e-12 && e.elo.abs() < 1e-9);
        // Variance of the pair mean: (2·0.25² + 4·0.0625·... ) computed term by term:
        // 1·0.25 + 2·0.0625 + 4·0 + 2·0.0625 + 1·0.25 = 0.75 over 10 pairs = 0.075.
        assert!((e.group_variance - 0.075).abs() < 1e-12);
        assert!((e.los - 0.5).abs() < 1e-7);
        assert_eq!(g.games_per_group(), 2);
    }
}
