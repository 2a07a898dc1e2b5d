//! The exact value of a turn under a keep policy, and the policy that maximises it.
//!
//! A turn's future depends only on the threshold class, the dice still to throw and the sum set
//! aside so far. With `V(c, 0, s)` the worth of finishing on sum `s` (a loss weighed by `loss`, an
//! attack by `damage` × its exact expected damage), a policy's value is
//! `V(c, k, s) = Σ_roll P(roll) · V(c, k − |keep|, s + Σkeep)` over the multisets of `k` dice, and
//! the optimal policy takes the best keep at every roll. [`evaluate`] runs this one backward
//! recursion for any policy, so the optimum and the simpler policies the tests compare it with are
//! valued by the same code; [`Policy::new`] records the optimum's keep for every state and roll,
//! which makes the Hard player's decision a table read.

use super::damage::expected_damage;
use super::hand::{DICE, Hand, Threshold};
use super::rules::{TurnResult, turn_result};

/// Sums run from 0 to 6 × 6.
const SUMS: usize = 6 * DICE + 1;

/// `M(r, m)`: the multisets of size `r` over `m` faces, `C(r + m − 1, m − 1)` (1 when `m = 0` and
/// `r = 0`).
const fn multisets(r: usize, m: usize) -> usize {
    if m == 0 {
        return (r == 0) as usize;
    }
    let mut c = 1;
    let mut i = 0;
    while i < m - 1 {
        c = c * (r + 1 + i) / (i + 1);
        i += 1;
    }
    c
}

/// `STEP[f][r][c]`: the multisets of `r` dice over faces `f+1..=6` (0-based `f`) that have fewer
/// than `c` dice on face `f+1`; summing it face by face ranks a hand among those of its size, in
/// the order "fewer low faces first".
const STEP: [[[u16; DICE + 1]; DICE + 1]; DICE] = {
    let mut t = [[[0u16; DICE + 1]; DICE + 1]; DICE];
    let mut f = 0;
    while f < DICE {
        let mut r = 0;
        while r <= DICE {
            let mut c = 1;
            while c <= r {
                t[f][r][c] = t[f][r][c - 1] + multisets(r - (c - 1), DICE - 1 - f) as u16;
                c += 1;
            }
            r += 1;
        }
        f += 1;
    }
    t
};

/// Where the hands of each size start in one flat index: hands of `k` dice take
/// `OFFSET[k]..OFFSET[k + 1]` (1, 6, 21, 56, 126, 252 and 462 hands).
const OFFSET: [usize; DICE + 2] = {
    let mut o = [0; DICE + 2];
    let mut k = 0;
    while k <= DICE {
        o[k + 1] = o[k] + multisets(k, DICE);
        k += 1;
    }
    o
};

/// Hands of up to six dice.
const HANDS: usize = OFFSET[DICE + 1];

/// The index of `hand` among all hands of at most six dice: `OFFSET[len] + rank`.
#[inline]
#[must_use]
pub fn hand_index(hand: Hand) -> usize {
    let mut remaining = usize::from(hand.len());
    let mut index = OFFSET[remaining];
    for (f, step) in STEP[..DICE - 1].iter().enumerate() {
        let c = usize::from(hand.count(f as u8 + 1));
        index += usize::from(step[remaining][c]);
        remaining -= c;
    }
    index
}

/// Every hand of `k` dice with its probability `k! / Π c_f! / 6^k`, in index order.
fn rolls(k: u8) -> Vec<(Hand, f64)> {
    let mut out = vec![(Hand::EMPTY, 0.0); OFFSET[usize::from(k) + 1] - OFFSET[usize::from(k)]];
    let mut visit = |hand: Hand| {
        let ways = (1..=6u8).fold(factorial(k), |w, f| w / factorial(hand.count(f)));
        out[hand_index(hand) - OFFSET[usize::from(k)]] =
            (hand, ways as f64 / 6f64.powi(i32::from(k)));
    };
    // Every hand of k dice is a part of the hand holding k of each face.
    let all = (1..=6).fold(Hand::EMPTY, |h, f| (0..k).fold(h, |h, _| h.with(f)));
    all.for_each_part(|part| {
        if part.len() == k {
            visit(part);
        }
    });
    out
}

fn factorial(n: u8) -> u32 {
    (1..=u32::from(n)).product()
}

/// Where a turn stands at a decision: the threshold (none before the first set-aside), the sum
/// set aside so far and the roll to choose from (the dice set aside number `6 − roll.len()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnState {
    pub threshold: Option<Threshold>,
    pub sum: u8,
    pub roll: Hand,
}

/// `V(c, k, s)` for a policy: the expected worth of a turn with threshold `c`, `k` dice to throw
/// and `s` set aside, and the worth of a whole turn (`start`).
#[derive(Clone, Debug, PartialEq)]
pub struct Values {
    value: [[[f64; SUMS]; DICE + 1]; 2],
    pub start: f64,
}

impl Values {
    /// `V(threshold, to_throw, sum)`.
    #[must_use]
    pub fn get(&self, threshold: Threshold, to_throw: u8, sum: u8) -> f64 {
        self.value[threshold.index()][usize::from(to_throw)][usize::from(sum)]
    }

