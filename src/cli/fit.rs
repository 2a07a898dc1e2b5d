//! `koom fit`: Texel-style fitting of a level's evaluation weights to recorded games
//! ([`tuner::fit`]), written as a weights file with `fit.json` beside it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use engine::{Game, GameVisitor};
use tuner::fit::{Fit, Report, Samples, Sampling, Settings, fit as fit_weights};

use super::args::FitArgs;

pub fn fit(args: &FitArgs) -> anyhow::Result<ExitCode> {
    if !(args.rate.is_finite() && args.rate > 0.0) {
        bail!("--rate must be a positive number (tuning steps per iteration)");
    }
    super::with_game(&args.game, FitGame(args))?
}

struct FitGame<'a>(&'a FitArgs);

impl GameVisitor for FitGame<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let args = self.0;
        let width = tuner::fit::terms_width::<G>()?;
        let setup = tuner::agents::parse_agent::<G>(&args.level, engine::TimeControl::Batch)?;
        let level = &G::levels()[setup.level];
        let Some(set) = level.weights else {
            bail!("{} level `{}` has no weight set", G::NAME, level.name);
        };
        if set.params.len() < width {
            bail!(
                "{} level `{}`: its weight set has {} weights, fewer than the evaluation's {width} terms",
                G::NAME,
                level.name,
                set.params.len()
            );
        }
        let out = args.out.clone().unwrap_or_else(|| {
            PathBuf::from("koom-results").join(format!("fit-{}-{}.toml", G::NAME, level.name))
        });
        let json = out.with_file_name("fit.json");
        if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
            reports::check_writable_dir(dir)?;
        }
        let texts = args
            .records
            .iter()
            .map(|path| {
                std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read records {}", path.display()))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let lines = args.records.iter().zip(&texts).flat_map(|(path, text)| {
            text.lines()
                .enumerate()
                .map(move |(i, line)| (format!("{} line {}", path.display(), i + 1), line))
        });
        let sampling = Sampling {
            every: args.every,
            skip: args.skip,
        };
        let samples = Samples::from_records::<G>(lines, sampling)?;
        if samples.is_empty() {
            bail!(
                "no positions to fit: {} games read, {} left out, {} replays, none with a position \
                 from ply {} on",
                samples.games,
                samples.forfeits,
                samples.replays,
                args.skip
            );
        }
        let held = held(args, set, width)?;
        let settings = Settings {
            iterations: args.iterations as usize,
            rate: args.rate,
            held,
        };
        let found = fit_weights(&samples, set, &setup.weights, &settings);
        let held_names: Vec<&str> = settings.held.iter().map(|&i| set.params[i].name).collect();
        let header = header::<G>(args, &samples, &found, &held_names.join(", "));
        let toml = format!(
            "{header}{}",
            tuner::agents::weights_toml(G::NAME, set, &found.fitted)
        );
        let report = Report {
            game: G::NAME,
            level: &args.level,
            weight_set: set.name,
            records: &args.records,
            games: samples.games,
            games_left_out: samples.forfeits,
            games_replayed: samples.replays,
            positions: samples.len(),
            positions_held_out: samples.held_out(),
            sampling,
            rate: args.rate,
            names: set.params.iter().map(|p| p.name).collect(),
            fit: &found,
        };
        write(&json, &serde_json::to_vec_pretty(&report)?)?;
        write(&out, toml.as_bytes())?;
        out!("{header}");
        outln!(
            "{:<22} {:>10} {:>10} {:>8}",
            "weight",
            "start",
            "fitted",
            "steps"
        );
        for (i, p) in set.params[..width].iter().enumerate() {
            let (a, b) = (found.start[i], found.fitted[i]);
            outln!(
                "{:<22} {a:>10.2} {b:>10.2} {:>+8.1}",
                p.name,
                (b - a) / p.step
            );
        }
        outln!(
            "wrote {} (load it as `{}@{}`) and {}",
            out.display(),
            level.name,
            out.display(),
            json.display()
        );
        Ok(ExitCode::SUCCESS)
    }
}

/// The indices of the weights `--hold` names (by default the set's first).
fn held(args: &FitArgs, set: &engine::WeightSet, width: usize) -> anyhow::Result<Vec<usize>> {
    if args.hold.is_empty() {
        return Ok(vec![0]);
    }
    args.hold
        .iter()
        .map(|name| match set.index_of(name.trim()) {
            Some(i) if i < width => Ok(i),
            _ => bail!(
                "--hold {}: not an evaluation weight of {} (accepted: {})",
                engine::quote(name),
                set.name,
                set.params[..width]
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
        .collect()
}

/// The comment lines that open the weights file: how it was made and how well it fits.
fn header<G: Game>(args: &FitArgs, samples: &Samples, fit: &Fit, held_names: &str) -> String {
    let records: Vec<String> = args
        .records
        .iter()
        .map(|p| format!("--records {}", p.display()))
        .collect();
    format!(
        "# koom fit --game {} --level {} {} --every {} --skip {} --iterations {} --rate {}{}\n\
         # {} positions from {} games ({} left out: forfeits or no result; {} exact replays\n\
         # skipped), {} of them held out (every fifth seed group); held: {}\n\
         # scale K = {:.1} -> {:.1}; kept iteration {} of {}\n\
         # mean squared error, fitted positions: {:.5} -> {:.5}; held out: {:.5} -> {:.5}\n\
         # A closer fit to results is not a stronger player: gate it (`koom gate`) before use.\n",
        G::NAME,
        args.level,
        records.join(" "),
        args.every,
        args.skip,
        args.iterations,
        args.rate,
        args.hold
            .iter()
            .map(|h| format!(" --hold {h}"))
            .collect::<String>(),
        samples.len(),
        samples.games,
        samples.forfeits,
        samples.replays,
        samples.held_out(),
        held_names,
        fit.start_scale,
        fit.scale,
        fit.best_iteration,
        fit.iterations,
        fit.before.fitted,
        fit.after.fitted,
        fit.before.held_out,
        fit.after.held_out,
    )
}

fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    tuner::atomic::write_atomic(path, bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}
