//! Trente-douze's computer levels. None looks ahead beyond the turn: keeps come from a rule of
//! thumb (Normal) or from the exact turn-value table of `policy` (Hard); victims from a score.

use super::damage::kill_probability;
use super::hand::{Hand, Threshold};
use super::policy::{Policy, TurnState};
use super::{Move, TrenteDouze};
use crate::agent::{Agent, Analysis, Context, best_move, pick};
use crate::game::Level;

crate::weight_set! {
    /// Hard's values: what a turn's outcomes are worth (the keep table is solved for them) and
    /// how it picks a victim.
    pub struct HardWeights = "trente-douze-hard" {
        /// Worth of one point of expected damage dealt.
        damage: 1.0, 0.0..=4.0, 0.05;
        /// Cost of one point lost by missing the threshold.
        loss: 1.0, 0.0..=4.0, 0.05;
        /// Victim: worth of each point of the victim's score (positive: hit the leader).
        victim_score: 1.0, -2.0..=2.0, 0.05;
        // The victim defaults are measured: docs/findings/trente-douze-levels.md.
        /// Victim: worth of a certain kill, scaled by the exact chance that this attack kills.
        victim_kill: 0.0, -40.0..=40.0, 0.5;
        /// Victim: worth of each round the victim has already won.
        victim_rounds: 5.0, 0.0..=40.0, 0.5;
        /// Victim: worth of hitting a dead player, whose score only matters on ties.
        victim_dead: -60.0, -100.0..=0.0, 1.0;
    }
}

pub(super) const LEVELS: &[Level<TrenteDouze>] = &[
    Level::new("easy", "random legal set-asides and victims", None, |_| {
        Box::new(Easy)
    }),
    Level::new(
        "normal",
        "small if the first roll has more 1-2s than 5-6s, else big; keeps every 1 (small) \
         or 6 (big), else the single best die; hits the leader",
        None,
        |_| Box::new(Normal),
    ),
    Level::new(
        "hard",
        "keeps by the exact optimal policy for damage dealt against points lost (a \
         precomputed table); victim by score and rounds won",
        Some(&HardWeights::SET),
        |setup| Box::new(Hard::new(HardWeights::from_values(&setup.weights))),
    ),
];

/// The move setting aside `dice` with threshold `t` (named only on the turn's first set-aside).
fn keep_move(game: &TrenteDouze, (dice, t): (Hand, Threshold)) -> Move {
    Move::Keep {
        dice,
        threshold: game.threshold().is_none().then_some(t),
    }
}

fn turn_state(game: &TrenteDouze) -> TurnState {
    TurnState {
        threshold: game.threshold(),
        sum: game.kept().sum(),
        roll: game.roll(),
    }
}

/// The victim with the highest `score` among the legal ones, ties broken by one draw.
fn best_victim(moves: &[Move], ctx: &mut Context<'_>, mut score: impl FnMut(usize) -> f64) -> Move {
    let value = |mv: Move| match mv {
        Move::Victim(seat) => score(usize::from(seat)),
        Move::Keep { .. } => f64::NEG_INFINITY,
    };
    best_move::<_, _, { crate::game::MAX_SEATS }>(moves, value, ctx.rng)
}

/// Uniformly random legal move.
#[derive(Clone, Copy, Debug)]
struct Easy;

impl Agent<TrenteDouze> for Easy {
    fn choose(&mut self, _: &TrenteDouze, moves: &[Move], ctx: &mut Context<'_>) -> Move {
        moves[pick(moves.len(), ctx.rng)]
    }
}

/// Normal's keep: small if the first roll shows more 1s and 2s than 5s and 6s, else big; then
/// keep every die showing the best face (1 for small, 6 for big) or, when there is none, the one
/// die closest to it. The threshold is that die's class (a roll of only 3s and 4s going big
/// keeps a 4; one of only 3s must go small).
#[must_use]
pub fn normal_keep(state: TurnState) -> (Hand, Threshold) {
    let roll = state.roll;
    let goal = state.threshold.unwrap_or(
        if roll.count(1) + roll.count(2) > roll.count(5) + roll.count(6) {
            Threshold::Small
        } else {
            Threshold::Big
        },
    );
    let (best, closest) = match goal {
        Threshold::Small => (1, roll.lowest()),
        Threshold::Big => (6, roll.highest()),
    };
    let (keep, face) = match roll.count(best) {
        0 => {
            let face = closest.unwrap_or(best);
            (Hand::of(&[face]), face)
        }
        n => (Hand::repeat(best, n), best),
    };
    (keep, state.threshold.unwrap_or(Threshold::of_face(face)))
}

#[derive(Clone, Copy, Debug)]
struct Normal;

impl Agent<TrenteDouze> for Normal {
    fn choose(&mut self, game: &TrenteDouze, moves: &[Move], ctx: &mut Context<'_>) -> Move {
        if game.pending_attack().is_some() {
            return best_victim(moves, ctx, |seat| f64::from(game.score(seat)));
        }
        keep_move(game, normal_keep(turn_state(game)))
    }
}

#[derive(Clone, Debug)]
struct Hard {
    weights: HardWeights,
    /// Solved when the agent is built, for its own weights: the engine keeps no table shared
    /// behind the agents' backs (issue 52), and a batch runner builds its agents once per chunk
    /// of games, so the solve is paid once per few hundred games.
    policy: Policy,
}

impl Hard {
    fn new(weights: HardWeights) -> Self {
        Self {
            weights,
            policy: Policy::new(weights.damage, weights.loss),
        }
    }
}

impl Hard {
    /// How much Hard likes hitting `seat` with an attack at `level`.
    fn victim_value(&self, game: &TrenteDouze, level: u8, seat: usize) -> f64 {
        let w = &self.weights;
        let score = game.score(seat);
        let dead = if score < 0 { w.victim_dead } else { 0.0 };
        w.victim_score * f64::from(score)
            + w.victim_kill * kill_probability(level, score)
            + w.victim_rounds * game.round_wins(seat) as f64
            + dead
    }

    /// The value of `mv`: a keep's expected worth of the rest of the turn under the solved
    /// policy, or a victim's score.
    fn value(&self, game: &TrenteDouze, mv: Move) -> f64 {
        match (mv, game.pending_attack()) {
            (Move::Victim(seat), Some(level)) => self.victim_value(game, level, usize::from(seat)),
            (Move::Keep { dice, threshold }, None) => {
                let state = turn_state(game);
                match threshold.or(state.threshold) {
                    Some(t) => self.policy.values().after(state, dice, t),
                    None => f64::NEG_INFINITY,
                }
            }
            _ => f64::NEG_INFINITY,
        }
    }
}

impl Agent<TrenteDouze> for Hard {
    fn choose(&mut self, game: &TrenteDouze, moves: &[Move], ctx: &mut Context<'_>) -> Move {
        let Some(level) = game.pending_attack() else {
            return keep_move(game, self.policy.keep(turn_state(game)));
        };
        best_victim(moves, ctx, |seat| self.victim_value(game, level, seat))
    }

    fn analyse(
        &mut self,
        game: &TrenteDouze,
        moves: &[Move],
        ctx: &mut Context<'_>,
    ) -> Analysis<Move> {
        let best = self.choose(game, moves, ctx);
        Analysis::of_scores(best, moves, |mv| self.value(game, mv))
    }
}
