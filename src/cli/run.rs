//! `koom run`: an experiment from a config and flags, written to an output folder.

use std::io::IsTerminal as _;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use engine::{Clock, Game, GameVisitor};
use indicatif::{ProgressBar, ProgressStyle};
use reports::{GamesCsv, RunInfo};
use tuner::config::{Experiment, ExperimentFile, Plan};
use tuner::runner::{Hooks, run as run_plan};
use tuner::summary::summarize;

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

pub fn progress_bar(total: u64, quiet: bool, unit: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    let template = format!("{{bar:40}} {{pos}}/{{len}} {unit} {{per_sec}} ETA {{eta}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

struct RunGame<'a> {
    exp: &'a Experiment,
    quiet: bool,
}

impl GameVisitor for RunGame<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let exp = self.exp;
        let plan = Plan::<G>::new(exp)?;
        let out = exp.out.as_path();
        reports::check_writable_dir(out)?;
        let mut games_csv = if exp.games_csv {
            Some(GamesCsv::create(
                &out.join("games.csv"),
                &plan.labels,
                G::REASONS,
            )?)
        } else {
            None
        };
        let bar = progress_bar(plan.games(), self.quiet, "games");
        let clock = WallClock::new();
        let interrupt = interrupt_flag();
        let hooks = Hooks {
            progress: &|n| bar.inc(n),
            interrupt,
            clock: &clock,
        };
        let started = Instant::now();
        let mut sink =
            |row: &tuner::tally::GameRow| games_csv.as_mut().map_or(Ok(()), |csv| csv.push(row));
        let result = run_plan(
            &plan,
            0..plan.groups,
            exp.threads,
            &hooks,
            exp.games_csv.then_some(&mut sink as _),
        )
        .context("writing games.csv")?;
        bar.finish_and_clear();
        let elapsed = started.elapsed().as_secs_f64();
        let summary = summarize(&plan, &exp.time_control, &result.tally, result.partial);
        let threads = if exp.threads == 0 {
            rayon_threads()
        } else {
            exp.threads
        };
        let info = RunInfo {
            elapsed_s: elapsed,
            games_per_s: result.tally.games as f64 / elapsed.max(1e-9),
            threads,
            host: reports::host_name(),
            koom_version: env!("CARGO_PKG_VERSION"),
        };
        if let Some(csv) = games_csv {
            csv.commit()?;
        }
        reports::write_atomic(
            &out.join("summary.csv"),
            &reports::summary_csv(&summary.by_agent, &summary.by_seat)?,
        )?;
        reports::write_atomic(
            &out.join("summary.json"),
            reports::summary_json(&summary, &info)?.as_bytes(),
        )?;
        if !self.quiet {
            print!("{}", reports::terminal_table(&summary));
            println!(
                "  {} games in {elapsed:.1} s ({:.0} games/s, {threads} threads)",
                result.tally.games, info.games_per_s
            );
        }
        eprintln!("results written to {}", display_dir(out));
        Ok(if result.partial {
            ExitCode::from(130)
        } else {
            ExitCode::SUCCESS
        })
    }
}

fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn display_dir(dir: &Path) -> String {
    dir.display().to_string()
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
            quiet: args.quiet,
        },
    )?
}
