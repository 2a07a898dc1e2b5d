//! The generalized sequential probability ratio test (GSPRT) on group scores.
//!
//! H0: the candidate's Elo is `elo0`; H1: it is `elo1` (`elo0 < elo1`). The log-likelihood ratio
//! is computed exactly on the multinomial of group scores (trinomial for single games,
//! pentanomial for pairs): under each hypothesis the distribution is the maximum-likelihood one
//! whose mean is the hypothesis' expected score (p_k = p̂_k / (1 + λ(a_k − μ)), λ found by
//! bisection), as in fishtest's `LLR` and fastchess. Bounds in normalized Elo are turned into
//! expected scores with the sample's own per-game standard deviation (the plug-in variant).

use serde::{Deserialize, Serialize};

use super::{GroupScores, NELO_PER_T, score_of_elo};

/// Which Elo the bounds are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    Logistic,
    Normalized,
}

/// The test's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bounds {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

impl Bounds {
    /// fishtest's `gain` preset: does the change gain Elo? (normalized [0, 2]).
    pub const GAIN: (f64, f64) = (0.0, 2.0);
    /// fishtest's `nonreg` preset: is the change not a regression? (normalized [-1.75, 0.25]).
    pub const NONREG: (f64, f64) = (-1.75, 0.25);

    /// fishtest's non-regression test: normalized Elo [-1.75, 0.25], α = β = 0.05.
    #[must_use]
    pub fn nonreg() -> Self {
        Self {
            elo0: Self::NONREG.0,
            elo1: Self::NONREG.1,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Normalized,
        }
    }

    /// Checks the parameters; the error says what is accepted.
    pub fn check(&self) -> Result<(), String> {
        if !(self.elo0.is_finite() && self.elo1.is_finite() && self.elo0 < self.elo1) {
            return Err(format!(
                "elo0 ({}) must be below elo1 ({})",
                self.elo0, self.elo1
            ));
        }
        for (name, value) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(format!("{name} = {value} must lie in (0, 0.5)"));
            }
        }
        Ok(())
    }

    /// `ln(β / (1 − α))`: at or below it H0 is accepted.
    #[must_use]
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// `ln((1 − β) / α)`: at or above it H1 is accepted.
    #[must_use]
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }
}

/// The state of a test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Neither bound crossed yet.
    Continue,
    /// H1: the candidate is at least `elo1` (not a regression / a gain).
    AcceptH1,
    /// H0: the candidate is at most `elo0`.
    AcceptH0,
}

/// A running test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub bounds: Bounds,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub verdict: Verdict,
}

impl Sprt {
    /// The test on the groups seen so far.
    #[must_use]
    pub fn evaluate(bounds: Bounds, scores: &GroupScores) -> Self {
        let llr = llr(bounds, scores);
        let (lower, upper) = (bounds.lower(), bounds.upper());
        let verdict = if llr >= upper {
            Verdict::AcceptH1
        } else if llr <= lower {
            Verdict::AcceptH0
        } else {
            Verdict::Continue
        };
        Self {
            bounds,
            llr,
            lower,
            upper,
            verdict,
        }
    }
}

/// The expected score per game under Elo `elo` of `model`, given the sample.
fn expected_score(elo: f64, model: EloModel, scores: &GroupScores) -> f64 {
    match model {
        EloModel::Logistic => score_of_elo(elo),
        EloModel::Normalized => {
            let (_, var) = scores.moments();
            let sd_game = (var * scores.games_per_group() as f64).sqrt();
            0.5 + elo / NELO_PER_T * sd_game
        }
    }
}

/// The log-likelihood ratio of H1 against H0 for the observed group scores.
#[must_use]
pub fn llr(bounds: Bounds, scores: &GroupScores) -> f64 {
    let n = scores.groups();
    if n == 0 {
        return 0.0;
    }
    let observed: Vec<(f64, f64)> = scores
        .counts
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c > 0)
        .map(|(k, &c)| (scores.value(k), c as f64 / n as f64))
        .collect();
    // With a single observed score there is no spread to weigh: the evidence is undefined.
    if observed.len() < 2 {
        return 0.0;
    }
    let s0 = expected_score(bounds.elo0, bounds.model, scores);
    let s1 = expected_score(bounds.elo1, bounds.model, scores);
    let (Some(l0), Some(l1)) = (
        mle_log_likelihood(&observed, s0),
        mle_log_likelihood(&observed, s1),
    ) else {
        return 0.0;
    };
    n as f64 * (l1 - l0)
}

