//! Ludo as `docs/rules/ludo.md` describes it: four seats, one shared 52-square track, no blockades, no
//! extra roll for a capture, exact count to finish, the third six in a row void.

mod agents;
mod board;
mod notation;

use core::fmt;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

pub use agents::{HardWeights, risk_numerator};
pub use board::{FINISH, HOME_STRAIGHT, LAST_TRACK, SEATS, is_safe, track_square};

use crate::error::{OptionError, ParseError};
use crate::game::{
    Counters, EndReason, Hints, Level, Log, Notation, OptionDoc, Outcome, Players, Rules, SeatSet,
};
use crate::random::RandomStream;

/// A pawn in the yard has no progress yet.
pub const YARD: i8 = -1;

/// A move is the index (0..4) of the pawn that moves; the roll is part of the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move(pub u8);

const _: () = assert!(core::mem::size_of::<Move>() == 1);

/// Rule options of an experiment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LudoOptions {
    /// Rolls after which an unfinished game ends with no result (the app's 10,000).
    pub roll_cap: u32,
}

impl Default for LudoOptions {
    fn default() -> Self {
        Self { roll_cap: 10_000 }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Reason {
    /// A seat brought all four pawns home.
    Finished,
    /// The roll cap was reached: no result, reported as a timeout.
    RollCap,
}

impl EndReason for Reason {
    const ALL: &'static [Self] = &[Self::Finished, Self::RollCap];

    fn name(self) -> &'static str {
        match self {
            Self::Finished => "all pawns home",
            Self::RollCap => "roll cap",
        }
    }

    fn is_timeout(self) -> bool {
        self == Self::RollCap
    }
}

/// A Ludo position at a decision: the seat to move has rolled `roll` and has a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ludo {
    /// `progress[seat][pawn]`: [`YARD`], `0..=50` on the track, `51..=56` home straight, 57 finish.
    progress: [[i8; 4]; SEATS],
    /// Per seat, bit `p` is set when a pawn of that seat stands at track progress `p` (0..=50):
    /// what makes capture tests and Hard's risk estimate a few bit operations.
    occupancy: [u64; SEATS],
    to_move: u8,
    roll: u8,
    /// Sixes rolled so far in the current turn, the current roll included.
    sixes: u8,
    roll_cap: u32,
    counters: Counters,
    outcome: Option<Outcome<Reason>>,
}

impl Ludo {
    /// A position from pawn progresses, for tests and analysis: `to_move` has just rolled `roll`
    /// (its `sixes`-th six in a row when `roll` is 6).
    #[must_use]
    pub fn from_parts(progress: [[i8; 4]; SEATS], to_move: usize, roll: u8, sixes: u8) -> Self {
        let mut game = Self {
            progress,
            occupancy: [0; SEATS],
            to_move: to_move as u8,
            roll,
            sixes,
            roll_cap: LudoOptions::default().roll_cap,
            counters: Counters::default(),
            outcome: None,
        };
        for seat in 0..SEATS {
            game.refresh_occupancy(seat);
        }
        game
    }

    #[must_use]
    pub fn roll(&self) -> u8 {
        self.roll
    }

    #[must_use]
    pub fn progress(&self, seat: usize) -> [i8; 4] {
        self.progress[seat]
    }

    #[must_use]
    pub fn occupancy(&self, seat: usize) -> u64 {
        self.occupancy[seat]
    }

    fn refresh_occupancy(&mut self, seat: usize) {
        self.occupancy[seat] = self.progress[seat]
            .iter()
            .filter(|&&p| (0..=LAST_TRACK).contains(&p))
            .fold(0, |bits, &p| bits | 1 << p);
    }

    /// Where pawn `pawn` of the seat to move lands with the current roll, if it may move.
    #[must_use]
    pub fn destination(&self, pawn: usize) -> Option<i8> {
        let p = self.progress[usize::from(self.to_move)][pawn];
        if p == YARD {
            (self.roll == 6).then_some(0)
        } else {
            let dest = p + self.roll as i8;
            (p < FINISH && dest <= FINISH).then_some(dest)
        }
    }

    /// The opposing seats with pawns on absolute track square `square`, and how many pawns, as a
    /// landing there would capture them (ignoring safety).
    #[must_use]
    pub fn pawns_on(&self, square: u8, mover: usize) -> (SeatSet, u8) {
        let mut seats = SeatSet::default();
        let mut count = 0;
        for seat in (0..SEATS).filter(|&s| s != mover) {
            if let Some(p) = board::progress_of(square, seat)
                && self.occupancy[seat] & (1 << p) != 0
            {
                seats.insert(seat);
                count += self.progress[seat]
                    .iter()
                    .filter(|&&q| q == p as i8)
                    .count() as u8;
            }
        }
        (seats, count)
    }

    /// The move as narrated: `pawn 0 yard->0`.
    fn format_move_text(&self, mv: Move) -> String {
        MoveText(self, mv).to_string()
    }

    fn has_legal_move(&self) -> bool {
        (0..4).any(|pawn| self.destination(pawn).is_some())
    }

    fn pass_turn(&mut self) {
        self.to_move = (self.to_move + 1) % SEATS as u8;
        self.sixes = 0;
    }

