//! Exact, order-independent accumulators and the interval formulas reports use.
//!
//! Accumulators hold integers only, so merging the counts of parallel workers gives the same
//! bits whatever order they finish in; floating point appears only when a figure is reported.

use serde::{Deserialize, Serialize};

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
        if self.n == 0 {
            0.0
        } else {
            self.sum as f64 / self.n as f64
        }
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

/// A named distribution as `summary.json` shows it: `[value, count]` pairs in value order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Distribution {
    pub name: &'static str,
    pub counts: alloc::vec::Vec<(i64, u64)>,
}

impl Distribution {
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
    [(centre - half).max(0.0), (centre + half).min(1.0)]
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
}
