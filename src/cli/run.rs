//! `koom run`: an experiment from a config and flags, written to an output folder.

use std::io::IsTerminal as _;
use std::ops::Range;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use engine::{Clock, Game, GameVisitor};
use indicatif::{ProgressBar, ProgressStyle};
use reports::{GamesCsv, RunInfo};
use tuner::config::{Experiment, ExperimentFile, Plan};
use tuner::partial::{Partial, Shard, experiment_hash, read_header, read_partial};
use tuner::runner::{Hooks, add_range, remaining, run_ranges};
use tuner::strength::{match_plan, play_matches};
use tuner::summary::summarize;
use tuner::tally::RunTally;
use tuner::tournament::{Format, check_agents, summarize_tournament};

use super::args::RunArgs;

/// Wall-clock time for `--time-control player`.
#[derive(Debug)]
pub struct WallClock(Instant);

impl WallClock {
    pub fn new() -> Self {
        Self(Instant::now())
    }
}

impl Clock for WallClock {
    fn now_ms(&self) -> u64 {
        u64::try_from(self.0.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// The Ctrl-C flag, installed once per process.
pub fn interrupt_flag() -> &'static Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler_flag = Arc::clone(&flag);
        // Without a handler Ctrl-C simply kills the process: nothing complete-looking is left
        // behind either, since results are renamed into place only at the end.
        let _ = ctrlc::set_handler(move || handler_flag.store(true, Ordering::SeqCst));
        flag
    })
}

fn progress_bar(total: u64, quiet: bool, unit: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    if let Some(style) = bar_style(&format!(
        "{{bar:40}} {{pos}}/{{len}} {unit} {{rate}} ETA {{eta}}"
    )) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A progress style whose `{rate}` reads `1,234 games/s`, or `3.2 s/game` below one a second
/// (indicatif's `{per_sec}` prints four decimals, and `0/s` for slow games).
pub fn bar_style(template: &str) -> Option<ProgressStyle> {
    let style = ProgressStyle::with_template(template).ok()?;
    Some(style.with_key(
        "rate",
        |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&rate_text(state.per_sec()));
        },
    ))
}

/// `per_sec` games a second, for people.
fn rate_text(per_sec: f64) -> String {
    if per_sec >= 1.0 {
        let whole = per_sec.round() as u64;
        let digits = whole.to_string();
        let mut grouped = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                grouped.push(',');
            }
            grouped.push(c);
        }
        format!("{grouped} games/s")
    } else if per_sec > 0.0 {
        format!("{:.1} s/game", 1.0 / per_sec)
    } else {
        "-".to_owned()
    }
}

/// What a command that plays games shows while it runs: a progress bar, the wall clock that
/// `--time-control player` reads, and the Ctrl-C flag, as the runner's hooks.
pub struct Live {
    pub bar: ProgressBar,
    progress: Box<dyn Fn(u64) + Sync>,
    clock: WallClock,
}

impl Live {
    pub fn new(total_games: u64, quiet: bool) -> Self {
        let bar = progress_bar(total_games, quiet, "games");
        let counter = bar.clone();
        Self {
            bar,
            progress: Box::new(move |n| counter.inc(n)),
            clock: WallClock::new(),
        }
    }

    pub fn hooks(&self) -> Hooks<'_> {
        Hooks {
            progress: &*self.progress,
            interrupt: interrupt_flag(),
            clock: &self.clock,
        }
    }
}

struct RunGame<'a> {
    exp: &'a Experiment,
    args: &'a RunArgs,
}

/// Seconds between two checkpoints of a `--resume`-able run.
const CHECKPOINT_EVERY_S: f64 = 5.0;

