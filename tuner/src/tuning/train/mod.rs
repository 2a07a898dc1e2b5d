//! `koom train`: fits a network evaluation to a position set (issue 49).
//!
//! The trainer is written here by hand rather than taken from a tensor framework. Its inputs
//! are binary and sparse: a board position activates about 40 of several hundred inputs, so
//! the first layer's work is adding 40 rows of `w1`, and its gradient touches only those rows.
//! A dense framework multiplies the full `inputs × hidden` matrix per position (ten times the
//! work here) unless fed sparse tensors, and pulls in a large dependency for a two-layer model.
//! bullet, the trainer of many NNUE engines, is hand-written for the same reason.
//!
//! - **Target.** `lambda * result + (1 - lambda) * sigmoid(score / score_scale)`, the blend
//!   NNUE trainers use (a position without a score: its result alone); the loss is the mean
//!   squared error of `sigmoid(output)` against it, as `koom fit`'s.
//! - **Hold-out.** One seed group in `hold_out_every` (by order of first appearance) is held
//!   out whole: the games of a group share their seed, and a position set already left exact
//!   replays and repeated positions out, so no held-out position is a copy of a trained one.
//!   The weights kept are those of the epoch with the least held-out loss.
//! - **Hand-made input.** With `hand`, the model also reads the top level's hand-made score
//!   of the position (`score / score_scale` as a logit) through one weight straight to the
//!   output, starting at 1 with the network's output weights at 0: training starts from the
//!   hand-made evaluation and learns a correction, and the epoch-0 weights (the hand-made
//!   evaluation alone) are kept unless a correction does better on the held-out positions.
//! - **Optimiser.** Adam on mini-batches, the order shuffled every epoch from `(seed, epoch)`.
//! - **Determinism.** Each batch is cut into chunks of [`CHUNK`] positions whatever the number of
//!   threads; each chunk's gradient is summed in its own buffer in position order, and the
//!   buffers are added in chunk order. Threads only decide who computes which chunk, so the
//!   same data, config and seed give the same weights, bit for bit, at any thread count.

pub mod config;
pub mod model;

use rayon::prelude::*;

use engine::RandomStream;

use crate::tuning::positions::{Position, PositionSet};
pub use config::TrainConfig;
pub use model::Model;

/// Positions per gradient buffer: fixed, so that the arithmetic does not depend on the threads.
pub const CHUNK: usize = 256;

/// The training and held-out positions of a set, by index.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Split {
    #[serde(skip)]
    pub train: Vec<usize>,
    #[serde(skip)]
    pub held_out: Vec<usize>,
    /// Seed groups in the set, and how many of them are held out.
    pub groups: usize,
    pub held_out_groups: usize,
}

/// Holds out every `every`-th seed group of `set`, in order of first appearance.
#[must_use]
pub fn split(set: &PositionSet, every: u32) -> Split {
    let mut groups = std::collections::HashMap::new();
    let mut out = Split::default();
    for (i, p) in set.iter().enumerate() {
        let order = groups.len();
        let held = *groups
            .entry(p.group)
            .or_insert(order % every as usize == every as usize - 1);
        if held {
            out.held_out.push(i);
        } else {
            out.train.push(i);
        }
    }
    out.groups = groups.len();
    out.held_out_groups = groups.values().filter(|&&h| h).count();
    out
}

/// The training target of a position (see the module documentation).
#[must_use]
pub fn target(p: &Position<'_>, lambda: f64, score_scale: f64) -> f32 {
    let result = f64::from(p.result);
    let blended = match p.score {
        Some(score) => lambda * result + (1.0 - lambda) * sigmoid(f64::from(score) / score_scale),
        None => result,
    };
    blended as f32
}

