//! `koom`: the command-line front end. Thin by design: it parses arguments and wires the
//! `engine`, `tuner` and `reports` crates together.

#[macro_use]
mod output;
mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(error) if !error.use_stderr() => {
            // --help and --version.
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            // clap's first paragraph names the problem (with the missing arguments listed on the
            // lines below it), joined into one line; the usage block after it is left to --help.
            let text = error.to_string();
            let problem: Vec<&str> = text
                .lines()
                .take_while(|line| !line.trim().is_empty())
                .map(str::trim)
                .collect();
            let problem = problem.join(" ");
            let problem = problem.trim_start_matches("error: ");
            errln!("koom: error: {problem} (see koom --help)");
            return ExitCode::from(2);
        }
    };
    match cli::dispatch(args) {
        Ok(code) => code,
        Err(error) => {
            // One line: the context chain joined by ": ", never a backtrace.
            errln!("koom: error: {error:#}");
            ExitCode::from(2)
        }
    }
}
