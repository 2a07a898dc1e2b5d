//! One experiment, or one shard of it, as a resumable session: it finds and checks the
//! checkpoint to resume from, plays the seed groups left, writes a checkpoint every few seconds
//! and when interrupted, and leaves `shard.json` behind when a shard is done. The command line
//! only shows progress and writes the summary (as [`crate::tune`] does for tuning runs).

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Instant;

use engine::Game;

use crate::InputError;
use crate::atomic::write_atomic;
use crate::config::{Experiment, Plan};
use crate::partial::{Partial, Shard, experiment_hash, read_header, read_partial};
use crate::runner::{Hooks, RowSink, add_range, remaining, run_ranges};
use crate::tally::RunTally;

/// Seconds between two checkpoints of a running session.
const CHECKPOINT_EVERY_S: f64 = 5.0;

/// How a session found its output folder, for the message the command prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// No checkpoint was there.
    Fresh,
    /// `--resume` continues the checkpoint.
    Resumed,
    /// `--resume` found no checkpoint: starting from the beginning.
    NothingToResume,
    /// A checkpoint is there but `--resume` was not given: it will be replaced.
    Replacing,
}

/// A run of one experiment's seed groups (all of them, or one shard's).
#[derive(Debug)]
pub struct RunSession<'a, G: Game> {
    pub plan: Plan<G>,
    exp: &'a Experiment,
    pub shard: Option<Shard>,
    /// The seed groups this session is responsible for.
    pub groups: Range<u64>,
    checkpoint: PathBuf,
    /// Groups already played by the run it resumes, and their counts.
    done: Vec<Range<u64>>,
    restored: Option<RunTally<G>>,
}

/// What a session played, with everything before it when it resumed.
#[derive(Debug)]
pub struct SessionResult<G: Game> {
    /// Every group played so far, this session's and the resumed ones.
    pub total: Partial<G>,
    /// Games played by this session alone.
    pub played: u64,
}

impl<G: Game> SessionResult<G> {
    /// Whether every group of the session has been played.
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.total.is_complete()
    }
}

impl<'a, G: Game> RunSession<'a, G> {
    /// Plans `exp` (or shard `shard` of it) in its output folder, resuming the checkpoint there
    /// when `resume` is set. The folder must exist and be writable.
    pub fn open(
        exp: &'a Experiment,
        shard: Option<Shard>,
        resume: bool,
    ) -> Result<(Self, Opening), InputError> {
        let plan = Plan::<G>::new(exp)?;
        let groups = shard.map_or(0..plan.groups, |s| s.groups(plan.groups));
        let checkpoint = exp.out.join("checkpoint.json");
        let mut session = Self {
            plan,
            exp,
            shard,
            groups,
            checkpoint,
            done: Vec::new(),
            restored: None,
        };
        let opening = match (resume, session.checkpoint.exists()) {
            (true, true) => {
                let partial = session.load_checkpoint()?;
                session.done = partial.done;
                session.restored = Some(partial.tally);
                Opening::Resumed
            }
            (true, false) => Opening::NothingToResume,
            (false, true) => Opening::Replacing,
            (false, false) => Opening::Fresh,
        };
        Ok((session, opening))
    }

    /// Where the checkpoint is written.
    #[must_use]
    pub fn checkpoint_path(&self) -> &Path {
        &self.checkpoint
    }

    /// Games in the session's groups, played or not.
    #[must_use]
    pub fn total_games(&self) -> u64 {
        (self.groups.end - self.groups.start) * self.plan.rotations() as u64
    }

    /// Games the resumed checkpoint had already played.
    #[must_use]
    pub fn games_done(&self) -> u64 {
        self.done.iter().map(|r| r.end - r.start).sum::<u64>() * self.plan.rotations() as u64
    }

    /// Plays the groups left on `threads` threads, checkpointing as it goes, and writes the
    /// checkpoint when interrupted.
    pub fn play(
        &self,
        threads: usize,
        hooks: &Hooks<'_>,
        on_row: Option<&mut RowSink<'_, G::Reason>>,
    ) -> std::io::Result<SessionResult<G>> {
        let todo = remaining(self.groups.clone(), &self.done);
        let mut last_checkpoint = Instant::now();
        let mut on_wave = |tally: &RunTally<G>, new_done: &[Range<u64>]| -> std::io::Result<()> {
            if last_checkpoint.elapsed().as_secs_f64() >= CHECKPOINT_EVERY_S {
                self.write_checkpoint(&self.total(tally, new_done))?;
                last_checkpoint = Instant::now();
            }
            Ok(())
        };
        let result = run_ranges(
            &self.plan,
            &todo,
            threads,
            hooks,
            on_row,
            Some(&mut on_wave),
        )?;
        let total = self.total(&result.tally, &result.done);
        if !total.is_complete() {
            self.write_checkpoint(&total)?;
        }
        Ok(SessionResult {
            total,
            played: result.tally.games,
        })
    }

    /// Writes a finished shard's `shard.json` and removes the checkpoint.
    pub fn write_shard(&self, result: &SessionResult<G>) -> std::io::Result<PathBuf> {
        let path = self.exp.out.join("shard.json");
        write_atomic(&path, &result.total.to_json()?)?;
        self.close();
        Ok(path)
    }

    /// Removes the checkpoint of a finished run, once its results are written.
    pub fn close(&self) {
        // A leftover checkpoint is harmless (a later run without --resume replaces it).
        let _ = std::fs::remove_file(&self.checkpoint);
    }

    /// The counts of this session's new groups with the resumed ones.
    fn total(&self, tally: &RunTally<G>, new_done: &[Range<u64>]) -> Partial<G> {
        let mut all = tally.clone();
        if let Some(r) = &self.restored {
            all.merge(r);
        }
        let mut covered = self.done.clone();
        for r in new_done {
            add_range(&mut covered, r.clone());
        }
        Partial::new(
            &self.plan,
            self.exp,
            self.shard,
            self.groups.clone(),
            covered,
            all,
        )
    }

    fn write_checkpoint(&self, partial: &Partial<G>) -> std::io::Result<()> {
        write_atomic(&self.checkpoint, &partial.to_json()?)
    }

    /// Reads the checkpoint of this very experiment and shard, or says why it cannot be used.
    fn load_checkpoint(&self) -> Result<Partial<G>, InputError> {
        let path = &self.checkpoint;
        let (header, value) = read_header(path)?;
        let hash = experiment_hash(self.exp, &self.plan);
        if header.experiment_hash != hash || header.shard != self.shard {
            return Err(InputError::new(format!(
                "{} belongs to another experiment or shard (hash {}, this run {hash}); use another --out or run without --resume",
                path.display(),
                header.experiment_hash
            )));
        }
        read_partial::<G>(path, value, &self.plan)
    }
}