impl GameVisitor for RunGame<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let (exp, args) = (self.exp, self.args);
        if let Some(format) = &exp.format {
            if args.shard.is_some() || args.resume || exp.games_csv {
                bail!(
                    "--shard, --resume and --games-csv apply to single experiments, not to a `format = \"{format}\"` tournament"
                );
            }
            return tournament::<G>(exp, *format, args.quiet);
        }
        let plan = Plan::<G>::new(exp)?;
        let out = exp.out.as_path();
        let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
        let groups = shard.map_or(0..plan.groups, |s| s.groups(plan.groups));
        reports::check_writable_dir(out)?;
        let checkpoint_path = out.join("checkpoint.json");
        let (mut done, restored) = match (args.resume, checkpoint_path.exists()) {
            (true, true) => {
                let checkpoint = load_checkpoint(&checkpoint_path, exp, &plan, shard, &groups)?;
                if exp.games_csv {
                    bail!(
                        "--games-csv cannot continue an interrupted games.csv: rerun without --resume, or without --games-csv"
                    );
                }
                note!("resuming from {}", checkpoint_path.display());
                (checkpoint.done, Some(checkpoint.tally))
            }
            (true, false) => {
                note!(
                    "no checkpoint in {}: starting from the beginning",
                    out.display()
                );
                (Vec::new(), None)
            }
            (false, exists) => {
                if exists {
                    note!(
                        "note: starting over; the checkpoint in {} is replaced (--resume continues it)",
                        out.display()
                    );
                }
                (Vec::new(), None)
            }
        };
        let mut games_csv = if exp.games_csv {
            Some(GamesCsv::create(
                &out.join("games.csv"),
                &plan.labels,
                G::REASONS,
            )?)
        } else {
            None
        };
        let todo = remaining(groups.clone(), &done);
        let already: u64 = done.iter().map(|r| r.end - r.start).sum::<u64>() * plan.seats() as u64;
        let live = Live::new(
            (groups.end - groups.start) * plan.seats() as u64,
            args.quiet,
        );
        live.bar.inc(already);
        let hooks = live.hooks();
        let started = Instant::now();
        let mut last_checkpoint = Instant::now();
        let checkpoint =
            |tally: &RunTally<G>, new_done: &[Range<u64>]| -> std::io::Result<Partial<G>> {
                let mut all = tally.clone();
                if let Some(r) = &restored {
                    all.merge(r);
                }
                let mut covered = done.clone();
                new_done
                    .iter()
                    .for_each(|r| add_range(&mut covered, r.clone()));
                Ok(Partial::new(
                    &plan,
                    exp,
                    shard,
                    groups.clone(),
                    covered,
                    all,
                ))
            };
        let write_checkpoint = |partial: &Partial<G>| -> std::io::Result<()> {
            reports::write_atomic(&checkpoint_path, &partial.to_json())
        };
        let mut on_wave = |tally: &RunTally<G>, new_done: &[Range<u64>]| -> std::io::Result<()> {
            if last_checkpoint.elapsed().as_secs_f64() >= CHECKPOINT_EVERY_S {
                write_checkpoint(&checkpoint(tally, new_done)?)?;
                last_checkpoint = Instant::now();
            }
            Ok(())
        };
        let mut sink =
            |row: &tuner::tally::GameRow| games_csv.as_mut().map_or(Ok(()), |csv| csv.push(row));
        let result = run_ranges(
            &plan,
            &todo,
            exp.threads,
            &hooks,
            exp.games_csv.then_some(&mut sink as _),
            Some(&mut on_wave),
        )
        .context("writing results")?;
        live.bar.finish_and_clear();
        let total = checkpoint(&result.tally, &result.done)?;
        done.clone_from(&total.done);
        if let Some(csv) = games_csv {
            csv.commit()?;
        }
        let finished = total.is_complete();
        if !finished {
            write_checkpoint(&total)?;
            eprintln!(
                "interrupted: checkpoint written to {} (continue with --resume)",
                checkpoint_path.display()
            );
        }
        let elapsed = started.elapsed().as_secs_f64();
        let info = run_info(result.tally.games, elapsed, exp.threads);
        if let Some(shard) = shard {
            if finished {
                reports::write_atomic(&out.join("shard.json"), &total.to_json())?;
                remove_checkpoint(&checkpoint_path);
                note!(
                    "shard {}/{} ({} games) written to {}; combine the shards with `koom merge`",
                    shard.index,
                    shard.count,
                    total.tally.games,
                    out.join("shard.json").display()
                );
            }
            return Ok(if finished {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(130)
            });
        }
        write_results(&plan, exp, &total.tally, !finished, &info, args.quiet)?;
        if finished {
            remove_checkpoint(&checkpoint_path);
        }
        Ok(if finished {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(130)
        })
    }
}

