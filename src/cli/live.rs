//! What every command that plays games shares: the wall clock, the Ctrl-C / SIGTERM flag, the progress
//! bar, the `run` object of `summary.json`, and writing a run's results.

use std::io::IsTerminal as _;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use engine::{Clock, Game};
use indicatif::{ProgressBar, ProgressStyle};
use reports::{GamesCsv, RunInfo};
use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::flag;
use tuner::batch::partial::Effort;
use tuner::batch::records::{RecordsFile, record_of};
use tuner::batch::summary::summarize;
use tuner::batch::tally::{GameRow, RunTally};
use tuner::config::{Experiment, Plan};
use tuner::interop::external::EngineFailures;
use tuner::lines::LineFile;
use tuner::observer::{Observer, Watch};
use tuner::strength::played;
use tuner::strength::stats::Sprt;

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

/// The flags that SIGINT (Ctrl-C) and SIGTERM (how Slurm and Kubernetes stop a job) set.
struct Signals {
    /// Either signal: stop after the games in flight.
    stop: Arc<AtomicBool>,
    /// SIGTERM alone, for the exit status.
    term: Arc<AtomicBool>,
}

fn signals() -> &'static Signals {
    static SIGNALS: OnceLock<Signals> = OnceLock::new();
    SIGNALS.get_or_init(|| {
        let signals = Signals {
            stop: Arc::new(AtomicBool::new(false)),
            term: Arc::new(AtomicBool::new(false)),
        };
        // Without the handlers a signal simply kills the process: nothing complete-looking is
        // left behind either, since results are renamed into place only at the end.
        for signal in [SIGINT, SIGTERM] {
            let _ = flag::register(signal, Arc::clone(&signals.stop));
        }
        let _ = flag::register(SIGTERM, Arc::clone(&signals.term));
        fast_exit();
        signals
    })
}

/// A second signal, once the first has set the flag, ends koom at once, and the outside
/// engines' process groups with it: the exit runs no destructors, which would otherwise end
/// them. A thread waits for the signals, since a signal handler may not take the list's lock.
fn fast_exit() {
    let Ok(mut waiting) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        let mut first = true;
        for signal in waiting.forever() {
            if std::mem::take(&mut first) {
                continue;
            }
            tuner::interop::external::end_all();
            std::process::exit(if signal == SIGTERM { 143 } else { 130 });
        }
    });
}

/// The flag that Ctrl-C and SIGTERM set, installed once per process.
pub fn interrupt_flag() -> &'static Arc<AtomicBool> {
    &signals().stop
}

/// The exit status of a command stopped by a signal: 143 after SIGTERM, else 130 (Ctrl-C), as
/// a shell reports a process killed by the signal.
pub fn interrupted_status() -> u8 {
    if signals().term.load(Ordering::SeqCst) {
        143
    } else {
        130
    }
}

