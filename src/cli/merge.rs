//! `koom merge`: the shards of a run into the summary of the whole run.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use engine::{Game, GameVisitor};
use tuner::batch::partial::{
    Effort, Header, RawPartial, experiment_hash, read_header, read_partial,
};
use tuner::batch::tally::RunTally;
use tuner::config::Plan;

use super::args::MergeArgs;
use super::live::{merged_info, write_results};

struct Merge<'a> {
    shards: Vec<(PathBuf, Header, RawPartial)>,
    args: &'a MergeArgs,
}

impl GameVisitor for Merge<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let first = &self.shards[0].1;
        let exp = tuner::config::Experiment {
            out: self.args.out.clone(),
            ..first.experiment.clone()
        };
        let plan = Plan::<G>::new(&exp)?;
        let hash = experiment_hash(&exp, &plan);
        if hash != first.experiment_hash {
            bail!(
                "the shards' experiment (hash {}) no longer matches what it resolves to now (hash {hash}): a weights file or koom itself changed",
                first.experiment_hash
            );
        }
        let mut tally = RunTally::<G>::new(&plan);
        let shards = self.shards.len() as u64;
        let mut effort = Effort::default();
        for (path, _, value) in self.shards {
            let path: PathBuf = path;
            let partial = read_partial::<G>(&path, value, &plan)?;
            if !partial.is_complete() {
                bail!(
                    "{} is incomplete (the shard was interrupted): finish it with `koom run ... --resume` first",
                    path.display()
                );
            }
            tally.merge(&partial.tally);
            effort = effort.plus(partial.effort);
        }
        let _lock = tuner::atomic::lock_output_dir(&exp.out)?;
        write_results(
            &plan,
            &exp,
            &tally,
            false,
            &merged_info(tally.games, shards, effort),
            self.args.quiet,
        )?;
        // The shards' failures are the whole run's, judged as `run` judges them.
        let failures = tuner::interop::external::EngineFailures::of(&plan.labels, &tally);
        super::engine_failures(&failures)?;
        Ok(ExitCode::SUCCESS)
    }
}

pub fn merge(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let mut shards = Vec::new();
    for dir in &args.shards {
        let path = dir.join("shard.json");
        if !path.exists() {
            interrupted_shard(dir)?;
        }
        let (header, value) = read_header(&path)?;
        shards.push((path, header, value));
    }
    let (first_path, first, _) = &shards[0];
    let Some(count) = first.shard.map(|s| s.count) else {
        bail!("{} is a checkpoint, not a shard", first_path.display())
    };
    let (first_path, hash) = (first_path.clone(), first.experiment_hash.clone());
    let game = first.experiment.game.clone();
    for (path, header, _) in &shards {
        if header.experiment_hash != hash {
            bail!(
                "{} is from another experiment (hash {}) than {} (hash {hash})",
                path.display(),
                header.experiment_hash,
                first_path.display(),
            );
        }
        if header.shard.is_none_or(|s| s.count != count) {
            bail!("{} is not one of {count} shards", path.display());
        }
    }
    // Merge in shard order (counts add exactly, but the order keeps this obviously so). Sorting
    // rather than a table of `count` slots keeps memory to the shards given.
    shards.sort_by_key(|(_, h, _)| h.shard.map(|s| s.index));
    check_all_shards(&shards, count)?;
    engine::visit_game(
        &game,
        Merge {
            shards,
            args: &args,
        },
    )?
}

/// Says which shard left only a checkpoint in `dir`, and how to finish it; nothing when `dir`
/// holds no shard's checkpoint (reading `shard.json` then says what is missing).
fn interrupted_shard(dir: &std::path::Path) -> anyhow::Result<()> {
    let Ok((header, _)) = read_header(&dir.join("checkpoint.json")) else {
        return Ok(());
    };
    if let Some(shard) = header.shard {
        bail!(
            "shard {}/{} in {} was interrupted: resume it with `koom run ... --shard {}/{} --out {} --resume`, then merge",
            shard.index,
            shard.count,
            dir.display(),
            shard.index,
            shard.count,
            dir.display()
        );
    }
    Ok(())
}

/// Checks that the shards, sorted by index, are each of the `count` shards once.
fn check_all_shards(shards: &[(PathBuf, Header, RawPartial)], count: u64) -> anyhow::Result<()> {
    let index = |k: usize| shards[k].1.shard.map_or(0, |s| s.index);
    for k in 1..shards.len() {
        if index(k) == index(k - 1) {
            bail!(
                "shard {}/{count} is given twice: {} and {}",
                index(k),
                shards[k - 1].0.display(),
                shards[k].0.display()
            );
        }
    }
    if shards.len() as u64 == count {
        return Ok(());
    }
    // The first few missing indices: the given ones are sorted and distinct.
    let mut given = (0..shards.len()).map(index).peekable();
    let missing: Vec<String> = (0..count)
        .filter(|&k| {
            let present = given.peek() == Some(&k);
            if present {
                given.next();
            }
            !present
        })
        .take(5)
        .map(|k| format!("{k}/{count}"))
        .collect();
    let more = count - shards.len() as u64 - missing.len() as u64;
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    bail!(
        "missing shard(s) {}{more}: merge needs all {count}",
        missing.join(", ")
    )
}