/// Plays a round-robin or gauntlet and writes its summary.
fn tournament<G: Game>(exp: &Experiment, format: Format, quiet: bool) -> anyhow::Result<ExitCode> {
    check_agents(&exp.agents)?;
    let pairs = format.pairs(exp.agents.len());
    // Check every agent before playing anything.
    for &(a, b) in &pairs {
        match_plan::<G>(exp, &exp.agents[a], &exp.agents[b])?;
    }
    reports::check_writable_dir(&exp.out)?;
    let per_pairing = match_plan::<G>(exp, &exp.agents[0], &exp.agents[1])?.games();
    let live = Live::new(per_pairing * pairs.len() as u64, quiet);
    let hooks = live.hooks();
    let started = Instant::now();
    let matches = play_matches::<G>(exp, &exp.agents, &pairs, exp.threads, &hooks)?;
    live.bar.finish_and_clear();
    let summary = summarize_tournament(exp, format, &matches)?;
    let games = matches.results.iter().map(|(_, _, t)| t.games).sum();
    let info = run_info(games, started.elapsed().as_secs_f64(), exp.threads);
    reports::write_atomic(
        &exp.out.join("summary.csv"),
        &reports::tournament_csv(&summary)?,
    )?;
    reports::write_atomic(
        &exp.out.join("summary.json"),
        reports::summary_json(&summary, &info)?.as_bytes(),
    )?;
    super::report::write_report(&exp.out)?;
    if !quiet {
        out!("{}", reports::tournament_table(&summary));
    }
    note!("results written to {}", exp.out.display());
    Ok(if matches.partial {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

fn remove_checkpoint(path: &Path) {
    // A leftover checkpoint is harmless (a later run without --resume replaces it).
    let _ = std::fs::remove_file(path);
}

/// Reads the checkpoint of this very experiment and shard, or says why it cannot be used.
fn load_checkpoint<G: Game>(
    path: &Path,
    exp: &Experiment,
    plan: &Plan<G>,
    shard: Option<Shard>,
    groups: &Range<u64>,
) -> anyhow::Result<Partial<G>> {
    let (header, value) = read_header(path)?;
    let hash = experiment_hash(exp, plan);
    if header.experiment_hash != hash || header.shard != shard {
        bail!(
            "{} belongs to another experiment or shard (hash {}, this run {hash}); use another --out or run without --resume",
            path.display(),
            header.experiment_hash
        );
    }
    let partial = read_partial::<G>(path, value)?;
    if partial.groups != *groups {
        bail!("{} covers other seed groups than this run", path.display());
    }
    Ok(partial)
}

/// `RunInfo` for a run of `games` games in `elapsed` seconds.
pub fn run_info(games: u64, elapsed: f64, threads: usize) -> RunInfo {
    RunInfo {
        elapsed_s: elapsed,
        games_per_s: games as f64 / elapsed.max(1e-9),
        threads: if threads == 0 {
            rayon_threads()
        } else {
            threads
        },
        host: reports::host_name(),
        koom_version: env!("CARGO_PKG_VERSION"),
    }
}

/// Writes `summary.json` and `summary.csv` and prints the table.
pub fn write_results<G: Game>(
    plan: &Plan<G>,
    exp: &Experiment,
    tally: &RunTally<G>,
    partial: bool,
    info: &RunInfo,
    quiet: bool,
) -> anyhow::Result<()> {
    let out = exp.out.as_path();
    let summary = summarize(plan, exp.time_control, tally, partial);
    reports::write_atomic(&out.join("summary.csv"), &reports::summary_csv(&summary)?)?;
    reports::write_atomic(
        &out.join("summary.json"),
        reports::summary_json(&summary, info)?.as_bytes(),
    )?;
    super::report::write_report(out)?;
    if !quiet {
        out!("{}", reports::terminal_table(&summary));
        outln!(
            "  {} games in {:.1} s ({}, {} threads)",
            tally.games,
            info.elapsed_s,
            rate_text(info.games_per_s),
            info.threads
        );
    }
    note!("results written to {}", out.display());
    Ok(())
}

fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

pub fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    let flags = ExperimentFile {
        games: args.games,
        threads: args.threads,
        out: args.out.clone(),
        games_csv: args.games_csv.then_some(true),
        ..ExperimentFile::default()
    };
    let exp = args.experiment.experiment(flags)?.resolve();
    super::with_game(
        &exp.game,
        RunGame {
            exp: &exp,
            args: &args,
        },
    )?
}
