//! Ludo's three computer levels (`docs/rules/ludo.md`, "The three computer levels"). None looks ahead:
//! each decision is a calculation over this roll's legal moves, ties broken by one draw.

use super::board::{FINISH, LAST_TRACK, SEATS, is_safe, progress_of, track_square};
use super::{Ludo, Move, YARD};
use crate::agent::{Agent, Analysis, Context, best_move, pick};
use crate::game::{Level, Rules};

crate::weight_set! {
    /// Hard's move scores: the tier values of Normal's preference order, and how much a capture
    /// risk of 1 costs.
    pub struct HardWeights = "ludo-hard" {
        /// Tier value of a capture.
        capture: 5.0, 0.0..=10.0, 0.25;
        /// Added for each pawn sent home beyond the first.
        capture_extra: 0.1, 0.0..=2.0, 0.05;
        /// Tier value of reaching the finish.
        finish: 4.0, 0.0..=10.0, 0.25;
        /// Tier value of leaving the yard.
        leave_yard: 3.0, 0.0..=10.0, 0.25;
        /// Tier value of landing on one of the 8 safe squares.
        safe: 2.0, 0.0..=10.0, 0.25;
        /// Tier value of plain progress.
        progress: 1.0, 0.0..=10.0, 0.25;
        /// Cost of a capture risk of 1 (a certain capture next turn).
        risk_weight: 1.0, 0.0..=10.0, 0.25;
    }
}

pub(super) const LEVELS: &[Level<Ludo>] = &[
    Level::new("easy", "uniformly random legal move", None, |_| {
        Box::new(Easy)
    }),
    Level::new(
        "normal",
        "capture (more beats fewer) > finish > leave yard > safe square > progress",
        None,
        |_| {
            Box::new(Tiered {
                weights: HardWeights {
                    risk_weight: 0.0,
                    ..HardWeights::default()
                },
            })
        },
    ),
    Level::new(
        "hard",
        "Normal's order minus risk_weight x the chance of being captured next turn",
        Some(&HardWeights::SET),
        |setup| {
            Box::new(Tiered {
                weights: HardWeights::from_values(&setup.weights),
            })
        },
    ),
];

/// Uniformly random legal move.
#[derive(Clone, Copy, Debug)]
struct Easy;

impl Agent<Ludo> for Easy {
    fn choose(&mut self, _: &Ludo, moves: &[Move], ctx: &mut Context<'_>) -> Move {
        moves[pick(moves.len(), ctx.rng)]
    }
}

/// Normal and Hard: the tier of the move minus the weighted risk. With `risk_weight = 0` and the
/// default tiers this is exactly Normal's strict preference order.
#[derive(Clone, Copy, Debug)]
struct Tiered {
    weights: HardWeights,
}

impl Tiered {
    fn score(&self, game: &Ludo, mv: Move) -> f64 {
        let w = &self.weights;
        let seat = game.to_move();
        let pawn = usize::from(mv.0);
        let from = game.progress[seat][pawn];
        let Some(dest) = game.destination(pawn) else {
            return f64::NEG_INFINITY;
        };
        if dest > LAST_TRACK {
            // Home straight or finish: never at risk.
            return if dest == FINISH { w.finish } else { w.progress };
        }
        let square = track_square(seat, dest);
        if is_safe(square) {
            return if from == YARD { w.leave_yard } else { w.safe };
        }
        let (_, captured) = game.pawns_on(square, seat);
        let tier = if captured > 0 {
            w.capture + w.capture_extra * f64::from(captured - 1)
        } else {
            w.progress
        };
        if w.risk_weight == 0.0 {
            return tier;
        }
        // A multiplication, not a division: this runs for every candidate move of every turn.
        let risk = f64::from(216 - risk_numerator(game, seat, square)) * (1.0 / 216.0);
        tier - w.risk_weight * risk
    }
}

/// `216 × Π(1 − p_i)` over the opponents of `mover` for a pawn standing on track `square`:
/// `p_i` is the share of die faces with which seat `i` lands exactly there in one roll, read off
/// a six-bit window of that seat's occupancy mask. The risk is `1 − risk_numerator / 216`.
#[must_use]
pub fn risk_numerator(game: &Ludo, mover: usize, square: u8) -> u32 {
    let mut product = 1;
    for seat in (0..SEATS).filter(|&s| s != mover) {
        let faces = progress_of(square, seat).map_or(0, |p| {
            // Pawns at progress p-6 ..= p-1 reach p with faces 6 ..= 1.
            let window = if p >= 6 {
                game.occupancy[seat] >> (p - 6)
            } else {
                game.occupancy[seat] << (6 - p)
            };
            (window & 0x3f).count_ones()
        });
        product *= 6 - faces;
    }
    product
}

impl Agent<Ludo> for Tiered {
    fn choose(&mut self, game: &Ludo, moves: &[Move], ctx: &mut Context<'_>) -> Move {
        if let [only] = moves {
            // A forced move: scoring it would change nothing (and `pick` draws nothing for one).
            return *only;
        }
        best_move::<_, _, 4>(moves, |mv| self.score(game, mv), ctx.rng)
    }

    fn analyse(&mut self, game: &Ludo, moves: &[Move], ctx: &mut Context<'_>) -> Analysis<Move> {
        let best = self.choose(game, moves, ctx);
        Analysis::of_scores(best, moves, |mv| self.score(game, mv))
    }
}