    /// Rolls until the seat to move has a legal move, or the game ends at the roll cap.
    fn advance(&mut self, dice: &mut RandomStream, log: &mut impl Log) {
        loop {
            if self.counters.rolls >= self.roll_cap {
                log.line(format_args!(
                    "roll cap of {} reached: no result",
                    self.roll_cap
                ));
                self.outcome = Some(Outcome::no_result(Reason::RollCap));
                return;
            }
            let roll = dice.d6();
            self.counters.rolls += 1;
            let seat = self.to_move;
            if roll == 6 && self.sixes == 2 {
                log.line(format_args!(
                    "seat {seat} rolls 6: third six in a row, void"
                ));
                self.pass_turn();
                continue;
            }
            self.roll = roll;
            if roll == 6 {
                self.sixes += 1;
            }
            if self.has_legal_move() {
                log.line(format_args!("seat {seat} rolls {roll}"));
                return;
            }
            log.line(format_args!(
                "seat {seat} rolls {roll}: no legal move, passes"
            ));
            if roll != 6 {
                self.pass_turn();
            }
        }
    }
}

/// Where a pawn stands, for narration.
struct PawnText(i8);

impl fmt::Display for PawnText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            YARD => f.write_str("yard"),
            FINISH => f.write_str("finish"),
            p if p > LAST_TRACK => write!(f, "home {}", p - LAST_TRACK),
            p => write!(f, "{p}"),
        }
    }
}

/// A move as text, formatted only if a log actually writes it (the batch runner's `NoLog`
/// never does, so the hot path does not format).
struct MoveText<'a>(&'a Ludo, Move);

impl fmt::Display for MoveText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self(game, mv) = *self;
        let pawn = usize::from(mv.0);
        let from = game.progress[usize::from(game.to_move)][pawn];
        let to = game.destination(pawn).unwrap_or(from);
        write!(f, "pawn {pawn} {}->{}", PawnText(from), PawnText(to))
    }
}

impl Rules for Ludo {
    type Move = Move;
    type MoveList = ArrayVec<Move, 4>;
    type Options = LudoOptions;
    type Reason = Reason;

    const NAME: &'static str = "ludo";
    const SEATS: (usize, usize) = (SEATS, SEATS);

    fn check_options(options: &LudoOptions) -> Result<(), OptionError> {
        if options.roll_cap == 0 {
            return Err(OptionError {
                name: "roll_cap",
                value: options.roll_cap.to_string(),
                accepted: "at least 1 (default 10000)".into(),
            });
        }
        Ok(())
    }

    fn new(
        options: &LudoOptions,
        _seats: usize,
        dice: &mut RandomStream,
        log: &mut impl Log,
    ) -> Self {
        let mut game = Self::from_parts([[YARD; 4]; SEATS], 0, 0, 0);
        game.roll_cap = options.roll_cap;
        game.advance(dice, log);
        game
    }

    fn to_move(&self) -> usize {
        usize::from(self.to_move)
    }

    fn legal_moves(&self, out: &mut Self::MoveList) {
        out.clear();
        for pawn in 0..4 {
            if self.destination(pawn).is_some() {
                out.push(Move(pawn as u8));
            }
        }
    }

    fn play(&mut self, mv: Move, dice: &mut RandomStream, log: &mut impl Log) {
        let seat = usize::from(self.to_move);
        let pawn = usize::from(mv.0);
        let Some(dest) = self.destination(pawn) else {
            debug_assert!(false, "illegal Ludo move {mv:?}");
            return;
        };
        log.line(format_args!("seat {seat} plays {}", MoveText(self, mv)));
        self.progress[seat][pawn] = dest;
        self.counters.moves += 1;
        if dest <= LAST_TRACK {
            let square = track_square(seat, dest);
            if !is_safe(square) {
                let (victims, count) = self.pawns_on(square, seat);
                for victim in victims.iter() {
                    let p = board::progress_of(square, victim).map_or(YARD, |p| p as i8);
                    for q in &mut self.progress[victim] {
                        if *q == p {
                            *q = YARD;
                        }
                    }
                    self.refresh_occupancy(victim);
                    log.line(format_args!(
                        "  sends seat {victim}'s pawns on square {square} home"
                    ));
                }
                self.counters.captures[seat] += u32::from(count);
            }
        }
        self.refresh_occupancy(seat);
        if self.progress[seat].iter().all(|&p| p == FINISH) {
            log.line(format_args!("seat {seat} has all four pawns home and wins"));
            self.outcome = Some(Outcome::win(seat, Reason::Finished));
            return;
        }
        if self.roll != 6 {
            self.pass_turn();
        }
        self.advance(dice, log);
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

impl Notation for Ludo {
    fn format_move(&self, mv: Move) -> String {
        self.format_move_text(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        notation::parse_move(self, text).map_err(|e| e.reading("ludo move", text))
    }

    fn from_position(text: &str, options: &LudoOptions) -> Result<Self, ParseError> {
        let mut game =
            notation::from_position(text).map_err(|e| e.reading("ludo position", text))?;
        game.roll_cap = options.roll_cap;
        Ok(game)
    }

    fn position(&self) -> Option<String> {
        (self.outcome.is_none()).then(|| notation::position(self))
    }

    fn set_roll(&mut self, text: &str) -> Result<(), String> {
        notation::set_roll(self, text).map_err(|e| e.to_string())
    }

    fn render(&self) -> String {
        (0..SEATS)
            .map(|seat| {
                let pawns: Vec<String> = self.progress[seat]
                    .iter()
                    .map(|&p| PawnText(p).to_string())
                    .collect();
                format!("seat {seat}: {}\n", pawns.join(", "))
            })
            .collect()
    }
}

impl Players for Ludo {
    fn levels() -> &'static [Level<Self>] {
        agents::LEVELS
    }
}

#[cfg(feature = "analytics")]
impl crate::game::Analytics for Ludo {
    type Stats = crate::game::NoGameStats;
}

impl Hints for Ludo {
    const OPTIONS: &'static [OptionDoc] = &[OptionDoc {
        name: "roll_cap",
        accepted: "1 or more rolls",
        doc: "rolls after which an unfinished game ends with no result (the app's 10,000)",
    }];
}

#[cfg(test)]
mod tests;
