//! One experiment, or one shard of it, as a resumable session: it finds and checks the
//! checkpoint to resume from, plays the seed groups left, writes a checkpoint every few seconds
//! and when interrupted, and leaves `shard.json` behind when a shard is done. The command line
//! only shows progress and writes the summary (as [`crate::tuning::tune`] does for tuning runs).

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Instant;

use engine::Game;

use crate::InputError;
use crate::atomic::write_atomic;
use crate::batch::partial::{
    Effort, Header, Partial, Shard, experiment_hash, read_header, read_partial,
};
use crate::batch::runner::{add_range, remaining, run_ranges};
use crate::batch::tally::{GameRow, RunTally};
use crate::config::{Experiment, Plan};
use crate::observer::{Observer, Watch};
use crate::threads::default_threads;

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
    /// `--resume` found this shard's `shard.json`: there is nothing left to play.
    Finished,
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
    /// The time the resumed sessions took.
    restored_effort: Effort,
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
        crate::interop::external::probe_all::<G>(&plan.externals)?;
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
            restored_effort: Effort::default(),
        };
        let finished = session.check_shard_file()?;
        let opening = match (resume, session.checkpoint.exists()) {
            // A requeued task of a finished shard keeps the result instead of replaying it.
            (true, _) if finished => Opening::Finished,
            (true, true) => {
                let partial = session.load_checkpoint()?;
                session.done = partial.done;
                session.restored = Some(partial.tally);
                session.restored_effort = partial.effort;
                Opening::Resumed
            }
            (true, false) => Opening::NothingToResume,
            (false, true) => Opening::Replacing,
            (false, false) => Opening::Fresh,
        };
        Ok((session, opening))
    }

    /// Where a finished shard's result is written.
    #[must_use]
    pub fn shard_path(&self) -> PathBuf {
        self.exp.out.join("shard.json")
    }

    /// Whether this shard's `shard.json` is in the folder already. Refuses a folder whose
    /// `shard.json` is another shard's or experiment's (shards given one `--out`, run one
    /// after the other), so that it is never overwritten.
    fn check_shard_file(&self) -> Result<bool, InputError> {
        let path = self.shard_path();
        if self.shard.is_none() || !path.exists() {
            return Ok(false);
        }
        let (header, _) = read_header(&path)?;
        match self.foreign(&header) {
            Some(what) => Err(InputError::new(format!(
                "{} holds the result of {what}; give each shard its own --out",
                path.display()
            ))),
            None => Ok(true),
        }
    }

    /// What makes a partial file another run's: its experiment or its shard, beside this
    /// run's; `None` when it is this run's.
    fn foreign(&self, header: &Header) -> Option<String> {
        let hash = experiment_hash(self.exp, &self.plan);
        let name = |shard: Option<Shard>| {
            shard.map_or("the unsharded run".to_owned(), |s| {
                format!("shard {}/{}", s.index, s.count)
            })
        };
        if header.experiment_hash != hash {
            Some(format!(
                "another experiment (hash {}, this run {hash})",
                header.experiment_hash
            ))
        } else if header.shard != self.shard {
            Some(format!(
                "{} (this run: {})",
                name(header.shard),
                name(self.shard)
            ))
        } else {
            None
        }
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

    /// Whether the resumed checkpoint counts game `index` (its seed group was played).
    #[must_use]
    pub fn counts_game(&self, index: u64) -> bool {
        let group = index / self.plan.rotations() as u64;
        self.done.iter().any(|r| r.contains(&group))
    }

    /// Plays the groups left on `threads` threads, checkpointing as it goes, and writes the
    /// checkpoint when interrupted; `observer` sees the run as [`run_ranges`] tells it.
    pub fn play(
        &self,
        threads: usize,
        observer: &mut dyn Observer<G>,
    ) -> std::io::Result<SessionResult<G>> {
        let todo = remaining(self.groups.clone(), &self.done);
        let workers = if threads == 0 {
            default_threads()
        } else {
            threads
        };
        let mut checkpointing = Checkpointing {
            session: self,
            inner: observer,
            started: Instant::now(),
            workers,
            last_checkpoint: Instant::now(),
        };
        let result = run_ranges(&self.plan, &todo, threads, &mut checkpointing)?;
        let total = self.total(&result.tally, &result.done, checkpointing.spent());
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
        let path = self.shard_path();
        write_atomic(&path, &result.total.to_json()?)?;
        self.close();
        Ok(path)
    }

    /// Removes the checkpoint of a finished run, once its results are written.
    pub fn close(&self) {
        // A leftover checkpoint is harmless (a later run without --resume replaces it).
        let _ = std::fs::remove_file(&self.checkpoint);
    }

    /// The counts of this session's new groups with the resumed ones, and the time taken.
    fn total(&self, tally: &RunTally<G>, new_done: &[Range<u64>], spent: Effort) -> Partial<G> {
        let mut all = tally.clone();
        if let Some(r) = &self.restored {
            all.merge(r);
        }
        let mut covered = self.done.clone();
        for r in new_done {
            add_range(&mut covered, r.clone());
        }
        Partial {
            effort: self.restored_effort.plus(spent),
            ..Partial::new(
                &self.plan,
                self.exp,
                self.shard,
                self.groups.clone(),
                covered,
                all,
            )
        }
    }

    fn write_checkpoint(&self, partial: &Partial<G>) -> std::io::Result<()> {
        write_atomic(&self.checkpoint, &partial.to_json()?)
    }

    /// Reads the checkpoint of this very experiment and shard, or says why it cannot be used.
    fn load_checkpoint(&self) -> Result<Partial<G>, InputError> {
        let path = &self.checkpoint;
        let (header, value) = read_header(path)?;
        if let Some(what) = self.foreign(&header) {
            return Err(InputError::new(format!(
                "{} belongs to {what}; use another --out or run without --resume",
                path.display()
            )));
        }
        read_partial::<G>(path, value, &self.plan)
    }
}
/// A session's observer: passes everything on to the caller's, and writes a checkpoint after a
/// wave once [`CHECKPOINT_EVERY_S`] have passed since the last.
struct Checkpointing<'s, 'a, G: Game> {
    session: &'s RunSession<'a, G>,
    inner: &'s mut dyn Observer<G>,
    started: Instant,
    workers: usize,
    last_checkpoint: Instant,
}