/// The `score_scale` under which the scores alone best predict the results: the least mean
/// squared error of `sigmoid(score / k) - result` over the scored positions, on a geometric grid
/// of 161 points from 10 to 10⁵ units a logit; `None` without scored positions. A config whose
/// `score_scale` is far from it blends two targets on different scales.
#[must_use]
pub fn fitted_score_scale(set: &PositionSet) -> Option<f64> {
    let scored: Vec<(f64, f64)> = set
        .iter()
        .filter_map(|p| Some((f64::from(p.score?), f64::from(p.result))))
        .collect();
    if scored.is_empty() {
        return None;
    }
    let error = |k: f64| -> f64 {
        let e = scored.iter().map(|&(s, r)| (sigmoid(s / k) - r).powi(2));
        e.sum::<f64>()
    };
    (0..=160)
        .map(|i| 10f64.powf(1.0 + f64::from(i) / 40.0))
        .map(|k| (k, error(k)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(k, _)| k)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The losses after an epoch (epoch 0: the initial weights).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct EpochLoss {
    pub epoch: u32,
    /// Mean squared error on the training positions, as met during the epoch.
    pub train: f64,
    /// Mean squared error on the held-out positions after the epoch.
    pub held_out: f64,
}

/// A trained model and how it got there.
#[derive(Clone, Debug, PartialEq)]
pub struct Trained {
    /// The weights of the best epoch.
    pub model: Model,
    pub losses: Vec<EpochLoss>,
    /// The epoch whose weights `model` holds (least held-out loss).
    pub best_epoch: u32,
}

impl Trained {
    /// The held-out loss of the weights kept.
    #[must_use]
    pub fn held_out_loss(&self) -> f64 {
        self.losses[self.best_epoch as usize].held_out
    }
}

/// The positions, their targets and the split, ready for training.
#[derive(Debug)]
pub struct Data<'a> {
    pub set: &'a PositionSet,
    pub targets: Vec<f32>,
    /// The hand-made scores as logits (`hand / score_scale`; 0 where a set has none).
    pub hands: Vec<f32>,
    pub split: Split,
}

impl<'a> Data<'a> {
    #[must_use]
    pub fn new(set: &'a PositionSet, config: &TrainConfig) -> Self {
        Self {
            set,
            targets: set
                .iter()
                .map(|p| target(&p, config.lambda, config.score_scale))
                .collect(),
            hands: set
                .iter()
                .map(|p| (f64::from(p.hand.unwrap_or(0)) / config.score_scale) as f32)
                .collect(),
            split: split(set, config.hold_out_every),
        }
    }

    /// The mean number of active inputs a position has.
    fn mean_active(&self) -> f64 {
        let total: usize = self.set.iter().map(|p| p.features.len()).sum();
        total as f64 / self.set.len().max(1) as f64
    }
}

/// Adam's state.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    fn new(n: usize) -> Self {
        Self {
            m: vec![0.0; n],
            v: vec![0.0; n],
            step: 0,
        }
    }

    /// One step along `grad` times `scale` (the gradient buffers hold sums over a batch).
    fn step(&mut self, params: &mut [f32], grad: &[f32], rate: f32, scale: f32) {
        self.step += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.step);
        let c2 = 1.0 - Self::BETA2.powi(self.step);
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            let g = g * scale;
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            *p -= rate * (*m / c1) / ((*v / c2).sqrt() + Self::EPSILON);
        }
    }
}

/// The squared error of the model on one position; with `grad`, adds its gradient there.
fn position_error(
    model: &Model,
    data: &Data<'_>,
    i: usize,
    z: &mut [f32],
    grad: Option<&mut [f32]>,
) -> f64 {
    let active = data.set.get(i).features;
    let hand = data.hands[i];
    let p = sigmoid(f64::from(model.forward(active, hand, z)));
    let e = p - f64::from(data.targets[i]);
    if let Some(grad) = grad {
        model.backward(active, hand, z, (2.0 * e * p * (1.0 - p)) as f32, grad);
    }
    e * e
}

/// The mean squared error of `model` on the positions `indices` (`NaN` for none), in chunks
/// summed in order.
#[must_use]
pub fn loss(model: &Model, data: &Data<'_>, indices: &[usize], pool: &rayon::ThreadPool) -> f64 {
    if indices.is_empty() {
        return f64::NAN;
    }
    let sums: Vec<f64> = pool.install(|| {
        indices
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut z = vec![0.0; model.hidden];
                chunk
                    .iter()
                    .map(|&i| position_error(model, data, i, &mut z, None))
                    .sum()
            })
            .collect()
    });
    sums.iter().sum::<f64>() / indices.len() as f64
}

/// What [`train`] reports as it goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Progress {
    /// A batch of this many positions is done.
    Batch(u64),
    /// An epoch is done (epoch 0: the initial weights were measured).
    Epoch(EpochLoss),
}

