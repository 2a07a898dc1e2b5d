//! Game records (`--records FILE`): the runner's side of [`engine::record`]. It makes the record
//! of each finished game, writes the records file (`FILE.partial` until every game is in), and
//! reads back the rule options a record carries.

use std::path::Path;

use engine::record::{Record, result_text};
use engine::{Game, quote};

use crate::InputError;
use crate::batch::tally::GameRow;
use crate::config::Plan;
pub use crate::lines::partial_path;
use crate::lines::{Layout, LineFile};

/// The record of a finished game of `plan` (`row.notation` holds its moves).
#[must_use]
pub fn record_of<G: Game>(plan: &Plan<G>, row: &GameRow<G::Reason>) -> Record {
    Record {
        index: row.index,
        group: row.index / plan.rotations() as u64,
        rotation: row.rotation,
        seed: row.seed,
        agents: row
            .seat_agents
            .iter()
            .map(|&slot| plan.labels[slot].clone())
            .collect(),
        result: result_text(&row.outcome),
        reason: row.outcome.reason.name().to_owned(),
        rules: rules_text::<G>(&plan.options),
        start: row.start.clone(),
        moves: row.notation.clone(),
        opening: row.opening,
        scores: plan.record_scores.then(|| row.scores.clone()),
    }
}

/// The rules field of a record: `None` under the default options, else the options as JSON.
fn rules_text<G: Game>(options: &G::Options) -> Option<String> {
    if *options == G::Options::default() {
        return None;
    }
    serde_json::to_string(options).ok()
}

/// The rule options a record was played under, checked as a config's would be.
pub fn rules_of<G: Game>(record: &Record) -> Result<G::Options, InputError> {
    let Some(text) = &record.rules else {
        return Ok(G::Options::default());
    };
    let bad = |why: String| {
        InputError::new(format!(
            "record of game {}: rules {} {why}",
            record.index,
            quote(text)
        ))
    };
    let options: G::Options =
        serde_json::from_str(text).map_err(|e| bad(format!("are not {} options: {e}", G::NAME)))?;
    G::check_options(&options).map_err(|e| bad(e.to_string()))?;
    Ok(options)
}

/// Reads a record line and replays it (see [`Record::replay`]), showing each move to
/// `on_move`; the error is one line naming the game and what does not hold.
pub fn replay<G: Game>(
    line: &str,
    on_move: impl FnMut(&G, G::Move),
) -> Result<(Record, G), InputError> {
    let record = Record::parse(line).map_err(InputError::new)?;
    let game = replay_record(&record, on_move)?;
    Ok((record, game))
}

/// [`replay`] of a record already read (a caller that needs its fields while it replays).
pub fn replay_record<G: Game>(
    record: &Record,
    on_move: impl FnMut(&G, G::Move),
) -> Result<G, InputError> {
    let options = rules_of::<G>(record)?;
    record
        .replay_noting(&options, on_move)
        .map_err(|e| InputError::new(format!("record of game {}: {e}", record.index)))
}

/// A records file being written: lines go to `FILE.partial`, renamed to `FILE` once every game
/// is in, so that an interrupted run leaves no file that looks complete (see [`LineFile`]).
#[derive(Debug)]
pub struct RecordsFile {
    lines: LineFile,
    scores: bool,
}

/// How a records line starts: its game index and a tab.
const SEPARATOR: char = '\t';

impl RecordsFile {
    /// Starts writing `path` (as `path.partial`), its records with each move's searched score
    /// when `scores`.
    pub fn create(path: &Path, scores: bool) -> std::io::Result<Self> {
        let lines = LineFile::create(path, partial_path(path), None)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot write records: {e}")))?;
        Ok(Self { lines, scores })
    }

    /// Continues the `path.partial` of an interrupted or crashed run with the records of the
    /// `games` games its checkpoint counts (`counted`).
    pub fn resume(
        path: &Path,
        scores: bool,
        counted: &dyn Fn(u64) -> bool,
        games: u64,
    ) -> Result<Self, InputError> {
        let layout = Layout {
            header: None,
            separator: SEPARATOR,
            flag: "--records",
        };
        let lines = LineFile::resume(path, partial_path(path), layout, counted, games)?;
        Ok(Self { lines, scores })
    }

    /// Makes `plan` note what this file's records hold (`None`: no records).
    pub fn note_in<G: Game>(file: Option<&Self>, plan: &mut Plan<G>) {
        plan.records = file.is_some();
        plan.record_scores = file.is_some_and(|f| f.scores);
    }

    /// Writes one record line.
    pub fn push(&mut self, record: &Record) -> std::io::Result<()> {
        self.lines.push(record.index, &record.to_string())
    }

    /// Hands the records so far to the system, before a checkpoint counts their games.
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.lines.flush()
    }

    /// Flushes the lines; with `complete`, gives the file its final name.
    pub fn finish(self, complete: bool) -> std::io::Result<()> {
        self.lines.finish(complete, SEPARATOR)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ExperimentFile;
    use engine::Outcome;
    use engine::games::hnefatafl::{Hnefatafl, Reason};

    fn plan(options: Option<&str>) -> Plan<Hnefatafl> {
        let exp = ExperimentFile {
            game: Some("hnefatafl".into()),
            agents: Some(vec!["hard".into(), "cmd:x y".into()]),
            options: options.map(|o| toml::from_str(o).unwrap()),
            ..ExperimentFile::default()
        }
        .resolve();
        Plan::new(&exp).unwrap()
    }

    fn row() -> GameRow<Reason> {
        GameRow {
            index: 7,
            seed: 99,
            rotation: 1,
            outcome: Outcome::win(1, Reason::Corner),
            seat_agents: vec![1, 0],
            moves: 2,
            rolls: 0,
            captures: vec![0, 0],
            opening: None,
            start: None,
            notation: vec!["d1-b1".into(), "e5-e2".into()],
            scores: Vec::new(),
        }
    }

    #[test]
    fn records_carry_the_seed_and_the_rules_only_when_not_the_defaults() {
        let line = record_of(&plan(None), &row()).to_string();
        assert_eq!(
            line,
            "7\t3\t1\t99\tcmd:x y,hard\tseat 1 wins\tcorner\tdefault\tstart\td1-b1,e5-e2\t-"
        );
        assert_eq!(
            Record::parse(&line).unwrap(),
            record_of(&plan(None), &row())
        );
        let capped = record_of(&plan(Some("ply_cap = 300")), &row());
        assert_eq!(capped.rules.as_deref(), Some(r#"{"ply_cap":300}"#));
        let options = rules_of::<Hnefatafl>(&capped).unwrap();
        assert_eq!(options.ply_cap, 300);
        let parsed = Record::parse(&capped.to_string()).unwrap();
        assert_eq!(rules_of::<Hnefatafl>(&parsed).unwrap(), options);
    }

    #[test]
    fn bad_rules_name_the_game_and_the_fault() {
        let mut record = record_of(&plan(None), &row());
        record.rules = Some(r#"{"ply_cap":0}"#.into());
        let err = rules_of::<Hnefatafl>(&record).unwrap_err().to_string();
        assert!(err.starts_with("record of game 7: rules"), "{err}");
        assert!(err.contains("ply_cap"), "{err}");
        record.rules = Some("{".into());
        let err = rules_of::<Hnefatafl>(&record).unwrap_err().to_string();
        assert!(err.contains("are not hnefatafl options"), "{err}");
    }
}
