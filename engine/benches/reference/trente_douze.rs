//! A naive Trente-douze simulator with Hard players, written straight from
//! `docs/rules/trente-douze.md`: the yardstick the engine's speed is measured against
//! (`benches/trente_douze.rs`). It is the simulator a designer writes first: dice as `Vec`s of
//! faces, the turn-value table of the dynamic programme in a plain `Vec` indexed by (threshold,
//! dice to throw, sum), and every keep decision found again by enumerating the roll's parts and
//! reading their values: no packed hands, no precomputed move lists, no policy table. It consumes
//! the dice and tie-break streams exactly as the engine does and enumerates choices in the
//! engine's order, so from one seed it plays the engine's game (`tests/reference_games.rs`).

use engine::RandomStream;
use engine::games::trente_douze::HardWeights;

const DICE: usize = 6;
const ROUNDS: usize = 3;
const START_SCORE: i32 = 30;
/// Sums of six dice run from 0 to 36.
const SUMS: usize = 6 * DICE + 1;

/// One decision, as the test compares them with the engine's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The faces set aside, in increasing order, and on a turn's first set-aside whether the
    /// threshold named is big.
    Keep {
        faces: Vec<u8>,
        big: Option<bool>,
    },
    Victim(usize),
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The players with most rounds won, then the highest sum of round scores.
    pub winners: Vec<usize>,
    pub round_scores: Vec<Vec<i32>>,
    pub rolls: u32,
    pub moves: u32,
}

/// What a finished turn with threshold `big` and total `sum` comes to: points lost (negative),
/// nothing, or an attack level (positive).
fn turn_result(big: bool, sum: i32) -> i32 {
    if big { sum - 30 } else { 12 - sum }
}

/// `P(x of m dice show one given face)`.
fn binomial(m: usize, x: usize) -> f64 {
    let ways = (0..x).fold(1.0, |w, i| w * (m - i) as f64 / (i + 1) as f64);
    (0..m).fold(ways, |p, i| p * if i < x { 1.0 / 6.0 } else { 5.0 / 6.0 })
}

/// The dice thrown after keeping `x` of `m` in an attack: the rest, or six after a full hand.
fn next_throw(m: usize, x: usize) -> usize {
    if x == m { DICE } else { m - x }
}

/// The mean number of dice an attack keeps: `E(m) = Σ_x P(m, x)(x + E(m − x))` with a full hand
/// starting again from six, written `E(m) = a_m + b_m E(6)` and solved for `E(6)`. Computed with
/// the engine's operations in the engine's order, to the last bit: a small and a big target are
/// mirror images (face `f` against `7 − f`), so many keeps of the two classes are worth exactly
/// the same, and which one Hard takes depends on how its sums round.
fn expected_kept() -> f64 {
    let mut a = [0.0; DICE + 1];
    let mut b = [0.0; DICE + 1];
    b[0] = 1.0;
    for m in 1..=DICE {
        for x in 1..=m {
            let p = binomial(m, x);
            a[m] += p * (x as f64 + a[m - x]);
            b[m] += p * b[m - x];
        }
    }
    a[DICE] / (1.0 - b[DICE])
}

/// The chance that an attack at `level` deals more than `score` points (0 for the dead).
fn kill_probability(level: i32, score: i32) -> f64 {
    if score < 0 {
        return 0.0;
    }
    // spared[m][n]: the chance that at most n more dice are kept, throwing m.
    let most = (score / level) as usize;
    let mut spared = vec![vec![0.0; most + 1]; DICE + 1];
    for n in 0..=most {
        for m in 1..=DICE {
            spared[m][n] = (0..=m.min(n))
                .map(|x| {
                    let after = if x == 0 {
                        1.0
                    } else {
                        spared[next_throw(m, x)][n - x]
                    };
                    binomial(m, x) * after
                })
                .sum();
        }
    }
    1.0 - spared[DICE][most]
}

/// The counts of each face (index 1..=6) in `faces`.
fn counts(faces: &[u8]) -> Vec<usize> {
    let mut c = vec![0; 7];
    for &f in faces {
        c[usize::from(f)] += 1;
    }
    c
}

/// Calls `visit` with every part of a roll with face counts `limit` (index 1..=6) as face
/// counts, the empty one included, the count of face 1 changing fastest.
fn for_each_part(limit: &[usize], visit: &mut impl FnMut(&[usize])) {
    fn from_face(
        face: usize,
        limit: &[usize],
        part: &mut Vec<usize>,
        visit: &mut impl FnMut(&[usize]),
    ) {
        if face == 0 {
            visit(part);
            return;
        }
        for c in 0..=limit[face] {
            part[face] = c;
            from_face(face - 1, limit, part, visit);
        }
        part[face] = 0;
    }
    from_face(6, limit, &mut vec![0; 7], visit);
}

fn sum_of(counts: &[usize]) -> usize {
    (1..=6).map(|f| f * counts[f]).sum()
}

