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
use super::hand::{DICE, HANDS, Hand, OFFSET, Threshold};
use super::rules::{TurnResult, turn_result};

/// Sums run from 0 to 6 × 6.
const SUMS: usize = 6 * DICE + 1;

/// Every roll of `k` dice with its probability `k! / Π c_f! / 6^k`, in index order.
fn rolls(k: u8) -> Vec<(Hand, f64)> {
    Hand::all_of_size(k)
        .into_iter()
        .map(|hand| {
            let ways = (1..=6u8).fold(factorial(k), |w, f| w / factorial(hand.count(f)));
            (hand, f64::from(ways) / 6f64.powi(i32::from(k)))
        })
        .collect()
}

fn factorial(n: u8) -> u32 {
    (1..=u32::from(n)).product()
}

/// The sums the dice set aside can have when `to_throw` dice are left.
fn sums_set_aside(to_throw: u8) -> core::ops::RangeInclusive<u8> {
    let kept = DICE as u8 - to_throw;
    kept..=6 * kept
}

/// Where each roll size's block starts in one threshold's half of [`Policy`]'s table: the block
/// of rolls of `k` dice (1 to 5: a threshold is fixed once a die is set aside) has a row per
/// possible sum set aside and a column per roll. The whole table is 2 × 4,391 keeps (34 KB),
/// small enough to stay in cache during a batch run.
const LATER_BASE: [usize; DICE + 1] = {
    let mut base = [0; DICE + 1];
    let mut k = 1;
    while k < DICE {
        let rows = 5 * (DICE - k) + 1;
        base[k + 1] = base[k] + rows * (OFFSET[k + 1] - OFFSET[k]);
        k += 1;
    }
    base
};

/// Where a turn stands at a decision: the threshold (none before the first set-aside), the sum
/// set aside so far and the roll to choose from (the dice set aside number `6 − roll.len()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnState {
    pub threshold: Option<Threshold>,
    pub sum: u8,
    pub roll: Hand,
}

/// `V(c, k, s)` for a policy: the expected worth of a turn with threshold `c`, `k` dice to throw
/// (at most 5: the threshold is fixed by a die set aside) and `s` set aside, and the worth of a
/// whole turn (`start`).
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
    pub(super) fn after(&self, state: TurnState, keep: Hand, t: Threshold) -> f64 {
        self.get(t, state.roll.len() - keep.len(), state.sum + keep.sum())
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
    // Once the threshold is fixed, at most five dice remain to throw.
    for k in 1..DICE as u8 {
        let rolls = rolls(k);
        for t in Threshold::BOTH {
            // With k dice left, 6 − k are set aside: their sum lies in (6 − k) ..= 6 (6 − k).
            for s in sums_set_aside(k) {
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

/// For every roll of one to five dice (by index), its parts that differ in (dice, sum), each the
/// first such part in [`best_keep`]'s order: parts alike in both are worth the same in every
/// state, so scanning these finds `best_keep`'s choice with a fraction of the work (the solve
/// runs whenever a Hard agent is built).
fn distinct_parts() -> Vec<Vec<(u8, u8, Hand)>> {
    let mut table = vec![Vec::new(); OFFSET[DICE]];
    for k in 1..DICE as u8 {
        for roll in Hand::all_of_size(k) {
            let list: &mut Vec<(u8, u8, Hand)> = &mut table[roll.index()];
            roll.for_each_part(|part| {
                let (len, sum) = (part.len(), part.sum());
                if !list.iter().any(|&(l, s, _)| (l, s) == (len, sum)) {
                    list.push((len, sum, part));
                }
            });
        }
    }
    table
}

/// [`best_keep`] for a roll after the first, under threshold `t`, from the roll's
/// [`distinct_parts`].
fn best_later_keep(values: &Values, t: Threshold, state: TurnState, parts: &[(u8, u8, Hand)]) -> Hand {
    let to_throw = state.roll.len();
    let row = &values.value[t.index()];
    let mut best = (f64::NEG_INFINITY, Hand::EMPTY);
    for &(len, sum, part) in parts {
        let v = row[usize::from(to_throw - len)][usize::from(state.sum + sum)];
        if v > best.0 {
            best = (v, part);
        }
    }
    best.1
}

/// The optimal keep policy for one pair of weights, as a table.
#[derive(Clone, Debug)]
pub struct Policy {
    values: Values,
    /// The keep for a roll after the first, at [`Policy::slot`].
    later: Box<[Hand]>,
    /// The keep and threshold for each first roll of six, by rank.
    first: Box<[(Hand, Threshold)]>,
}

impl Policy {
    /// Solves the turn when a point of expected damage is worth `damage` and a point lost costs
    /// `loss` (about a millisecond; each Hard agent solves its own when it is built).
    #[must_use]
    pub fn new(damage: f64, loss: f64) -> Self {
        Self::solve(|t, s| terminal(t, s, damage, loss))
    }

    /// Solves the turn when finishing with threshold `t` and sum `s` is worth `terminal(t, s)`.
    #[must_use]
    pub fn solve(terminal: impl Fn(Threshold, u8) -> f64) -> Self {
        let mut later = vec![Hand::EMPTY; 2 * LATER_BASE[DICE]].into_boxed_slice();
        let mut first =
            vec![(Hand::EMPTY, Threshold::Small); HANDS - OFFSET[DICE]].into_boxed_slice();
        let parts = distinct_parts();
        let values = evaluate(terminal, |values, state| {
            let choice = match state.threshold {
                Some(t) => (best_later_keep(values, t, state, &parts[state.roll.index()]), t),
                None => best_keep(values, state),
            };
            match state.threshold {
                Some(t) => later[Self::slot(t, state.sum, state.roll)] = choice.0,
                None => first[state.roll.index() - OFFSET[DICE]] = choice,
            }
            choice
        });
        Self {
            values,
            later,
            first,
        }
    }

    /// The place of `(threshold, sum set aside, roll)` in `later`.
    #[inline]
    fn slot(t: Threshold, sum: u8, roll: Hand) -> usize {
        let k = usize::from(roll.len());
        let kept = DICE - k;
        let rolls = OFFSET[k + 1] - OFFSET[k];
        t.index() * LATER_BASE[DICE]
            + LATER_BASE[k]
            + (usize::from(sum) - kept) * rolls
            + (roll.index() - OFFSET[k])
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
            None => self.first[state.roll.index() - OFFSET[DICE]],
        }
    }
}