impl<G: Game> Checkpointing<'_, '_, G> {
    /// The time this session has taken so far.
    fn spent(&self) -> Effort {
        let wall_s = self.started.elapsed().as_secs_f64();
        Effort {
            wall_s,
            thread_s: wall_s * self.workers as f64,
        }
    }
}

impl<G: Game> Observer<G> for Checkpointing<'_, '_, G> {
    fn watch(&self) -> &dyn Watch {
        self.inner.watch()
    }

    fn wants_rows(&self) -> bool {
        self.inner.wants_rows()
    }

    fn records(&self) -> Option<&crate::batch::records::RecordsFile> {
        self.inner.records()
    }

    fn row(&mut self, plan: &Plan<G>, row: &GameRow<G::Reason>) -> std::io::Result<()> {
        self.inner.row(plan, row)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }

    fn wave(&mut self, tally: &RunTally<G>, done: &[Range<u64>]) -> std::io::Result<()> {
        self.inner.wave(tally, done)?;
        if self.last_checkpoint.elapsed().as_secs_f64() >= CHECKPOINT_EVERY_S {
            let total = self.session.total(tally, done, self.spent());
            self.session.write_checkpoint(&total)?;
            self.last_checkpoint = Instant::now();
        }
        Ok(())
    }

    fn sprt(&mut self, sprt: &crate::strength::stats::Sprt, tally: &RunTally<G>) {
        self.inner.sprt(sprt, tally);
    }
}
