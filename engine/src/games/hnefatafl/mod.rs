//! Copenhagen Hnefatafl 11×11 as `docs/rules/hnefatafl.md` describes it: rook moves, restricted
//! squares, custodial captures with hostile squares and an armed king, the shield wall, the king
//! captured on four sides (three and the throne beside it, never on the edge), corner escape,
//! the exit fort, encirclement, a side without a legal move loses, no repetition rule, and a
//! batch ply cap that ends a game as a draw counted as a timeout.
//!
//! Seat 0 is the attackers, who move first; seat 1 the defenders.

mod agents;
mod board;
mod eval;
mod features;
mod moves;
mod node;
mod notation;
mod position;
mod rules;
#[cfg(feature = "analytics")]
mod stats;

use serde::{Deserialize, Serialize};

pub use board::{Bits, Board, Piece, Side, Square};
pub use eval::{EvalWeights, Evaluation, TERMS, features};
pub use moves::{MAX_MOVES, Move, MoveList};
pub use notation::{START, square_name};
pub use rules::Capture;
#[cfg(feature = "analytics")]
pub use stats::{HnefataflStats, HnefataflSummary};

use crate::error::{OptionError, ParseError};
use crate::game::{
    Counters, EndReason, Hints, Level, Log, Notation, OptionDoc, Outcome, Players, Rules,
};
use crate::random::RandomStream;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Reason {
    /// The king reached a corner.
    Corner,
    /// The king stands in an exit fort.
    Fort,
    /// The attackers surrounded the king.
    KingCaptured,
    /// The attackers cut every defender off from the edge.
    Encirclement,
    /// The side to move had no legal move and lost.
    NoMove,
    /// The batch ply cap was reached: a draw, reported as a timeout.
    Cap,
}

impl EndReason for Reason {
    const ALL: &'static [Self] = &[
        Self::Corner,
        Self::Fort,
        Self::KingCaptured,
        Self::Encirclement,
        Self::NoMove,
        Self::Cap,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::Corner => "corner",
            Self::Fort => "fort",
            Self::KingCaptured => "king captured",
            Self::Encirclement => "encirclement",
            Self::NoMove => "no move",
            Self::Cap => "cap",
        }
    }

    fn is_timeout(self) -> bool {
        self == Self::Cap
    }
}

/// Rule options of an experiment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HnefataflOptions {
    /// Plies after which an unfinished game is a draw, counted as a timeout (default 1000). The
    /// rules have no repetition draw, so only this cap ends a game in which the defenders hold
    /// a perpetual shuffle; decisive games between the computer levels rarely pass 500 plies.
    pub ply_cap: u32,
}

impl Default for HnefataflOptions {
    fn default() -> Self {
        Self { ply_cap: 1000 }
    }
}

/// A position with the side to move, the counters and the result once the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hnefatafl {
    board: Board,
    to_move: Side,
    plies: u32,
    ply_cap: u32,
    /// Pieces each side has captured, the king included.
    captured: [u32; 2],
    outcome: Option<Outcome<Reason>>,
}

impl Hnefatafl {
    /// A position from a placement, `to_move` to play, no plies played yet. The end conditions
    /// that a placement alone decides (king on a corner, exit fort, encirclement, no legal move)
    /// are settled at once, as if the position had just arisen from a move.
    ///
    /// The placement must hold at most 24 attackers and 12 defenders, no soldier on a restricted
    /// square ([`MAX_MOVES`] relies on it); [`Notation::from_position`] checks this for text.
    #[must_use]
    pub fn from_board(board: Board, to_move: Side, options: &HnefataflOptions) -> Self {
        debug_assert!(
            board.attackers.count_ones() <= 24
                && board.defenders.count_ones() <= 12
                && (board.attackers | board.defenders) & board::RESTRICTED == 0,
            "an impossible placement"
        );
        let mut game = Self {
            board,
            to_move,
            plies: 0,
            ply_cap: options.ply_cap,
            captured: [0; 2],
            outcome: None,
        };
        game.outcome = if board::CORNERS & board.king_bit() != 0 {
            Some(Outcome::win(Side::Defenders.seat(), Reason::Corner))
        } else if rules::exit_fort(&board) {
            Some(Outcome::win(Side::Defenders.seat(), Reason::Fort))
        } else if rules::encircled(&board) {
            Some(Outcome::win(Side::Attackers.seat(), Reason::Encirclement))
        } else {
            None
        };
        game.finish();
        game
    }

    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    #[must_use]
    pub const fn side_to_move(&self) -> Side {
        self.to_move
    }