/// [`interrupted_status`] as the process's exit code.
pub fn interrupted() -> ExitCode {
    ExitCode::from(interrupted_status())
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
pub fn rate_text(per_sec: f64) -> String {
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

/// The terminal's observer of a command that plays games: a progress bar, the wall clock that
/// `--time-control player` reads, the Ctrl-C flag, and the per-game files (`games.csv`, the
/// records) when asked for.
pub struct Live {
    pub bar: ProgressBar,
    clock: WallClock,
    quiet: bool,
    /// `games.csv` as it is written (`koom run --games-csv`).
    pub csv: Option<LineFile>,
    /// The `--records` file as it is written.
    pub records: Option<RecordsFile>,
    /// Put before the SPRT's state in the bar's message.
    sprt_prefix: &'static str,
    /// Whether the SPRT's state goes to standard error every few seconds when there is no bar
    /// (a CI log).
    sprt_log: bool,
    last_line: Instant,
}

impl Live {
    pub fn new(total_games: u64, quiet: bool) -> Self {
        Self {
            bar: progress_bar(total_games, quiet, "games"),
            clock: WallClock::new(),
            quiet,
            csv: None,
            records: None,
            sprt_prefix: "",
            sprt_log: true,
            last_line: Instant::now(),
        }
    }

    /// Writes every game to `records` when given.
    pub fn with_records(self, records: Option<RecordsFile>) -> Self {
        Self { records, ..self }
    }

    /// Shows the SPRT's state as `koom tune`'s verification: on the bar alone, so named.
    pub fn verification(self) -> Self {
        Self {
            sprt_prefix: "verification: ",
            sprt_log: false,
            ..self
        }
    }
}

impl Watch for Live {
    fn progress(&self, games: u64) {
        self.bar.inc(games);
    }

    fn interrupted(&self) -> bool {
        interrupt_flag().load(Ordering::Relaxed)
    }

    fn clock(&self) -> &(dyn Clock + Sync) {
        &self.clock
    }
}

impl<G: Game> Observer<G> for Live {
    fn watch(&self) -> &dyn Watch {
        self
    }

    fn wants_rows(&self) -> bool {
        self.csv.is_some() || self.records.is_some()
    }

    fn records(&self) -> Option<&RecordsFile> {
        self.records.as_ref()
    }

    fn row(&mut self, plan: &Plan<G>, row: &GameRow<G::Reason>) -> std::io::Result<()> {
        if let Some(csv) = self.csv.as_mut() {
            let fields = GamesCsv::fields(row, &plan.labels);
            csv.push(row.index, &reports::csv_line(&fields))?;
        }
        if let Some(file) = self.records.as_mut() {
            file.push(&record_of(plan, row))?;
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.csv.as_mut().map_or(Ok(()), LineFile::flush)?;
        self.records.as_mut().map_or(Ok(()), RecordsFile::flush)
    }

    fn sprt(&mut self, sprt: &Sprt, tally: &RunTally<G>) {
        let line = format!(
            "{}LLR {:.2} [{:.2}, {:.2}] after {}",
            self.sprt_prefix,
            sprt.llr,
            sprt.lower,
            sprt.upper,
            played(tally)
        );
        // On a terminal the bar shows it; in a CI log, a line every few seconds.
        if !self.bar.is_hidden() {
            self.bar.set_message(line);
        } else if self.sprt_log && !self.quiet && self.last_line.elapsed().as_secs() >= 5 {
            note!("{line}");
            self.last_line = Instant::now();
        }
    }
}

/// `RunInfo` for a run of `games` games that started at `started` (`None`: no games were
/// played here).
pub fn run_info(games: u64, started: Option<Instant>, threads: usize) -> RunInfo {
    let elapsed = started.map_or(0.0, |s| s.elapsed().as_secs_f64());
    RunInfo {
        elapsed_s: elapsed,
        games_per_s: games as f64 / elapsed.max(1e-9),
        threads: if threads == 0 {
            tuner::threads::default_threads()
        } else {
            threads
        },
        host: reports::host_name(),
        koom_version: env!("CARGO_PKG_VERSION"),
        merged: None,
    }
}

/// `RunInfo` for `koom merge`: the time is the shards' summed wall-clock time, the threads
/// their mean count, and the rate games per shard-second, as if the shards had run in turn.
pub fn merged_info(games: u64, shards: u64, effort: Effort) -> RunInfo {
    let per_wall_s = |x: f64| {
        if effort.wall_s > 0.0 {
            x / effort.wall_s
        } else {
            0.0
        }
    };
    RunInfo {
        elapsed_s: effort.wall_s,
        games_per_s: per_wall_s(games as f64),
        threads: per_wall_s(effort.thread_s).round() as usize,
        merged: Some(reports::Merged {
            shards,
            thread_s: effort.thread_s,
        }),
        ..run_info(games, None, 1)
    }
}

/// Writes `summary.json`, `summary.csv` and the report, and prints the table.
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
        reports::summary_json(&summary, &EngineFailures::of(&plan.labels, tally), info)?.as_bytes(),
    )?;
    super::report::write_report(out)?;
    if !quiet {
        out!("{}", reports::terminal_table(&summary));
        match &info.merged {
            None => outln!(
                "  {} games in {:.1} s ({}, {} threads)",
                tally.games,
                info.elapsed_s,
                rate_text(info.games_per_s),
                info.threads
            ),
            Some(merged) => outln!(
                "  {} games merged from {} shards that took {:.1} s together ({:.1} thread-seconds)",
                tally.games,
                merged.shards,
                info.elapsed_s,
                merged.thread_s
            ),
        }
    }
    note!(
        "results written to {}; report written to {}",
        out.display(),
        out.join("report.html").display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::rate_text;

    #[test]
    fn rates_read_as_people_write_them() {
        assert_eq!(rate_text(22_549.725_3), "22,550 games/s");
        assert_eq!(rate_text(999.6), "1,000 games/s");
        assert_eq!(rate_text(7.4), "7 games/s");
        assert_eq!(rate_text(0.25), "4.0 s/game");
        assert_eq!(rate_text(0.0), "-");
    }
}
