//! Opening suites (`--openings FILE`): the positions seed groups start from.
//!
//! Deterministic levels replay the same game from the same start, so without a suite a batch of
//! board games between two fixed levels measures one or two games many times. A suite gives each
//! seed group its own start; every rotation of the group (the side swap of a pair, both rounds of
//! a Thud match) starts from it, as fastchess plays each opening with colours reversed.
//!
//! One opening a line:
//!
//! ```text
//! # a comment; blank lines are skipped
//! moves: d1-b1, e5-e2
//! position: TEXT
//! position: TEXT moves: M1, M2
//! ```
//!
//! Moves are comma separated in the game's notation, from the initial position or from the
//! position text. Dice games draw the rolls between opening moves from dice stream 0, as
//! `koom legal` does.

pub mod generate;

use std::path::Path;

use engine::{Game, NoLog, RandomStream, quote};
use serde::{Deserialize, Serialize};

use crate::InputError;
use crate::checksum::fnv1a64;

/// Which opening seed group `g` starts from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// Opening `g mod N`, in file order.
    #[default]
    Sequential,
    /// The suite shuffled once by the master seed, then taken in that order (`g mod N`).
    Random,
}

impl Order {
    /// The names the command line and configs accept.
    pub const NAMES: [&str; 2] = ["sequential", "random"];
}

/// What identifies a suite in `summary.json`, shards and checkpoints.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuiteInfo {
    /// The file as given.
    pub path: String,
    /// Lines in the file, comments and blank lines included.
    pub lines: u64,
    /// Openings in the file.
    pub openings: u64,
    /// FNV-1a 64 of the file's bytes, in hex: a changed suite is a different experiment.
    pub hash: String,
    pub order: Order,
}

/// One opening: where it starts and the moves played from there, both in the game's notation,
/// and the position they lead to.
#[derive(Clone, Debug)]
pub struct Opening<G> {
    /// Line number in the file (from 1).
    pub line: u64,
    /// The position text it starts from; `None`: the initial position.
    pub start: Option<String>,
    pub moves: Vec<String>,
    pub position: G,
}

/// A suite read and checked against one game, its options and its number of seats.
#[derive(Clone)]
pub struct Suite<G> {
    pub info: SuiteInfo,
    openings: Vec<Opening<G>>,
    /// `order[k]`: the opening the `k`-th seed group (mod N) starts from.
    order: Vec<u32>,
}

impl<G> std::fmt::Debug for Suite<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Suite").field("info", &self.info).finish()
    }
}

/// PCG stream selector of the random order (any constant distinct from the game streams).
const ORDER_STREAM: u64 = 0x0e7e_0bde_5000_0001;

