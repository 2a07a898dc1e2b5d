//! Texel-style fitting of a level's evaluation weights to game results (`koom fit`): the second
//! tuning method beside SPSA ([`crate::tuning::tune`]).
//!
//! SPSA plays games for every step; this method plays none. It reads finished games (a
//! `--records` file of the strongest level's self-play, say), keeps every `every`-th position
//! from ply `skip` on with the result seat 0 went on to get (1 win, ½ draw, 0 loss), and moves
//! the weights so that `sigmoid(eval / K)` predicts those results, where `eval` is the level's
//! static score: the dot product of its weights with the position's
//! [`Players::evaluation_terms`](engine::Players::evaluation_terms). Peter Österlund's Texel
//! engine made the method known; this version differs in how it searches the weights:
//!
//! - the scale `K` is fitted first, at the start weights, on a grid;
//! - then the weights and `K` move together by Adam on the mean squared error, each weight's
//!   step measured in its own tuning step and clamped to its range, `K` on a log scale, for a
//!   fixed number of iterations; the held weights (at least one: scaling every weight and `K`
//!   alike predicts the same) fix the evaluation's units;
//! - one seed group in five (the 5th, 10th, ... group to appear in the files, in order, among
//!   the games with a result) is held out, and the weights kept are those of the iteration with
//!   the least error on the held-out games, so that a fit that only memorises its own games is
//!   not what it returns. Holding out whole groups matters: a group's games share their seed, and deterministic levels in
//!   self-play play the same game in every rotation, so holding out single games would test
//!   the fit on copies of games it was fitted to;
//! - a game whose start and moves repeat a game read earlier (an exact replay) is skipped, so
//!   that a deterministic self-play run does not count each of its games twice.
//!
//! Everything is sequential arithmetic in a fixed order: the same files give the same weights.

use std::collections::{HashMap, HashSet};

use engine::record::Record;
use engine::{Game, WeightSet};

use crate::InputError;
use crate::batch::records::replay;

pub mod job;

/// Which positions of each game are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Sampling {
    /// Every `every`-th ply (at least 1).
    pub every: u32,
    /// Positions before this ply are left out (openings say more about the suite than the
    /// evaluation).
    pub skip: u32,
}

/// The positions of the games read, as terms and results.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// The number of terms each position has.
    pub width: usize,
    /// `width` terms per position, positions in file order.
    terms: Vec<f64>,
    /// Seat 0's result per position.
    results: Vec<f64>,
    /// Whether each position is held out.
    held_out: Vec<bool>,
    /// Games read, games left out because a forfeit, not the rules, ended them (or they ended
    /// with no result), and games left out as exact replays of a game read before them.
    pub games: usize,
    pub forfeits: usize,
    pub replays: usize,
    /// The seed groups seen, by seed, with whether each is held out.
    groups: HashMap<u64, bool>,
    /// The games kept so far, by rules, start and moves.
    seen: HashSet<(Option<String>, Option<String>, Vec<String>)>,
}

