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
use crate::batch::records::replay_record;
use crate::checksum::fnv1a64;

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
    hand: i32,
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
                    hand: game.hand_score(),
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
                hand: Some(c.hand),
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

#[cfg(test)]
mod tests {
    use super::*;
    use engine::games::thud::Thud;

    /// Two dwarfs (A8, B8) against one troll (K8), far apart: four quiet plies end the round
    /// under a window of 4, with the trolls 4 points to the dwarfs' 2, so a margin of -2.
    const RECORD: &str = "0\t0\t0\t42\thard,hard\tseat 1 wins\tno capture window\t\
        {\"no_capture_plies\":4}\t5/7/9/11/13/15/15/dd5R1T5/15/15/13/11/9/7/5 d\t\
        A8-A7,K8-K9,A7-A6,K9-K10\t-\t-,30@2,-50@3,70@2";

    fn sample(lines: &[&str], sampling: Sampling, seed: u64) -> (PositionSet, Tally) {
        let lines = lines.iter().map(|l| ("test".to_owned(), *l));
        from_records::<Thud>(lines, 9, sampling, seed).unwrap()
    }

    fn sampling(skip: u32, per_game: u32, scored_only: bool) -> Sampling {
        Sampling {
            skip,
            per_game,
            scored_only,
            margin_scale: 2.0,
        }
    }

    #[test]
    fn a_hand_made_record_gives_known_labels() {
        let (set, tally) = sample(&[RECORD], sampling(1, 10, false), 1);
        assert_eq!(set.len(), 3);
        assert_eq!((tally.games, tally.eligible, tally.scored), (1, 3, 3));
        // sigmoid(-2 / 2) for every position; scores from the dwarfs' view: the trolls' 30 and
        // 70 negated, the dwarfs' -50 kept.
        let result = 1.0 / (1.0 + 1f32.exp());
        let scores: Vec<Option<i32>> = set.iter().map(|p| p.score).collect();
        assert_eq!(scores, [Some(-30), Some(-50), Some(-70)]);
        for (i, p) in set.iter().enumerate() {
            assert!((p.result - result).abs() < 1e-6, "{}", p.result);
            assert_eq!(p.group, 42);
            // Two dwarfs and a troll, and the trolls-to-move input (330) on odd plies.
            let trolls_to_move = i % 2 == 0;
            assert_eq!(p.features.len(), 3 + usize::from(trolls_to_move));
            assert_eq!(p.features.last() == Some(&330), trolls_to_move);
        }
        assert_eq!(set.header.records_hash, 9);
        assert_eq!(set.header.inputs, 331);
    }

    #[test]
    fn replays_are_skipped_and_unscored_positions_left_out_on_request() {
        let (set, tally) = sample(&[RECORD, "", "# note", RECORD], sampling(0, 10, true), 1);
        assert_eq!((tally.games, tally.replays), (2, 1));
        assert_eq!(set.len(), 3, "ply 0 was not searched");
        let (all, _) = sample(&[RECORD], sampling(0, 10, false), 1);
        assert_eq!(all.len(), 4);
        assert_eq!(all.get(0).score, None);
    }

    #[test]
    fn the_draw_is_seeded_and_reproducible() {
        let picks = |seed| {
            let (set, _) = sample(&[RECORD], sampling(0, 2, false), seed);
            set.iter().map(|p| p.score).collect::<Vec<_>>()
        };
        let drawn: HashSet<Vec<Option<i32>>> = (1..=12).map(picks).collect();
        assert!(drawn.len() >= 3, "{drawn:?}");
        for seed in 1..=12 {
            assert_eq!(picks(seed), picks(seed));
            assert_eq!(picks(seed).len(), 2);
        }
    }

    #[test]
    fn a_bad_record_is_refused_naming_its_place() {
        let edited = RECORD.replace("K9-K10", "K9-K12");
        let lines = [("records.txt line 3".to_owned(), edited.as_str())];
        let err = from_records::<Thud>(lines, 0, sampling(0, 1, false), 1).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("records.txt line 3: record of game 0: move 4"),
            "{err}"
        );
        let lines = [("r line 1".to_owned(), "not a record")];
        let err = from_records::<Thud>(lines, 0, sampling(0, 1, false), 1).unwrap_err();
        assert!(err.to_string().starts_with("r line 1: "), "{err}");
    }
}
