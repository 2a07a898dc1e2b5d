//! `koom`: the command-line front end. Thin by design: it parses arguments and wires the
//! `engine`, `tuner` and `reports` crates together.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::dispatch(args) {
        Ok(code) => code,
        Err(error) => {
            // One line: the context chain joined by ": ", never a backtrace.
            eprintln!("koom: error: {error:#}");
            ExitCode::from(2)
        }
    }
}
