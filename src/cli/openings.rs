//! `koom openings`: writes a balanced opening suite (see [`tuner::openings::generate`]), with a
//! header that says how it was made.

use std::fmt::Write as _;
use std::process::ExitCode;

use anyhow::bail;
use engine::{Game, GameVisitor};
use tuner::agents::{parse_agent, parse_options};
use tuner::openings::generate::{Generated, Spec, check_game, generate};

use super::args::OpeningsArgs;
use super::live::{interrupt_flag, interrupted};

struct Openings<'a>(&'a OpeningsArgs);

impl GameVisitor for Openings<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let args = self.0;
        check_game::<G>()?;
        tuner::config::check_threads(args.threads)?;
        let options = parse_options::<G>(
            &super::args::with_options(None, &args.options).unwrap_or_default(),
        )?;
        let (lo, hi) = args.keep;
        let spec = Spec {
            plies: args.plies,
            count: args.count,
            level: args.level.clone(),
            setup: parse_agent::<G>(&args.level, engine::TimeControl::Batch)?,
            keep: lo..=hi,
            games: args.games,
            skip_capped: args.skip_capped,
            max_tries: args.max_tries.unwrap_or(args.count.saturating_mul(20)),
            seed: args.seed,
        };
        if let Some(out) = &args.out {
            reports::check_writable_dir(
                out.parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .unwrap_or(std::path::Path::new(".")),
            )?;
        }
        let quiet = args.quiet;
        let found = generate::<G>(
            &spec,
            &options,
            args.threads,
            interrupt_flag(),
            &|kept, tried| {
                if !quiet {
                    errln!("openings: {kept} kept of {tried} candidates");
                }
            },
        )?;
        if found.interrupted {
            errln!("interrupted: nothing written");
            return Ok(interrupted());
        }
        let text = suite_text::<G>(args, &spec, &found);
        match &args.out {
            Some(path) => reports::write_atomic(path, text.as_bytes())?,
            None => out!("{text}"),
        }
        let kept = found.kept.len() as u64;
        if kept < spec.count {
            errln!(
                "koom: only {kept} of {} openings scored in {lo}..{hi} after {} candidates (raise --max-tries or widen --keep)",
                spec.count,
                found.tried
            );
            return Ok(ExitCode::from(1));
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// The suite: a header of comment lines (the exact command, the method, the counts), then each
/// opening after a comment with its score.
fn suite_text<G: Game>(args: &OpeningsArgs, spec: &Spec<G>, found: &Generated) -> String {
    let side = G::seat_name(0);
    let (lo, hi) = args.keep;
    let options: Vec<String> = args
        .options
        .iter()
        .map(|(k, v)| format!(" --option {k}={v}"))
        .collect();
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# koom opening suite for {}: {} openings, made by koom {} with",
        G::NAME,
        found.kept.len(),
        env!("CARGO_PKG_VERSION")
    );
    let _ = writeln!(
        text,
        "#   koom openings --game {} --plies {} --count {} --level {} --keep {lo}..{hi} --games {}{} --max-tries {} --seed {}{}",
        G::NAME,
        spec.plies,
        spec.count,
        spec.level,
        spec.games,
        if spec.skip_capped {
            " --skip-capped"
        } else {
            ""
        },
        spec.max_tries,
        spec.seed,
        options.concat()
    );
    let _ = writeln!(
        text,
        "# Each opening is {} uniformly random legal plies from the initial position, kept when {} playing",
        spec.plies, spec.level
    );
    let _ = writeln!(
        text,
        "# itself {} games from it (batch budgets, each game on its own seed) scores {lo}..{hi} for {side}",
        spec.games
    );
    let _ = writeln!(
        text,
        "# ({}). Candidates drawn: {}, scored: {}, kept: {}.",
        if on_points::<G>() {
            "its share of the points"
        } else {
            "a win 1, a draw 1/2"
        },
        found.tried,
        found.scored,
        found.kept.len()
    );
    if spec.skip_capped {
        let _ = writeln!(
            text,
            "# Games cut off by the ply cap are left out of the score (--skip-capped)."
        );
    }
    for kept in &found.kept {
        let capped = if spec.skip_capped {
            format!(", {} of {} games capped", kept.capped, spec.games)
        } else {
            String::new()
        };
        let _ = writeln!(
            text,
            "# candidate {}: {side} score {:.3}, games of {:.0} plies on average{capped}",
            kept.candidate, kept.score, kept.mean_plies
        );
        let _ = writeln!(text, "moves: {}", kept.moves.join(", "));
    }
    text
}

/// Whether the game scores on points (Thud), seen on its initial position.
fn on_points<G: Game>() -> bool {
    let mut dice = engine::RandomStream::dice(0);
    G::new(
        &G::Options::default(),
        G::SEATS.0,
        &mut dice,
        &mut engine::NoLog,
    )
    .points()
    .is_some()
}

pub fn openings(args: &OpeningsArgs) -> anyhow::Result<ExitCode> {
    let (lo, hi) = args.keep;
    if !(0.0..=1.0).contains(&lo) || !(0.0..=1.0).contains(&hi) || lo > hi {
        bail!("--keep {lo}..{hi}: write LO..HI with 0 <= LO <= HI <= 1");
    }
    engine::visit_game(&args.game, Openings(args))?
}
