//! Trente-douze as `docs/rules/trente-douze.md` describes it: 2 to 8 players, six dice, three rounds
//! of 30 points each, thresholds fixed by the first die set aside, attacks with full hands, and
//! vengeance for the players killed by someone else.
//!
//! The state always waits at a decision of [`Rules::to_move`]: which dice to set aside from the
//! current roll, or the victim of an attack (round 3 and every vengeance). Rolls, losses and
//! damage dice are resolved inside `new` and `play`, from the dice stream they are handed.

mod agents;
mod damage;
mod hand;
mod moves;
mod notation;
mod policy;
mod position;
mod record;
mod rules;
#[cfg(feature = "analytics")]
mod stats;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

pub use agents::{HardWeights, normal_keep};
pub use damage::{EXPECTED_KEPT, KEPT_LAW, KEPT_LAW_LEN, expected_damage, kill_probability};
pub use hand::{DICE, Dice, Hand, Threshold};
pub use policy::{Policy, TurnState, Values, evaluate};
pub use record::{SeatRecord, TurnSums};
pub use rules::{
    ROUNDS, START_SCORE, TurnResult, attack_dice, game_winners, round_winners, turn_result,
};
#[cfg(feature = "analytics")]
pub use stats::{TrenteDouzeStats, TrenteDouzeSummary};

use crate::error::{OptionError, ParseError};
use crate::game::{
    Counters, EndReason, Ending, Hints, Level, Log, MAX_SEATS, Notation, Outcome, Players, Rules,
    SeatSet,
};
use crate::random::RandomStream;

/// The most legal moves at one decision: a first roll of six different faces has 63 non-empty
/// sub-multisets, of which 7 × 7 = 49 mix small and big faces and so come twice (the player says
/// which class the first die has). No other roll does better: a roll with counts `c_f` has
/// `A·B − 1 + (A − 1)(B − 1)` first moves with `A = Π_small (c_f + 1)`, `B = Π_big (c_f + 1)`,
/// largest at `A = B = 8`. A victim choice has at most 7 moves.
pub const MAX_MOVES: usize = 63 + 49;

/// A decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Set aside these dice (a non-empty part of the current roll). On a turn's first set-aside
    /// `threshold` names the class of the die set aside first (one of the kept dice's classes);
    /// afterwards it is `None`.
    Keep {
        dice: Hand,
        threshold: Option<Threshold>,
    },
    /// The seat the pending attack hits.
    Victim(u8),
}

const _: () = assert!(core::mem::size_of::<Move>() <= 8);

/// Rule options of an experiment: the rules have no variants yet, so the table must be empty.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrenteDouzeOptions {}

/// Why a game ended (the only way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Reason {
    ThreeRounds,
}

impl EndReason for Reason {
    const ALL: &'static [Self] = &[Self::ThreeRounds];

    fn name(self) -> &'static str {
        "three rounds played"
    }
}

/// Per-seat and per-round tallies a game keeps for the statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameRecord {
    pub seats: [SeatRecord; MAX_SEATS],
    /// Turns taken in each round, vengeances included.
    pub turns_per_round: [u16; ROUNDS],
}

/// A Trente-douze game at a decision (or over).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrenteDouze {
    seats: u8,
    /// The round being played, `0..ROUNDS` (the last one once the game is over).
    round: u8,
    scores: [i16; MAX_SEATS],
    /// The final scores of the rounds already played.
    round_scores: [[i16; MAX_SEATS]; ROUNDS],
    round_winners: [SeatSet; ROUNDS],
    first_players: [u8; ROUNDS],
    /// The first player to die this round: the next round's first player.
    first_dead: Option<u8>,
    /// The seat whose ordinary turn it is: the dice pass on from it once any vengeance is over.
    turn: u8,
    /// The seat deciding now: `turn`, or an avenger (a dead player: only vengeance lets the dead
    /// act, so `scores[mover] < 0` is what marks a vengeance).
    mover: u8,
    /// `Some(level)` while the mover must choose the victim of an attack at that level.
    pending: Option<u8>,
    /// The dice set aside this turn, their threshold once the first is set aside, and the roll
    /// the mover is choosing from.
    kept: Hand,
    threshold: Option<Threshold>,
    roll: Hand,
    counters: Counters,
    record: GameRecord,
    outcome: Option<Outcome<Reason>>,
}

