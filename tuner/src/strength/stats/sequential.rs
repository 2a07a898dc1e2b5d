//! The Elo of an SPRT that stopped at a bound, corrected for the stopping rule, as fishtest
//! reports it (`server/fishtest/stats/sprt.py`, `analytics`, with `brownian.py`).
//!
//! A test that stops as soon as its LLR crosses a bound overestimates the difference when it
//! passes and underestimates it when it fails: it stops on a lucky (unlucky) run. The correction
//! models the LLR as a Brownian motion with absorbing barriers at the two bounds, whose drift
//! and variance per group depend on the true score (`LLR_drift_variance_alt2`). For a candidate
//! Elo, `outcome_cdf` is the probability that the test ends with a *worse* outcome than the one
//! observed (fails sooner, passes later, or fails instead of passing); the estimate is the Elo
//! at which that probability is ½, and the 95% interval the Elos where it is 0.975 and 0.025.
//! All three are in logistic Elo, whatever the bounds' model.

use serde::{Deserialize, Serialize};

use engine::sample::Estimate;

use super::sprt::{moments, regularized};
use super::{Bounds, EloModel, GroupScores, NELO_PER_T, normal_cdf, score_of_elo};

/// The corrected estimate of a stopped test.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SequentialElo {
    /// Median-unbiased logistic Elo with its 95% interval. fishtest searches no further than
    /// ±1000, so a bound (or value) at ±1000 means "at least that far".
    pub elo: Estimate,
    /// The probability of an outcome worse than the observed one at Elo 0: the likelihood of
    /// superiority that accounts for the stopping rule.
    pub los: f64,
    /// The LLR (in fishtest's Brownian approximation) overshot a bound by more than 3%: the
    /// correction assumes the test stops on the bound, so it is rough here.
    pub clamped: bool,
}

/// `+x` (a tie `+0.0`), or `>= +1000` / `<= -1000` at the search limit.
fn bounded(x: f64) -> String {
    if x >= SEARCH_LIMIT {
        format!(">= {SEARCH_LIMIT:+.0}")
    } else if x <= -SEARCH_LIMIT {
        format!("<= {:+.0}", -SEARCH_LIMIT)
    } else {
        super::elo::signed(x)
    }
}

impl std::fmt::Display for SequentialElo {
    /// `Elo corrected for the early stop +2.6 [-0.6, +5.7], LOS 95.0%`, with a warning when the
    /// LLR overshot its bound.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Elo corrected for the early stop {} [{}, {}], LOS {:.1}%",
            bounded(self.elo.value),
            bounded(self.elo.ci95[0]),
            bounded(self.elo.ci95[1]),
            100.0 * self.los
        )?;
        let mut notes = Vec::new();
        if self.clamped {
            notes.push("rough: the LLR overshot its bound by over 3%");
        }
        if self.elo.ci95.iter().any(|b| b.abs() >= SEARCH_LIMIT) {
            notes.push(
                "open bound: a test that stopped this early fits any larger difference, and the correction searches no further than ±1000",
            );
        }
        if !notes.is_empty() {
            write!(f, " ({})", notes.join("; "))?;
        }
        Ok(())
    }
}

/// How far the root search reaches, as in fishtest: ±1000 Elo.
const SEARCH_LIMIT: f64 = 1000.0;

/// A Brownian motion from 0 with drift `mu` and variance `sigma2` per group, absorbed at `a < 0`
/// and `b > 0` (fishtest's `Brownian`).
struct Brownian {
    a: f64,
    b: f64,
    mu: f64,
    sigma2: f64,
}

impl Brownian {
    /// The probability that the motion ends "to the right" of `(t, y)`: absorbed at `a` before
    /// time `t`, or below `y` at `t`… in fishtest's words, a worse outcome than stopping at `y`
    /// after `t` groups. The series converges slowly for short times or strong drift, where
    /// Siegmund's approximation takes over (fishtest's thresholds).
    fn outcome_cdf(&self, t: f64, y: f64) -> f64 {
        let width = self.b - self.a;
        let gamma = self.mu / self.sigma2;
        if self.sigma2 * t / (width * width) < 1e-2 || (gamma * width).abs() > 15.0 {
            self.siegmund(t, y)
        } else {
            self.series(t, y)
        }
    }