impl Samples {
    /// The positions in use.
    #[must_use]
    pub fn len(&self) -> usize {
        self.results.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// The positions held out.
    #[must_use]
    pub fn held_out(&self) -> usize {
        self.held_out.iter().filter(|&&h| h).count()
    }

    /// Adds one position.
    pub fn push(&mut self, terms: &[f64], result: f64, held_out: bool) {
        debug_assert_eq!(terms.len(), self.width);
        self.terms.extend_from_slice(terms);
        self.results.push(result);
        self.held_out.push(held_out);
    }

    /// Whether seed group `seed` is held out: the 5th, 10th, ... group to appear (asked only
    /// for games with a result, so a group of forfeits alone takes no place in the order).
    fn held_out_group(&mut self, seed: u64) -> bool {
        let order = self.groups.len();
        *self.groups.entry(seed).or_insert(order % 5 == 4)
    }

    fn rows(&self) -> impl Iterator<Item = (&[f64], f64, bool)> {
        self.terms
            .chunks_exact(self.width.max(1))
            .zip(&self.results)
            .zip(&self.held_out)
            .map(|((t, &r), &h)| (t, r, h))
    }

    /// Reads the record lines of game `G` (blank lines and `#` comments skipped), replaying each
    /// game to check it and to compute the terms of the positions `sampling` keeps.
    pub fn from_records<'a, G: Game>(
        lines: impl IntoIterator<Item = (String, &'a str)>,
        sampling: Sampling,
    ) -> Result<Self, InputError> {
        let width = terms_width::<G>()?;
        let mut samples = Self {
            width,
            ..Self::default()
        };
        for (place, line) in lines {
            let line = line.trim_end_matches(['\r', '\n']);
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let mut positions: Vec<Vec<f64>> = Vec::new();
            let mut ply = 0u32;
            let (record, end) = replay::<G>(line, |game: &G, _| {
                if ply >= sampling.skip
                    && ply.is_multiple_of(sampling.every)
                    && let Some(terms) = game.evaluation_terms()
                {
                    positions.push(terms);
                }
                ply += 1;
            })
            .map_err(|e| InputError::new(format!("{place}: {e}")))?;
            samples.games += 1;
            let Some(result) = seat_zero_result(&record, &end) else {
                samples.forfeits += 1;
                continue;
            };
            let held_out = samples.held_out_group(record.seed);
            if !samples
                .seen
                .insert((record.rules, record.start, record.moves))
            {
                samples.replays += 1;
                continue;
            }
            for terms in positions {
                if terms.len() != width {
                    return Err(InputError::new(format!(
                        "{place}: a position has {} evaluation terms, not {width}",
                        terms.len()
                    )));
                }
                samples.push(&terms, result, held_out);
            }
        }
        Ok(samples)
    }
}

/// The number of evaluation terms of `G`'s positions, or why `G` cannot be fitted.
pub fn terms_width<G: Game>() -> Result<usize, InputError> {
    let mut dice = engine::RandomStream::dice(0);
    let start = G::new(
        &G::Options::default(),
        G::SEATS.0,
        &mut dice,
        &mut engine::NoLog,
    );
    start
        .evaluation_terms()
        .map(|terms| terms.len())
        .ok_or_else(|| {
            InputError::new(format!(
                "{} has no evaluation linear in its weights, which `koom fit` needs \
                 (`koom tune` tunes any weight set)",
                G::NAME
            ))
        })
}

/// Seat 0's result (1, ½ or 0) in a game the rules ended; `None` after a forfeit.
fn seat_zero_result<G: Game>(record: &Record, end: &G) -> Option<f64> {
    if record.reason.starts_with("forfeit") {
        return None;
    }
    match end.outcome()?.result_of(0) {
        engine::SeatResult::Win => Some(1.0),
        engine::SeatResult::Draw => Some(0.5),
        engine::SeatResult::Loss => Some(0.0),
        engine::SeatResult::NoResult => None,
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Mean squared errors of the predictions, on the fitted positions and on the held-out ones
/// (`NaN` where there are none).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Errors {
    pub fitted: f64,
    pub held_out: f64,
}

/// The errors of `weights` at scale `scale`.
#[must_use]
pub fn errors(samples: &Samples, weights: &[f64], scale: f64) -> Errors {
    let mut sum = [0.0; 2];
    let mut count = [0usize; 2];
    for (terms, result, held) in samples.rows() {
        let e = sigmoid(dot(weights, terms) / scale) - result;
        sum[usize::from(held)] += e * e;
        count[usize::from(held)] += 1;
    }
    let mean = |i: usize| {
        if count[i] == 0 {
            f64::NAN
        } else {
            sum[i] / count[i] as f64
        }
    };
    Errors {
        fitted: mean(0),
        held_out: mean(1),
    }
}

/// The scale with the least error on the fitted positions at `weights`, on a geometric grid of
/// 241 points from 1 to 10⁶ (six decades; a linear evaluation's units are the game's own).
#[must_use]
pub fn fit_scale(samples: &Samples, weights: &[f64]) -> f64 {
    (0..=240)
        .map(|i| 10f64.powf(f64::from(i) / 40.0))
        .map(|k| (k, errors(samples, weights, k).fitted))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(1.0, |(k, _)| k)
}

/// The gradient of the fitted positions' mean squared error with respect to the weights, and
/// with respect to the logarithm of the scale.
fn gradient(samples: &Samples, weights: &[f64], scale: f64) -> (Vec<f64>, f64) {
    let mut g = vec![0.0; weights.len()];
    let mut g_log_scale = 0.0;
    let mut n = 0usize;
    for (terms, result, held) in samples.rows() {
        if held {
            continue;
        }
        let x = dot(weights, terms) / scale;
        let p = sigmoid(x);
        let common = 2.0 * (p - result) * p * (1.0 - p);
        for (gi, t) in g.iter_mut().zip(terms) {
            *gi += common * t / scale;
        }
        g_log_scale -= common * x;
        n += 1;
    }
    let n = n.max(1) as f64;
    g.iter_mut().for_each(|gi| *gi /= n);
    (g, g_log_scale / n)
}

/// How a fit searches.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub iterations: usize,
    /// The first iteration's step, in each weight's tuning steps (falling linearly to a tenth).
    pub rate: f64,
    /// The weights held at their start: at least one, since the evaluation's units are its
    /// own and only the scale `K` relates them to results (scaling every weight and `K` alike
    /// predicts the same), so one weight must fix the units. Indices into the weight set.
    pub held: Vec<usize>,
}

/// What a fit found.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Fit {
    /// `K` fitted to the start weights, and `K` at the weights kept.
    pub start_scale: f64,
    pub scale: f64,
    pub start: Vec<f64>,
    pub fitted: Vec<f64>,
    pub before: Errors,
    pub after: Errors,
    /// The iteration whose weights were kept (0: the start's).
    pub best_iteration: usize,
    pub iterations: usize,
}

