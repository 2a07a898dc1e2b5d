//! The model `koom train` fits: a linear model over the sparse board inputs, or one hidden
//! layer of clipped-ReLU units, in `f32`, its parameters in one flat vector so that Adam, the
//! gradient buffers and their reduction are each one loop.
//!
//! The inputs are binary and sparse (about 40 of several hundred are active), so the forward
//! pass adds the active inputs' rows of `w1` and the backward pass touches only those rows: the
//! work per position is `active × hidden`, where a dense layer would do `inputs × hidden`.

use engine::RandomStream;

/// A model's parameters, laid out `[w1 (inputs × hidden, w1[i * hidden + h]) | b1 (hidden) |
/// w2 (hidden; inputs when hidden is 0) | b2 | hand weight (with `hand` only)]`: the layout of
/// `engine::nnue::FloatNetwork`, whose `base_weight` is the last.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub inputs: usize,
    /// 0: the linear model.
    pub hidden: usize,
    /// Whether the output adds the hand-made score (as a logit) at a learned weight.
    pub hand: bool,
    pub params: Vec<f32>,
}

impl Model {
    /// A model whose hidden units start spread about the middle of their clipped range
    /// (`b1 = 0.5`, `w1` uniform in `±0.5 / sqrt(active)`, `active` being the mean number of
    /// active inputs) so that few start stuck at 0 or 1, and whose output starts near 0 (even).
    /// The linear model starts at zero. With `hand`, the hand-made score starts at weight 1 and
    /// the output weights at 0, so that the model starts as the hand-made evaluation and
    /// learns a correction to it.
    #[must_use]
    pub fn new(inputs: usize, hidden: usize, hand: bool, active: f64, seed: u64) -> Self {
        let mut model = Self {
            inputs,
            hidden,
            hand,
            params: vec![0.0; Self::len_of(inputs, hidden) + usize::from(hand)],
        };
        if hidden > 0 {
            let mut draw = RandomStream::from_seed(seed, 0x6e65_7477);
            let mut uniform = |a: f64| ((2.0 * draw.unit() - 1.0) * a) as f32;
            let a1 = 0.5 / active.max(1.0).sqrt();
            let a2 = 1.0 / (hidden as f64).sqrt();
            let (w1, rest) = model.params.split_at_mut(inputs * hidden);
            let (b1, rest) = rest.split_at_mut(hidden);
            let (w2, _) = rest.split_at_mut(hidden);
            w1.iter_mut().for_each(|w| *w = uniform(a1));
            b1.fill(0.5);
            if hand {
                w2.fill(0.0);
            } else {
                w2.iter_mut().for_each(|w| *w = uniform(a2));
            }
        }
        if let (true, Some(weight)) = (hand, model.params.last_mut()) {
            *weight = 1.0;
        }
        model
    }

    /// The number of parameters of a model of this shape.
    #[must_use]
    pub const fn len_of(inputs: usize, hidden: usize) -> usize {
        if hidden == 0 {
            inputs + 1
        } else {
            inputs * hidden + 2 * hidden + 1
        }
    }

    /// Where `b2` stands; the hand weight (with `hand`) follows it.
    const fn b2_at(&self) -> usize {
        Self::len_of(self.inputs, self.hidden) - 1
    }

