//! A sample's exact, order-independent accumulators and the estimates (with intervals) drawn
//! from it. (`tuner::tally` is the run's tally, built from these.)
//!
//! Accumulators hold integers only, so merging the counts of parallel workers gives the same
//! bits whatever order they finish in; floating point appears only when a figure is reported.

use serde::{Deserialize, Serialize};

use crate::game::SeatResult;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Count, sum, sum of squares, minimum and maximum of integer observations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moments {
    pub n: u64,
    pub sum: i64,
    pub sum_sq: i128,
    pub min: Option<i64>,
    pub max: Option<i64>,
}

impl Moments {
    pub fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += x;
        self.sum_sq += i128::from(x) * i128::from(x);
        self.min = Some(self.min.map_or(x, |m| m.min(x)));
        self.max = Some(self.max.map_or(x, |m| m.max(x)));
    }

    pub fn merge(&mut self, other: &Self) {
        self.n += other.n;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
        self.min = match (self.min, other.min) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.max = match (self.max, other.max) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
    }

    /// The mean, 0 when empty.
    #[must_use]
    pub fn mean(&self) -> f64 {
        mean_of(self.sum, self.n)
    }

    /// The sample standard deviation (n − 1 in the denominator), 0 below two observations.
    #[must_use]
    pub fn sd(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = i128::from(self.n);
        let sum = i128::from(self.sum);
        // n·Σx² − (Σx)² is computed exactly in integers before the one division.
        let numerator = n * self.sum_sq - sum * sum;
        (numerator as f64 / (n * (n - 1)) as f64).sqrt()
    }

    /// The normal-approximation 95% interval of the mean.
    #[must_use]
    pub fn mean_ci95(&self) -> [f64; 2] {
        if self.n == 0 {
            return [0.0, 0.0];
        }
        let half = Z95 * self.sd() / (self.n as f64).sqrt();
        [self.mean() - half, self.mean() + half]
    }
}

/// Wins, draws, losses and no-results: the one win/draw/loss record of every game and of the
/// tuner's summaries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub no_result: u64,
}

impl Record {
    pub fn add(&mut self, result: SeatResult) {
        self.games += 1;
        match result {
            SeatResult::Win => self.wins += 1,
            SeatResult::Draw => self.draws += 1,
            SeatResult::Loss => self.losses += 1,
            SeatResult::NoResult => self.no_result += 1,
        }
    }

    pub fn merge(&mut self, other: &Self) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.no_result += other.no_result;
    }

    /// Games with a result.
    #[must_use]
    pub fn decided(&self) -> u64 {
        self.games - self.no_result
    }

    /// Points per game with a result, a draw counting one half (0 without such games).
    #[must_use]
    pub fn score_of_decided(&self) -> f64 {
        ratio(2 * self.wins + self.draws, 2 * self.decided())
    }
}

/// Sums over seed groups of an integer quantity `y` observed on `n` units per group: the
/// counts behind a cluster-robust interval. The games of one seed group share their dice and
/// seeds, so they are one observation, not `n` independent ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clustered {
    pub groups: u64,
    /// Σ n_g: units (games, rounds, turns) over all groups.
    pub n: u64,
    /// Σ y_g.
    pub sum: i64,
    /// Σ y_g².
    pub sum_sq: i128,
    /// Σ y_g·n_g.
    pub cross: i128,
    /// Σ n_g².
    pub n_sq: u128,
}

impl Clustered {
    /// Adds one group whose `n` units sum to `y`.
    pub fn add_group(&mut self, y: i64, n: u64) {
        self.groups += 1;
        self.n += n;
        self.sum += y;
        self.sum_sq += i128::from(y) * i128::from(y);
        self.cross += i128::from(y) * i128::from(n);
        self.n_sq += u128::from(n) * u128::from(n);
    }

    pub fn merge(&mut self, other: &Self) {
        self.groups += other.groups;
        self.n += other.n;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
        self.cross += other.cross;
        self.n_sq += other.n_sq;
    }