fn len_of(counts: &[usize]) -> usize {
    counts.iter().sum()
}

/// The Hard player: the value of every (threshold, dice to throw, sum set aside) under the
/// optimal keeps, from which each decision is recomputed.
pub struct Hard {
    weights: HardWeights,
    /// `value[big][to_throw][sum]`.
    value: Vec<Vec<Vec<f64>>>,
}

impl Hard {
    /// Solves the turn backwards, from six dice set aside to one still to throw.
    pub fn new(weights: HardWeights) -> Self {
        let e_kept = expected_kept();
        let mut value = vec![vec![vec![0.0; SUMS]; DICE + 1]; 2];
        for big in [false, true] {
            for (sum, v) in value[usize::from(big)][0].iter_mut().enumerate() {
                let r = turn_result(big, sum as i32);
                *v = if r < 0 {
                    -weights.loss * f64::from(-r)
                } else if r == 0 {
                    0.0
                } else {
                    weights.damage * (f64::from(r) * e_kept)
                };
            }
        }
        let mut hard = Self { weights, value };
        for to_throw in 1..DICE {
            let kept = DICE - to_throw;
            for big in [false, true] {
                for sum in kept..=6 * kept {
                    let mut v = 0.0;
                    for (roll, p) in rolls(to_throw) {
                        let (part, _) = hard.best_keep(&roll, sum, Some(big));
                        v += p * hard.after(big, to_throw - len_of(&part), sum + sum_of(&part));
                    }
                    hard.value[usize::from(big)][to_throw][sum] = v;
                }
            }
        }
        hard
    }

    fn after(&self, big: bool, to_throw: usize, sum: usize) -> f64 {
        self.value[usize::from(big)][to_throw][sum]
    }

    /// The part of `roll` (face counts) worth most, and the threshold after it: the first best
    /// in enumeration order, small before big on a first roll.
    fn best_keep(&self, roll: &[usize], sum: usize, threshold: Option<bool>) -> (Vec<usize>, bool) {
        let mut best = (f64::NEG_INFINITY, vec![0; 7], false);
        for_each_part(roll, &mut |part| {
            if len_of(part) == 0 {
                return;
            }
            for big in [false, true] {
                let allowed = match threshold {
                    Some(fixed) => fixed == big,
                    None => {
                        let faces = if big { 4..=6 } else { 1..=3 };
                        faces.into_iter().any(|f| part[f] > 0)
                    }
                };
                if allowed {
                    let v = self.after(big, len_of(roll) - len_of(part), sum + sum_of(part));
                    if v > best.0 {
                        best = (v, part.to_vec(), big);
                    }
                }
            }
        });
        (best.1, best.2)
    }

    /// How much hitting `seat` with an attack at `level` is worth.
    fn victim_value(&self, table: &Table, level: i32, seat: usize) -> f64 {
        let w = &self.weights;
        let score = table.scores[seat];
        let rounds_won = table
            .round_winners
            .iter()
            .filter(|r| r.contains(&seat))
            .count();
        let dead = if score < 0 { w.victim_dead } else { 0.0 };
        w.victim_score * f64::from(score)
            + w.victim_kill * kill_probability(level, score)
            + w.victim_rounds * rounds_won as f64
            + dead
    }
}

/// Every roll of `k` dice as face counts, fewer 1s first, then fewer 2s..., with its chance.
fn rolls(k: usize) -> Vec<(Vec<usize>, f64)> {
    let factorial = |n: usize| (1..=n as u64).product::<u64>();
    let mut all: Vec<Vec<usize>> = Vec::new();
    for_each_part(&[k; 7], &mut |c| {
        if len_of(c) == k {
            all.push(c.to_vec());
        }
    });
    all.sort_by_key(|c| c[1..=6].to_vec());
    all.into_iter()
        .map(|c| {
            let ways = (1..=6).fold(factorial(k), |w, f| w / factorial(c[f]));
            (c, ways as f64 / 6f64.powi(k as i32))
        })
        .collect()
}

/// The players and the round in progress.
struct Table {
    seats: usize,
    round: usize,
    scores: Vec<i32>,
    round_winners: Vec<Vec<usize>>,
    first_dead: Option<usize>,
}

impl Table {
    fn alive(&self, seat: usize) -> bool {
        self.scores[seat] >= 0
    }

    /// The next living seat after `seat`, going `step` seats at a time round the table.
    fn living_from(&self, seat: usize, step: usize) -> usize {
        (1..self.seats)
            .map(|i| (seat + i * step) % self.seats)
            .find(|&s| self.alive(s))
            .unwrap_or(seat)
    }

    /// `seat` loses `points`; returns whether that killed a living player.
    fn hit(&mut self, seat: usize, points: i32) -> bool {
        let was_alive = self.alive(seat);
        self.scores[seat] -= points;
        let killed = was_alive && !self.alive(seat);
        if killed && self.first_dead.is_none() {
            self.first_dead = Some(seat);
        }
        killed
    }
}

