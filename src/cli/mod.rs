//! Subcommands.

mod analyse;
mod args;
mod bench;
mod connect;
mod fit;
mod list;
mod live;
mod merge;
mod openings;
mod play;
mod position;
mod positions;
mod report;
mod run;
mod serve;
mod strength;
mod train;
mod tune;

use std::process::ExitCode;

pub use args::Cli;
use args::Command;

/// Runs one subcommand. Errors are bad input (exit 2); a command may choose another exit code.
pub fn dispatch(cli: Cli) -> anyhow::Result<ExitCode> {
    let quiet = match &cli.command {
        Command::Run(args) => args.quiet,
        Command::Merge(args) => args.quiet,
        Command::Gate(args) => args.common.quiet,
        Command::Ladder(args) => args.common.quiet,
        Command::Tune(args) => args.quiet,
        Command::Fit(args) => args.quiet,
        Command::Positions(args) => args.quiet,
        Command::Train(args) => args.quiet,
        _ => false,
    };
    crate::output::QUIET.store(quiet, std::sync::atomic::Ordering::Relaxed);
    match cli.command {
        Command::Run(args) => run::run(args),
        Command::Play(args) => play::play(args),
        Command::List(args) => list::list(&args),
        Command::Weights(args) => list::weights(args),
        Command::Bench(args) => bench::bench(args),
        Command::Perft(args) => position::perft(args),
        Command::Legal(args) => position::legal(args),
        Command::Analyse(args) => analyse::analyse(args),
        Command::Engine(args) => serve::engine(args),
        Command::Merge(args) => merge::merge(args),
        Command::Report(args) => report::report(args),
        Command::Gate(args) => strength::gate(args),
        Command::Ladder(args) => strength::ladder(args),
        Command::Tune(args) => tune::tune(args),
        Command::Fit(args) => fit::fit(&args),
        Command::Positions(args) => positions::positions(&args),
        Command::Train(args) => train::train(&args),
        Command::Openings(args) => openings::openings(&args),
        Command::Connect(args) => connect::connect(&args),
    }
}

/// The outside players' failures for the result block (one `engine failures:` line each), and
/// the error that ends the command with exit 2 when one failed most of its games.
fn engine_failures(
    failures: &tuner::interop::external::EngineFailures,
) -> Result<(), tuner::InputError> {
    for line in failures.lines() {
        outln!("  {line}");
    }
    failures.check()
}

/// `--records-scores` adds a field to the `--records` lines, so it means nothing without them.
fn check_records_scores(records: Option<&std::path::Path>, scores: bool) -> anyhow::Result<()> {
    if scores && records.is_none() {
        anyhow::bail!(
            "--records-scores adds each move's score to the records: give --records FILE"
        );
    }
    Ok(())
}

/// The texts of the records files `paths`, in order (`koom fit`, `koom positions`).
fn read_records(paths: &[std::path::PathBuf]) -> anyhow::Result<Vec<String>> {
    use anyhow::Context as _;
    paths
        .iter()
        .map(|path| {
            std::fs::read_to_string(path)
                .with_context(|| format!("cannot read records {}", path.display()))
        })
        .collect()
}