/// One Adam coordinate.
#[derive(Clone, Copy, Debug, Default)]
struct Moment {
    m: f64,
    v: f64,
}

impl Moment {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;

    /// The step for gradient `g` at iteration `k` (from 1), before the rate.
    fn step(&mut self, g: f64, k: usize) -> f64 {
        self.m = Self::BETA1 * self.m + (1.0 - Self::BETA1) * g;
        self.v = Self::BETA2 * self.v + (1.0 - Self::BETA2) * g * g;
        let m_hat = self.m / (1.0 - Self::BETA1.powi(k as i32));
        let v_hat = self.v / (1.0 - Self::BETA2.powi(k as i32));
        m_hat / (v_hat.sqrt() + 1e-12)
    }
}

/// Fits the first `samples.width` weights of `set` from `start` (the whole vector of the set;
/// the weights past the terms, such as search budgets, and the held ones stay as they are),
/// and the scale `K` with them, by Adam on the fitted positions' mean squared error: each
/// weight in units of its tuning step, clamped to its range, and `K` on a log scale, starting
/// from its best value at the start weights.
#[must_use]
pub fn fit(samples: &Samples, set: &WeightSet, start: &[f64], settings: &Settings) -> Fit {
    let width = samples.width;
    let params = &set.params[..width];
    let begin = &start[..width];
    let start_scale = fit_scale(samples, begin);
    let before = errors(samples, begin, start_scale);
    let score = |e: Errors| {
        if e.held_out.is_nan() {
            e.fitted
        } else {
            e.held_out
        }
    };
    let iterations = settings.iterations;
    let mut weights = begin.to_vec();
    let mut log_scale = start_scale.ln();
    let mut moments = vec![Moment::default(); width + 1];
    let mut best = (weights.clone(), start_scale, score(before), 0);
    for k in 1..=iterations {
        let (g, g_log_scale) = gradient(samples, &weights, log_scale.exp());
        let rate = settings.rate * (1.0 - 0.9 * (k - 1) as f64 / iterations as f64);
        for (i, p) in params.iter().enumerate() {
            if settings.held.contains(&i) {
                continue;
            }
            // In step units the coordinates are comparable, so one rate serves every weight.
            let moved = weights[i] - rate * p.step * moments[i].step(g[i] * p.step, k);
            weights[i] = moved.clamp(p.min, p.max);
        }
        // A tenth of a decade at most per iteration.
        log_scale -= rate * 0.23 * moments[width].step(g_log_scale, k);
        let scale = log_scale.exp();
        let now = score(errors(samples, &weights, scale));
        if now < best.2 {
            best = (weights.clone(), scale, now, k);
        }
    }
    let (kept, scale, _, best_iteration) = best;
    let after = errors(samples, &kept, scale);
    let mut fitted = start.to_vec();
    fitted[..width].copy_from_slice(&kept);
    Fit {
        start_scale,
        scale,
        start: start.to_vec(),
        fitted,
        before,
        after,
        best_iteration,
        iterations,
    }
}