/// Σ p̂_k ln p_k for the maximum-likelihood distribution on the observed scores with mean `mu`,
/// or `None` when `mu` lies outside the observed range (no such distribution).
fn mle_log_likelihood(observed: &[(f64, f64)], mu: f64) -> Option<f64> {
    let lo_a = observed.iter().map(|o| o.0).fold(f64::INFINITY, f64::min);
    let hi_a = observed
        .iter()
        .map(|o| o.0)
        .fold(f64::NEG_INFINITY, f64::max);
    if !(mu > lo_a && mu < hi_a) {
        return None;
    }
    // f(λ) = Σ p̂_k (a_k − μ) / (1 + λ(a_k − μ)) decreases on (−1/(hi − μ), 1/(μ − lo)).
    let f = |lambda: f64| {
        observed
            .iter()
            .map(|&(a, p)| p * (a - mu) / (1.0 + lambda * (a - mu)))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (-1.0 / (hi_a - mu), 1.0 / (mu - lo_a));
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    Some(
        observed
            .iter()
            .map(|&(a, p)| p * (p / (1.0 + lambda * (a - mu))).ln())
            .sum(),
    )
}

#[cfg(test)]
mod tests {
    use engine::RandomStream;

    use super::*;

    fn logistic(elo0: f64, elo1: f64) -> Bounds {
        Bounds {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        }
    }

    #[test]
    fn bounds_are_checked() {
        assert!(logistic(0.0, 5.0).check().is_ok());
        assert!(
            logistic(5.0, 5.0)
                .check()
                .unwrap_err()
                .contains("must be below")
        );
        assert!(
            Bounds {
                alpha: 0.5,
                ..logistic(0.0, 5.0)
            }
            .check()
            .unwrap_err()
            .contains("alpha")
        );
        assert!(
            Bounds {
                beta: 0.0,
                ..logistic(0.0, 5.0)
            }
            .check()
            .unwrap_err()
            .contains("beta")
        );
        assert!((logistic(0.0, 5.0).upper() - (0.95f64 / 0.05).ln()).abs() < 1e-12);
        assert!((logistic(0.0, 5.0).lower() + (0.95f64 / 0.05).ln()).abs() < 1e-12);
    }

    #[test]
    fn trinomial_llr_matches_an_independent_computation() {
        // Hand check of the exact multinomial LLR on a trinomial with scores 0, ½, 1 (counts
        // 30, 40, 50): for a trinomial the constrained MLE has a closed form per λ, so compare
        // with a direct grid maximisation of the likelihood under each mean.
        let g = GroupScores {
            counts: vec![30, 40, 50],
        };
        let bounds = logistic(0.0, 30.0);
        let direct = |mu: f64| {
            // Maximise Σ n_k ln p_k with p = (p0, p½, p1), p½/2 + p1 = mu, Σ p = 1, over p1.
            let mut best = f64::NEG_INFINITY;
            for i in 1..200_000 {
                let p1 = i as f64 / 200_000.0;
                let p_half = 2.0 * (mu - p1);
                let p0 = 1.0 - p1 - p_half;
                if p_half > 0.0 && p0 > 0.0 {
                    best = best.max(30.0 * p0.ln() + 40.0 * p_half.ln() + 50.0 * p1.ln());
                }
            }
            best
        };
        let expected = direct(score_of_elo(30.0)) - direct(score_of_elo(0.0));
        let got = llr(bounds, &g);
        assert!((got - expected).abs() < 1e-3, "{got} vs {expected}");
        assert!(
            got > 0.0,
            "score 0.5833 is nearer 30 Elo (0.543) than 0 Elo"
        );
    }

    #[test]
    fn llr_is_zero_without_spread_or_games() {
        assert_eq!(llr(logistic(0.0, 5.0), &GroupScores::new(2)), 0.0);
        assert_eq!(
            llr(
                logistic(0.0, 5.0),
                &GroupScores {
                    counts: vec![0, 0, 7, 0, 0]
                }
            ),
            0.0
        );
    }

    /// Plays side-swapped pairs of synthetic games at a true Elo (draw probability 0.3),
    /// running the SPRT after each batch of 32 pairs, up to 200,000 pairs.
    fn run_synthetic(bounds: Bounds, true_elo: f64, seed: u64) -> Verdict {
        let s = score_of_elo(true_elo);
        let draw = 0.3;
        let win = s - draw / 2.0;
        let mut rng = RandomStream::from_seed(seed, 99);
        let mut game = || {
            let u = rng.unit();
            if u < win {
                2
            } else if u < win + draw {
                1
            } else {
                0
            }
        };
        let mut scores = GroupScores::new(2);
        for _ in 0..(200_000 / 32) {
            for _ in 0..32 {
                let pair = game() + game();
                scores.add(pair);
            }
            let test = Sprt::evaluate(bounds, &scores);
            if test.verdict != Verdict::Continue {
                return test.verdict;
            }
        }
        Verdict::Continue
    }

    #[test]
    fn sprt_error_rates_stay_near_alpha_and_beta() {
        // 200 seeded repetitions at each bound. With α = β = 0.05 the binomial standard error of
        // an observed rate is about 0.015; we allow 0.05 + 0.045 (three standard errors).
        let bounds = logistic(0.0, 20.0);
        let reps = 200;
        let false_h1 = (0..reps)
            .filter(|&i| run_synthetic(bounds, 0.0, i) == Verdict::AcceptH1)
            .count();
        let false_h0 = (0..reps)
            .filter(|&i| run_synthetic(bounds, 20.0, 1000 + i) == Verdict::AcceptH0)
            .count();
        let (a, b) = (false_h1 as f64 / reps as f64, false_h0 as f64 / reps as f64);
        eprintln!("SPRT [0, 20] logistic, {reps} repetitions each: type I {a}, type II {b}");
        assert!(a <= 0.095, "type I error {a}");
        assert!(b <= 0.095, "type II error {b}");
        // And the test has power: far from the bounds it decides correctly nearly always.
        assert_eq!(run_synthetic(bounds, 60.0, 7), Verdict::AcceptH1);
        assert_eq!(run_synthetic(bounds, -40.0, 8), Verdict::AcceptH0);
    }

    #[test]
    fn normalized_bounds_use_the_sample_spread() {
        let g = GroupScores {
            counts: vec![10, 20, 40, 20, 10],
        };
        let bounds = Bounds::nonreg();
        let (_, var) = g.moments();
        let expected = 0.5 + 0.25 / NELO_PER_T * (2.0 * var).sqrt();
        assert!((expected_score(0.25, EloModel::Normalized, &g) - expected).abs() < 1e-15);
        // A symmetric sample sits between the bounds, nearer the upper one.
        assert!(llr(bounds, &g) > 0.0);
    }
}
