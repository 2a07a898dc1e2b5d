//! Rating ladders by Bradley–Terry maximum likelihood.
//!
//! P(i beats j) = γ_i / (γ_i + γ_j); ratings are `400·log10 γ` with the first agent anchored at
//! 0. Games with more than two seats enter through the per-seat pairwise model: a game between
//! two agents' teams (e.g. Ludo seats A B A B) counts as one A-versus-B result — simpler than
//! Plackett–Luce, and exactly what a two-agent match measures. The fit runs Hunter's (2004) MM
//! iteration. Intervals come from the Fisher information, where each pairing contributes
//! `(p(1−p))² / Var(mean score)` with the variance measured on its seed groups: with independent
//! games that is the textbook `n·p(1−p)`, and with common random numbers it stays honest.

use serde::{Deserialize, Serialize};

use engine::sample::{Estimate, Z95};

/// The prior the fit adds, disclosed in every summary that shows its ratings: half a point each
/// way per pairing keeps a clean sweep's rating finite, which the counts alone would not.
pub const PRIOR: &str =
    "half a point each way per pairing (a clean sweep would have no finite rating without it)";

/// The result of one pairing.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Pairing {
    pub a: usize,
    pub b: usize,
    /// `a`'s mean score per game against `b`.
    pub score: f64,
    pub games: f64,
    /// Variance of that mean score (from the groups).
    pub variance_of_mean: f64,
}

/// Ratings with intervals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderFit {
    pub ratings: Vec<Estimate>,
    /// What the fit adds to the counts: [`PRIOR`].
    pub prior: String,
}

const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// Fits ratings for `agents` agents from their pairings (every agent must be connected to the
/// first through pairings, and every pairing must have games).
#[must_use]
pub fn fit_bradley_terry(agents: usize, pairings: &[Pairing]) -> LadderFit {
    let mut wins = vec![0.0; agents];
    for p in pairings {
        // Half a point of prior each way keeps a clean sweep finite.
        wins[p.a] += p.score * p.games + 0.5;
        wins[p.b] += (1.0 - p.score) * p.games + 0.5;
    }
    let mut gamma = vec![1.0f64; agents];
    for _ in 0..10_000 {
        let mut next = gamma.clone();
        for (i, g) in next.iter_mut().enumerate() {
            let denominator: f64 = pairings
                .iter()
                .filter(|p| p.a == i || p.b == i)
                .map(|p| (p.games + 1.0) / (gamma[p.a] + gamma[p.b]))
                .sum();
            if denominator > 0.0 {
                *g = wins[i] / denominator;
            }
        }
        let anchor = next[0];
        next.iter_mut().for_each(|g| *g /= anchor);
        let change = next
            .iter()
            .zip(&gamma)
            .map(|(a, b)| (a.ln() - b.ln()).abs())
            .fold(0.0, f64::max);
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    let theta: Vec<f64> = gamma.iter().map(|g| g.ln()).collect();
    // Fisher information in θ, the first agent's θ fixed at 0.
    let m = agents - 1;
    let mut info = vec![vec![0.0; m]; m];
    for p in pairings {
        let prob = 1.0 / (1.0 + (theta[p.b] - theta[p.a]).exp());
        let q = prob * (1.0 - prob);
        let weight = if p.variance_of_mean > 0.0 {
            q * q / p.variance_of_mean
        } else {
            p.games * q
        };
        for (i, j) in [(p.a, p.b), (p.b, p.a)] {
            if i > 0 {
                info[i - 1][i - 1] += weight;
                if j > 0 {
                    info[i - 1][j - 1] -= weight;
                }
            }
        }
    }
    let covariance = invert(info);
    let ratings = (0..agents)
        .map(|i| {
            let sd = if i == 0 {
                0.0
            } else {
                covariance
                    .as_ref()
                    .map_or(f64::INFINITY, |c| c[i - 1][i - 1].sqrt())
            };
            let rating = theta[i] * ELO_PER_NAT;
            let half = Z95 * sd * ELO_PER_NAT;
            Estimate {
                value: rating,
                ci95: [rating - half, rating + half],
            }
        })
        .collect();
    LadderFit {
        ratings,
        prior: PRIOR.to_owned(),
    }
}

/// Gauss–Jordan inverse of a small symmetric positive-definite matrix; `None` when singular
/// (an agent not connected to the anchor).
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        a[col].iter_mut().for_each(|x| *x /= d);
        inv[col].iter_mut().for_each(|x| *x /= d);
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for k in 0..n {
                        a[row][k] -= f * a[col][k];
                        inv[row][k] -= f * inv[col][k];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strength::stats::elo_of_score;

    fn pairing(a: usize, b: usize, score: f64, games: f64) -> Pairing {
        Pairing {
            a,
            b,
            score,
            games,
            variance_of_mean: score * (1.0 - score) / games,
        }
    }

    #[test]
    fn a_chain_of_pairings_gives_the_pairwise_elo_differences() {
        // With only adjacent pairings the MLE reproduces each pair's Elo difference (up to the
        // half-point prior, negligible at 10,000 games).
        let fit = fit_bradley_terry(
            3,
            &[pairing(1, 0, 0.64, 10_000.0), pairing(2, 1, 0.76, 10_000.0)],
        );
        assert_eq!(fit.ratings[0].value, 0.0);
        assert!(
            (fit.ratings[1].value - elo_of_score(0.64)).abs() < 0.1,
            "{:?}",
            fit.ratings
        );
        assert!((fit.ratings[2].value - fit.ratings[1].value - elo_of_score(0.76)).abs() < 0.1);
        // The interval of the top rating adds the variances along the chain.
        let se = |s: f64| (s * (1.0 - s) / 10_000.0).sqrt() / (s * (1.0 - s)) * ELO_PER_NAT;
        let expected = Z95 * (se(0.64).powi(2) + se(0.76).powi(2)).sqrt();
        let half = (fit.ratings[2].ci95[1] - fit.ratings[2].ci95[0]) / 2.0;
        assert!(
            (half - expected).abs() / expected < 0.01,
            "{half} vs {expected}"
        );
    }

    #[test]
    fn a_consistent_round_robin_is_recovered() {
        // Strengths 0, 100, 250 Elo; every pairing at its exact expected score.
        let elo = [0.0, 100.0, 250.0];
        let s = |i: usize, j: usize| 1.0 / (1.0 + 10f64.powf((elo[j] - elo[i]) / 400.0));
        let pairings = [
            pairing(0, 1, s(0, 1), 1e6),
            pairing(0, 2, s(0, 2), 1e6),
            pairing(1, 2, s(1, 2), 1e6),
        ];
        let fit = fit_bradley_terry(3, &pairings);
        for (rating, truth) in fit.ratings.iter().zip(elo) {
            assert!((rating.value - truth).abs() < 0.05, "{:?}", fit.ratings);
        }
    }

    #[test]
    fn inverse_of_a_known_matrix() {
        let inv = invert(vec![vec![4.0, -2.0], vec![-2.0, 3.0]]).unwrap();
        // det = 8; inverse = [[3, 2], [2, 4]] / 8.
        assert!(
            (inv[0][0] - 0.375).abs() < 1e-12
                && (inv[0][1] - 0.25).abs() < 1e-12
                && (inv[1][1] - 0.5).abs() < 1e-12
        );
        assert!(invert(vec![vec![0.0]]).is_none());
    }
}
