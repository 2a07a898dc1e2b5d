//! Partial results: the shards of a run split over machines, and the checkpoints that let an
//! interrupted run resume. Both hold the exact counts of the seed groups they cover, so merging
//! them gives the same summary, byte for byte, as one uninterrupted run.

use std::ops::Range;
use std::path::Path;

use engine::Game;
use serde::{Deserialize, Serialize};

use crate::InputError;
use crate::batch::tally::RunTally;
use crate::checksum::{fnv1a64, seal, unseal};
use crate::config::{Experiment, Plan};

/// Bumped when the file layout changes (2: the checksum; 3: the first player's point margin,
/// draws and shared wins counted per seed group).
pub const FORMAT_VERSION: u32 = 3;
const KIND: &str = "koom-partial";

/// Which share of the seed groups a process plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Reads `K/N`, or `env/N` with K from `SLURM_ARRAY_TASK_ID` or `JOB_COMPLETION_INDEX`.
    pub fn parse(text: &str) -> Result<Self, InputError> {
        let bad = || {
            InputError::new(format!(
                "bad --shard `{text}` (accepted: K/N with 0 <= K < N, or env/N)"
            ))
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        let mut from_env = None;
        let index: u64 = if k.trim() == "env" {
            let (name, value) = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"]
                .iter()
                .find_map(|name| std::env::var(name).ok().map(|v| (*name, v)))
                .ok_or_else(|| {
                    InputError::new(
                        "--shard env/N needs SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX to be set",
                    )
                })?;
            from_env = Some(name);
            value
                .trim()
                .parse()
                .map_err(|_| InputError::new(format!("{name} = `{value}` is not a shard index")))?
        } else {
            k.trim().parse().map_err(|_| bad())?
        };
        if let Some(name) = from_env
            && count > 0
            && index >= count
        {
            return Err(InputError::new(format!(
                "{name} = {index} is not below N = {count} in --shard `{text}`: shards are numbered 0 to {}, so number the array from 0 (--array=0-{})",
                count - 1,
                count - 1
            )));
        }
        if from_env == Some("SLURM_ARRAY_TASK_ID") {
            check_array_max(count, text)?;
        }
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Self { index, count })
    }

    /// This shard's seed groups out of `groups`: whole groups (pairs, rotations), contiguous.
    #[must_use]
    pub fn groups(&self, groups: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(groups) * u128::from(k) / u128::from(self.count)) as u64;
        at(self.index)..at(self.index + 1)
    }
}

/// Refuses every task of a Slurm array that reaches past shard N-1 (`--array=1-32` for
/// `env/32`), so that the mistake stops the whole array at once instead of only its last task,
/// after the others played shards that the merge cannot use. An array of some of the indexes
/// (`--array=5,7`, to run missing shards again) passes.
fn check_array_max(count: u64, text: &str) -> Result<(), InputError> {
    let Ok(value) = std::env::var("SLURM_ARRAY_TASK_MAX") else {
        return Ok(());
    };
    match value.trim().parse::<u64>() {
        Ok(max) if count > 0 && max >= count => Err(InputError::new(format!(
            "SLURM_ARRAY_TASK_MAX = {max} is not below N = {count} in --shard `{text}`: shards are numbered 0 to {}, so number the array from 0 (--array=0-{})",
            count - 1,
            count - 1
        ))),
        _ => Ok(()),
    }
}

/// The time a shard or checkpoint took over all its sessions, for the `run` object of a merge;
/// never part of the results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Effort {
    /// Seconds of wall-clock time.
    pub wall_s: f64,
    /// Wall-clock seconds times worker threads.
    pub thread_s: f64,
}

impl Effort {
    #[must_use]
    pub fn plus(self, other: Self) -> Self {
        Self {
            wall_s: self.wall_s + other.wall_s,
            thread_s: self.thread_s + other.thread_s,
        }
    }
}

/// A shard's result or a checkpoint.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Partial<G: Game> {
    pub kind: String,
    pub format_version: u32,
    /// Hash of everything that determines the results (see [`experiment_hash`]).
    pub experiment_hash: String,
    pub experiment: Experiment,
    pub shard: Option<Shard>,
    /// The seed groups this file is responsible for.
    pub groups: Range<u64>,
    /// The seed groups it has played (sorted, disjoint).
    pub done: Vec<Range<u64>>,
    pub tally: RunTally<G>,
    /// Absent from files of earlier versions of koom.
    #[serde(default)]
    pub effort: Effort,
}

impl<G: Game> Partial<G> {
    #[must_use]
    pub fn new(
        plan: &Plan<G>,
        exp: &Experiment,
        shard: Option<Shard>,
        groups: Range<u64>,
        done: Vec<Range<u64>>,
        tally: RunTally<G>,
    ) -> Self {
        Self {
            kind: KIND.to_owned(),
            format_version: FORMAT_VERSION,
            experiment_hash: experiment_hash(exp, plan),
            experiment: exp.clone(),
            shard,
            groups,
            done,
            tally,
            effort: Effort::default(),
        }
    }

