//! Records to a position set: replays each recorded game (checking it as every records reader
//! does), keeps a seeded sample of its positions and labels each with the game's result and,
//! where the move was searched, its score, both from the first side's view.
//!
//! - Positions before ply `skip` are left out: openings say more about the suite or the first
//!   moves' tie-breaks than about the evaluation.
//! - A game gives at most `per_game` positions, drawn without replacement from its stream
//!   `(seed, game's place in the files)`, so that one long game does not outweigh many short
//!   ones and the same files and seed give the same set.
//! - A position already in the set (the same active features: board and side to move) is left
//!   out before the draw, so that openings every game passes through are kept once.
//! - A game whose rules, start and moves repeat a game read before (an exact replay: a
//!   deterministic level in both seats plays every rotation alike) is skipped whole, as
//!   `koom fit` skips it; forfeits and games with no result are left out, having no result the
//!   rules gave.
//!
//! The result of a game with points (Thud) is its round margin, the first side's points less
//! the other's at the round's end, squashed to `sigmoid(margin / margin_scale)`; a game without
//! points gives 1, ½ or 0.

use std::collections::HashSet;

use engine::nnue::Features;
use engine::record::Record;
use engine::{Game, RandomStream, SeatResult};

use super::{Header, Position, PositionSet, Sampling};
use crate::InputError;
use crate::checksum::fnv1a64;
use crate::records::replay_record;

/// What reading the records gave, for the command's closing lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// Games read.
    pub games: usize,
    /// Games left out: forfeits and games with no result.
    pub left_out: usize,
    /// Games left out as exact replays of a game read before.
    pub replays: usize,
    /// Positions from ply `skip` on in the games kept (scored ones only with `scored_only`).
    pub eligible: usize,
    /// Eligible positions left out as already in the set.
    pub duplicates: usize,
    /// Positions in the set, and how many of them have a score.
    pub positions: usize,
    pub scored: usize,
}

/// One eligible position of the game being read.
struct Candidate {
    features: Vec<u16>,
    score: Option<i32>,
    hash: u64,
}

/// Builds the position set of game `G` from its record lines (`place` names a line in errors;
/// blank lines and `#` comments are skipped). `records_hash` is stored in the header.
pub fn from_records<'a, G: Features>(
    lines: impl IntoIterator<Item = (String, &'a str)>,
    records_hash: u64,
    sampling: Sampling,
    seed: u64,
) -> Result<(PositionSet, Tally), InputError> {
    let mut set = PositionSet::new(Header {
        game: G::NAME.to_owned(),
        feature_set: G::FEATURE_SET.to_owned(),
        inputs: G::INPUTS as u32,
        records_hash,
        sampling,
        seed,
    });
    let mut tally = Tally::default();
    let mut games_seen = HashSet::new();
    let mut positions_seen = HashSet::new();
    for (place, line) in lines {
        let line = line.trim_end_matches(['\r', '\n']);
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fail = |e: InputError| InputError::new(format!("{place}: {e}"));
        let record = Record::parse(line).map_err(|e| fail(InputError::new(e)))?;
        let scores = record.scores.as_deref().unwrap_or_default();
        let mut candidates = Vec::new();
        let mut ply = 0usize;
        let end = replay_record::<G>(&record, |game: &G, _| {
            let score = scores.get(ply).copied().flatten();
            let score = score.map(|s| first_side(game.to_move(), s.score));
            if ply >= sampling.skip as usize && (score.is_some() || !sampling.scored_only) {
                let mut features = Vec::new();
                game.features(&mut features);
                let hash = hash_of(&features);
                candidates.push(Candidate {
                    features,
                    score,
                    hash,
                });
            }
            ply += 1;
        })
        .map_err(fail)?;
        let ordinal = tally.games as u64;
        tally.games += 1;
        let Some(result) = first_side_result(&record, &end, sampling.margin_scale) else {
            tally.left_out += 1;
            continue;
        };
        if !games_seen.insert((record.rules, record.start, record.moves)) {
            tally.replays += 1;
            continue;
        }
        tally.eligible += candidates.len();
        let mut fresh = Vec::with_capacity(candidates.len());
        for c in candidates {
            if positions_seen.contains(&c.hash)
                || fresh.iter().any(|f: &Candidate| f.hash == c.hash)
            {
                tally.duplicates += 1;
            } else {
                fresh.push(c);
            }
        }
        let mut picks: Vec<usize> = (0..fresh.len()).collect();
        let keep = picks.len().min(sampling.per_game as usize);
        let mut draw = RandomStream::from_seed(seed, ordinal);
        for k in 0..keep {
            let j = k + draw.below((picks.len() - k) as u32) as usize;
            picks.swap(k, j);
        }
        picks.truncate(keep);
        picks.sort_unstable();
        for i in picks {
            let c = &fresh[i];
            positions_seen.insert(c.hash);
            set.push(Position {
                group: record.seed,
                result,
                score: c.score,
                features: &c.features,
            })
            .map_err(|why| {
                InputError::new(format!(
                    "{place}: {} gave a position koom cannot store ({why}): a bug in its features",
                    G::NAME
                ))
            })?;
            tally.positions += 1;
            tally.scored += usize::from(c.score.is_some());
        }
    }
    Ok((set, tally))
}

/// A score from the mover's view (`MoveScore`'s) turned to the first side's (seat 0's).
fn first_side(mover: usize, score: i32) -> i32 {
    if mover == 0 {
        score
    } else {
        score.saturating_neg()
    }
}

/// The first side's result in [0, 1]; `None` for a forfeit or a game with no result.
fn first_side_result<G: Game>(record: &Record, end: &G, margin_scale: f64) -> Option<f32> {
    if record.reason.starts_with("forfeit") {
        return None;
    }
    let outcome = end.outcome()?;
    let won = match outcome.result_of(0) {
        SeatResult::Win => 1.0,
        SeatResult::Draw => 0.5,
        SeatResult::Loss => 0.0,
        SeatResult::NoResult => return None,
    };
    Some(match end.points() {
        Some(points) => {
            let margin = f64::from(points[0] - points[1]);
            (1.0 / (1.0 + (-margin / margin_scale).exp())) as f32
        }
        None => won,
    })
}

/// FNV-1a over the features' bytes: the key of a position in the set.
fn hash_of(features: &[u16]) -> u64 {
    let bytes: Vec<u8> = features.iter().flat_map(|f| f.to_le_bytes()).collect();
    fnv1a64(&bytes)
}
