//! A naive Ludo simulator with four Hard players, written straight from `docs/rules/ludo.md`: the
//! yardstick the engine's speed is measured against (`benches/ludo.rs`). It is the simulator a
//! designer writes first: pawns in nested `Vec`s, legal moves collected into a fresh `Vec` every
//! roll, capture and risk found by scanning every pawn, no tables, masks or incremental state. It
//! consumes the dice and tie-break streams exactly as the engine does, so from one seed it plays
//! the engine's game (`tests/reference_games.rs` checks it).

use engine::RandomStream;
use engine::games::ludo::HardWeights;

/// Progress of a pawn still in its yard.
const YARD: i32 = -1;
/// The last progress on the shared track; 51..=56 are the home straight.
const LAST_TRACK: i32 = 50;
/// Progress of a finished pawn.
const FINISH: i32 = 57;

/// How a game ended and what it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The seat that brought its four pawns home; `None` when the roll cap ended the game.
    pub winner: Option<usize>,
    pub rolls: u32,
    pub moves: u32,
    pub captures: Vec<u32>,
}

/// The absolute square (0..52) of `seat`'s pawn at `progress`, if it is on the shared track.
fn square(seat: usize, progress: i32) -> Option<i32> {
    (0..=LAST_TRACK)
        .contains(&progress)
        .then(|| (13 * seat as i32 + progress) % 52)
}

/// The four entry squares and the four stars eight squares past them.
fn is_safe(square: i32) -> bool {
    square % 13 == 0 || square % 13 == 8
}

/// Where a pawn at `progress` lands with `roll`, if it may move.
fn destination(progress: i32, roll: i32) -> Option<i32> {
    if progress == YARD {
        (roll == 6).then_some(0)
    } else if progress + roll <= FINISH && progress != FINISH {
        Some(progress + roll)
    } else {
        None
    }
}

/// The opposing pawns of `seat` standing on `target`, as `(seat, pawn)`.
fn pawns_on(pawns: &[Vec<i32>], seat: usize, target: i32) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    for (other, their) in pawns.iter().enumerate() {
        for (pawn, &p) in their.iter().enumerate() {
            if other != seat && square(other, p) == Some(target) {
                found.push((other, pawn));
            }
        }
    }
    found
}

/// Hard's score of moving `pawn` of `seat` with `roll`: the tier of the move minus the chance
/// that some opponent lands on the destination with its next roll.
fn hard_score(pawns: &[Vec<i32>], seat: usize, pawn: usize, roll: i32, w: &HardWeights) -> f64 {
    let from = pawns[seat][pawn];
    let Some(dest) = destination(from, roll) else {
        return f64::NEG_INFINITY;
    };
    let Some(target) = square(seat, dest) else {
        return if dest == FINISH { w.finish } else { w.progress };
    };
    if is_safe(target) {
        return if from == YARD { w.leave_yard } else { w.safe };
    }
    let victims = pawns_on(pawns, seat, target).len();
    let tier = if victims > 0 {
        w.capture + w.capture_extra * (victims - 1) as f64
    } else {
        w.progress
    };
    // Each opponent hits with the share of die faces that bring one of its pawns exactly here;
    // the opponents count as independent. Counted in whole faces so that equal risks are equal.
    let mut spared = 1;
    for (other, their) in pawns.iter().enumerate() {
        if other == seat {
            continue;
        }
        let faces = (1..=6)
            .filter(|&face| {
                their.iter().any(|&p| {
                    p != YARD && p + face <= LAST_TRACK && square(other, p + face) == Some(target)
                })
            })
            .count();
        spared *= 6 - faces;
    }
    let risk = 1.0 - spared as f64 / 216.0;
    tier - w.risk_weight * risk
}

/// Plays the game of `seed` with four Hard players of weights `w` and `roll_cap` rolls at most;
/// `on_move(seat, pawn)` sees every move.
pub fn play(
    seed: u64,
    roll_cap: u32,
    w: &HardWeights,
    mut on_move: impl FnMut(usize, usize),
) -> Played {
    let mut dice = RandomStream::dice(seed);
    let mut tie_breaks: Vec<RandomStream> = (0..4)
        .map(|seat| RandomStream::tie_break(seed, seat))
        .collect();
    let mut pawns = vec![vec![YARD; 4]; 4];
    let mut played = Played {
        winner: None,
        rolls: 0,
        moves: 0,
        captures: vec![0; 4],
    };
    let mut seat = 0;
    loop {
        let mut sixes = 0;
        loop {
            if played.rolls >= roll_cap {
                return played;
            }
            let roll = i32::from(dice.d6());
            played.rolls += 1;
            if roll == 6 {
                sixes += 1;
                if sixes == 3 {
                    break;
                }
            }
            let legal: Vec<usize> = (0..4)
                .filter(|&pawn| destination(pawns[seat][pawn], roll).is_some())
                .collect();
            if !legal.is_empty() {
                let pawn = choose(&pawns, seat, roll, &legal, w, &mut tie_breaks[seat]);
                on_move(seat, pawn);
                played.moves += 1;
                let dest = destination(pawns[seat][pawn], roll).unwrap_or(FINISH);
                pawns[seat][pawn] = dest;
                if let Some(target) = square(seat, dest).filter(|&t| !is_safe(t)) {
                    for (other, victim) in pawns_on(&pawns, seat, target) {
                        pawns[other][victim] = YARD;
                        played.captures[seat] += 1;
                    }
                }
                if pawns[seat].iter().all(|&p| p == FINISH) {
                    played.winner = Some(seat);
                    return played;
                }
            }
            if roll != 6 {
                break;
            }
        }
        seat = (seat + 1) % 4;
    }
}

/// The legal move with the highest Hard score; exact ties broken by one draw among the tied
/// moves, none drawn when one move is best or only one is legal.
fn choose(
    pawns: &[Vec<i32>],
    seat: usize,
    roll: i32,
    legal: &[usize],
    w: &HardWeights,
    rng: &mut RandomStream,
) -> usize {
    if legal.len() == 1 {
        return legal[0];
    }
    let scores: Vec<f64> = legal
        .iter()
        .map(|&pawn| hard_score(pawns, seat, pawn, roll, w))
        .collect();
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let tied: Vec<usize> = (0..legal.len()).filter(|&i| scores[i] == best).collect();
    let chosen = if tied.len() > 1 {
        tied[rng.below(tied.len() as u32) as usize]
    } else {
        tied[0]
    };
    legal[chosen]
}