impl TrenteDouze {
    /// A new game whose round 1 is started by `first`, advanced to its first decision (with any
    /// dice source; [`Rules::new`] draws `first` from the dice stream).
    pub fn with_first_player(
        seats: usize,
        first: usize,
        dice: &mut impl Dice,
        log: &mut impl Log,
    ) -> Self {
        assert!(
            (2..=MAX_SEATS).contains(&seats) && first < seats,
            "bad seat count or first player"
        );
        let mut game = Self::blank(seats);
        game.start_round(first, dice, log);
        game
    }

    /// Round 1 before anyone has thrown: everyone at 30, seat 0 nominally to move.
    fn blank(seats: usize) -> Self {
        Self {
            seats: seats as u8,
            round: 0,
            scores: [START_SCORE; MAX_SEATS],
            round_scores: [[0; MAX_SEATS]; ROUNDS],
            round_winners: [SeatSet::default(); ROUNDS],
            first_players: [0; ROUNDS],
            first_dead: None,
            turn: 0,
            mover: 0,
            pending: None,
            kept: Hand::EMPTY,
            threshold: None,
            roll: Hand::EMPTY,
            counters: Counters::default(),
            record: GameRecord::default(),
            outcome: None,
        }
    }

    #[must_use]
    pub fn seats(&self) -> usize {
        usize::from(self.seats)
    }

    /// The round being played, 0-based.
    #[must_use]
    pub fn round(&self) -> usize {
        usize::from(self.round)
    }

    #[must_use]
    pub fn score(&self, seat: usize) -> i16 {
        self.scores[seat]
    }

    #[must_use]
    pub fn is_alive(&self, seat: usize) -> bool {
        self.scores[seat] >= 0
    }

    /// Whether the mover is taking a vengeance.
    #[must_use]
    pub fn in_vengeance(&self) -> bool {
        !self.is_alive(self.mover())
    }

    #[must_use]
    pub fn mover(&self) -> usize {
        usize::from(self.mover)
    }

    /// The dice set aside so far this turn.
    #[must_use]
    pub fn kept(&self) -> Hand {
        self.kept
    }

    /// The roll the mover chooses from (empty while a victim is being chosen).
    #[must_use]
    pub fn roll(&self) -> Hand {
        self.roll
    }

    #[must_use]
    pub fn threshold(&self) -> Option<Threshold> {
        self.threshold
    }

    /// The level of the attack whose victim the mover must choose, if that is the decision.
    #[must_use]
    pub fn pending_attack(&self) -> Option<u8> {
        self.pending
    }

    /// Rounds `seat` has won so far (ties credit every tied player).
    #[must_use]
    pub fn round_wins(&self, seat: usize) -> usize {
        self.round_winners[..self.round()]
            .iter()
            .filter(|w| w.contains(seat))
            .count()
    }

    /// The final scores of round `round` (meaningful once it is over).
    #[must_use]
    pub fn round_scores(&self, round: usize) -> [i16; MAX_SEATS] {
        self.round_scores[round]
    }

    #[must_use]
    pub fn round_winner_set(&self, round: usize) -> SeatSet {
        self.round_winners[round]
    }

    /// The first player of each round.
    #[must_use]
    pub fn first_players(&self) -> [u8; ROUNDS] {
        self.first_players
    }

