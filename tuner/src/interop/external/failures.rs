//! The outside players' failures in a run's result: counted by the tally from the games'
//! endings (see [`RunTally::failures`]), so that a resume, a merge and the games an
//! interruption dropped are accounted as every other count is, and read here per engine.

use std::collections::BTreeMap;

use engine::{Forfeit, Game};
use serde::Serialize;

use crate::InputError;
use crate::batch::tally::RunTally;

/// Per outside player (by its agent label) that failed: its games, and its failures per kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineFailures(BTreeMap<String, Failed>);

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Failed {
    games: u64,
    /// Per kind (`program crashed`, `no move in time`, ...).
    kinds: BTreeMap<&'static str, u64>,
}

impl EngineFailures {
    /// The failures in `tally`, whose agent slots are labelled `labels`.
    #[must_use]
    pub fn of<G: Game>(labels: &[String], tally: &RunTally<G>) -> Self {
        let seats = labels.len();
        let games = |slot: usize| -> u64 {
            let seats_of_slot = tally.by_agent_seat.iter().skip(slot * seats).take(seats);
            seats_of_slot.map(|r| r.games).sum()
        };
        let mut engines: BTreeMap<String, Failed> = BTreeMap::new();
        for (slot, counts) in tally.failures.iter().enumerate() {
            if counts.iter().all(|&n| n == 0) {
                continue;
            }
            let engine = engines.entry(labels[slot].clone()).or_default();
            for (&why, &n) in Forfeit::ALL.iter().zip(counts).filter(|(_, n)| **n > 0) {
                *engine.kinds.entry(kind(why)).or_default() += n;
            }
        }
        for (name, engine) in &mut engines {
            engine.games = (0..seats).filter(|&s| labels[s] == *name).map(games).sum();
        }
        Self(engines)
    }

    /// Adds the failures of another part of the command (a ladder's next pair).
    pub fn add(&mut self, other: Self) {
        for (name, theirs) in other.0 {
            let ours = self.0.entry(name).or_default();
            ours.games += theirs.games;
            for (why, n) in theirs.kinds {
                *ours.kinds.entry(why).or_default() += n;
            }
        }
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// One line per engine that failed: `engine failures: NAME: 3 program crashed, 1 no move
    /// in time (of 8 games)`, for the terminal's result block.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        self.0
            .iter()
            .map(|(name, e)| {
                let kinds: Vec<String> = e.kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
                format!(
                    "engine failures: {name}: {} (of {} games)",
                    kinds.join(", "),
                    e.games
                )
            })
            .collect()
    }

    /// An outside player that failed more than half of its games measures its failures, not
    /// its play: the error that ends the command with exit 2.
    pub fn check(&self) -> Result<(), InputError> {
        match self.0.iter().find(|(_, e)| e.failed() * 2 > e.games) {
            Some((name, e)) => Err(InputError::new(format!(
                "outside player `{name}` failed {} of its {} games (more than half): the results measure its failures, not its play; see engine_failures in summary.json",
                e.failed(),
                e.games
            ))),
            None => Ok(()),
        }
    }
}

impl Failed {
    fn failed(&self) -> u64 {
        self.kinds.values().sum()
    }
}

/// A failure's name without the `forfeit: ` that `games.csv` writes before it.
fn kind(why: Forfeit) -> &'static str {
    why.name().trim_start_matches("forfeit: ")
}

/// `summary.json`'s `engine_failures`: per engine, its failures per kind.
impl Serialize for EngineFailures {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(name, e)| (name, &e.kinds)))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use engine::games::hnefatafl::Hnefatafl;

    use super::*;
    use crate::batch::runner::run;
    use crate::config::{ExperimentFile, Plan};
    use crate::observer::Quiet;

    /// `easy` against a program that exits at once, for `games` games.
    fn crashing(games: u64) -> Plan<Hnefatafl> {
        let exp = ExperimentFile {
            game: Some("hnefatafl".into()),
            agents: Some(vec!["easy".into(), "cmd:sh -c 'exit 3'".into()]),
            games: Some(games),
            ..ExperimentFile::default()
        };
        Plan::new(&exp.resolve()).unwrap()
    }

    fn tally(plan: &Plan<Hnefatafl>, groups: std::ops::Range<u64>) -> RunTally<Hnefatafl> {
        let interrupt = AtomicBool::new(false);
        run(plan, groups, 1, &mut Quiet::until(&interrupt))
            .unwrap()
            .tally
    }

    #[test]
    fn failures_are_counted_from_the_games_and_merge_like_every_count() {
        let plan = crashing(6);
        let whole = tally(&plan, 0..3);
        // The program forfeits each game at its first move: every one of the six.
        assert_eq!(whole.failures, vec![[0; 5], [6, 0, 0, 0, 0]]);
        whole.check(&plan).unwrap();
        let failures = EngineFailures::of(&plan.labels, &whole);
        assert_eq!(
            failures.lines(),
            ["engine failures: cmd:sh -c 'exit 3': 6 program crashed (of 6 games)"]
        );
        let err = failures.check().unwrap_err().to_string();
        assert!(err.contains("failed 6 of its 6 games"), "{err}");
        assert_eq!(
            serde_json::to_string(&failures).unwrap(),
            r#"{"cmd:sh -c 'exit 3'":{"program crashed":6}}"#
        );
        // As a resume sees them: a part read back from its checkpoint, then the rest.
        let first = tally(&plan, 0..1);
        let mut parts: RunTally<Hnefatafl> =
            serde_json::from_str(&serde_json::to_string(&first).unwrap()).unwrap();
        parts.merge(&tally(&plan, 1..3));
        assert_eq!(EngineFailures::of(&plan.labels, &parts), failures);
    }

    #[test]
    fn failures_that_do_not_match_the_endings_are_refused() {
        let plan = crashing(2);
        let mut tally = tally(&plan, 0..1);
        tally.failures[1][0] += 1;
        assert!(tally.check(&plan).unwrap_err().contains("failures"));
        // Counts written before the failures were kept: none, and still good.
        tally.failures.clear();
        tally.check(&plan).unwrap();
    }
}