    #[must_use]
    pub const fn plies(&self) -> u32 {
        self.plies
    }

    /// The Zobrist hash of the placement and the side to move, kept incrementally.
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.board.hash ^ board::side_key(self.to_move)
    }

    /// The hash computed from scratch (tests compare it with [`Hnefatafl::hash`]).
    #[must_use]
    pub fn full_hash(&self) -> u64 {
        self.board.full_hash() ^ board::side_key(self.to_move)
    }

    /// Plays a legal move and settles every end condition; returns what it captured.
    pub fn apply(&mut self, mv: Move) -> Capture {
        let capture = self.make(mv);
        self.finish();
        capture
    }

    /// What `mv` would capture, for checking a written capture list.
    #[must_use]
    pub fn apply_preview(&self, mv: Move) -> Capture {
        let mut copy = *self;
        copy.make(mv)
    }

    /// The move, its captures and the wins they decide, without the two checks perft gets for
    /// free (no legal move: the bulk count is then zero) or does itself (the cap).
    fn make(&mut self, mv: Move) -> Capture {
        let side = self.to_move;
        let piece = if mv.from == self.board.king {
            Piece::King
        } else if side == Side::Attackers {
            Piece::Attacker
        } else {
            Piece::Defender
        };
        self.board.remove(piece, mv.from);
        self.board.put(piece, mv.to);
        let capture = rules::captures(&self.board, side, mv.to);
        let victim = match side {
            Side::Attackers => Piece::Defender,
            Side::Defenders => Piece::Attacker,
        };
        for square in board::squares(capture.soldiers) {
            self.board.remove(victim, square);
        }
        self.captured[side.seat()] += capture.soldiers.count_ones() + u32::from(capture.king);
        self.plies += 1;
        self.to_move = side.other();
        self.outcome = match side {
            Side::Defenders if board::CORNERS & self.board.king_bit() != 0 => {
                Some(Outcome::win(side.seat(), Reason::Corner))
            }
            Side::Defenders if rules::exit_fort(&self.board) => {
                Some(Outcome::win(side.seat(), Reason::Fort))
            }
            Side::Attackers if capture.king => {
                Some(Outcome::win(side.seat(), Reason::KingCaptured))
            }
            Side::Attackers if rules::encircled(&self.board) => {
                Some(Outcome::win(side.seat(), Reason::Encirclement))
            }
            // A defenders' move never creates an encirclement (the piece that moved stays
            // connected to the edge through the square it left), and an attackers' move never
            // creates a fort (an attacker ends next to any square it opened), so each side's
            // move is checked for its own wins only.
            _ => None,
        };
        capture
    }

    /// The side to move loses without a legal move; otherwise the cap may end the game.
    fn finish(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        if !moves::has_any(&self.board, self.to_move) {
            self.outcome = Some(Outcome::win(self.to_move.other().seat(), Reason::NoMove));
        } else if self.plies >= self.ply_cap {
            self.outcome = Some(Outcome::draw(Reason::Cap));
        }
    }

    /// Leaves below this non-terminal position at `depth >= 1`, counting the last ply in bulk.
    fn perft_from(&self, depth: u32) -> u64 {
        if depth == 1 {
            return moves::count(&self.board, self.to_move);
        }
        let mut list = MoveList::new();
        moves::generate(&self.board, self.to_move, &mut list);
        list.iter()
            .map(|&mv| {
                let mut child = *self;
                child.make(mv);
                if child.outcome.is_some() || child.plies >= child.ply_cap {
                    0
                } else {
                    child.perft_from(depth - 1)
                }
            })
            .sum()
    }
}