impl<G: Game> Suite<G> {
    /// Reads the suite at `path`; every error names `path:line`.
    pub fn load(
        path: &Path,
        order: Order,
        seed: u64,
        options: &G::Options,
        seats: usize,
    ) -> Result<Self, InputError> {
        let shown = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| InputError::io("openings", path, e))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| InputError::file("openings", path, "not UTF-8 text"))?;
        Self::parse(&text, &shown, order, seed, options, seats)
    }

    /// Reads a suite's text; `shown` names it in errors.
    pub fn parse(
        text: &str,
        shown: &str,
        order: Order,
        seed: u64,
        options: &G::Options,
        seats: usize,
    ) -> Result<Self, InputError> {
        let mut openings = Vec::new();
        let mut lines = 0;
        for (i, line) in text.lines().enumerate() {
            lines += 1;
            let line_no = i as u64 + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (start, moves) = split_line(line)
                .map_err(|why| InputError::new(format!("{shown}:{line_no}: {why}")))?;
            let opening = replay::<G>(start, &moves, options, seats)
                .and_then(|opening| match opening.position.outcome() {
                    _ if opening.position.seats() != seats => Err(format!(
                        "the position has {} seats, the agents {seats}",
                        opening.position.seats()
                    )),
                    None => Ok(opening),
                    Some(o) => Err(format!(
                        "the game is over after this opening ({}); an opening must leave a move to play",
                        o.reason.name()
                    )),
                })
                .map_err(|why| InputError::new(format!("{shown}:{line_no}: {why}")))?;
            openings.push(Opening {
                line: line_no,
                ..opening
            });
        }
        if openings.is_empty() {
            return Err(InputError::new(format!(
                "openings {shown}: no opening in it (only comments and blank lines)"
            )));
        }
        let count = u32::try_from(openings.len())
            .map_err(|_| InputError::new(format!("openings {shown}: more than 2^32 openings")))?;
        let mut permutation: Vec<u32> = (0..count).collect();
        if order == Order::Random {
            let mut rng = RandomStream::from_seed(seed, ORDER_STREAM);
            // Fisher–Yates, from the top.
            for i in (1..permutation.len()).rev() {
                let j = rng.below(i as u32 + 1) as usize;
                permutation.swap(i, j);
            }
        }
        Ok(Self {
            info: SuiteInfo {
                path: shown.to_owned(),
                lines,
                openings: openings.len() as u64,
                hash: format!("{:016x}", fnv1a64(text.as_bytes())),
                order,
            },
            openings,
            order: permutation,
        })
    }

    /// The index (in file order, from 0) of the opening seed group `group` starts from.
    #[must_use]
    pub fn index_of(&self, group: u64) -> u64 {
        u64::from(self.order[(group % self.order.len() as u64) as usize])
    }

    /// The opening seed group `group` starts from.
    #[must_use]
    pub fn for_group(&self, group: u64) -> &Opening<G> {
        &self.openings[self.index_of(group) as usize]
    }

    /// The openings in file order.
    #[must_use]
    pub fn openings(&self) -> &[Opening<G>] {
        &self.openings
    }
}

/// `position: TEXT [moves: M1, ...]` or `moves: M1, ...` split into its position text and moves.
fn split_line(line: &str) -> Result<(Option<&str>, Vec<&str>), String> {
    // `moves:` must list a move wherever it is written.
    fn list(text: &str) -> Result<Vec<&str>, String> {
        let moves = engine::record::move_list(text)?;
        if moves.is_empty() {
            return Err("`moves:` lists no move (write `moves: M1, M2, ...`)".into());
        }
        Ok(moves)
    }
    if let Some(rest) = line.strip_prefix("moves:") {
        return Ok((None, list(rest)?));
    }
    if let Some(rest) = line.strip_prefix("position:") {
        let (text, moves) = match rest.split_once("moves:") {
            Some((text, moves)) => (text, list(moves)?),
            None => (rest, Vec::new()),
        };
        let text = text.trim();
        if text.is_empty() {
            return Err("`position:` gives no position text".into());
        }
        return Ok((Some(text), moves));
    }
    Err(format!(
        "{} is not an opening: write `moves: M1, M2, ...` or `position: TEXT [moves: M1, ...]` (`#` starts a comment line)",
        quote(line)
    ))
}

/// The position `start` (a position text, or the initial position for `seats` seats) after
/// `moves`, played in order on dice stream 0, as an opening of line 0 (the start and the moves as
/// the game writes them, so that a record never holds a tab). The error says which move is wrong
/// and why.
pub fn replay<G: Game>(
    start: Option<&str>,
    moves: &[impl AsRef<str>],
    options: &G::Options,
    seats: usize,
) -> Result<Opening<G>, String> {
    let mut dice = RandomStream::dice(0);
    let mut game = match start {
        Some(text) => G::from_position(text, options).map_err(|e| e.to_string())?,
        None => G::new(options, seats, &mut dice, &mut NoLog),
    };
    let start = start.map(|text| game.position().unwrap_or_else(|| text.trim().to_owned()));
    let mut written = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let text = text.as_ref();
        if game.outcome().is_some() {
            return Err(format!(
                "move {} {}: the game is already over",
                i + 1,
                quote(text)
            ));
        }
        let mv = game
            .parse_move(text)
            .map_err(|e| format!("move {} {} is illegal: {}", i + 1, quote(text), e.reason()))?;
        written.push(game.format_move(mv));
        game.play(mv, &mut dice, &mut NoLog);
    }
    Ok(Opening {
        line: 0,
        start,
        moves: written,
        position: game,
    })
}

#[cfg(test)]
mod tests;
