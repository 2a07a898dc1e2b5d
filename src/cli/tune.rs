//! `koom tune`: SPSA tuning of a level's weight set, with checkpoints, outputs and verification.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context as _, bail};
use engine::{Game, GameVisitor};
use reports::plot::{Convergence, Series};
use tuner::atomic::lock_output_dir;
use tuner::observer::Watch as _;
use tuner::strength::{count_unit, played};
use tuner::tuning::tune::{
    Checkpoint, ResumeError, TuneFile, TuneState, TuneSummary, Tuner, VerificationSummary,
    ZeroSignal,
};

use super::args::TuneArgs;
use super::live::{Live, interrupted, run_info};

const CHECKPOINT: &str = "checkpoint.json";
const WEIGHTS: &str = "tuned.toml";

pub fn tune(args: TuneArgs) -> anyhow::Result<ExitCode> {
    let mut file = TuneFile::load(&args.config)?;
    file.threads = args.threads.or(file.threads);
    file.iterations = args.iterations.unwrap_or(file.iterations);
    file.pairs = args.pairs.or(file.pairs);
    file.openings = args.openings.openings.clone().or(file.openings);
    file.openings_order = args.openings.openings_order.or(file.openings_order);
    file.options = super::args::with_options(file.options.take(), &args.options);
    if args.max_time.is_some_and(|t| t.is_nan() || t <= 0.0) {
        bail!("--max-time must be a positive number of seconds");
    }
    let game = file.game.clone();
    engine::visit_game(&game, TuneGame { file, args })?
}

struct TuneGame {
    file: TuneFile,
    args: TuneArgs,
}

impl GameVisitor for TuneGame {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let tuner = Tuner::<G>::new(&self.file)?;
        let out = self
            .args
            .out
            .clone()
            .or_else(|| self.file.out.clone())
            .unwrap_or_else(|| {
                PathBuf::from("koom-results").join(format!(
                    "tune-{}-{}",
                    G::NAME,
                    tuner.spec.level_name()
                ))
            });
        let _lock = lock_output_dir(&out)?;
        let mut state = initial_state(&tuner, &out, self.args.resume)?;
        let started = Instant::now();
        let played_before = state.games();
        let deadline = self
            .args
            .max_time
            .map(|t| started + std::time::Duration::from_secs_f64(t));
        let stopped = tune_loop(&tuner, &mut state, &out, self.args.quiet, deadline)?;
        let n = tuner.spec.settings.iterations;
        if stopped {
            errln!(
                "interrupted after {} of {n} iterations; the checkpoint in {} continues it: koom tune {} --resume --out {}",
                state.done(),
                out.display(),
                self.args.config.display(),
                out.display()
            );
            return Ok(interrupted());
        }
        let weights = out.join(WEIGHTS);
        reports::write_atomic(
            &weights,
            tuner::agents::weights_toml(G::NAME, tuner.spec.set, &state.theta).as_bytes(),
        )?;
        write_plots(&tuner, &state, &out)?;
        print_theta(&tuner, &state);
        let verification = verify(&tuner, &state, self.args.quiet)?;
        let partial = verification.as_ref().is_some_and(|v| v.partial);
        let summary = TuneSummary::new(&tuner, &state, weights.display().to_string(), verification);
        let verify_games = summary.verification.as_ref().map_or(0, |v| v.games_played);
        let info = run_info(
            state.games() - played_before + verify_games,
            Some(started),
            tuner.spec.threads,
        );
        // Tuning plays koom's own levels only: no outside player can fail.
        let failures = tuner::interop::external::EngineFailures::default();
        reports::write_atomic(
            &out.join("summary.json"),
            reports::summary_json(&summary, &failures, &info)?.as_bytes(),
        )?;
        outln!(
            "  tuned weights: {} (use as {}@{})",
            weights.display(),
            tuner.spec.level_name(),
            weights.display()
        );
        note!("results written to {}", out.display());
        Ok(if partial {
            interrupted()
        } else {
            ExitCode::SUCCESS
        })
    }
}