    /// The exact eigenfunction series for the strip `[a, b]` (fishtest's `outcome_cdf_alt1`).
    fn series(&self, t: f64, y: f64) -> f64 {
        use std::f64::consts::PI;
        let (mu, sigma2, width) = (self.mu, self.sigma2, self.b - self.a);
        let (x, y) = (-self.a, y - self.a);
        let gamma = mu / sigma2;
        let lambda = |n: f64| (n * PI / width).powi(2) * sigma2 / 2.0 + mu * mu / sigma2 / 2.0;
        let t0 = (-lambda(1.0) * t - x * gamma + y * gamma).exp();
        let mut sum = 0.0;
        let mut n = 1.0;
        loop {
            let t1 = (-(lambda(n) - lambda(1.0)) * t).exp();
            // A primitive of e^(γy)·sin(nπy/A), times 2/A·e^(−γy).
            let u = (2.0 * width * gamma * (PI * n * y / width).sin()
                - 2.0 * PI * n * (PI * n * y / width).cos())
                / (width * width * gamma * gamma + PI * PI * n * n);
            sum += t1 * u * (n * PI * x / width).sin();
            if (t0 * t1 * u).abs() <= 1e-9 {
                break;
            }
            n += 1.0;
        }
        let pre = if gamma * width > 30.0 {
            (-2.0 * gamma * x).exp()
        } else if (gamma * width).abs() < 1e-8 {
            (width - x) / width
        } else {
            (1.0 - (2.0 * gamma * (width - x)).exp()) / (1.0 - (2.0 * gamma * width).exp())
        };
        pre + t0 * sum
    }

    /// Siegmund's approximation (fishtest's `outcome_cdf_alt2`), with the asymptotic expansion
    /// of Φ where `e^(2γ·bound)·Φ(z)` would overflow.
    fn siegmund(&self, t: f64, y: f64) -> f64 {
        let denom = (t * self.sigma2).sqrt();
        let offset = self.mu * t;
        let gamma = self.mu / self.sigma2;
        let reflected = |bound: f64, z: f64| {
            if gamma * bound >= 5.0 {
                -(-z * z / 2.0 + 2.0 * gamma * bound).exp() / (2.0 * std::f64::consts::PI).sqrt()
                    * (1.0 / z - 1.0 / z.powi(3))
            } else {
                (2.0 * gamma * bound).exp() * normal_cdf(z)
            }
        };
        normal_cdf((y - offset) / denom) + reflected(self.a, (-y + offset + 2.0 * self.a) / denom)
            - reflected(self.b, (y - offset - 2.0 * self.b) / denom)
    }
}

/// A test's data as fishtest's `sprt.set_state` keeps it.
struct StoppedTest {
    bounds: Bounds,
    /// Mean and variance of the regularized group-score distribution.
    mean: f64,
    var: f64,
    /// The hypotheses' expected group scores.
    s0: f64,
    s1: f64,
    /// Where the LLR path ended: after `t` groups at `llr` (moved back onto the bound it
    /// crossed, `t` shortened in proportion).
    t: f64,
    llr: f64,
}

impl StoppedTest {
    /// Drift and variance per group of the LLR when the true expected score is `s`
    /// (`LLR_drift_variance_alt2`: the variance grows by the squared shift of the mean).
    fn drift_variance(&self, s: f64) -> (f64, f64) {
        let v = self.var + (s - self.mean).powi(2);
        let step = self.s1 - self.s0;
        ((s - (self.s0 + self.s1) / 2.0) * step / v, step * step / v)
    }

    /// The probability of a worse outcome than the observed one at logistic Elo `elo`.
    fn outcome_prob(&self, elo: f64) -> f64 {
        let (mu, sigma2) = self.drift_variance(score_of_elo(elo));
        Brownian {
            a: self.bounds.lower(),
            b: self.bounds.upper(),
            mu,
            sigma2,
        }
        .outcome_cdf(self.t, self.llr)
    }