    #[must_use]
    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    /// The seats the pending attack may hit: anyone but the avenger in a vengeance, the other
    /// living players otherwise.
    pub fn victims(&self) -> impl Iterator<Item = usize> + '_ {
        let mover = self.mover();
        let anyone = self.in_vengeance();
        (0..self.seats()).filter(move |&s| s != mover && (anyone || self.is_alive(s)))
    }

    fn living(&self) -> usize {
        (0..self.seats()).filter(|&s| self.is_alive(s)).count()
    }

    /// The next living seat clockwise after `seat` (`step` 1), or before it (`step` n − 1).
    fn living_from(&self, seat: usize, step: usize) -> usize {
        let n = self.seats();
        (1..n)
            .map(|i| (seat + i * step) % n)
            .find(|&s| self.is_alive(s))
            .unwrap_or(seat)
    }

    fn start_round(&mut self, first: usize, dice: &mut impl Dice, log: &mut impl Log) {
        let round = self.round();
        self.scores = [START_SCORE; MAX_SEATS];
        self.first_players[round] = first as u8;
        self.first_dead = None;
        self.turn = first as u8;
        log.line(format_args!(
            "round {} ({}): seat {first} starts, everyone at {START_SCORE}",
            round + 1,
            notation::ROUND_RULE[round]
        ));
        self.start_turn(first, dice, log);
    }

    /// `seat` starts a turn (an ordinary one, or a vengeance if it is dead) with a throw of six.
    fn start_turn(&mut self, seat: usize, dice: &mut impl Dice, log: &mut impl Log) {
        self.mover = seat as u8;
        self.kept = Hand::EMPTY;
        self.threshold = None;
        self.pending = None;
        let record = &mut self.record.seats[seat];
        record.turns += 1;
        if self.scores[seat] < 0 {
            record.vengeances += 1;
            log.line(format_args!("seat {seat} takes vengeance"));
        }
        self.record.turns_per_round[self.round()] += 1;
        self.throw(dice, log);
    }

    fn throw(&mut self, dice: &mut impl Dice, log: &mut impl Log) {
        self.roll = Hand::roll(DICE as u8 - self.kept.len(), dice);
        self.counters.rolls += 1;
        log.line(format_args!("seat {} rolls {}", self.mover, self.roll));
    }

    /// Removes `points` from `seat`; returns whether that killed a living player.
    fn hit(&mut self, seat: usize, points: u32) -> bool {
        let was_alive = self.is_alive(seat);
        let points = i16::try_from(points).unwrap_or(i16::MAX);
        self.scores[seat] = self.scores[seat].saturating_sub(points);
        let killed = was_alive && !self.is_alive(seat);
        if killed {
            self.record.seats[seat].deaths += 1;
            self.first_dead.get_or_insert(seat as u8);
        }
        killed
    }

    fn set_aside(
        &mut self,
        part: Hand,
        threshold: Option<Threshold>,
        dice: &mut impl Dice,
        log: &mut impl Log,
    ) {
        let seat = self.mover;
        self.roll = self.roll.minus(part);
        self.kept = self.kept.plus(part);
        if let Some(t) = threshold.filter(|_| self.threshold.is_none()) {
            self.threshold = Some(t);
            log.line(format_args!(
                "seat {seat} sets aside {part}, first die {}: {}",
                t.name(),
                notation::threshold_rule(t)
            ));
        } else {
            log.line(format_args!(
                "seat {seat} sets aside {part} (kept {})",
                self.kept
            ));
        }
        if usize::from(self.kept.len()) == DICE {
            self.finish_turn(dice, log);
        } else {
            self.throw(dice, log);
        }
    }

    /// All six dice are set aside: the threshold is met, missed or beaten.
    fn finish_turn(&mut self, dice: &mut impl Dice, log: &mut impl Log) {
        let seat = self.mover();
        let sum = self.kept.sum();
        let threshold = self.threshold.unwrap_or(Threshold::Small);
        let result = turn_result(threshold, sum);
        let record = &mut self.record.seats[seat];
        match result {
            TurnResult::Loss(points) => {
                record.misses += 1;
                record.close_turn(u32::from(points), 0);
                self.hit(seat, u32::from(points));
                log.line(format_args!(
                    "seat {seat}: sum {sum}, {} missed: loses {points} (score {}){}",
                    threshold.name(),
                    self.scores[seat],
                    if self.is_alive(seat) { "" } else { ", dead" }
                ));
                self.end_turn(dice, log);
            }
            TurnResult::Exact => {
                record.exacts += 1;
                record.close_turn(0, 0);
                log.line(format_args!(
                    "seat {seat}: sum {sum}, {} met exactly: nothing happens",
                    threshold.name()
                ));
                self.end_turn(dice, log);
            }
            TurnResult::Attack(level) => {
                record.attacks += 1;
                log.line(format_args!(
                    "seat {seat}: sum {sum}, {} beaten by {level}: attack at level {level}",
                    threshold.name()
                ));
                if self.in_vengeance() || self.round() == 2 {
                    self.pending = Some(level);
                    self.roll = Hand::EMPTY;
                } else {
                    // Round 1 hits the next living player, round 2 the previous one.
                    let step = if self.round() == 0 {
                        1
                    } else {
                        self.seats() - 1
                    };
                    let victim = self.living_from(seat, step);
                    self.attack(victim, level, dice, log);
                }
            }
        }
    }

    fn attack(&mut self, victim: usize, level: u8, dice: &mut impl Dice, log: &mut impl Log) {
        let seat = self.mover();
        self.pending = None;
        let mut throws = 0;
        let kept = attack_dice(level, dice, |throw, hits| {
            throws += 1;
            log.line(format_args!(
                "  damage throw {throw}: {hits} × {level} kept"
            ));
        });
        self.counters.rolls += throws;
        let damage = u32::from(level) * kept;
        self.counters.captures[seat] += damage;
        self.record.seats[seat].close_turn(0, damage);
        let killed = self.hit(victim, damage);
        log.line(format_args!(
            "seat {seat} hits seat {victim} for {damage} (score {}){}",
            self.scores[victim],
            if killed { ", killed" } else { "" }
        ));
        if killed {
            self.start_turn(victim, dice, log);
        } else {
            self.end_turn(dice, log);
        }
    }

    /// A turn and any vengeance it set off are over: the round ends, or the dice pass on.
    fn end_turn(&mut self, dice: &mut impl Dice, log: &mut impl Log) {
        if self.living() <= 1 {
            self.end_round(dice, log);
        } else {
            let next = self.living_from(usize::from(self.turn), 1);
            self.turn = next as u8;
            self.start_turn(next, dice, log);
        }
    }

    fn end_round(&mut self, dice: &mut impl Dice, log: &mut impl Log) {
        let round = self.round();
        let seats = self.seats();
        self.round_scores[round] = self.scores;
        let winners = round_winners(&self.scores, seats);
        self.round_winners[round] = winners;
        log.line(format_args!(
            "round {} over: scores {}; won by {}",
            round + 1,
            notation::list(self.scores[..seats].iter()),
            notation::seat_list(winners)
        ));
        self.roll = Hand::EMPTY;
        self.kept = Hand::EMPTY;
        self.threshold = None;
        if round + 1 == ROUNDS {
            let winners = game_winners(&self.round_scores, &self.round_winners, seats);
            log.line(format_args!(
                "game over: {} {}",
                notation::seat_list(winners),
                if winners.len() == 1 {
                    "wins"
                } else {
                    "share a draw"
                }
            ));
            self.outcome = Some(Outcome {
                winners,
                no_result: false,
                reason: Ending::Rules(Reason::ThreeRounds),
            });
            return;
        }
        // At most one player is alive and there are at least two: someone died.
        debug_assert!(self.first_dead.is_some());
        let first = usize::from(self.first_dead.unwrap_or(self.turn));
        self.round += 1;
        self.start_round(first, dice, log);
    }

    /// [`Rules::play`] with any dice source (tests script the dice).
    pub fn play_with(&mut self, mv: Move, dice: &mut impl Dice, log: &mut impl Log) {
        debug_assert!(self.is_legal(mv), "illegal Trente-douze move {mv:?}");
        self.counters.moves += 1;
        match (mv, self.pending) {
            (
                Move::Keep {
                    dice: part,
                    threshold,
                },
                None,
            ) => {
                self.set_aside(part, threshold, dice, log);
            }
            (Move::Victim(victim), Some(level)) => {
                self.attack(usize::from(victim), level, dice, log);
            }
            _ => {}
        }
    }

    /// Whether `mv` is one of the legal moves (without building the list).
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        match (mv, self.pending) {
            (Move::Keep { dice, threshold }, None) => {
                !dice.is_empty()
                    && dice.is_within(self.roll)
                    && match (self.threshold, threshold) {
                        (None, Some(t)) => dice.has_class(t),
                        (Some(_), None) => true,
                        _ => false,
                    }
            }
            (Move::Victim(v), Some(_)) => self.victims().any(|s| s == usize::from(v)),
            _ => false,
        }
    }
}

