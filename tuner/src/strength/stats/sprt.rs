//! The generalized sequential probability ratio test (GSPRT) on group scores.
//!
//! H0: the candidate's Elo is `elo0`; H1: it is `elo1` (`elo0 < elo1`). The log-likelihood ratio
//! is fishtest's (`server/fishtest/stats/LLRcalc.py`), which fastchess also follows:
//! - every score level never observed gets a pseudo-count of 0.001 (`regularize`), so a single
//!   observed level (a clean sweep) still carries evidence and no level is assumed impossible;
//! - logistic bounds: under each hypothesis the distribution is the maximum-likelihood one on
//!   all levels whose mean is the hypothesis' expected score (`MLE_expected`);
//! - normalized bounds fix the t-value `(μ − ½) / σ` of the hypothesis, not a score computed
//!   with the sample's spread (`MLE_t_value`): t = nElo / (800 / ln 10) · √(games per group).

use serde::{Deserialize, Serialize};

use super::{GroupScores, NELO_PER_T, SequentialElo, score_of_elo, sequential_elo};

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
    /// Once the LLR has crossed a bound: the Elo corrected for stopping there, as fishtest's
    /// `sprt.analytics` computes it ([`sequential_elo`]); `None` while the test runs and when
    /// it ends at the game limit.
    #[serde(default)]
    pub elo_sequential: Option<SequentialElo>,
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
        let elo_sequential = if verdict == Verdict::Continue {
            None
        } else {
            sequential_elo(bounds, scores)
        };
        Self {
            bounds,
            llr,
            lower,
            upper,
            verdict,
            elo_sequential,
        }
    }
}

/// The pseudo-count fishtest gives a score level never observed.
const PSEUDO_COUNT: f64 = 1e-3;

/// The group-score distribution as `(score, probability)` on every level, empty levels given
/// [`PSEUDO_COUNT`], and the (regularized) number of groups.
pub(super) fn regularized(scores: &GroupScores) -> (f64, Vec<(f64, f64)>) {
    let counts: Vec<f64> = scores
        .counts
        .iter()
        .map(|&c| if c == 0 { PSEUDO_COUNT } else { c as f64 })
        .collect();
    let n: f64 = counts.iter().sum();
    let pdf = counts
        .iter()
        .enumerate()
        .map(|(k, &c)| (scores.value(k), c / n))
        .collect();
    (n, pdf)
}

/// Mean and variance of a distribution.
pub(super) fn moments(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mean: f64 = pdf.iter().map(|&(a, p)| a * p).sum();
    let var = pdf.iter().map(|&(a, p)| p * (a - mean).powi(2)).sum();
    (mean, var)
}

/// The root of `Σ p_i x_i / (1 + λ x_i) = 0` (fishtest's `secular`), which decreases in λ on
/// `(−1 / max x, −1 / min x)`; `None` unless the `x_i` take both signs.
fn secular(xs: &[(f64, f64)]) -> Option<f64> {
    let lo_x = xs.iter().map(|x| x.0).fold(f64::INFINITY, f64::min);
    let hi_x = xs.iter().map(|x| x.0).fold(f64::NEG_INFINITY, f64::max);
    if !(lo_x < 0.0 && hi_x > 0.0) {
        return None;
    }
    let f = |l: f64| xs.iter().map(|&(x, p)| p * x / (1.0 + l * x)).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / hi_x, -1.0 / lo_x);
    for _ in 0..300 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The maximum-likelihood distribution on the levels of `pdf` with mean `s` (`MLE_expected`).
fn mle_expected(pdf: &[(f64, f64)], s: f64) -> Option<Vec<f64>> {
    let shifted: Vec<(f64, f64)> = pdf.iter().map(|&(a, p)| (a - s, p)).collect();
    let l = secular(&shifted)?;
    Some(shifted.iter().map(|&(x, p)| p / (1.0 + l * x)).collect())
}

/// The maximum-likelihood distribution on the levels of `pdf` with t-value `(μ − ½) / σ = t`
/// (`MLE_t_value`: a fixed point from the uniform distribution, at most 10 rounds).
fn mle_t_value(pdf: &[(f64, f64)], t: f64) -> Option<Vec<f64>> {
    let mut current: Vec<(f64, f64)> = pdf
        .iter()
        .map(|&(a, _)| (a, 1.0 / pdf.len() as f64))
        .collect();
    for _ in 0..10 {
        let (mu, var) = moments(&current);
        let sigma = var.sqrt();
        let xs: Vec<(f64, f64)> = pdf
            .iter()
            .map(|&(a, p)| {
                (
                    a - 0.5 - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0,
                    p,
                )
            })
            .collect();
        let l = secular(&xs)?;
        let next: Vec<(f64, f64)> = pdf
            .iter()
            .zip(&xs)
            .map(|(&(a, p), &(x, _))| (a, p / (1.0 + l * x)))
            .collect();
        let change = next
            .iter()
            .zip(&current)
            .map(|(a, b)| (a.1 - b.1).abs())
            .fold(0.0, f64::max);
        current = next;
        if change < 1e-9 {
            break;
        }
    }
    Some(current.into_iter().map(|(_, p)| p).collect())
}