    /// The Elo at which a worse outcome has probability `1 − p` (fishtest's `lower_cb`): the
    /// search starts 30 bound-widths around the bounds' middle and doubles up to ±1000; with no
    /// root inside ±1000 the estimate is the limit on the side the root lies.
    fn lower_cb(&self, p: f64) -> f64 {
        let g = |elo: f64| self.outcome_prob(elo) - (1.0 - p);
        let middle = (self.bounds.elo0 + self.bounds.elo1) / 2.0;
        let width = self.bounds.elo1 - self.bounds.elo0;
        let mut reach = 30.0;
        loop {
            let lo = (middle - reach * width).max(-SEARCH_LIMIT);
            let hi = (middle + reach * width).min(SEARCH_LIMIT);
            let (g_lo, g_hi) = (g(lo), g(hi));
            if (g_lo > 0.0) != (g_hi > 0.0) {
                return bisect(g, lo, hi, g_lo);
            }
            if lo > -SEARCH_LIMIT || hi < SEARCH_LIMIT {
                reach *= 2.0;
            } else {
                return if g_lo > 0.0 { hi } else { lo };
            }
        }
    }
}

/// The root of `f` on `[lo, hi]`, where `f` changes sign (`f(lo) = f_lo`), to machine
/// precision by bisection (fishtest uses Brent's method; the root is the same).
fn bisect(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64, f_lo: f64) -> f64 {
    let lo_positive = f_lo > 0.0;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if (f(mid) > 0.0) == lo_positive {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The corrected Elo of a test on `scores` with `bounds`; `None` without groups or spread.
#[must_use]
pub fn sequential_elo(bounds: Bounds, scores: &GroupScores) -> Option<SequentialElo> {
    if scores.groups() == 0 {
        return None;
    }
    let (n, pdf) = regularized(scores);
    let (mean, var) = moments(&pdf);
    let score_of = |elo: f64| match bounds.model {
        EloModel::Logistic => score_of_elo(elo),
        // The t-value per game times the spread per game (√(games) times the group's).
        EloModel::Normalized => {
            let per_game = (var * scores.games_per_group().max(1) as f64).sqrt();
            0.5 + elo / NELO_PER_T * per_game
        }
    };
    let mut test = StoppedTest {
        bounds,
        mean,
        var,
        s0: score_of(bounds.elo0),
        s1: score_of(bounds.elo1),
        t: n,
        llr: 0.0,
    };
    let slope = test.drift_variance(mean).0;
    let llr = n * slope;
    let (lower, upper) = (bounds.lower(), bounds.upper());
    let clamped = llr > 1.03 * upper || llr < 1.03 * lower;
    let end = if llr < lower {
        lower
    } else if llr > upper {
        upper
    } else {
        llr
    };
    test.t = if end == llr { n } else { end / slope };
    test.llr = end;
    if !(test.t.is_finite() && slope.is_finite()) {
        return None;
    }
    Some(SequentialElo {
        elo: Estimate {
            value: test.lower_cb(0.5),
            ci95: [test.lower_cb(0.025), test.lower_cb(0.975)],
        },
        los: test.outcome_prob(0.0),
        clamped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(elo0: f64, elo1: f64, model: EloModel) -> Bounds {
        Bounds {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    /// Group-score counts, `elo0`, `elo1`, the model, then the corrected Elo, its 95% interval
    /// and LOS.
    type FishtestCase = (&'static [u64], f64, f64, EloModel, [f64; 4]);

    /// Reference values from `tuner/tests/reference/fishtest.py` (`sequential_elo`), a
    /// plain-Python re-implementation of fishtest's `server/fishtest/stats/sprt.py`
    /// (`sprt.analytics(0.05)`: `elo`, `ci`, `LOS`, `clamped`) and `brownian.py`, run outside
    /// koom. Every case is a test whose LLR crossed a bound (α = β = 0.05).
    const FISHTEST_CASES: [FishtestCase; 8] = {
        use EloModel::{Logistic, Normalized};
        [
            (
                &[1000, 5000, 9000, 5200, 1100],
                0.0,
                5.0,
                Logistic,
                [
                    2.649_859_051_6,
                    -0.608_212_349_6,
                    5.689_515_371_4,
                    0.950_447_017_1,
                ],
            ),
            (
                &[500, 3000, 6000, 3000, 480],
                0.0,
                5.0,
                Logistic,
                [
                    0.282_820_375_9,
                    -4.361_723_630_8,
                    5.158_008_585_8,
                    0.546_881_623_3,
                ],
            ),
            (
                &[25, 2250, 10000, 2500, 30],
                0.0,
                2.0,
                Normalized,
                [
                    2.913_196_032,
                    1.206_902_810_2,
                    4.611_727_646_8,
                    0.999_573_388_3,
                ],
            ),
            (
                &[120, 200, 100],
                -20.0,
                20.0,
                Logistic,
                [
                    -10.157_172_991_8,
                    -41.831_896_205_8,
                    23.424_474_839,
                    0.267_577_046_2,
                ],
            ),
            (
                &[50, 40, 30],
                0.0,
                30.0,
                Logistic,
                [
                    -53.316_576_631_5,
                    -114.461_769_682_3,
                    -0.414_899_813_2,
                    0.024_103_898_4,
                ],
            ),
            (
                &[20, 300, 250],
                0.0,
                50.0,
                Logistic,
                [139.032_845_941_9, 57.723_217_758_3, 1000.0, 0.999_739_049_4],
            ),
            (
                &[0, 0, 1, 3, 20, 31, 28, 12, 5],
                0.0,
                10.0,
                Normalized,
                [1000.0, 96.724_171_997_8, 1000.0, 1.0],
            ),
            (
                &[0, 0, 0, 0, 2000],
                -1.75,
                0.25,
                Normalized,
                [1000.0, 1000.0, 1000.0, 1.0],
            ),
        ]
    };

    #[test]
    fn corrected_elo_matches_fishtest() {
        for (counts, elo0, elo1, model, want) in FISHTEST_CASES {
            let scores = GroupScores {
                counts: counts.to_vec(),
            };
            let got = sequential_elo(bounds(elo0, elo1, model), &scores).unwrap();
            let got4 = [got.elo.value, got.elo.ci95[0], got.elo.ci95[1], got.los];
            for (g, w) in got4.iter().zip(want) {
                assert!((g - w).abs() < 1e-6, "{counts:?}: {got4:?} vs {want:?}");
            }
            assert!(
                got.clamped,
                "{counts:?}: each overshoots its bound by over 3%"
            );
        }
    }

    #[test]
    fn the_correction_pulls_a_lucky_pass_towards_the_bounds() {
        // Naive Elo of these pairs: +3.26 (fishtest's get_elo). The test stopped as soon as it
        // crossed the upper bound, so the corrected median is lower.
        let scores = GroupScores {
            counts: vec![1000, 5000, 9000, 5200, 1100],
        };
        let naive = scores.estimate().elo.value;
        let corrected = sequential_elo(bounds(0.0, 5.0, EloModel::Logistic), &scores).unwrap();
        assert!((naive - 3.262_4).abs() < 1e-3);
        assert!(corrected.elo.value < naive - 0.5);
        assert!(corrected.elo.ci95[0] < corrected.elo.value);
        assert!(corrected.elo.value < corrected.elo.ci95[1]);
        assert!(
            sequential_elo(bounds(0.0, 5.0, EloModel::Logistic), &GroupScores::new(2)).is_none()
        );
        assert_eq!(
            corrected.to_string(),
            "Elo corrected for the early stop +2.6 [-0.6, +5.7], LOS 95.0% \
             (rough: the LLR overshot its bound by over 3%)"
        );
        let sweep = GroupScores {
            counts: vec![0, 0, 0, 0, 2000],
        };
        let sweep = sequential_elo(bounds(-1.75, 0.25, EloModel::Normalized), &sweep).unwrap();
        let text = sweep.to_string();
        assert!(
            text.starts_with("Elo corrected for the early stop >= +1000 [>= +1000, >= +1000]"),
            "{text}"
        );
        assert!(text.ends_with("searches no further than ±1000)"), "{text}");
    }

    #[test]
    fn brownian_without_drift_splits_by_distance() {
        // Driftless, long after the start: the motion has been absorbed, at b with probability
        // −a / (b − a); a worse outcome than ending at b is ending at a.
        let w = Brownian {
            a: -1.0,
            b: 3.0,
            mu: 0.0,
            sigma2: 1.0,
        };
        assert!((w.outcome_cdf(1e4, 3.0) - 0.75).abs() < 1e-9);
    }
}