impl Rules for TrenteDouze {
    type Move = Move;
    type MoveList = ArrayVec<Move, MAX_MOVES>;
    type Options = TrenteDouzeOptions;
    type Reason = Reason;

    const NAME: &'static str = "trente-douze";
    const SEATS: (usize, usize) = (2, MAX_SEATS);

    fn check_options(_: &TrenteDouzeOptions) -> Result<(), OptionError> {
        // The options table has no fields; serde already rejects any key in it.
        Ok(())
    }

    fn new(
        _: &TrenteDouzeOptions,
        seats: usize,
        dice: &mut RandomStream,
        log: &mut impl Log,
    ) -> Self {
        let first = dice.below(seats as u32) as usize;
        Self::with_first_player(seats, first, dice, log)
    }

    fn seats(&self) -> usize {
        usize::from(self.seats)
    }

    fn to_move(&self) -> usize {
        self.mover()
    }

    fn legal_moves(&self, out: &mut Self::MoveList) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        if self.pending.is_some() {
            for seat in self.victims() {
                out.push(Move::Victim(seat as u8));
            }
        } else {
            // The threshold is unset exactly while the roll has six dice (nothing is set aside
            // yet), which is what the precomputed lists go by. They hold at most MAX_MOVES
            // moves: this cannot fail.
            let _ = out.try_extend_from_slice(moves::keeps(self.roll));
        }
    }

    fn play(&mut self, mv: Move, dice: &mut RandomStream, log: &mut impl Log) {
        self.play_with(mv, dice, log);
    }

    fn outcome(&self) -> Option<Outcome<Reason>> {
        self.outcome
    }

    fn end(&mut self, outcome: Outcome<Reason>) {
        self.outcome = Some(outcome);
    }

    fn counters(&self) -> Counters {
        self.counters
    }

    const HAS_DICE: bool = true;
}

