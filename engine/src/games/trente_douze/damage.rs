//! The exact law of an attack's damage.
//!
//! An attack at level `L` keeps every die showing `L` and rerolls the rest while a throw yields at
//! least one `L`; six kept dice (a full hand) are all thrown again. Each die shows `L` with
//! probability 1/6 whatever `L` is, so the number `N` of dice kept has one law for every level and
//! the damage is `L × N`. Both the mean and the law are computed here at compile time, by two
//! different recursions (the tests check them against each other and against simulation).

use super::hand::DICE;

/// `P(X = x)` for `X` the number of a given face among `m` dice: binomial(m, 1/6).
const fn binomial(m: usize, x: usize) -> f64 {
    let mut ways = 1.0;
    let mut i = 0;
    while i < x {
        ways = ways * (m - i) as f64 / (i + 1) as f64;
        i += 1;
    }
    let mut p = ways;
    let mut i = 0;
    while i < m {
        p *= if i < x { 1.0 / 6.0 } else { 5.0 / 6.0 };
        i += 1;
    }
    p
}

/// The dice thrown after keeping `x` of `m`: the rest, or all six again after a full hand.
const fn next_throw(m: usize, x: usize) -> usize {
    if m == x { DICE } else { m - x }
}

/// `E[N]` from a throw of six dice. Writing `E(m) = a_m + b_m·E(6)` for a throw of `m` dice (a
/// full hand leaves `E(0) = E(6)`), the linear recursion on `m` gives `a_6`, `b_6`, then
/// `E(6) = a_6 / (1 − b_6)`.
const fn expected_kept() -> f64 {
    let mut a = [0.0; DICE + 1];
    let mut b = [0.0; DICE + 1];
    b[0] = 1.0;
    let mut m = 1;
    while m <= DICE {
        let mut x = 1;
        while x <= m {
            let p = binomial(m, x);
            a[m] += p * (x as f64 + a[m - x]);
            b[m] += p * b[m - x];
            x += 1;
        }
        m += 1;
    }
    a[DICE] / (1.0 - b[DICE])
}

/// The mean number of dice an attack keeps (≈ 1.7984): the exact value is
/// 1090229648077 / 606223864550.
pub const EXPECTED_KEPT: f64 = expected_kept();

/// How many values of `N` the law table holds; `P(N ≥ KEPT_LAW_LEN)` is below 1e-20.
pub const KEPT_LAW_LEN: usize = 96;

/// `P(N = n)` for `n < KEPT_LAW_LEN`: `f(m, n)`, the chance of keeping exactly `n` more dice from
/// a throw of `m`, satisfies `f(m, 0) = (5/6)^m` and
/// `f(m, n) = Σ_{x=1..min(m,n)} P(m, x) · f(next(m, x), n − x)`, which only looks at smaller `n`.
const fn kept_law() -> [f64; KEPT_LAW_LEN] {
    let mut f = [[0.0; DICE + 1]; KEPT_LAW_LEN];
    let mut n = 0;
    while n < KEPT_LAW_LEN {
        let mut m = 1;
        while m <= DICE {
            if n == 0 {
                f[0][m] = binomial(m, 0);
            } else {
                let mut x = 1;
                while x <= m && x <= n {
                    f[n][m] += binomial(m, x) * f[n - x][next_throw(m, x)];
                    x += 1;
                }
            }
            m += 1;
        }
        n += 1;
    }
    let mut law = [0.0; KEPT_LAW_LEN];
    let mut n = 0;
    while n < KEPT_LAW_LEN {
        law[n] = f[n][DICE];
        n += 1;
    }
    law
}

/// `P(N = n)` for `n < KEPT_LAW_LEN`.
pub const KEPT_LAW: [f64; KEPT_LAW_LEN] = kept_law();

/// The expected damage of an attack at `level` (1..=6).
#[must_use]
pub fn expected_damage(level: u8) -> f64 {
    f64::from(level) * EXPECTED_KEPT
}

/// The chance that an attack at `level` takes a player at `score` below zero, i.e. deals more
/// than `score` points; 0 for a player already dead (the attack cannot kill them again).
#[must_use]
pub fn kill_probability(level: u8, score: i16) -> f64 {
    if score < 0 {
        return 0.0;
    }
    // Damage L·n ≤ score for n ≤ score / L; those outcomes spare the player.
    let spared = usize::try_from(score / i16::from(level)).unwrap_or(0);
    1.0 - KEPT_LAW[..=spared.min(KEPT_LAW_LEN - 1)]
        .iter()
        .sum::<f64>()
}
