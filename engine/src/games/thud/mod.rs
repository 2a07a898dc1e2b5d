//! Thud, classic (Trevor Truran, 2002), as `docs/rules/thud.md` describes it: 32 dwarfs against 8
//! trolls on a 165-square octagon round the Thud stone.
//!
//! A [`Thud`] value is one *round*: seat 0 plays the dwarfs (who move first), seat 1 the trolls.
//! The runner plays each seed as two rounds with the sides swapped, and a match is won on the
//! points the two rounds give each player ([`Rules::points`]).

mod agents;
mod board;
mod eval;
mod features;
mod legality;
mod moves;
mod node;
mod notation;
#[cfg(feature = "analytics")]
mod stats;

use serde::{Deserialize, Serialize};

pub use agents::{BeginnerWeights, EASY_WEIGHTS, SEARCH_SETS};
pub use board::{
    Board, DIRS, FILES, Piece, RANK_WIDTHS, SQUARE_COUNT, START_DWARFS, START_TROLLS, Side, Square,
    SquareSet,
};
pub use eval::{EvalWeights, Evaluation};
pub use moves::{
    MAX_MOVES, MAX_TAKE_ALL_MOVES, Move, MoveList, TakeAllMoveList, TrollCapture, count, generate,
    has_legal_move, perft,
};
pub use node::{HORIZON, Node, POINT, Zones};
pub use notation::{
    MAX_DWARFS, MAX_TROLLS, MoveText, format_move, format_position, parse_move_text,
    parse_position, parse_square, render,
};
#[cfg(feature = "analytics")]
pub use stats::{AgentSummary, MatchRecord, ReasonCount, ThudStats, ThudSummary};

use crate::error::{OptionError, ParseError};
use crate::game::{
    Counters, EndReason, Hints, Level, Log, MAX_SEATS, Notation, OptionDoc, Outcome, Players, Rules,
};
use crate::random::RandomStream;

/// Rule options of an experiment (`[options]` of its config).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ThudOptions {
    /// The round ends when no capture has happened in the last this many plies: the batch
    /// stand-in for the players agreeing that no useful capture is left. Default 40.
    pub no_capture_plies: i64,
    /// The round ends after this many plies, counted apart as a timeout. Default 500.
    pub ply_cap: i64,
    /// Which dwarfs a troll takes: `"choose"` any subset (the app's rule, the default) or
    /// `"all"` (the classic article's).
    pub troll_capture: TrollCapture,
}

impl Default for ThudOptions {
    fn default() -> Self {
        Self {
            no_capture_plies: 40,
            ply_cap: 500,
            troll_capture: TrollCapture::Choose,
        }
    }
}

/// The largest cap accepted, far beyond any real round.
const MAX_CAP: i64 = 1_000_000;

/// Why a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Reason {
    /// No capture in the last `no_capture_plies` plies.
    NoCapture,
    /// The ply cap, the safety cap: reported as a timeout.
    PlyCap,
    DwarfsGone,
    TrollsGone,
    /// The side to move has no legal move.
    NoMove,
}

impl EndReason for Reason {
    const ALL: &'static [Self] = &[
        Self::NoCapture,
        Self::PlyCap,
        Self::DwarfsGone,
        Self::TrollsGone,
        Self::NoMove,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::NoCapture => "no capture window",
            Self::PlyCap => "ply cap",
            Self::DwarfsGone => "dwarfs eliminated",
            Self::TrollsGone => "trolls eliminated",
            Self::NoMove => "no legal move",
        }
    }

    /// The ply cap is the safety cap; every other end is the rules'.
    fn is_timeout(self) -> bool {
        self == Self::PlyCap
    }
}

/// Points per surviving piece.
pub const DWARF_POINTS: i32 = 1;
pub const TROLL_POINTS: i32 = 4;

/// One round of Thud.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thud {
    board: Board,
    rule: TrollCapture,
    no_capture_plies: u32,
    ply_cap: u32,
    /// Plies since the last capture (or since the round began).
    quiet: u32,
    counters: Counters,
    outcome: Option<Outcome<Reason>>,
}