/// The start, or the checkpoint's state with `--resume`. A checkpoint is never overwritten
/// without `--resume`, and one that cannot be read is reported and left in place.
fn initial_state<G: Game>(tuner: &Tuner<G>, out: &Path, resume: bool) -> anyhow::Result<TuneState> {
    let path = out.join(CHECKPOINT);
    let shown = path.display();
    if !path.exists() {
        if resume {
            note!("no checkpoint at {shown}: starting at iteration 1");
        }
        return Ok(tuner.start());
    }
    if !resume {
        bail!("{shown} holds a tuning run: add --resume to continue it, or choose another --out");
    }
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {shown}"))?;
    let corrupt = |why: &str| {
        anyhow::anyhow!(
            "checkpoint {shown} is corrupt ({why}); it is left as it is: delete it to start over"
        )
    };
    let checkpoint = Checkpoint::parse(&text).map_err(|why| corrupt(&why))?;
    match tuner.resume(checkpoint) {
        Ok(state) => {
            let n = tuner.spec.settings.iterations;
            if state.done() < n {
                note!("resuming at iteration {} of {n}", state.done() + 1);
            } else {
                note!("{shown} holds all {n} iterations: writing the results again");
            }
            Ok(state)
        }
        Err(ResumeError::OtherConfig { found, expected }) => bail!(
            "checkpoint {shown} belongs to another config (hash {found}, this config {expected}): resume with the config that wrote it, or choose another --out"
        ),
        Err(ResumeError::Corrupt(why)) => Err(corrupt(&why)),
    }
}

/// The iterations, each followed by `tuning.csv` and the checkpoint. Returns whether Ctrl-C
/// stopped it (the iteration in flight is dropped: resuming plays it again, identically).
fn tune_loop<G: Game>(
    tuner: &Tuner<G>,
    state: &mut TuneState,
    out: &Path,
    quiet: bool,
    deadline: Option<Instant>,
) -> anyhow::Result<bool> {
    let n = tuner.spec.settings.iterations;
    let mut live = Live::new(n * tuner.games_per_iteration(), quiet);
    let bar = live.bar.clone();
    if let Some(style) =
        super::live::bar_style("{bar:40} {pos}/{len} games {rate} ETA {eta}\n{msg}")
    {
        bar.set_style(style);
    }
    bar.set_position(state.games());
    while state.done() < n {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            bar.finish_and_clear();
            note!(
                "--max-time reached after {} of {n} iterations: finishing with the weights reached (--resume continues the iterations)",
                state.done()
            );
            return Ok(false);
        }
        bar.set_message(format!(
            "iteration {}/{n}, θ {}",
            state.done() + 1,
            theta_text(tuner, state)
        ));
        if live.interrupted() || !tuner.iterate(state, &mut live)? {
            bar.abandon();
            return Ok(true);
        }
        write_csv(tuner, state, out)?;
        reports::write_atomic(
            &out.join(CHECKPOINT),
            tuner.checkpoint(state).to_json().as_bytes(),
        )?;
    }
    bar.finish_and_clear();
    if let Some(d) = deadline {
        // Without this line a `--max-time` that was never reached reads as the time the run took.
        note!(
            "all {n} iterations done with {:.0} s of --max-time left: raise --iterations (or --pairs) to use the time",
            d.saturating_duration_since(Instant::now()).as_secs_f64()
        );
    }
    // A run resumed at its end (or with no iteration left) still leaves a complete CSV.
    write_csv(tuner, state, out)?;
    Ok(false)
}

fn theta_text<G: Game>(tuner: &Tuner<G>, state: &TuneState) -> String {
    tuner
        .spsa
        .params
        .iter()
        .map(|p| format!("{} {:.3}", p.name, state.theta[p.index]))
        .collect::<Vec<_>>()
        .join(", ")
}