/// The log-likelihood ratio of H1 against H0 for the observed group scores.
#[must_use]
pub fn llr(bounds: Bounds, scores: &GroupScores) -> f64 {
    if scores.groups() == 0 {
        return 0.0;
    }
    let (n, pdf) = regularized(scores);
    let fitted = |elo: f64| match bounds.model {
        EloModel::Logistic => mle_expected(&pdf, score_of_elo(elo)),
        EloModel::Normalized => {
            let per_group = (scores.games_per_group().max(1) as f64).sqrt();
            mle_t_value(&pdf, elo / NELO_PER_T * per_group)
        }
    };
    let (Some(p0), Some(p1)) = (fitted(bounds.elo0), fitted(bounds.elo1)) else {
        return 0.0;
    };
    n * pdf
        .iter()
        .zip(p0.iter().zip(&p1))
        .map(|(&(_, p), (q0, q1))| p * (q1.ln() - q0.ln()))
        .sum::<f64>()
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

    fn normalized(elo0: f64, elo1: f64) -> Bounds {
        Bounds {
            model: EloModel::Normalized,
            ..logistic(elo0, elo1)
        }
    }

    fn counts(counts: &[u64]) -> GroupScores {
        GroupScores {
            counts: counts.to_vec(),
        }
    }

    /// Reference LLRs from `tuner/tests/reference/fishtest.py`, a plain-Python re-implementation
    /// of fishtest's `server/fishtest/stats/LLRcalc.py` (`LLR_logistic`, `LLR_normalized`, with
    /// `regularize`'s pseudo-counts), run outside koom.
    #[test]
    fn llr_matches_fishtest() {
        let cases: [(&[u64], Bounds, f64); 8] = [
            // Trente-douze hard vs easy: 2,000 of 2,000 pairs won (koom used to say 0).
            (&[0, 0, 0, 0, 2000], Bounds::nonreg(), 16.331_322_662_8),
            (&[0, 0, 0, 0, 2000], normalized(0.0, 2.0), 16.215_287_935_2),
            // The reverse: a total collapse is a regression.
            (&[2000, 0, 0, 0, 0], Bounds::nonreg(), -16.231_914_491_4),
            // fishtest's own examples in stat_util.py.
            (
                &[10789, 19328, 33806, 19402, 10543],
                logistic(-3.0, 1.0),
                2.131_067_811_8,
            ),
            (
                &[39, 2226, 31451, 2412, 40],
                normalized(0.764, 3.439),
                2.162_940_869_6,
            ),
            // A strong candidate with empty levels, and four-seat groups (nine levels).
            (&[0, 0, 37, 120, 243], Bounds::nonreg(), 2.843_704_996_9),
            (
                &[0, 0, 1, 3, 20, 31, 28, 12, 5],
                normalized(0.0, 10.0),
                3.227_665_349_1,
            ),
            (&[30, 40, 50], logistic(0.0, 30.0), 1.928_565_504_7),
        ];
        for (c, bounds, expected) in cases {
            let got = llr(bounds, &counts(c));
            assert!((got - expected).abs() < 1e-6, "{c:?}: {got} vs {expected}");
        }
        assert_eq!(llr(logistic(0.0, 5.0), &GroupScores::new(2)), 0.0);
    }

    #[test]
    fn a_clean_sweep_is_decided_not_inconclusive() {
        let sweep = Sprt::evaluate(Bounds::nonreg(), &counts(&[0, 0, 0, 0, 2000]));
        assert_eq!(sweep.verdict, Verdict::AcceptH1);
        let collapse = Sprt::evaluate(Bounds::nonreg(), &counts(&[2000, 0, 0, 0, 0]));
        assert_eq!(collapse.verdict, Verdict::AcceptH0);
    }

    /// Plays side-swapped pairs of synthetic games at a true Elo (draw probability 0.3),
    /// running the SPRT after each batch of 32 pairs, up to 200,000 pairs.
    fn run_synthetic(bounds: Bounds, true_elo: f64, seed: u64) -> Verdict {
        run_at_score(bounds, score_of_elo(true_elo), seed)
    }

    /// The score per game whose normalized Elo is `nelo` with draw probability 0.3: the t-value
    /// per game `(s − ½) / σ`, σ² = w + d/4 − s², increases with s; found by bisection.
    fn score_of_nelo(nelo: f64) -> f64 {
        let t = |s: f64| (s - 0.5) / ((s - 0.15) + 0.3 / 4.0 - s * s).sqrt();
        let (mut lo, mut hi) = (0.2, 0.8);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if t(mid) * NELO_PER_T < nelo {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    }

    fn run_at_score(bounds: Bounds, s: f64, seed: u64) -> Verdict {
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
    fn normalized_sprt_error_rates_stay_near_alpha_and_beta() {
        // The same at fishtest's t-value bounds: normalized [0, 10], 200 repetitions each.
        let bounds = normalized(0.0, 10.0);
        let reps = 200;
        let at = |nelo: f64, offset: u64, wrong: Verdict| {
            let s = score_of_nelo(nelo);
            (0..reps)
                .filter(|&i| run_at_score(bounds, s, offset + i) == wrong)
                .count() as f64
                / reps as f64
        };
        let (a, b) = (
            at(0.0, 2000, Verdict::AcceptH1),
            at(10.0, 3000, Verdict::AcceptH0),
        );
        eprintln!("SPRT [0, 10] normalized, {reps} repetitions each: type I {a}, type II {b}");
        assert!(a <= 0.095, "type I error {a}");
        assert!(b <= 0.095, "type II error {b}");
    }
}
