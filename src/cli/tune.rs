//! `koom tune`: SPSA tuning of a level's weight set, with checkpoints, outputs and verification.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{Context as _, bail};
use engine::{Game, GameVisitor};
use indicatif::ProgressStyle;
use reports::plot::{Convergence, Series};
use tuner::tune::{
    Checkpoint, ResumeError, TuneFile, TuneState, TuneSummary, Tuner, VerificationSummary,
};

use super::args::TuneArgs;
use super::live::{Live, interrupted, run_info};

const CHECKPOINT: &str = "checkpoint.json";
const WEIGHTS: &str = "tuned.toml";

pub fn tune(args: TuneArgs) -> anyhow::Result<ExitCode> {
    let mut file = TuneFile::load(&args.config)?;
    file.threads = args.threads.or(file.threads);
    let game = file.game.clone();
    super::with_game(&game, TuneGame { file, args })?
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
        reports::check_writable_dir(&out)?;
        let mut state = initial_state(&tuner, &out, self.args.resume)?;
        let started = Instant::now();
        let played_before = state.games();
        let stopped = tune_loop(&tuner, &mut state, &out, self.args.quiet)?;
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
        reports::write_atomic(
            &out.join("summary.json"),
            reports::summary_json(&summary, &info)?.as_bytes(),
        )?;
        outln!(
            "  tuned weights: {} (use as {}@{})",
            weights.display(),
            tuner.spec.level_name(),
            weights.display()
        );
        errln!("results written to {}", out.display());
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
            errln!("no checkpoint at {shown}: starting at iteration 1");
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
                errln!("resuming at iteration {} of {n}", state.done() + 1);
            } else {
                errln!("{shown} holds all {n} iterations: writing the results again");
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
) -> anyhow::Result<bool> {
    let n = tuner.spec.settings.iterations;
    let live = Live::new(n * tuner.games_per_iteration(), quiet);
    let bar = &live.bar;
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} ETA {eta}\n{msg}")
    {
        bar.set_style(style);
    }
    bar.set_position(state.games());
    let hooks = live.hooks();
    while state.done() < n {
        bar.set_message(format!(
            "iteration {}/{n}, θ {}",
            state.done() + 1,
            theta_text(tuner, state)
        ));
        if hooks.interrupt.load(Ordering::Relaxed) || !tuner.iterate(state, &hooks)? {
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
    reports::write_atomic(&out.join("convergence.png"), &figure.png()?)?;
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
    let live = Live::new(plan.games(), quiet);
    let gate = tuner.verify(&plan, &live.hooks(), &mut |sprt, tally| {
        live.bar.set_message(format!(
            "verification: LLR {:.2} [{:.2}, {:.2}] after {} games",
            sprt.llr, sprt.lower, sprt.upper, tally.games
        ));
    })?;
    live.bar.finish_and_clear();
    let summary = VerificationSummary::new(plan.seed, &gate);
    let e = &summary.head_to_head.estimate;
    let sprt = &summary.sprt;
    outln!(
        "  verification, tuned vs start on fresh seeds (seed {}): {} games",
        summary.seed,
        summary.games_played
    );
    outln!("    {e}");
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
