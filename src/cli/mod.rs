//! Subcommands.

mod args;
mod list;
mod play;
mod position;
mod run;
mod strength;

use std::process::ExitCode;

pub use args::Cli;
use args::Command;

/// Runs one subcommand. Errors are bad input (exit 2); a command may choose another exit code.
pub fn dispatch(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Run(args) => run::run(args),
        Command::Play(args) => play::play(args),
        Command::List => list::list(),
        Command::Perft(args) => position::perft(args),
        Command::Legal(args) => position::legal(args),
        Command::Gate(args) => strength::gate(args),
        Command::Ladder(args) => strength::ladder(args),
    }
}

/// Looks a game up by name and runs `visitor` on it.
fn with_game<V: engine::GameVisitor>(name: &str, visitor: V) -> anyhow::Result<V::Output> {
    Ok(engine::visit_game(name, visitor)?)
}
