//! `koom fit`: Texel-style fitting of a level's evaluation weights to recorded games
//! ([`tuner::tuning::fit`]), written as a weights file with `fit.json` beside it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use engine::{Game, GameVisitor};
use tuner::tuning::fit::Sampling;
use tuner::tuning::fit::job::{self, Outcome, Request};

use super::args::FitArgs;

pub fn fit(args: &FitArgs) -> anyhow::Result<ExitCode> {
    engine::visit_game(&args.game, FitGame(args))?
}

struct FitGame<'a>(&'a FitArgs);

impl GameVisitor for FitGame<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let args = self.0;
        let request = Request {
            level: args.level.clone(),
            records: args.records.clone(),
            sampling: Sampling {
                every: args.every,
                skip: args.skip,
            },
            iterations: args.iterations as usize,
            rate: args.rate,
            hold: args.hold.clone(),
        };
        let checked = job::check::<G>(&request)?;
        let out = args.out.clone().unwrap_or_else(|| {
            PathBuf::from("koom-results").join(format!("fit-{}-{}.toml", G::NAME, checked.level))
        });
        let json = out.with_file_name("fit.json");
        if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
            reports::check_writable_dir(dir)?;
        }
        let texts = super::read_records(&args.records)?;
        let found = checked.run(&texts)?;
        let header = header::<G>(args, &found);
        write(&json, &found.report)?;
        write(&out, format!("{header}{}", found.weights).as_bytes())?;
        out!("{header}");
        outln!(
            "{:<22} {:>10} {:>10} {:>8}",
            "weight",
            "start",
            "fitted",
            "steps"
        );
        for row in found.rows() {
            outln!(
                "{:<22} {:>10.2} {:>10.2} {:>+8.1}",
                row.name,
                row.start,
                row.fitted,
                row.steps
            );
        }
        outln!(
            "wrote {} (load it as `{}@{}`) and {}",
            out.display(),
            found.level,
            out.display(),
            json.display()
        );
        Ok(ExitCode::SUCCESS)
    }
}

/// The comment lines that open the weights file: how it was made and how well it fits.
fn header<G: Game>(args: &FitArgs, found: &Outcome) -> String {
    let (samples, fit) = (&found.samples, &found.fit);
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
        found.held,
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