/// Trains a model with `hidden` units (0: linear) on `data` under `config`, telling
/// `progress` of every batch and epoch.
pub fn train(
    data: &Data<'_>,
    config: &TrainConfig,
    hidden: usize,
    pool: &rayon::ThreadPool,
    progress: &mut dyn FnMut(Progress),
) -> Trained {
    let inputs = data.set.header.inputs as usize;
    let mut model = Model::new(inputs, hidden, config.hand, data.mean_active(), config.seed);
    let n = model.params.len();
    let mut adam = Adam::new(n);
    let batch_size = config.batch_size.min(data.split.train.len().max(1));
    let mut buffers = vec![vec![0.0f32; n]; batch_size.div_ceil(CHUNK)];
    let mut order = data.split.train.clone();
    let held_out = &data.split.held_out;
    let first = EpochLoss {
        epoch: 0,
        train: loss(&model, data, &order, pool),
        held_out: loss(&model, data, held_out, pool),
    };
    progress(Progress::Epoch(first));
    let mut losses = vec![first];
    let mut best = (first.held_out, 0, model.clone());
    let mut rate = config.learning_rate;
    for epoch in 1..=config.epochs {
        let mut draw = RandomStream::from_seed(config.seed, u64::from(epoch));
        for k in (1..order.len()).rev() {
            order.swap(k, draw.below(k as u32 + 1) as usize);
        }
        let mut sum = 0.0;
        for batch in order.chunks(batch_size) {
            let parts = batch.len().div_ceil(CHUNK);
            let sums: Vec<f64> = pool.install(|| {
                buffers[..parts]
                    .par_iter_mut()
                    .zip(batch.par_chunks(CHUNK))
                    .map(|(grad, chunk)| {
                        grad.fill(0.0);
                        let mut z = vec![0.0; hidden];
                        chunk
                            .iter()
                            .map(|&i| position_error(&model, data, i, &mut z, Some(grad)))
                            .sum()
                    })
                    .collect()
            });
            sum += sums.iter().sum::<f64>();
            let (total, rest) = buffers.split_at_mut(1);
            for part in &rest[..parts - 1] {
                total[0].iter_mut().zip(part).for_each(|(t, g)| *t += g);
            }
            let scale = 1.0 / batch.len() as f32;
            adam.step(&mut model.params, &total[0], rate as f32, scale);
            progress(Progress::Batch(batch.len() as u64));
        }
        rate *= config.lr_decay;
        let held = loss(&model, data, held_out, pool);
        let done = EpochLoss {
            epoch,
            train: sum / order.len().max(1) as f64,
            held_out: held,
        };
        progress(Progress::Epoch(done));
        losses.push(done);
        if held < best.0 {
            best = (held, epoch, model.clone());
        }
    }
    Trained {
        model: best.2,
        losses,
        best_epoch: best.1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::positions::{Header, Sampling};

    /// A set whose results are a known linear function of 12 inputs: each position activates
    /// a random subset, and its result is `sigmoid(bias + sum of the active weights)`.
    fn linear_set(weights: &[f32], bias: f32, count: usize) -> PositionSet {
        let mut set = PositionSet::new(Header {
            game: "test".into(),
            feature_set: "test-v1".into(),
            inputs: weights.len() as u32,
            records_hash: 0,
            sampling: Sampling {
                skip: 0,
                per_game: 1,
                scored_only: false,
                margin_scale: 1.0,
            },
            seed: 0,
        });
        let mut draw = RandomStream::from_seed(5, 5);
        for i in 0..count {
            let features: Vec<u16> = (0..weights.len() as u16)
                .filter(|_| draw.below(3) == 0)
                .collect();
            let logit = bias
                + features
                    .iter()
                    .map(|&f| weights[usize::from(f)])
                    .sum::<f32>();
            set.push(Position {
                group: i as u64 / 4,
                result: sigmoid(f64::from(logit)) as f32,
                score: None,
                hand: Some(i as i32 % 7 - 3),
                features: &features,
            })
            .unwrap();
        }
        set
    }

    fn config(hidden: usize) -> TrainConfig {
        let mut config = TrainConfig::parse("game = \"test\"", "t").unwrap();
        config.hidden = hidden;
        config.epochs = 60;
        config.batch_size = 64;
        config.learning_rate = 0.05;
        config.lr_decay = 0.95;
        config
    }

    fn pool(threads: usize) -> rayon::ThreadPool {
        crate::threads::thread_pool(threads).unwrap()
    }

    #[test]
    fn a_known_linear_function_is_recovered() {
        let weights = [
            1.5, -2.0, 0.5, 0.0, 1.0, -0.5, 2.5, -1.0, 0.25, -1.5, 0.75, -0.25,
        ];
        let set = linear_set(&weights, 0.3, 3000);
        let config = config(0);
        let data = Data::new(&set, &config);
        assert!(data.split.held_out_groups > 100, "{:?}", data.split);
        let trained = train(&data, &config, 0, &pool(1), &mut |_| {});
        let (_, _, w2, b2) = trained.model.split();
        for (i, (&found, &known)) in w2.iter().zip(&weights).enumerate() {
            assert!(
                (found - known).abs() < 0.1,
                "weight {i}: {found}, not {known}"
            );
        }
        assert!((b2 - 0.3).abs() < 0.1, "bias {b2}");
        assert!(
            trained.held_out_loss() < 1e-4,
            "{:?}",
            trained.losses.last()
        );
        assert!(trained.losses[0].held_out > 0.01, "{:?}", trained.losses[0]);
    }

    #[test]
    fn the_weights_are_the_same_at_any_thread_count() {
        let weights = [1.0, -1.0, 0.5, 2.0, -0.5, 0.0, 1.0, -2.0];
        let set = linear_set(&weights, 0.0, 1500);
        let mut config = config(16);
        config.epochs = 3;
        config.batch_size = 700;
        let data = Data::new(&set, &config);
        let one = train(&data, &config, 16, &pool(1), &mut |_| {});
        let two = train(&data, &config, 16, &pool(2), &mut |_| {});
        let bits = |t: &Trained| {
            t.model
                .params
                .iter()
                .map(|p| p.to_bits())
                .collect::<Vec<_>>()
        };
        assert_eq!(bits(&one), bits(&two));
        assert_eq!(one.losses, two.losses);
        assert!(
            one.held_out_loss() < one.losses[0].held_out,
            "{:?}",
            one.losses
        );
        // And with the hand-made score as an input.
        config.hand = true;
        let data = Data::new(&set, &config);
        let one = train(&data, &config, 16, &pool(1), &mut |_| {});
        let two = train(&data, &config, 16, &pool(2), &mut |_| {});
        assert_eq!(bits(&one), bits(&two));
        assert_ne!(
            one.model.hand_weight(),
            1.0,
            "the hand weight did not train"
        );
    }

    /// Results that follow the hand-made score (as a logit) at weight 0.5 plus a known linear
    /// function of the inputs: the model with the hand-made input finds both.
    #[test]
    fn the_hand_made_score_and_a_correction_are_recovered() {
        let weights = [1.0, -1.5, 0.5, 0.0, -0.5, 2.0];
        let mut set = linear_set(&[0.0], 0.0, 0);
        set.header.inputs = weights.len() as u32;
        let mut draw = RandomStream::from_seed(9, 9);
        for i in 0..3000 {
            let features: Vec<u16> = (0..weights.len() as u16)
                .filter(|_| draw.below(2) == 0)
                .collect();
            let hand = draw.below(601) as i32 - 300;
            let logit = 0.5 * f64::from(hand) / 100.0
                + features
                    .iter()
                    .map(|&f| weights[usize::from(f)])
                    .sum::<f64>();
            set.push(Position {
                group: i / 4,
                result: sigmoid(logit) as f32,
                score: None,
                hand: Some(hand),
                features: &features,
            })
            .unwrap();
        }
        let mut config = config(0);
        config.hand = true;
        config.score_scale = 100.0;
        let data = Data::new(&set, &config);
        let trained = train(&data, &config, 0, &pool(1), &mut |_| {});
        let found = trained.model.hand_weight();
        assert!((found - 0.5).abs() < 0.05, "hand weight {found}");
        let (_, _, w2, _) = trained.model.split();
        for (i, (&found, &known)) in w2.iter().zip(&weights).enumerate() {
            assert!(
                (found - known as f32).abs() < 0.1,
                "weight {i}: {found}, not {known}"
            );
        }
    }

    #[test]
    fn the_fitted_score_scale_is_the_one_the_results_follow() {
        // Results exactly sigmoid(score / 400): the grid point 10^(1 + 64/40) = 398.1 is nearest.
        let mut set = linear_set(&[0.0], 0.0, 0);
        for score in (-2000..=2000).step_by(50) {
            let result = sigmoid(f64::from(score) / 400.0) as f32;
            let p = Position {
                group: 0,
                result,
                score: Some(score),
                hand: None,
                features: &[],
            };
            set.push(p).unwrap();
        }
        let k = fitted_score_scale(&set).unwrap();
        assert!((k - 398.1).abs() < 0.1, "{k}");
        assert_eq!(fitted_score_scale(&linear_set(&[0.0], 0.0, 3)), None);
    }

    #[test]
    fn whole_seed_groups_are_held_out_and_targets_blend_result_and_score() {
        let set = linear_set(&[1.0, 1.0], 0.0, 40);
        let s = split(&set, 5);
        assert_eq!((s.groups, s.held_out_groups), (10, 2));
        assert!(
            s.held_out
                .iter()
                .all(|&i| [4, 9].contains(&set.get(i).group))
        );
        assert_eq!(s.train.len() + s.held_out.len(), 40);
        let p = Position {
            group: 0,
            result: 1.0,
            score: Some(0),
            hand: None,
            features: &[],
        };
        assert!((target(&p, 0.25, 100.0) - 0.625).abs() < 1e-6);
        let unscored = Position { score: None, ..p };
        assert!((target(&unscored, 0.25, 100.0) - 1.0).abs() < 1e-6);
        let scored = Position {
            score: Some(-200),
            ..p
        };
        // sigmoid(-2) = 0.119203
        assert!((target(&scored, 0.0, 100.0) - 0.119_203).abs() < 1e-5);
    }
}
