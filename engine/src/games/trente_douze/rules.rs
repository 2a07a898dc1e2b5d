//! The pure clauses of the rules: a finished turn's result, an attack's damage dice, and the
//! winners of a round and of the game. The game state in `mod.rs` sequences them.

use super::hand::{DICE, Dice, Hand, Threshold};
use crate::game::{MAX_SEATS, SeatSet};

/// Rounds in a game.
pub const ROUNDS: usize = 3;

/// Every player's score at the start of a round.
pub const START_SCORE: i16 = 30;

/// What a turn whose six dice are set aside comes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnResult {
    /// The threshold was missed by this many points, which the player loses.
    Loss(u8),
    /// The threshold was hit exactly: nothing happens.
    Exact,
    /// The threshold was beaten by this many points (1..=6): an attack at that level.
    Attack(u8),
}

/// The result of a turn with `threshold` and dice summing to `sum`.
#[must_use]
pub const fn turn_result(threshold: Threshold, sum: u8) -> TurnResult {
    let target = threshold.target();
    // Small must stay at or under 12; big must reach 30 or over.
    let (short, over) = match threshold {
        Threshold::Small => (sum > target, target.saturating_sub(sum)),
        Threshold::Big => (sum < target, sum.saturating_sub(target)),
    };
    if short {
        TurnResult::Loss(sum.abs_diff(target))
    } else if over == 0 {
        TurnResult::Exact
    } else {
        TurnResult::Attack(over)
    }
}

/// Throws an attack's damage dice at `level` and returns how many dice showing `level` were kept
/// in all (the victim loses `level` times that). `on_throw(throw, kept)` sees each throw and how
/// many of its dice showed `level`.
pub fn attack_dice(level: u8, dice: &mut impl Dice, mut on_throw: impl FnMut(Hand, u8)) -> u32 {
    let mut total = 0;
    let mut throwing = DICE as u8;
    loop {
        let throw = Hand::roll(throwing, dice);
        let hits = throw.count(level);
        on_throw(throw, hits);
        total += u32::from(hits);
        if hits == 0 {
            return total;
        }
        // A full hand throws all six again.
        throwing = if hits == throwing {
            DICE as u8
        } else {
            throwing - hits
        };
    }
}

/// The players with the highest score of `scores` (the first `seats` entries): the round's
/// winners, several on a tie.
#[must_use]
pub fn round_winners(scores: &[i16; MAX_SEATS], seats: usize) -> SeatSet {
    let best = scores[..seats].iter().copied().max().unwrap_or(0);
    let mut winners = SeatSet::default();
    for seat in (0..seats).filter(|&s| scores[s] == best) {
        winners.insert(seat);
    }
    winners
}

/// The game's winners: most rounds won, then the highest sum of the three rounds' final scores;
/// several players still level share a draw.
#[must_use]
pub fn game_winners(
    round_scores: &[[i16; MAX_SEATS]; ROUNDS],
    round_winners: &[SeatSet; ROUNDS],
    seats: usize,
) -> SeatSet {
    let key = |seat: usize| {
        let wins = round_winners.iter().filter(|w| w.contains(seat)).count();
        let total: i32 = round_scores.iter().map(|r| i32::from(r[seat])).sum();
        (wins, total)
    };
    let best = (0..seats).map(key).max().unwrap_or((0, 0));
    let mut winners = SeatSet::default();
    for seat in (0..seats).filter(|&s| key(s) == best) {
        winners.insert(seat);
    }
    winners
}