    /// `(w1, b1, w2, b2)` of a parameter vector of this model's shape.
    fn parts<'p>(&self, params: &'p [f32]) -> (&'p [f32], &'p [f32], &'p [f32], f32) {
        let (w1, rest) = params.split_at(self.inputs * self.hidden);
        let (b1, rest) = rest.split_at(self.hidden);
        let (w2, b2) = rest.split_at(self.b2_at() - self.inputs * self.hidden - self.hidden);
        (w1, b1, w2, b2[0])
    }

    /// The hand-made score's weight (0 without `hand`).
    #[must_use]
    pub fn hand_weight(&self) -> f32 {
        if self.hand {
            self.params[self.b2_at() + 1]
        } else {
            0.0
        }
    }

    /// The output logit for the active inputs and the hand-made score `hand` (as a logit; read
    /// only with `hand`); `z` (length `hidden`) is left holding the hidden units'
    /// pre-activations, which [`Model::backward`] needs.
    pub fn forward(&self, active: &[u16], hand: f32, z: &mut [f32]) -> f32 {
        self.hand_weight() * hand + self.network(active, z)
    }

    /// The output logit without the hand-made score.
    fn network(&self, active: &[u16], z: &mut [f32]) -> f32 {
        let (w1, b1, w2, b2) = self.parts(&self.params);
        if self.hidden == 0 {
            return b2 + active.iter().map(|&i| w2[usize::from(i)]).sum::<f32>();
        }
        let h = self.hidden;
        z.copy_from_slice(b1);
        for &i in active {
            let row = &w1[usize::from(i) * h..][..h];
            z.iter_mut().zip(row).for_each(|(z, w)| *z += w);
        }
        b2 + z
            .iter()
            .zip(w2)
            .map(|(&z, &w)| z.clamp(0.0, 1.0) * w)
            .sum::<f32>()
    }

    /// Adds to `grad` (this model's layout) `g` times the gradient of the output logit at the
    /// active inputs and hand-made score `hand`, `z` holding what [`Model::forward`] left; `z`
    /// is used as scratch (it is left holding the pre-activations' gradients), so that a
    /// position costs no allocation.
    pub fn backward(&self, active: &[u16], hand: f32, z: &mut [f32], g: f32, grad: &mut [f32]) {
        let (_, _, w2, _) = self.parts(&self.params);
        let b2 = self.b2_at();
        grad[b2] += g;
        if self.hand {
            grad[b2 + 1] += g * hand;
        }
        let h = self.hidden;
        if h == 0 {
            for &i in active {
                grad[usize::from(i)] += g;
            }
            return;
        }
        let (gw1, rest) = grad.split_at_mut(self.inputs * h);
        let (gb1, rest) = rest.split_at_mut(h);
        let gw2 = &mut rest[..h];
        for k in 0..h {
            gw2[k] += g * z[k].clamp(0.0, 1.0);
            // The clipped ReLU passes a gradient only strictly inside its range.
            z[k] = if z[k] > 0.0 && z[k] < 1.0 {
                g * w2[k]
            } else {
                0.0
            };
            gb1[k] += z[k];
        }
        for &i in active {
            let row = &mut gw1[usize::from(i) * h..][..h];
            row.iter_mut().zip(&*z).for_each(|(r, d)| *r += d);
        }
    }

    /// The parameters as `(w1, b1, w2, b2)` vectors, for the network file.
    #[must_use]
    pub fn split(&self) -> (Vec<f32>, Vec<f32>, Vec<f32>, f32) {
        let (w1, b1, w2, b2) = self.parts(&self.params);
        (w1.to_vec(), b1.to_vec(), w2.to_vec(), b2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model with hand-set weights: 3 inputs, 2 hidden units.
    fn small() -> Model {
        Model {
            inputs: 3,
            hidden: 2,
            hand: false,
            // w1 rows (input 0, 1, 2), b1, w2, b2
            params: vec![0.2, -0.4, 0.5, 0.3, 0.9, 0.9, 0.1, 0.4, 2.0, -1.0, 0.25],
        }
    }

    #[test]
    fn forward_is_the_clipped_relu_layer_by_hand() {
        let model = small();
        let mut z = [0.0; 2];
        // Inputs 0 and 2: z = (0.1 + 0.2 + 0.9, 0.4 - 0.4 + 0.9) = (1.2, 0.9); clipped (1, 0.9).
        let out = model.forward(&[0, 2], 0.0, &mut z);
        assert!(
            (z[0] - 1.2).abs() < 1e-6 && (z[1] - 0.9).abs() < 1e-6,
            "{z:?}"
        );
        assert!((out - (0.25 + 2.0 - 0.9)).abs() < 1e-6, "{out}");
        let linear = Model {
            inputs: 3,
            hidden: 0,
            hand: false,
            params: vec![1.0, 2.0, 4.0, -0.5],
        };
        assert!((linear.forward(&[1, 2], 0.0, &mut []) - 5.5).abs() < 1e-6);
    }

    /// [`small`] reading the hand-made score at weight 0.7.
    fn small_with_hand() -> Model {
        let mut model = small();
        model.hand = true;
        model.params.push(0.7);
        model
    }

    #[test]
    fn the_hand_made_score_adds_at_its_weight_and_starts_alone() {
        let model = small_with_hand();
        let mut z = [0.0; 2];
        let without = small().forward(&[0, 2], 0.0, &mut z);
        assert!((model.forward(&[0, 2], 2.0, &mut z) - (without + 1.4)).abs() < 1e-6);
        // A new model with the hand-made score is the hand-made score alone, whatever its inputs.
        for hidden in [0, 8] {
            let fresh = Model::new(20, hidden, true, 5.0, 3);
            let mut z = vec![0.0; hidden];
            assert_eq!(fresh.forward(&[1, 4, 19], -1.25, &mut z), -1.25);
            assert_eq!(fresh.hand_weight(), 1.0);
        }
    }

    #[test]
    fn backward_matches_finite_differences() {
        for (model, hand) in [(small(), 0.0), (small_with_hand(), -1.5)] {
            check_backward(&model, hand);
        }
    }

    fn check_backward(model: &Model, hand: f32) {
        for active in [&[0u16, 2][..], &[1][..], &[0, 1, 2][..]] {
            let mut z = [0.0; 2];
            model.forward(active, hand, &mut z);
            let mut grad = vec![0.0; model.params.len()];
            model.backward(active, hand, &mut z, 1.0, &mut grad);
            for (p, &backward) in grad.iter().enumerate() {
                let mut nudged = model.clone();
                let h = 1e-3;
                nudged.params[p] += h;
                let up = nudged.forward(active, hand, &mut [0.0; 2]);
                nudged.params[p] -= 2.0 * h;
                let down = nudged.forward(active, hand, &mut [0.0; 2]);
                let numeric = (up - down) / (2.0 * h);
                assert!(
                    (numeric - backward).abs() < 1e-2,
                    "{active:?} param {p}: {numeric} by differences, {backward} by backward"
                );
            }
        }
    }
}
