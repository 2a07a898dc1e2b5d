//! The exact damage law and the turn DP, checked by independent computations and simulation.

use super::*;
use crate::games::trente_douze::policy::{best_keep, terminal};
use crate::sample::Moments;

// ---- the exact damage law --------------------------------------------------------------------

#[test]
fn expected_kept_dice_agree_between_the_two_recursions_and_the_exact_fraction() {
    let exact = 1_090_229_648_077.0 / 606_223_864_550.0;
    assert!((EXPECTED_KEPT - exact).abs() < 1e-14, "{EXPECTED_KEPT}");
    let total: f64 = KEPT_LAW.iter().sum();
    let mean: f64 = KEPT_LAW.iter().enumerate().map(|(n, p)| n as f64 * p).sum();
    assert!((total - 1.0).abs() < 1e-14, "{total}");
    assert!((mean - EXPECTED_KEPT).abs() < 1e-12, "{mean}");
    assert!((KEPT_LAW[0] - (5.0f64 / 6.0).powi(6)).abs() < 1e-16);
    // One 1 then nothing among five: 6·(1/6)(5/6)^5 · (5/6)^5.
    let one = 6.0 / 6.0 * (5.0f64 / 6.0).powi(10);
    assert!((KEPT_LAW[1] - one).abs() < 1e-16);
    for level in 1..=6 {
        assert!((expected_damage(level) - f64::from(level) * exact).abs() < 1e-12);
    }
    assert_eq!(kill_probability(3, -1), 0.0);
    assert!((kill_probability(6, 5) - (1.0 - KEPT_LAW[0])).abs() < 1e-15);
    assert!((kill_probability(1, 1) - (1.0 - KEPT_LAW[0] - KEPT_LAW[1])).abs() < 1e-15);
}

#[test]
fn simulated_attacks_match_the_exact_damage() {
    // 40,000 attacks per level: the mean damage must lie within 4 standard errors of L·E[N]
    // (a false alarm about once in 15,000 runs; the seed is fixed anyway), and the share of
    // attacks dealing nothing within 4 standard errors of (5/6)^6.
    let mut dice = RandomStream::from_seed(2024, 5);
    for level in 1..=6u8 {
        let mut m = Moments::default();
        let mut zero = 0u32;
        let n = 40_000;
        for _ in 0..n {
            let d = i64::from(level) * i64::from(attack_dice(level, &mut dice, |_, _| {}));
            zero += u32::from(d == 0);
            m.add(d);
        }
        let se = m.sd() / f64::from(n).sqrt();
        assert!(
            (m.mean() - expected_damage(level)).abs() < 4.0 * se,
            "level {level}: {} vs {}",
            m.mean(),
            expected_damage(level)
        );
        let p = KEPT_LAW[0];
        let share = f64::from(zero) / f64::from(n);
        assert!((share - p).abs() < 4.0 * (p * (1.0 - p) / f64::from(n)).sqrt());
    }
}

// ---- the turn DP -----------------------------------------------------------------------------

fn unit_terminal(t: Threshold, s: u8) -> f64 {
    terminal(t, s, 1.0, 1.0)
}

/// The optimal value by an independent recursion: ordered throws (6^k of them, each of
/// probability 6^-k) and sets of dice positions instead of multisets, memoised on
/// (class, dice to throw, sum).
fn brute_force_value() -> f64 {
    type Memo = [[[Option<f64>; 37]; 7]; 3];
    fn value(t: Option<Threshold>, k: usize, s: usize, memo: &mut Memo) -> f64 {
        let class = t.map_or(2, Threshold::index);
        if let Some(v) = memo[class][k][s] {
            return v;
        }
        let v = if k == 0 {
            unit_terminal(t.unwrap(), s as u8)
        } else {
            let throws = 6usize.pow(k as u32);
            let mut total = 0.0;
            let mut faces = [0usize; 6];
            for code in 0..throws {
                let mut c = code;
                for face in faces.iter_mut().take(k) {
                    *face = c % 6 + 1;
                    c /= 6;
                }
                let mut best = f64::NEG_INFINITY;
                for mask in 1usize..1 << k {
                    let (mut sum, mut n, mut small, mut big) = (0, 0, false, false);
                    for (i, &face) in faces.iter().enumerate().take(k) {
                        if mask & (1 << i) != 0 {
                            sum += face;
                            n += 1;
                            small |= face <= 3;
                            big |= face >= 4;
                        }
                    }
                    for c in Threshold::BOTH {
                        let allowed = match t {
                            Some(t) => t == c,
                            None => {
                                (c == Threshold::Small && small) || (c == Threshold::Big && big)
                            }
                        };
                        if allowed {
                            best = best.max(value(Some(c), k - n, s + sum, memo));
                        }
                    }
                }
                total += best;
            }
            total / throws as f64
        };
        memo[class][k][s] = Some(v);
        v
    }
    value(None, 6, 0, &mut [[[None; 37]; 7]; 3])
}

