//! `koom merge`: the shards of a run into the summary of the whole run.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use engine::{Game, GameVisitor};
use tuner::config::Plan;
use tuner::partial::{Header, RawPartial, experiment_hash, read_header, read_partial};
use tuner::tally::RunTally;

use super::args::MergeArgs;
use super::run::{run_info, write_results};

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
        for (path, _, value) in self.shards {
            let path: PathBuf = path;
            let partial = read_partial::<G>(&path, value)?;
            if !partial.is_complete() {
                bail!(
                    "{} is incomplete (the shard was interrupted): finish it with `koom run ... --resume` first",
                    path.display()
                );
            }
            tally.merge(&partial.tally);
        }
        reports::check_writable_dir(&exp.out)?;
        write_results(
            &plan,
            &exp,
            &tally,
            false,
            &run_info(tally.games, 0.0, 0),
            self.args.quiet,
        )?;
        Ok(ExitCode::SUCCESS)
    }
}

pub fn merge(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let mut shards = Vec::new();
    for dir in &args.shards {
        let path = dir.join("shard.json");
        let (header, value) = read_header(&path)?;
        shards.push((path, header, value));
    }
    let (_, first, _) = &shards[0];
    let Some(count) = first.shard.map(|s| s.count) else {
        bail!("{} is a checkpoint, not a shard", shards[0].0.display())
    };
    let mut seen: Vec<Option<&PathBuf>> = vec![None; count as usize];
    for (path, header, _) in &shards {
        if header.experiment_hash != first.experiment_hash {
            bail!(
                "{} is from another experiment (hash {}) than {} (hash {})",
                path.display(),
                header.experiment_hash,
                shards[0].0.display(),
                first.experiment_hash
            );
        }
        let Some(shard) = header.shard.filter(|s| s.count == count) else {
            bail!("{} is not one of {count} shards", path.display());
        };
        if let Some(other) = seen[shard.index as usize].replace(path) {
            bail!(
                "shard {}/{count} is given twice: {} and {}",
                shard.index,
                other.display(),
                path.display()
            );
        }
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_none())
        .map(|(k, _)| format!("{k}/{count}"))
        .collect();
    if !missing.is_empty() {
        bail!(
            "missing shard(s) {}: merge needs all {count}",
            missing.join(", ")
        );
    }
    // Merge in shard order (counts add exactly, but the order keeps this obviously so).
    let game = first.experiment.game.clone();
    shards.sort_by_key(|(_, h, _)| h.shard.map(|s| s.index));
    super::with_game(
        &game,
        Merge {
            shards,
            args: &args,
        },
    )?
}