impl Thud {
    /// A round from `board` under `options` (checked), with its counters at zero.
    #[must_use]
    pub fn from_board(board: Board, options: &ThudOptions) -> Self {
        let cap = |v: i64| v.clamp(1, MAX_CAP) as u32;
        let mut game = Self {
            board,
            rule: options.troll_capture,
            no_capture_plies: cap(options.no_capture_plies),
            ply_cap: cap(options.ply_cap),
            quiet: 0,
            counters: Counters::default(),
            outcome: None,
        };
        game.settle();
        game
    }

    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    #[must_use]
    pub const fn rule(&self) -> TrollCapture {
        self.rule
    }

    /// Plies since the last capture.
    #[must_use]
    pub const fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// Plies left before the no-capture window closes the round.
    #[must_use]
    pub const fn window_left(&self) -> u32 {
        self.no_capture_plies.saturating_sub(self.quiet)
    }

    /// Plies left before the ply cap.
    #[must_use]
    pub const fn plies_left(&self) -> u32 {
        self.ply_cap.saturating_sub(self.counters.moves)
    }

    /// The dwarf side's and the troll side's points as the board stands.
    #[must_use]
    pub fn side_points(&self) -> [i32; 2] {
        [
            DWARF_POINTS * self.board.dwarf_count() as i32,
            TROLL_POINTS * self.board.troll_count() as i32,
        ]
    }

    /// Ends the round if the position calls for it.
    fn settle(&mut self) {
        let reason = if self.board.dwarf_count() == 0 {
            Reason::DwarfsGone
        } else if self.board.troll_count() == 0 {
            Reason::TrollsGone
        } else if !has_legal_move(&self.board) {
            Reason::NoMove
        } else if self.quiet >= self.no_capture_plies {
            Reason::NoCapture
        } else if self.counters.moves >= self.ply_cap {
            Reason::PlyCap
        } else {
            return;
        };
        let [dwarfs, trolls] = self.side_points();
        self.outcome = Some(match dwarfs.cmp(&trolls) {
            core::cmp::Ordering::Greater => Outcome::win(Side::Dwarfs.seat(), reason),
            core::cmp::Ordering::Less => Outcome::win(Side::Trolls.seat(), reason),
            core::cmp::Ordering::Equal => Outcome::draw(reason),
        });
    }
}

impl Rules for Thud {
    type Move = Move;
    type MoveList = MoveList;
    type Options = ThudOptions;
    type Reason = Reason;

    const NAME: &'static str = "thud";
    const SEATS: (usize, usize) = (2, 2);

    fn check_options(options: &ThudOptions) -> Result<(), OptionError> {
        for (name, value, default) in [
            ("no_capture_plies", options.no_capture_plies, 40),
            ("ply_cap", options.ply_cap, 500),
        ] {
            if !(1..=MAX_CAP).contains(&value) {
                return Err(OptionError {
                    name,
                    value: value.to_string(),
                    accepted: format!(
                        "a whole number of plies from 1 to {MAX_CAP} (default {default})"
                    ),
                });
            }
        }
        Ok(())
    }

    fn new(options: &ThudOptions, _: usize, _: &mut RandomStream, _: &mut impl Log) -> Self {
        Self::from_board(Board::start(), options)
    }

    fn to_move(&self) -> usize {
        self.board.side().seat()
    }

    fn legal_moves(&self, out: &mut MoveList) {
        generate(&self.board, self.rule, out);
    }

