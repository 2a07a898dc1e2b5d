//! `koom report`: the balance report of a result folder, or two folders compared.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context as _, anyhow};
use reports::report;
use tuner::atomic::lock_output_dir;

use super::args::ReportArgs;

/// Reads `DIR/summary.json`.
fn summary(dir: &Path) -> anyhow::Result<report::Summary> {
    report::read_summary(dir).map_err(|e| anyhow!("{e}"))
}

/// Builds and writes the report of `dir` into `dir`; used after every run too.
/// Writes the report of the results in `dir`; the caller says where it is once the results
/// table is printed, so that the path is the last line a user reads.
pub fn write_report(dir: &Path) -> anyhow::Result<()> {
    let doc = report::build(&summary(dir)?).map_err(|e| anyhow!("{e}"))?;
    report::write(dir, &doc).with_context(|| format!("writing the report in {}", dir.display()))
}

pub fn report(args: ReportArgs) -> anyhow::Result<ExitCode> {
    match &args.other {
        None => {
            let out = args.out.as_deref().unwrap_or(&args.dir);
            let doc = report::build(&summary(&args.dir)?).map_err(|e| anyhow!("{e}"))?;
            let _lock = lock_output_dir(out)?;
            report::write(out, &doc)?;
            note!("report written to {}", out.join("report.html").display());
        }
        Some(other) => {
            let (a, b) = (summary(&args.dir)?, summary(other)?);
            let names = [args.dir.display().to_string(), other.display().to_string()];
            let doc =
                report::compare(&a, &b, [&names[0], &names[1]]).map_err(|e| anyhow!("{e}"))?;
            let out = args.out.clone().unwrap_or_else(|| args.dir.join("compare"));
            let _lock = lock_output_dir(&out)?;
            report::write(&out, &doc)?;
            note!(
                "comparison written to {}",
                out.join("report.html").display()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