impl Notation for TrenteDouze {
    fn format_move(&self, mv: Move) -> String {
        notation::format_move(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        notation::parse_move(self, text).map_err(|e| e.reading("trente-douze move", text))
    }

    fn render(&self) -> String {
        notation::render(self)
    }

    fn from_position(text: &str, _: &TrenteDouzeOptions) -> Result<Self, ParseError> {
        position::read(text).map_err(|e| e.reading("trente-douze position", text))
    }

    fn position(&self) -> Option<String> {
        Some(notation::position(self))
    }

    /// Rewrites the position's `roll=` and reads it back, so that every check of a position
    /// applies to the new roll too.
    fn set_roll(&mut self, text: &str) -> Result<(), String> {
        if self.outcome.is_some() || self.roll.is_empty() {
            return Err("no roll to replace here: a victim is being chosen".into());
        }
        let digits: String = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .collect();
        if digits.len() != usize::from(self.roll.len()) {
            return Err(format!(
                "the roll here has {} dice, `{}` has {}",
                self.roll.len(),
                text.trim(),
                digits.len()
            ));
        }
        let position: Vec<String> = notation::position(self)
            .split_whitespace()
            .map(|w| match w.strip_prefix("roll=") {
                Some(_) => format!("roll={digits}"),
                None => w.to_owned(),
            })
            .collect();
        let mut game = position::read(&position.join(" ")).map_err(|e| e.reason())?;
        game.counters = self.counters;
        *self = game;
        Ok(())
    }
}

impl Players for TrenteDouze {
    fn levels() -> &'static [Level<Self>] {
        agents::LEVELS
    }
}

#[cfg(feature = "analytics")]
impl crate::game::Analytics for TrenteDouze {
    type Stats = TrenteDouzeStats;

    const FIRST_PLAYER: &'static str =
        "whoever starts round 1 (drawn by the dice, so any seat from game to game)";

    /// Every seat may start round 1: a seat is only a place at the table.
    fn seat_name(seat: usize) -> String {
        format!("seat {seat}")
    }

    fn first_player(&self) -> usize {
        usize::from(self.first_players[0])
    }
}

impl Hints for TrenteDouze {}

#[cfg(test)]
mod tests;
