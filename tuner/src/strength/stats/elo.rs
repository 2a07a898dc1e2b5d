//! Elo from group scores.
//!
//! A *group* is the set of games played on one seed: a single game (trinomial: scores 0, ½, 1), a
//! side-swapped pair (pentanomial: 0, ¼, ½, ¾, 1 as the pair's mean score), or a rotation of
//! four seats. Counting groups rather than games keeps the common-random-numbers correlation
//! inside each observation, so the variance — and every interval — is honest, as in fastchess
//! and fishtest's pentanomial model.

use serde::{Deserialize, Serialize};

use super::{NELO_PER_T, elo_of_score, normal_cdf};
use engine::sample::{Estimate, Z95, wilson95};

/// Histogram of group scores: `counts[k]` groups scored `k / (counts.len() - 1)` for the
/// candidate (team A). For pairs this is the pentanomial `[LL, LD, DD+WL, WD, WW]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupScores {
    pub counts: Vec<u64>,
}

/// What a match says about strength.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    pub groups: u64,
    /// Mean score per game of the candidate. Without spread between groups (every group scored
    /// the same) its interval is Wilson's over the groups, so a perfect score keeps a finite
    /// lower bound.
    pub score: Estimate,
    /// Logistic Elo difference, candidate minus baseline: `+inf` for a perfect score, whose
    /// interval is then one-sided (`[lower bound, inf]`).
    pub elo: Estimate,
    /// Likelihood of superiority: P(true score > ½).
    pub los: f64,
    /// Normalized Elo per game: the score's t-value per game times 800 / ln 10, with the
    /// delta-method interval (the spread is estimated too). Infinite without spread, NaN
    /// (`null`) when every group is an even score.
    pub nelo: Estimate,
    /// Variance of one group's mean score.
    pub group_variance: f64,
}

/// `+x` with one decimal, `inf` spelled out; a figure that rounds to zero (a tie) is `+0.0`,
/// never `-0.0`.
pub(super) fn signed(x: f64) -> String {
    if x.is_nan() {
        "undefined".to_owned()
    } else if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_owned()
    } else if x.abs() < 0.05 {
        "+0.0".to_owned()
    } else {
        format!("{x:+.1}")
    }
}

/// `+x [lo, hi]`, or a one-sided bound when the value is infinite.
fn interval(name: &str, e: &Estimate) -> String {
    match (e.value.is_infinite(), e.value > 0.0) {
        _ if e.ci95.iter().any(|b| b.is_nan()) => {
            format!("{name} {} (no spread between groups)", signed(e.value))
        }
        (true, true) => format!("{name} > {} (95%)", signed(e.ci95[0])),
        (true, false) => format!("{name} < {} (95%)", signed(e.ci95[1])),
        _ => format!(
            "{name} {} [{}, {}]",
            signed(e.value),
            signed(e.ci95[0]),
            signed(e.ci95[1])
        ),
    }
}

impl std::fmt::Display for EloEstimate {
    /// `Elo +x [lo, hi], nElo +y [lo, hi], LOS z%`: the line gates and tuners print; a perfect
    /// score prints `Elo > +lo (95%)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}, {}, LOS {:.1}%",
            interval("Elo", &self.elo),
            interval("nElo", &self.nelo),
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

    /// The third and fourth central moments of the group score (population moments).
    fn central_moments(&self, mean: f64) -> (f64, f64) {
        let n = self.groups().max(1) as f64;
        let moment = |p: i32| {
            self.counts
                .iter()
                .enumerate()
                .map(|(k, &c)| c as f64 * (self.value(k) - mean).powi(p))
                .sum::<f64>()
                / n
        };
        (moment(3), moment(4))
    }