fn roll_dice(n: usize, dice: &mut RandomStream, rolls: &mut u32) -> Vec<u8> {
    *rolls += 1;
    (0..n).map(|_| dice.d6()).collect()
}

/// Plays the game of `seed` between `seats` Hard players; `on_move(seat, decision)` sees every
/// decision.
pub fn play(
    seed: u64,
    seats: usize,
    hard: &Hard,
    mut on_move: impl FnMut(usize, Decision),
) -> Played {
    let mut dice = RandomStream::dice(seed);
    let mut tie_breaks: Vec<RandomStream> = (0..seats)
        .map(|seat| RandomStream::tie_break(seed, seat))
        .collect();
    let mut played = Played {
        winners: Vec::new(),
        round_scores: Vec::new(),
        rolls: 0,
        moves: 0,
    };
    let mut table = Table {
        seats,
        round: 0,
        scores: vec![START_SCORE; seats],
        round_winners: Vec::new(),
        first_dead: None,
    };
    let mut first = dice.below(seats as u32) as usize;
    for round in 0..ROUNDS {
        table.round = round;
        table.scores = vec![START_SCORE; seats];
        table.first_dead = None;
        let mut turn = first;
        // The seat taking a turn: `turn`, or a killed player taking vengeance.
        let mut mover = turn;
        loop {
            // One turn of `mover`: set dice aside until all six are.
            let mut kept: Vec<u8> = Vec::new();
            let mut threshold = None;
            while kept.len() < DICE {
                let roll = roll_dice(DICE - kept.len(), &mut dice, &mut played.rolls);
                let sum: usize = kept.iter().map(|&f| usize::from(f)).sum();
                let (part, big) = hard.best_keep(&counts(&roll), sum, threshold);
                let faces: Vec<u8> = (1..=6u8)
                    .flat_map(|f| std::iter::repeat_n(f, part[usize::from(f)]))
                    .collect();
                let decision = Decision::Keep {
                    faces: faces.clone(),
                    big: threshold.is_none().then_some(big),
                };
                on_move(mover, decision);
                played.moves += 1;
                threshold = Some(big);
                kept.extend(faces);
            }
            let sum: i32 = kept.iter().map(|&f| i32::from(f)).sum();
            let result = turn_result(threshold == Some(true), sum);
            let mut avenger = None;
            if result < 0 {
                table.hit(mover, -result);
            } else if result > 0 {
                let level = result;
                let vengeance = !table.alive(mover);
                let victim = if vengeance || round == 2 {
                    let candidates: Vec<usize> = (0..seats)
                        .filter(|&s| s != mover && (vengeance || table.alive(s)))
                        .collect();
                    let values: Vec<f64> = candidates
                        .iter()
                        .map(|&s| hard.victim_value(&table, level, s))
                        .collect();
                    let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    let tied: Vec<usize> = (0..candidates.len())
                        .filter(|&i| values[i] == best)
                        .collect();
                    let i = if tied.len() > 1 {
                        tied[tie_breaks[mover].below(tied.len() as u32) as usize]
                    } else {
                        tied[0]
                    };
                    on_move(mover, Decision::Victim(candidates[i]));
                    played.moves += 1;
                    candidates[i]
                } else {
                    let step = if round == 0 { 1 } else { seats - 1 };
                    table.living_from(mover, step)
                };
                // The damage dice: keep every `level`, rethrow the rest while any shows it; a
                // full hand throws all six again.
                let mut hits = 0;
                let mut throwing = DICE;
                loop {
                    let throw = roll_dice(throwing, &mut dice, &mut played.rolls);
                    let n = throw.iter().filter(|&&f| i32::from(f) == level).count();
                    hits += n;
                    if n == 0 {
                        break;
                    }
                    throwing = next_throw(throwing, n);
                }
                if table.hit(victim, level * hits as i32) {
                    avenger = Some(victim);
                }
            }
            if let Some(victim) = avenger {
                mover = victim;
                continue;
            }
            if (0..seats).filter(|&s| table.alive(s)).count() <= 1 {
                break;
            }
            turn = table.living_from(turn, 1);
            mover = turn;
        }
        let best = table.scores.iter().copied().max().unwrap_or(0);
        let winners: Vec<usize> = (0..seats).filter(|&s| table.scores[s] == best).collect();
        table.round_winners.push(winners);
        played.round_scores.push(table.scores.clone());
        first = table.first_dead.unwrap_or(turn);
    }
    let key = |seat: usize| {
        let wins = table
            .round_winners
            .iter()
            .filter(|w| w.contains(&seat))
            .count();
        let total: i32 = played.round_scores.iter().map(|r| r[seat]).sum();
        (wins, total)
    };
    let best = (0..seats).map(key).max().unwrap_or((0, 0));
    played.winners = (0..seats).filter(|&s| key(s) == best).collect();
    played
}