    /// The mean per unit, `Σy / Σn` (0 without units).
    #[must_use]
    pub fn mean(&self) -> f64 {
        mean_of(self.sum, self.n)
    }

    /// The cluster-robust (sandwich) variance of the mean per unit:
    /// `G / (G − 1) · Σ (y_g − m·n_g)² / (Σn)²`, 0 below two groups.
    #[must_use]
    pub fn variance_of_mean(&self) -> f64 {
        if self.groups < 2 || self.n == 0 {
            return 0.0;
        }
        let m = self.mean();
        let residuals = self.sum_sq as f64 - 2.0 * m * self.cross as f64 + m * m * self.n_sq as f64;
        let g = self.groups as f64;
        (g / (g - 1.0) * residuals.max(0.0)) / (self.n as f64 * self.n as f64)
    }
}

/// A figure with its 95% interval: the one way every interval of koom is written. Bounds that
/// do not exist are infinite (a perfect score's Elo) and values that do not exist are NaN (nElo
/// without spread); JSON writes them as `"inf"`, `"-inf"` and `null`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    #[serde(with = "extended")]
    pub value: f64,
    #[serde(with = "extended_pair")]
    pub ci95: [f64; 2],
}

impl Estimate {
    /// `k` successes of `n` independent trials, with the Wilson interval.
    #[must_use]
    pub fn proportion(k: f64, n: f64) -> Self {
        Self {
            value: if n > 0.0 { k / n } else { 0.0 },
            ci95: wilson95(k, n),
        }
    }

    /// A proportion counted over seed groups (`y` successes of `n` trials per group): the Wilson
    /// interval on the effective sample size `p(1 − p) / Var_cluster(p̂)`, so the design effect
    /// of the groups widens (or narrows) it; with no spread inside `(0, 1)`, or none at all, the
    /// groups themselves are the trials.
    #[must_use]
    pub fn clustered_proportion(c: &Clustered) -> Self {
        let p = c.mean();
        let var = c.variance_of_mean();
        let effective = if p > 0.0 && p < 1.0 && var > 0.0 {
            p * (1.0 - p) / var
        } else {
            c.groups as f64
        };
        Self {
            value: p,
            ci95: wilson95(p * effective, effective),
        }
    }

    /// A mean per unit counted over seed groups, with the cluster-robust normal interval.
    #[must_use]
    pub fn clustered_mean(c: &Clustered) -> Self {
        let half = Z95 * c.variance_of_mean().sqrt();
        let m = c.mean();
        Self {
            value: m,
            ci95: [m - half, m + half],
        }
    }

    /// The mean of independent observations, with its normal interval.
    #[must_use]
    pub fn mean(m: &Moments) -> Self {
        Self {
            value: m.mean(),
            ci95: m.mean_ci95(),
        }
    }

    /// The estimate moved by `by` (e.g. a share minus the fair share).
    #[must_use]
    pub fn shifted(self, by: f64) -> Self {
        Self {
            value: self.value + by,
            ci95: [self.ci95[0] + by, self.ci95[1] + by],
        }
    }

    /// The estimate scaled by `by ≥ 0`.
    #[must_use]
    pub fn scaled(self, by: f64) -> Self {
        Self {
            value: self.value * by,
            ci95: [self.ci95[0] * by, self.ci95[1] * by],
        }
    }
}

/// Serde for floats that may be infinite or NaN, which JSON numbers cannot hold.
mod extended {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        if x.is_nan() {
            s.serialize_none()
        } else if x.is_infinite() {
            s.serialize_str(if *x > 0.0 { "inf" } else { "-inf" })
        } else {
            s.serialize_f64(*x)
        }
    }

    /// Owned text: a flattened struct buffers its fields, so nothing can be borrowed.
    #[derive(Deserialize)]
    #[serde(untagged, expecting = "a number, \"inf\", \"-inf\" or null")]
    enum Wire {
        Number(f64),
        Text(alloc::string::String),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        match Option::<Wire>::deserialize(d)? {
            None => Ok(f64::NAN),
            Some(Wire::Number(x)) => Ok(x),
            Some(Wire::Text(text)) => match text.as_str() {
                "inf" => Ok(f64::INFINITY),
                "-inf" => Ok(f64::NEG_INFINITY),
                other => Err(serde::de::Error::custom(alloc::format!(
                    "expected a number, \"inf\", \"-inf\" or null, got {other:?}"
                ))),
            },
        }
    }
}