impl Rules for Hnefatafl {
    type Move = Move;
    type MoveList = MoveList;
    type Options = HnefataflOptions;
    type Reason = Reason;

    const NAME: &'static str = "hnefatafl";
    const SEATS: (usize, usize) = (2, 2);

    fn check_options(options: &HnefataflOptions) -> Result<(), OptionError> {
        if options.ply_cap == 0 {
            return Err(OptionError {
                name: "ply_cap",
                value: options.ply_cap.to_string(),
                accepted: "at least 1 (default 1000)".into(),
            });
        }
        Ok(())
    }

    fn new(
        options: &HnefataflOptions,
        _seats: usize,
        _dice: &mut RandomStream,
        _log: &mut impl Log,
    ) -> Self {
        Self::from_position(START, options).expect("the start position is well formed")
    }

    fn to_move(&self) -> usize {
        self.to_move.seat()
    }

    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.outcome.is_none() {
            moves::generate(&self.board, self.to_move, out);
        }
    }

    fn play(&mut self, mv: Move, _dice: &mut RandomStream, log: &mut impl Log) {
        let side = self.to_move;
        let capture = self.apply(mv);
        log.line(format_args!(
            "{} {}",
            side.name(),
            notation::MoveText(mv, capture)
        ));
        if let Some(outcome) = self.outcome {
            log.line(format_args!(
                "game over after {} plies: {}",
                self.plies,
                notation::describe_outcome(&outcome)
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
        let mut captures = [0; crate::game::MAX_SEATS];
        captures[..2].copy_from_slice(&self.captured);
        Counters {
            moves: self.plies,
            rolls: 0,
            captures,
        }
    }

    /// The fast generator: copy-make below the last ply, and at the last ply the moves are
    /// counted in bulk (a population count per piece) rather than played.
    fn perft(&self, depth: u32) -> u64 {
        match (depth, self.outcome) {
            (0, _) => 1,
            (_, Some(_)) => 0,
            _ => self.perft_from(depth),
        }
    }
}

impl Notation for Hnefatafl {
    fn format_move(&self, mv: Move) -> String {
        notation::format_move(self, mv)
    }

    fn render(&self) -> String {
        notation::render(self)
    }

    fn from_position(text: &str, options: &HnefataflOptions) -> Result<Self, ParseError> {
        let (board, to_move) =
            position::read(text).map_err(|e| e.reading("hnefatafl position", text))?;
        Ok(Self::from_board(board, to_move, options))
    }

    fn position(&self) -> Option<String> {
        Some(notation::write_position(&self.board, self.to_move))
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        notation::parse_move(self, text).map_err(|e| e.reading("hnefatafl move", text))
    }
}

impl Players for Hnefatafl {
    fn levels() -> &'static [Level<Self>] {
        &agents::LEVELS
    }

    fn evaluation_terms(&self) -> Option<Vec<f64>> {
        Some(features(self).to_vec())
    }
}

#[cfg(feature = "analytics")]
impl crate::game::Analytics for Hnefatafl {
    type Stats = HnefataflStats;

    const FIRST_PLAYER: &'static str = "the attackers, who move first";

    fn seat_name(seat: usize) -> String {
        ["attackers", "defenders"]
            .get(seat)
            .map_or_else(|| format!("seat {seat}"), |s| (*s).to_owned())
    }
}

impl Hints for Hnefatafl {
    const OPTIONS: &'static [OptionDoc] = &[OptionDoc {
        name: "ply_cap",
        accepted: "1 or more plies",
        doc: "plies after which an unfinished game is a draw, counted as a timeout",
    }];

    /// perft(4) from the start: about fifty million leaves.
    const BENCH_PERFT_DEPTH: u32 = 4;

    /// Expert's game, played out, was nearly all of `koom bench` (docs/throughput.md): 60 plies
    /// keep each level's game a fixed workload, the levels all represented.
    const BENCH_OPTIONS: &'static str = "ply_cap = 60";
}

#[cfg(test)]
mod tests;