    /// The file's contents with their checksum (an error, never an empty file, when a path
    /// is not UTF-8).
    pub fn to_json(&self) -> std::io::Result<Vec<u8>> {
        serde_json::to_value(self)
            .and_then(seal)
            .map_err(std::io::Error::other)
    }

    /// Checks what the checksum cannot: that the file describes `plan`'s seed groups and that
    /// its counts add up. The error says what does not hold.
    pub fn check(&self, plan: &Plan<G>) -> Result<(), String> {
        let expected = self.shard.map_or(0..plan.groups, |s| s.groups(plan.groups));
        if self.groups != expected {
            return Err(format!(
                "it covers seed groups {:?}, the experiment's share is {expected:?}",
                self.groups
            ));
        }
        let mut end = self.groups.start;
        for (k, r) in self.done.iter().enumerate() {
            if r.start >= r.end
                || r.start < end
                || r.end > self.groups.end
                || (k > 0 && r.start == end)
            {
                return Err(format!(
                    "its played groups {:?} are not sorted disjoint ranges within {:?}",
                    self.done, self.groups
                ));
            }
            end = r.end;
        }
        let played: u64 = self.done.iter().map(|r| r.end - r.start).sum();
        if self.tally.groups != played {
            return Err(format!(
                "its counts hold {} seed groups, its played ranges {played}",
                self.tally.groups
            ));
        }
        self.tally.check(plan)
    }

    /// Whether every group it is responsible for has been played.
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.done == [self.groups.clone()] || self.groups.is_empty()
    }
}

/// What identifies an experiment's results: the game, the agents and their exact weights, the
/// games, the seed, the time control and the rule options — not the thread count or the output
/// folder. FNV-1a over canonical JSON: stable across runs and machines.
#[must_use]
pub fn experiment_hash<G: Game>(exp: &Experiment, plan: &Plan<G>) -> String {
    let mut identity = serde_json::json!({
        "game": G::NAME,
        "agents": exp.agents,
        "weights": plan.agents.iter().map(|a| &a.weights).collect::<Vec<_>>(),
        "groups": plan.groups,
        "seed": exp.seed,
        "time_control": exp.time_control,
        "options": serde_json::to_value(&plan.options).unwrap_or_default(),
        "format_version": FORMAT_VERSION,
    });
    // Only with a suite, so that the hash of a run without one is what it was.
    if let Some(suite) = &plan.openings {
        identity["openings"] = serde_json::json!([suite.info.hash, suite.info.order]);
    }
    // Likewise only when on: adjudication changes which games end where.
    if plan.adjudication.is_on() {
        identity["adjudication"] = serde_json::to_value(plan.adjudication).unwrap_or_default();
    }
    format!("{:016x}", fnv1a64(identity.to_string().as_bytes()))
}

/// A partial file read but not yet typed by its game.
pub type RawPartial = serde_json::Value;

/// The header of a partial file, readable before the game is known.
#[derive(Debug, Deserialize)]
pub struct Header {
    pub kind: String,
    pub format_version: u32,
    pub experiment_hash: String,
    pub experiment: Experiment,
    pub shard: Option<Shard>,
}

/// Reads a partial file's header, with errors naming the file.
pub fn read_header(path: &Path) -> Result<(Header, RawPartial), InputError> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| InputError::io("", path, e))?;
    let mut value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        InputError::new(format!(
            "{shown} is corrupt or truncated ({e}); it is not overwritten"
        ))
    })?;
    let header: Header = serde_json::from_value(value.clone())
        .map_err(|e| InputError::new(format!("{shown} is not a koom shard or checkpoint ({e})")))?;
    if header.kind != KIND || header.format_version != FORMAT_VERSION {
        return Err(InputError::new(format!(
            "{shown} is a `{}` v{} file; this koom reads `{KIND}` v{FORMAT_VERSION}",
            header.kind, header.format_version
        )));
    }
    unseal(&mut value).map_err(|why| InputError::Corrupt {
        path: path.to_owned(),
        reason: why.to_string(),
    })?;
    if let Some(shard) = header.shard
        && shard.index >= shard.count
    {
        return Err(InputError::new(format!(
            "{shown} is corrupt: shard index {} is not below the shard count {}",
            shard.index, shard.count
        )));
    }
    Ok((header, value))
}