#[test]
fn the_dp_value_matches_an_independent_brute_force() {
    let policy = Policy::new(1.0, 1.0);
    let brute = brute_force_value();
    assert!(
        (policy.values().start - brute).abs() < 1e-9,
        "{} vs {brute}",
        policy.values().start
    );
}

/// Simpler keep policies, valued exactly by the same recursion.
type KeepRule = fn(TurnState) -> (Hand, Threshold);

fn simple_policies() -> Vec<(&'static str, KeepRule)> {
    fn class_of(state: TurnState) -> Threshold {
        state
            .threshold
            .unwrap_or(if state.roll.sum() * 2 < 7 * state.roll.len() {
                Threshold::Small
            } else {
                Threshold::Big
            })
    }
    fn extreme(state: TurnState, t: Threshold) -> u8 {
        match t {
            Threshold::Small => state.roll.faces().next().unwrap(),
            Threshold::Big => state.roll.faces().last().unwrap(),
        }
    }
    vec![
        ("normal", normal_keep),
        ("keep the whole first roll", |s| {
            let t = Threshold::of_face(s.roll.faces().last().unwrap());
            (s.roll, s.threshold.unwrap_or(t))
        }),
        ("one extreme die per roll", |s| {
            let t = class_of(s);
            let face = extreme(s, t);
            (
                Hand::of(&[face]),
                s.threshold.unwrap_or(Threshold::of_face(face)),
            )
        }),
        ("all dice of the extreme face", |s| {
            let t = class_of(s);
            let face = extreme(s, t);
            (
                Hand::repeat(face, s.roll.count(face)),
                s.threshold.unwrap_or(Threshold::of_face(face)),
            )
        }),
    ]
}

#[test]
fn the_optimal_policy_beats_every_simpler_policy() {
    let policy = Policy::new(1.0, 1.0);
    let best = policy.values().start;
    let mut normal = 0.0;
    for (name, keep) in simple_policies() {
        let v = evaluate(unit_terminal, |_, state| keep(state)).start;
        assert!(best >= v - 1e-12, "{name}: {v} > {best}");
        if name == "normal" {
            normal = v;
        }
    }
    // And the optimum values itself: evaluating its table gives its own value.
    let again = evaluate(unit_terminal, |_, state| policy.keep(state)).start;
    assert!((again - best).abs() < 1e-12);
    assert!(
        best > normal + 0.5,
        "the DP should clearly beat the heuristic: {best} vs {normal}"
    );
}

#[test]
fn the_table_holds_the_best_keep_of_every_state() {
    let policy = Policy::new(1.3, 0.8);
    for k in 1..=6usize {
        for roll in all_rolls(k) {
            let roll = Hand::of(&roll);
            for (threshold, sums) in [
                (None, 0..=0),
                (Some(Threshold::Small), (6 - k as u8)..=6 * (6 - k as u8)),
                (Some(Threshold::Big), (6 - k as u8)..=6 * (6 - k as u8)),
            ] {
                // The first roll has six dice, later ones fewer.
                if threshold.is_none() != (k == 6) {
                    continue;
                }
                for sum in sums {
                    let state = TurnState {
                        threshold,
                        sum,
                        roll,
                    };
                    assert_eq!(policy.keep(state), best_keep(policy.values(), state));
                }
            }
        }
    }
}

#[test]
fn hard_games_reproduce_the_dp_turn_value() {
    // Every turn of a Hard player follows the table, whatever the scores, so over many turns the
    // mean of (damage dealt − points lost) must match the DP's value within its 99.9% interval
    // (3.29 standard errors; turns are independent because the policy ignores the scores).
    let expected = Policy::new(1.0, 1.0).values().start;
    let (mut n, mut sum, mut sum_sq) = (0u64, 0i64, 0u64);
    for seed in 0..300 {
        let game = run_game(4, &[2], seed);
        for r in &game.record().seats[..4] {
            n += u64::from(r.turns);
            sum += i64::from(r.dealt.sum) - i64::from(r.lost.sum);
            // A turn either deals or loses, never both: the squares add.
            sum_sq += r.dealt.sum_sq + r.lost.sum_sq;
        }
    }
    let mean = sum as f64 / n as f64;
    let var = sum_sq as f64 / n as f64 - mean * mean;
    let se = (var / n as f64).sqrt();
    assert!(n > 30_000, "{n} turns");
    assert!(
        (mean - expected).abs() < 3.29 * se,
        "simulated {mean} ± {se} vs exact {expected}"
    );
}