/// What `koom fit` writes to `fit.json`: the inputs, the sample and the [`Fit`].
#[derive(Debug, serde::Serialize)]
pub struct Report<'a> {
    pub game: &'static str,
    pub level: &'a str,
    pub weight_set: &'static str,
    pub records: &'a [std::path::PathBuf],
    pub games: usize,
    pub games_left_out: usize,
    /// Games skipped as exact replays of a game read before them.
    pub games_replayed: usize,
    pub positions: usize,
    pub positions_held_out: usize,
    #[serde(flatten)]
    pub sampling: Sampling,
    pub rate: f64,
    /// The names of the weight set, in the order of the fit's vectors.
    pub names: Vec<&'static str>,
    #[serde(flatten)]
    pub fit: &'a Fit,
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Param;

    const fn param(name: &'static str, default: f64) -> Param {
        Param {
            name,
            doc: "",
            default,
            min: -1000.0,
            max: 1000.0,
            step: 1.0,
        }
    }

    fn settings(iterations: usize, held: Vec<usize>) -> Settings {
        Settings {
            iterations,
            rate: 1.0,
            held,
        }
    }

    static PARAMS: [Param; 2] = [param("a", 0.0), param("b", 0.0)];
    static SET: WeightSet = WeightSet {
        name: "synthetic",
        params: &PARAMS,
    };

    /// Positions on a grid whose result is the logistic probability of known weights at scale
    /// 100 (a noise-free "expected result"): the least-squares fit recovers those weights, to
    /// the scale that the start fixes.
    fn synthetic(truth: [f64; 2]) -> Samples {
        let mut samples = Samples {
            width: 2,
            ..Samples::default()
        };
        for i in 0..40 {
            for j in 0..40 {
                let terms = [f64::from(i) - 20.0, f64::from(j) - 20.0];
                let result = sigmoid(dot(&truth, &terms) / 100.0);
                samples.push(&terms, result, (i + j) % 5 == 0);
            }
        }
        samples
    }

    #[test]
    fn the_fit_recovers_the_weights_that_made_the_results() {
        let samples = synthetic([30.0, -10.0]);
        // Start with b's sign wrong and a held at half the truth: the scale comes back as
        // half the truth's, b as half its weight.
        let fit = fit(&samples, &SET, &[15.0, 5.0], &settings(3000, vec![0]));
        assert_eq!(fit.fitted[0], 15.0);
        assert!((fit.fitted[1] + 5.0).abs() < 0.1, "{fit:?}");
        assert!((fit.scale - 50.0).abs() < 1.0, "{fit:?}");
        assert!(
            fit.after.fitted < 1e-5 && fit.after.held_out < 1e-5,
            "{fit:?}"
        );
        assert!(fit.after.fitted < fit.before.fitted);
    }

    #[test]
    fn the_scale_is_the_one_that_fits_the_start() {
        let samples = synthetic([30.0, -10.0]);
        let scale = fit_scale(&samples, &[30.0, -10.0]);
        // 100 lies on the grid (10^(80/40)).
        assert!((scale - 100.0).abs() < 1e-9, "{scale}");
    }

    #[test]
    fn weights_stay_in_their_ranges_and_the_rest_of_the_vector_is_kept() {
        static NARROW: [Param; 2] = [
            Param {
                max: 12.0,
                ..param("a", 0.0)
            },
            param("b", 0.0),
        ];
        let set = WeightSet {
            name: "narrow",
            params: &NARROW,
        };
        let mut samples = synthetic([30.0, -10.0]);
        samples.width = 1;
        samples.terms = samples.terms.iter().step_by(2).copied().collect();
        let fit = fit(&samples, &set, &[10.0, 77.0], &settings(500, Vec::new()));
        assert!(fit.fitted[0] <= 12.0, "{fit:?}");
        assert_eq!(fit.fitted[1], 77.0);
    }

    #[test]
    fn the_kept_weights_are_those_best_on_the_held_out_games() {
        let samples = synthetic([30.0, -10.0]);
        let fit = fit(&samples, &SET, &[15.0, 5.0], &settings(200, vec![0]));
        let kept = errors(&samples, &fit.fitted, fit.scale);
        assert_eq!(kept, fit.after);
        assert!(fit.after.held_out <= fit.before.held_out);
    }

    #[test]
    fn whole_seed_groups_are_held_out_the_fifth_tenth_and_so_on() {
        let mut samples = Samples::default();
        let seeds = [7, 7, 3, 9, 1, 3, 8, 8, 2, 5, 6, 4, 4, 11, 12];
        let held: Vec<bool> = seeds.iter().map(|&s| samples.held_out_group(s)).collect();
        // Distinct seeds in order: 7 3 9 1 8 2 5 6 4 11 12; the 5th is 8, the 10th is 11.
        let expected: Vec<bool> = seeds.iter().map(|s| *s == 8 || *s == 11).collect();
        assert_eq!(held, expected);
    }
}