fn write_csv<G: Game>(tuner: &Tuner<G>, state: &TuneState, out: &Path) -> std::io::Result<()> {
    let mut text = String::new();
    for row in tuner.csv_rows(state) {
        text.push_str(&reports::csv_line(&row));
        text.push('\n');
    }
    reports::write_atomic(&out.join("tuning.csv"), text.as_bytes())
}

fn write_plots<G: Game>(tuner: &Tuner<G>, state: &TuneState, out: &Path) -> anyhow::Result<()> {
    let spec = &tuner.spec;
    let figure = Convergence {
        title: format!(
            "{} {} ({}): SPSA, {} iterations of {} seed groups",
            G::NAME,
            spec.level_name(),
            spec.set.name,
            state.done(),
            spec.pairs
        ),
        x_label: "iteration".into(),
        y_label: None,
        series: tuner
            .spsa
            .params
            .iter()
            .enumerate()
            .map(|(j, p)| Series {
                name: p.name.to_owned(),
                min: p.min,
                max: p.max,
                values: std::iter::once(spec.start[p.index])
                    .chain(state.history.iter().map(|r| r.theta[j]))
                    .collect(),
            })
            .collect(),
    };
    reports::write_atomic(&out.join("convergence.svg"), figure.svg()?.as_bytes())?;
    Ok(())
}

fn print_theta<G: Game>(tuner: &Tuner<G>, state: &TuneState) {
    let spec = &tuner.spec;
    outln!(
        "{} {} tuned by SPSA: {} iterations, {} games, seed {}",
        G::NAME,
        spec.level_name(),
        state.done(),
        state.games(),
        spec.seed
    );
    let zero = ZeroSignal::of(state);
    outln!(
        "  zero-signal iterations (θ+ and θ− scored the same, θ unchanged): {} of {} ({:.1}%)",
        zero.iterations,
        state.done(),
        100.0 * zero.share
    );
    if zero.warning {
        note!(
            "warning: {:.1}% of the iterations carried no signal, so θ moved on few of them: the perturbation ({} steps at the end) changes too few decisions; raise c_end in the config, or --pairs (now {})",
            100.0 * zero.share,
            spec.settings.c_end_steps,
            spec.pairs
        );
    }
    for p in &tuner.spsa.params {
        outln!(
            "  {:<24} {:>9.4} -> {:>9.4}  (range {}..={}, step {})",
            p.name,
            spec.start[p.index],
            state.theta[p.index],
            p.min,
            p.max,
            p.step
        );
    }
}

/// The gate of the tuned weights against the start on fresh seeds; `None` when disabled.
fn verify<G: Game>(
    tuner: &Tuner<G>,
    state: &TuneState,
    quiet: bool,
) -> anyhow::Result<Option<VerificationSummary>> {
    if tuner.spec.verify.games == 0 {
        return Ok(None);
    }
    let plan = tuner.verify_plan(&state.theta)?;
    let mut live = Live::new(plan.games(), quiet).verification();
    let gate = tuner.verify(&plan, &mut live)?;
    live.bar.finish_and_clear();
    let summary = VerificationSummary::new(plan.seed, &gate);
    let e = &summary.head_to_head.estimate;
    let sprt = &summary.sprt;
    outln!(
        "  verification, tuned vs start on fresh seeds (seed {}): {}",
        summary.seed,
        played(&gate.tally)
    );
    outln!("    {e} (nElo per {})", count_unit::<G>().0);
    if let Some(corrected) = &sprt.elo_sequential {
        outln!("    {corrected}");
    }
    outln!(
        "    SPRT [{}, {}] normalized Elo: LLR {:.3} (bounds {:.3}, {:.3}): {}",
        sprt.bounds.elo0,
        sprt.bounds.elo1,
        sprt.llr,
        sprt.lower,
        sprt.upper,
        summary.verdict
    );
    Ok(Some(summary))
}