    fn play(&mut self, mv: Move, _: &mut RandomStream, log: &mut impl Log) {
        let side = self.board.side();
        log.line(format_args!(
            "{:>3}. {} {}",
            self.counters.moves + 1,
            side.name(),
            self.format_move(mv)
        ));
        let captured = self.board.play(mv);
        self.counters.moves += 1;
        self.counters.captures[side.seat()] += captured;
        self.quiet = if captured > 0 { 0 } else { self.quiet + 1 };
        self.settle();
        if let Some(outcome) = self.outcome {
            let [dwarfs, trolls] = self.side_points();
            log.line(format_args!(
                "round over ({}): dwarfs {dwarfs}, trolls {trolls}",
                outcome.reason.name()
            ));
        }
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

    /// Seat 0 scores its surviving dwarfs, seat 1 four per surviving troll.
    fn points(&self) -> Option<[i32; MAX_SEATS]> {
        let mut points = [0; MAX_SEATS];
        points[..2].copy_from_slice(&self.side_points());
        Some(points)
    }

    /// The fast generator's perft (the last ply counted in bulk) under this round's capture
    /// rule; an ended round has no moves.
    fn perft(&self, depth: u32) -> u64 {
        if self.outcome.is_some() {
            return u64::from(depth == 0);
        }
        perft(&self.board, self.rule, depth)
    }
}

impl Notation for Thud {
    fn format_move(&self, mv: Move) -> String {
        format_move(mv)
    }

    fn render(&self) -> String {
        render(&self.board)
    }

    fn from_position(text: &str, options: &ThudOptions) -> Result<Self, ParseError> {
        Self::check_options(options).map_err(|e| ParseError::new(e.to_string()))?;
        let board = parse_position(text).map_err(|e| e.reading("thud position", text))?;
        Ok(Self::from_board(board, options))
    }

    fn position(&self) -> Option<String> {
        Some(format_position(&self.board))
    }

    /// Reads a move; the error says what is malformed or which rule the move breaks (the
    /// caller names the move).
    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        self.read_move(text)
            .map_err(|e| e.reading("thud move", text))
    }
}

impl Players for Thud {
    fn levels() -> &'static [Level<Self>] {
        &agents::LEVELS
    }
}

#[cfg(feature = "analytics")]
impl crate::game::Analytics for Thud {
    type Stats = ThudStats;

    const FIRST_PLAYER: &'static str = "the dwarfs, who move first";

    fn seat_name(seat: usize) -> String {
        ["dwarfs", "trolls"]
            .get(seat)
            .map_or_else(|| format!("seat {seat}"), |s| (*s).to_owned())
    }
}

impl Hints for Thud {
    const OPTIONS: &'static [OptionDoc] = &[
        OptionDoc {
            name: "no_capture_plies",
            accepted: "1 to 1000000 plies",
            doc: "the round ends when no capture happened in the last this many plies",
        },
        OptionDoc {
            name: "ply_cap",
            accepted: "1 to 1000000 plies",
            doc: "the round ends after this many plies, counted as a timeout",
        },
        OptionDoc {
            name: "troll_capture",
            accepted: "\"choose\" or \"all\"",
            doc: "which dwarfs a troll takes: any subset it chooses (the app), or all (the article)",
        },
    ];

    /// A match is the two rounds of a seed, sides swapped.
    const GAMES_COUNT_GROUPS: bool = true;

    /// perft(4) from the start: 589,900,928 leaves, the speed target.
    const BENCH_PERFT_DEPTH: u32 = 4;
}

impl Thud {
    /// [`Notation::parse_move`] before the input is named: why `text` is no legal move.
    fn read_move(&self, text: &str) -> Result<Move, ParseError> {
        if self.outcome.is_some() {
            return Err("the round is over: no move is legal".into());
        }
        let written = parse_move_text(text)?;
        let mut captures = 0u8;
        for &sq in &written.captures {
            if let Some(i) = (0..8).find(|&i| written.to.neighbour(i) == Some(sq)) {
                captures |= 1 << i;
            }
        }
        let mv = Move {
            from: written.from,
            to: written.to,
            captures,
        };
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        let adjacent = written.captures.len() == captures.count_ones() as usize;
        if adjacent && moves.contains(&mv) {
            Ok(mv)
        } else {
            Err(legality::why_illegal(&self.board, self.rule, &written).into())
        }
    }
}

#[cfg(test)]
mod tests;