/// The whole partial file, for game `G`, checked against the experiment's `plan`.
pub fn read_partial<G: Game>(
    path: &Path,
    value: RawPartial,
    plan: &Plan<G>,
) -> Result<Partial<G>, InputError> {
    let corrupt = |reason: String| InputError::Corrupt {
        path: path.to_owned(),
        reason,
    };
    let mut partial: Partial<G> =
        serde_json::from_value(value).map_err(|e| corrupt(e.to_string()))?;
    engine::game::pad_old_endings(
        &mut partial.tally.reasons,
        engine::Ending::<G::Reason>::COUNT,
    );
    partial.check(plan).map_err(corrupt)?;
    Ok(partial)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use engine::games::ludo::Ludo;

    use super::*;
    use crate::batch::runner::run;
    use crate::config::ExperimentFile;
    use crate::observer::Quiet;

    /// A small xorshift generator: the fuzz tests below must be reproducible.
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Fuzzes the shard reader: 1,000 seeded mutations of a real shard (a byte replaced, a byte
    /// deleted, a digit changed) either are refused with an error or read back as the very same
    /// shard (a change of layout only), and never panic.
    #[test]
    fn mutated_shards_are_refused_or_read_back_unchanged() {
        let exp = ExperimentFile {
            agents: Some(vec![
                "easy".into(),
                "normal".into(),
                "easy".into(),
                "hard".into(),
            ]),
            games: Some(40),
            seed: Some(3),
            ..ExperimentFile::default()
        }
        .resolve();
        let plan = Plan::<Ludo>::new(&exp).unwrap();
        let shard = Shard { index: 1, count: 2 };
        let groups = shard.groups(plan.groups);
        let stop = AtomicBool::new(false);
        let result = run(&plan, groups.clone(), 1, &mut Quiet::until(&stop)).unwrap();
        let partial = Partial::new(&plan, &exp, Some(shard), groups, result.done, result.tally);
        let original = partial.to_json().unwrap();
        let dir = std::env::temp_dir().join(format!("koom-fuzz-shard-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("shard.json");
        let read = |bytes: &[u8]| -> Result<Partial<Ludo>, InputError> {
            std::fs::write(&path, bytes).unwrap();
            let (_, value) = read_header(&path)?;
            read_partial::<Ludo>(&path, value, &plan)
        };
        let same = |p: &Partial<Ludo>| p.to_json().unwrap() == original;
        assert!(same(&read(&original).unwrap()));
        let mut state = 0x9e37_79b9_7f4a_7c15;
        let (mut refused, mut unchanged, mut corrupt) = (0, 0, 0);
        for _ in 0..1000 {
            let mut bytes = original.clone();
            let at = (xorshift(&mut state) % bytes.len() as u64) as usize;
            match xorshift(&mut state) % 3 {
                0 => bytes[at] = (xorshift(&mut state) % 128) as u8,
                1 => {
                    bytes.remove(at);
                }
                _ => {
                    let digits: Vec<usize> = (0..bytes.len())
                        .filter(|&i| bytes[i].is_ascii_digit())
                        .collect();
                    let i = digits[at % digits.len()];
                    bytes[i] = b'0' + ((bytes[i] - b'0' + 1) % 10);
                }
            }
            match read(&bytes) {
                Err(e) => {
                    refused += 1;
                    // A changed digit keeps the JSON valid: the checksum refuses it.
                    corrupt += usize::from(matches!(e, InputError::Corrupt { .. }));
                }
                Ok(p) => {
                    assert!(
                        same(&p),
                        "a changed shard was accepted: {}",
                        String::from_utf8_lossy(&bytes)
                    );
                    unchanged += 1;
                }
            }
        }
        assert!(refused > 500, "{refused} refused, {unchanged} unchanged");
        assert!(corrupt > 100, "{corrupt} of {refused} refused as corrupt");
        // A shard written before `forfeit: resigned` and the adjudications (up to four ending
        // counts fewer, and no per-side counts per ending) reads back with zeros for them; five
        // fewer is refused.
        let mut value: serde_json::Value = serde_json::from_slice(&original).unwrap();
        unseal(&mut value).unwrap();
        value["tally"]
            .as_object_mut()
            .unwrap()
            .remove("wins_by_reason");
        let shorter = |value: &mut serde_json::Value| {
            let reasons = value["tally"]["reasons"].as_array_mut().unwrap();
            assert_eq!(reasons.pop(), Some(serde_json::json!(0)));
            seal(value.clone()).unwrap()
        };
        for _ in 0..4 {
            let old = read(&shorter(&mut value)).unwrap();
            assert_eq!(old.tally.reasons, partial.tally.reasons);
            assert!(old.tally.wins_by_reason.is_empty());
        }
        assert!(read(&shorter(&mut value)).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shards_split_whole_groups_without_gaps() {
        let parts: Vec<Range<u64>> = (0..3)
            .map(|k| Shard { index: k, count: 3 }.groups(10))
            .collect();
        assert_eq!(parts, vec![0..3, 3..6, 6..10]);
        assert_eq!(Shard::parse("1/3").unwrap(), Shard { index: 1, count: 3 });
        for bad in ["3/3", "x/3", "1", "1/0", "-1/3"] {
            assert!(
                Shard::parse(bad)
                    .unwrap_err()
                    .to_string()
                    .contains("accepted: K/N"),
                "{bad}"
            );
        }
    }
}
