//! Partial results: the shards of a run split over machines, and the checkpoints that let an
//! interrupted run resume. Both hold the exact counts of the seed groups they cover, so merging
//! them gives the same summary, byte for byte, as one uninterrupted run.

use std::ops::Range;
use std::path::Path;

use engine::Game;
use serde::{Deserialize, Serialize};

use crate::InputError;
use crate::config::{Experiment, Plan};
use crate::tally::RunTally;

/// Bumped when the file layout changes.
pub const FORMAT_VERSION: u32 = 1;
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
        let index: u64 = if k.trim() == "env" {
            let (name, value) = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"]
                .iter()
                .find_map(|name| std::env::var(name).ok().map(|v| (*name, v)))
                .ok_or_else(|| {
                    InputError::new(
                        "--shard env/N needs SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX to be set",
                    )
                })?;
            value
                .trim()
                .parse()
                .map_err(|_| InputError::new(format!("{name} = `{value}` is not a shard index")))?
        } else {
            k.trim().parse().map_err(|_| bad())?
        };
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
        }
    }

    /// The file's contents.
    #[must_use]
    pub fn to_json(&self) -> Vec<u8> {
        // Counts, strings and ranges always serialise.
        serde_json::to_vec_pretty(self).unwrap_or_default()
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
    let identity = serde_json::json!({
        "game": G::NAME,
        "agents": exp.agents,
        "weights": plan.agents.iter().map(|a| &a.weights).collect::<Vec<_>>(),
        "groups": plan.groups,
        "seed": exp.seed,
        "time_control": exp.time_control,
        "options": serde_json::to_value(&plan.options).unwrap_or_default(),
        "format_version": FORMAT_VERSION,
    });
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in identity.to_string().bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
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
    let text = std::fs::read_to_string(path)
        .map_err(|e| InputError::new(format!("cannot read {shown}: {e}")))?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
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

/// The whole partial file, for game `G`.
pub fn read_partial<G: Game>(path: &Path, value: RawPartial) -> Result<Partial<G>, InputError> {
    serde_json::from_value(value).map_err(|e| {
        InputError::new(format!(
            "{} is corrupt ({e}); it is not overwritten",
            path.display()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_whole_groups_without_gaps() {
        let parts: Vec<Range<u64>> = (0..3)
            .map(|k| Shard { index: k, count: 3 }.groups(10))
            .collect();
        assert_eq!(parts, vec![0..3, 3..6, 6..10]);
        assert_eq!(Shard::parse("1/3").unwrap(), Shard { index: 1, count: 3 });
        for bad in ["3/3", "x/3", "1", "1/0", "-1/3"] {
            assert!(
                Shard::parse(bad).unwrap_err().0.contains("accepted: K/N"),
                "{bad}"
            );
        }
    }
}