    /// The worth of setting aside `keep` in `state` under threshold `t`.
    fn after(&self, state: TurnState, keep: Hand, t: Threshold) -> f64 {
        self.get(
            t,
            state.roll.len() - keep.len(),
            state.sum + keep.sum(),
        )
    }
}

/// The worth of finishing a turn: an attack at level `L` is worth `damage × L × E[N]`, a miss by
/// `x` points `−loss × x`, an exact hit 0.
#[must_use]
pub fn terminal(threshold: Threshold, sum: u8, damage: f64, loss: f64) -> f64 {
    match turn_result(threshold, sum) {
        TurnResult::Loss(x) => -loss * f64::from(x),
        TurnResult::Exact => 0.0,
        TurnResult::Attack(level) => damage * expected_damage(level),
    }
}

/// The values of the keep policy `policy` (which returns the dice to set aside and the threshold
/// in force after it) when a finished turn is worth `terminal(c, s)`. `policy` also sees the
/// values of the states with fewer dice to throw, all already computed: that is how the optimal
/// policy is one instance of this recursion.
pub fn evaluate(
    terminal: impl Fn(Threshold, u8) -> f64,
    mut policy: impl FnMut(&Values, TurnState) -> (Hand, Threshold),
) -> Values {
    let mut values = Values {
        value: [[[0.0; SUMS]; DICE + 1]; 2],
        start: 0.0,
    };
    for t in Threshold::BOTH {
        for s in 0..SUMS {
            values.value[t.index()][0][s] = terminal(t, s as u8);
        }
    }
    for k in 1..=DICE as u8 {
        let rolls = rolls(k);
        for t in Threshold::BOTH {
            // With k dice left, 6 − k are set aside: their sum is at most 6 (6 − k).
            for s in 0..=6 * (DICE as u8 - k) {
                let mut v = 0.0;
                for &(roll, p) in &rolls {
                    let state = TurnState {
                        threshold: Some(t),
                        sum: s,
                        roll,
                    };
                    let (keep, _) = policy(&values, state);
                    v += p * values.after(state, keep, t);
                }
                values.value[t.index()][usize::from(k)][usize::from(s)] = v;
            }
        }
    }
    let mut start = 0.0;
    for (roll, p) in rolls(DICE as u8) {
        let state = TurnState {
            threshold: None,
            sum: 0,
            roll,
        };
        let (keep, t) = policy(&values, state);
        start += p * values.after(state, keep, t);
    }
    values.start = start;
    values
}

/// The best keep in `state` given the values of the states after it: the first best in
/// enumeration order (lowest faces counted fastest, small before big), so the choice is
/// reproducible.
#[must_use]
pub fn best_keep(values: &Values, state: TurnState) -> (Hand, Threshold) {
    let mut best = (f64::NEG_INFINITY, Hand::EMPTY, Threshold::Small);
    state.roll.for_each_part(|keep| {
        for t in Threshold::BOTH {
            let allowed = match state.threshold {
                Some(fixed) => fixed == t,
                None => keep.has_class(t),
            };
            if allowed {
                let v = values.after(state, keep, t);
                if v > best.0 {
                    best = (v, keep, t);
                }
            }
        }
    });
    (best.1, best.2)
}

/// The optimal keep policy for one pair of weights, as a table.
#[derive(Clone, Debug)]
pub struct Policy {
    values: Values,
    /// The keep for a roll after the first, at `(threshold, sum set aside, roll index)`.
    later: Box<[Hand]>,
    /// The keep and threshold for each first roll of six, by rank.
    first: Box<[(Hand, Threshold)]>,
}

impl Policy {
    /// Solves the turn for these weights (a few milliseconds; agents share the result).
    #[must_use]
    pub fn new(damage: f64, loss: f64) -> Self {
        let mut later = vec![Hand::EMPTY; 2 * SUMS * HANDS].into_boxed_slice();
        let mut first = vec![(Hand::EMPTY, Threshold::Small); HANDS - OFFSET[DICE]].into_boxed_slice();
        let values = evaluate(
            |t, s| terminal(t, s, damage, loss),
            |values, state| {
                let choice = best_keep(values, state);
                match state.threshold {
                    Some(t) => later[Self::slot(t, state.sum, state.roll)] = choice.0,
                    None => first[hand_index(state.roll) - OFFSET[DICE]] = choice,
                }
                choice
            },
        );
        Self {
            values,
            later,
            first,
        }
    }

    fn slot(t: Threshold, sum: u8, roll: Hand) -> usize {
        (t.index() * SUMS + usize::from(sum)) * HANDS + hand_index(roll)
    }

    /// The optimal values.
    #[must_use]
    pub fn values(&self) -> &Values {
        &self.values
    }

    /// The optimal keep (and the threshold in force after it) in `state`: a table read.
    #[inline]
    #[must_use]
    pub fn keep(&self, state: TurnState) -> (Hand, Threshold) {
        match state.threshold {
            Some(t) => (self.later[Self::slot(t, state.sum, state.roll)], t),
            None => self.first[hand_index(state.roll) - OFFSET[DICE]],
        }
    }
}