/// [`extended`] for a `[lo, hi]` pair.
mod extended_pair {
    use serde::ser::SerializeTuple;
    use serde::{Deserialize, Deserializer, Serializer};

    #[derive(serde::Serialize, Deserialize)]
    struct One(#[serde(with = "super::extended")] f64);

    pub fn serialize<S: Serializer>(pair: &[f64; 2], s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(2)?;
        t.serialize_element(&One(pair[0]))?;
        t.serialize_element(&One(pair[1]))?;
        t.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[f64; 2], D::Error> {
        let [One(lo), One(hi)] = <[One; 2]>::deserialize(d)?;
        Ok([lo, hi])
    }
}

/// Exact counts of an integer quantity (e.g. a point margin), bounded by its range rather than
/// by the number of observations. Reports draw any `distributions` a game lists as histograms.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts(pub alloc::collections::BTreeMap<i64, u64>);

impl Counts {
    pub fn add(&mut self, x: i64) {
        *self.0.entry(x).or_default() += 1;
    }

    pub fn merge(&mut self, other: &Self) {
        for (&x, &n) in &other.0 {
            *self.0.entry(x).or_default() += n;
        }
    }
}

/// Named [`Counts`] as `summary.json` shows them: `[value, count]` pairs in value order (a
/// frequency table; `tuner::summary::Distribution` is the mean/sd/min/max of a quantity).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Frequencies {
    pub name: &'static str,
    pub counts: alloc::vec::Vec<(i64, u64)>,
}

impl Frequencies {
    #[must_use]
    pub fn new(name: &'static str, counts: &Counts) -> Self {
        Self {
            name,
            counts: counts.0.iter().map(|(&x, &n)| (x, n)).collect(),
        }
    }
}

/// The Wilson score 95% interval of a proportion `k / n` (`[0, 1]` when `n = 0`).
#[must_use]
pub fn wilson95(k: f64, n: f64) -> [f64; 2] {
    if n <= 0.0 {
        return [0.0, 1.0];
    }
    let p = k / n;
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    // At k = 0 and k = n one bound is exactly 0 or 1; rounding must not print 0.9999999999999999.
    let lo = if k <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if k >= n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    [lo, hi]
}

/// `sum / n`, 0 when `n = 0`: the mean of independent observations and the mean per unit over
/// seed groups alike.
fn mean_of(sum: i64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { sum as f64 / n as f64 }
}

/// `k / n`, 0 when `n = 0`.
#[must_use]
pub fn ratio(k: u64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { k as f64 / n as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_match_a_direct_computation() {
        let xs = [3i64, -1, 4, 1, -5, 9, 2, 6];
        let mut m = Moments::default();
        xs.iter().for_each(|&x| m.add(x));
        let mean = xs.iter().sum::<i64>() as f64 / 8.0;
        let var = xs.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / 7.0;
        assert!((m.mean() - mean).abs() < 1e-12);
        assert!((m.sd() - var.sqrt()).abs() < 1e-12);
        assert_eq!((m.min, m.max), (Some(-5), Some(9)));
        let (mut a, mut b) = (Moments::default(), Moments::default());
        xs[..3].iter().for_each(|&x| a.add(x));
        xs[3..].iter().for_each(|&x| b.add(x));
        b.merge(&a);
        assert_eq!(b, m, "merging in any order is exact");
    }

    #[test]
    fn wilson_matches_published_values() {
        // 81 successes of 263 trials: Wilson 95% interval [0.2553, 0.3662] (Newcombe 1998).
        let [lo, hi] = wilson95(81.0, 263.0);
        assert!(
            (lo - 0.2553).abs() < 1e-4 && (hi - 0.3662).abs() < 1e-4,
            "{lo} {hi}"
        );
        assert_eq!(wilson95(0.0, 0.0), [0.0, 1.0]);
        let [lo, hi] = wilson95(0.0, 10.0);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-4, "{hi}");
    }

    #[test]
    fn clustered_interval_matches_a_direct_computation_over_groups() {
        // Four groups of unequal size: (successes, trials).
        let groups = [(3i64, 4u64), (0, 2), (2, 2), (1, 4)];
        let mut c = Clustered::default();
        groups.iter().for_each(|&(y, n)| c.add_group(y, n));
        let (y, n): (i64, u64) = groups
            .iter()
            .fold((0, 0), |(sy, sn), &(y, n)| (sy + y, sn + n));
        let m = y as f64 / n as f64;
        // The sandwich variance computed directly from the residuals of each group.
        let g = groups.len() as f64;
        let residuals: f64 = groups
            .iter()
            .map(|&(y, k)| (y as f64 - m * k as f64).powi(2))
            .sum();
        let direct = g / (g - 1.0) * residuals / (n as f64).powi(2);
        assert!((c.variance_of_mean() - direct).abs() < 1e-15);
        let e = Estimate::clustered_mean(&c);
        assert!((e.value - 0.5).abs() < 1e-15);
        assert!((e.ci95[1] - e.value - Z95 * direct.sqrt()).abs() < 1e-12);
        // Merging halves gives the same sums.
        let (mut a, mut b) = (Clustered::default(), Clustered::default());
        groups[..1].iter().for_each(|&(y, n)| a.add_group(y, n));
        groups[1..].iter().for_each(|&(y, n)| b.add_group(y, n));
        a.merge(&b);
        assert_eq!(a, c);
    }

    #[test]
    fn replayed_groups_count_once() {
        // 100 groups of 4 identical games: 40 groups won 4 of 4, 60 lost 4 of 4. The clustered
        // proportion has the interval of 100 trials, not of 400.
        let mut c = Clustered::default();
        (0..40).for_each(|_| c.add_group(4, 4));
        (0..60).for_each(|_| c.add_group(0, 4));
        let e = Estimate::clustered_proportion(&c);
        let hundred = wilson95(40.0, 100.0);
        // Effective n = p(1 − p) / var = 100 · 99 / 100 (the G / (G − 1) correction).
        let expected = wilson95(0.4 * 99.0, 99.0);
        assert!((e.ci95[0] - expected[0]).abs() < 1e-9, "{e:?}");
        assert!((e.ci95[0] - hundred[0]).abs() < 2e-3);
        // A perfect record gives the Wilson interval over groups, not a zero width.
        let mut all = Clustered::default();
        (0..10).for_each(|_| all.add_group(2, 2));
        let e = Estimate::clustered_proportion(&all);
        assert_eq!(e.value, 1.0);
        assert_eq!(e.ci95, wilson95(10.0, 10.0));
        assert_eq!(e.ci95[1], 1.0, "exactly 1, not 0.9999999999999999");
    }

    #[test]
    fn estimates_write_infinite_bounds_as_text() {
        let e = Estimate {
            value: f64::INFINITY,
            ci95: [973.0, f64::INFINITY],
        };
        let text = serde_json::to_string(&e).unwrap();
        assert_eq!(text, r#"{"value":"inf","ci95":[973.0,"inf"]}"#);
        let back: Estimate = serde_json::from_str(&text).unwrap();
        assert_eq!(back, e);
        let nan: Estimate = serde_json::from_str(r#"{"value":null,"ci95":[null,"-inf"]}"#).unwrap();
        assert!(nan.value.is_nan() && nan.ci95[1] == f64::NEG_INFINITY);
        assert!(serde_json::from_str::<Estimate>(r#"{"value":"x","ci95":[0,1]}"#).is_err());
    }
}