    /// Elo, intervals and LOS by the normal approximation to the mean group score; nElo with
    /// the delta-method variance of the t-value, `(1 − t·γ₁ + t²·(γ₂ + 2) / 4) / N` (γ₁ the
    /// skewness, γ₂ the excess kurtosis of the group score), as fishtest computes it.
    #[must_use]
    pub fn estimate(&self) -> EloEstimate {
        let n = self.groups() as f64;
        let (mean, var) = self.moments();
        let se = if n > 0.0 { (var / n).sqrt() } else { 0.0 };
        let [lo, hi] = if n == 0.0 {
            [0.0, 1.0]
        } else if var > 0.0 {
            [(mean - Z95 * se).max(0.0), (mean + Z95 * se).min(1.0)]
        } else {
            wilson95(mean * n, n)
        };
        let per_group = (self.games_per_group().max(1) as f64).sqrt();
        let nelo = if var > 0.0 {
            let sd = var.sqrt();
            let t = (mean - 0.5) / sd;
            let (m3, m4) = self.central_moments(mean);
            let (skew, exkurt) = (m3 / (var * sd), m4 / (var * var) - 3.0);
            let var_t = (1.0 - t * skew + t * t * (exkurt + 2.0) / 4.0).max(0.0) / n;
            let scale = NELO_PER_T / per_group;
            let half = Z95 * var_t.sqrt() * scale;
            Estimate {
                value: t * scale,
                ci95: [t * scale - half, t * scale + half],
            }
        } else {
            let value = if n == 0.0 || mean == 0.5 {
                f64::NAN
            } else {
                (mean - 0.5).signum() * f64::INFINITY
            };
            Estimate {
                value,
                ci95: [f64::NAN, f64::NAN],
            }
        };
        EloEstimate {
            groups: self.groups(),
            score: Estimate {
                value: mean,
                ci95: [lo, hi],
            },
            elo: Estimate {
                value: elo_of_score(mean),
                ci95: [elo_of_score(lo), elo_of_score(hi)],
            },
            los: if se > 0.0 {
                normal_cdf((mean - 0.5) / se)
            } else if mean == 0.5 {
                0.5
            } else {
                f64::from(u8::from(mean > 0.5))
            },
            nelo,
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
        assert!((e.score.value - 0.7).abs() < 1e-12);
        assert!((e.elo.value - 147.19).abs() < 0.01, "{:?}", e.elo);
        // Variance: 0.6·0.3² + 0.2·0.2² + 0.2·0.7² = 0.054 + 0.008 + 0.098 = 0.16.
        assert!((e.group_variance - 0.16).abs() < 1e-12);
        let half = Z95 * (0.16f64 / 100.0).sqrt();
        assert!((e.score.ci95[0] - (0.7 - half)).abs() < 1e-12);
        assert!((e.elo.ci95[1] - elo_of_score(0.7 + half)).abs() < 1e-9);
        // LOS = Φ(0.2 / 0.04) = Φ(5).
        assert!((e.los - 0.999_999_713).abs() < 1e-6);
        // nElo = 0.2 / 0.4 · 800 / ln 10.
        assert!((e.nelo.value - 0.5 * NELO_PER_T).abs() < 1e-9);
    }

    #[test]
    fn pentanomial_variance_matches_a_hand_computation() {
        // Pairs: LL 1, LD 2, (DD or WL) 4, WD 2, WW 1 — symmetric, so the score is 0.5.
        let g = GroupScores {
            counts: vec![1, 2, 4, 2, 1],
        };
        let e = g.estimate();
        assert!((e.score.value - 0.5).abs() < 1e-12 && e.elo.value.abs() < 1e-9);
        // Variance of the pair mean: (2·0.25² + 4·0.0625·... ) computed term by term:
        // 1·0.25 + 2·0.0625 + 4·0 + 2·0.0625 + 1·0.25 = 0.75 over 10 pairs = 0.075.
        assert!((e.group_variance - 0.075).abs() < 1e-12);
        assert!((e.los - 0.5).abs() < 1e-7);
        assert_eq!(g.games_per_group(), 2);
    }

    /// Group-score counts, then Elo, the half-width of its 95% interval, LOS, nElo and the
    /// half-width of its interval, then the tolerance.
    type FishtestCase = (&'static [u64], [f64; 5], f64);

    /// Reference values from `tuner/tests/reference/fishtest.py` (run outside koom): fishtest's
    /// `stat_util.get_elo` (Elo, the half-width of its 95% interval, LOS; fishtest adds 0.001 to
    /// empty levels, hence the looser tolerance there) and the delta-method nElo interval.
    const FISHTEST_CASES: [FishtestCase; 5] = [
        (
            &[10789, 19328, 33806, 19402, 10543],
            [
                -0.773_577_335_9,
                1.277_579_895_7,
                0.117_658_858,
                -0.951_629_004_5,
                1.571_622_676_8,
            ],
            1e-6,
        ),
        (
            &[39, 2226, 31451, 2412, 40],
            [
                0.902_981_048_8,
                0.662_531_486,
                0.996_222_097_3,
                3.450_799_606_9,
                2.531_239_603_3,
            ],
            1e-6,
        ),
        (
            &[0, 0, 37, 120, 243],
            [
                344.067_291_801_3,
                26.477_659_221_5,
                1.0,
                564.468_422_220_2,
                58.058_267_290_3,
            ],
            0.05,
        ),
        (
            &[0, 0, 1, 3, 20, 31, 28, 12, 5],
            [
                124.982_771_243_4,
                23.525_405_352,
                1.0,
                197.350_879_304_8,
                41.824_367_415_3,
            ],
            0.05,
        ),
        (
            &[30, 40, 50],
            [
                58.451_214_271_3,
                51.512_405_992,
                0.988_818_963_6,
                72.445_327_537_8,
                64.334_739_667_5,
            ],
            1e-6,
        ),
    ];

    #[test]
    fn elo_and_nelo_match_fishtest() {
        for (counts, [elo, elo95, los, nelo, nelo95], tolerance) in FISHTEST_CASES {
            let e = GroupScores {
                counts: counts.to_vec(),
            }
            .estimate();
            let half = |x: &Estimate| (x.ci95[1] - x.ci95[0]) / 2.0;
            let got = [
                e.elo.value,
                half(&e.elo),
                e.los,
                e.nelo.value,
                half(&e.nelo),
            ];
            for (g, want) in got.iter().zip([elo, elo95, los, nelo, nelo95]) {
                assert!(
                    (g - want).abs() < tolerance.max(1e-6 * want.abs()),
                    "{counts:?}: {got:?} vs {:?}",
                    [elo, elo95, los, nelo, nelo95]
                );
            }
        }
    }

    #[test]
    fn a_perfect_score_has_a_one_sided_elo_bound_and_no_finite_nelo() {
        let e = GroupScores {
            counts: vec![0, 0, 0, 0, 2000],
        }
        .estimate();
        assert_eq!(e.elo.value, f64::INFINITY);
        assert_eq!(e.elo.ci95[1], f64::INFINITY);
        // The lower bound: Wilson over 2,000 groups, 2000 / (2000 + z²).
        let lo = 2000.0 / (2000.0 + Z95 * Z95);
        assert!(
            (e.elo.ci95[0] - elo_of_score(lo)).abs() < 1e-6,
            "{:?}",
            e.elo
        );
        assert!(e.elo.ci95[0] > 1000.0 && e.elo.ci95[0].is_finite());
        assert_eq!(e.nelo.value, f64::INFINITY);
        assert!(
            e.to_string()
                .starts_with("Elo > +1086.6 (95%), nElo +inf (no spread between groups)"),
            "{e}"
        );
        let zero = GroupScores {
            counts: vec![7, 0, 0, 0, 0],
        }
        .estimate();
        assert_eq!(zero.elo.value, f64::NEG_INFINITY);
        assert!(zero.to_string().starts_with("Elo < -"), "{zero}");
        // Every pair split: a tie, printed +0.0 whatever the sign of the zero computed.
        let even = GroupScores {
            counts: vec![0, 0, 9, 0, 0],
        }
        .estimate();
        assert!(even.to_string().starts_with("Elo +0.0 "), "{even}");
        assert_eq!(signed(-0.04), "+0.0");
        assert_eq!(signed(-0.05), "-0.1");
    }
}
