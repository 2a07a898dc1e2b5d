//! koom's outputs: `summary.json`, `summary.csv`, the streamed `games.csv`, the terminal table and
//! the tuner's convergence plots.
//! Every file is written under a temporary name and renamed into place, so that an interrupted or
//! failed write never leaves a result that looks complete.

mod csv_out;
pub mod plot;
pub mod report;
mod table;
mod tournament;

pub use csv_out::{GamesCsv, csv_line, summary_csv};
pub use table::{elo_interval, signed, terminal_table};
pub use tournament::{tournament_csv, tournament_table};
/// The write-to-temporary-then-rename of every output file lives in `tuner`, which writes
/// checkpoints and shards with it too.
pub use tuner::atomic::{AtomicFile, check_writable_dir, write_atomic};

use serde::Serialize;

/// A share as a percentage with `decimals` decimals (`0.1234` → `12.3%` at 1): the one
/// percentage format; the terminal shows 1 decimal, the report 2.
pub(crate) fn percent(x: f64, decimals: usize) -> String {
    format!("{:.decimals$}%", 100.0 * x)
}

/// What may differ between identical runs: kept apart in `summary.json`'s `run` object.
#[derive(Clone, Debug, Serialize)]
pub struct RunInfo {
    pub elapsed_s: f64,
    pub games_per_s: f64,
    pub threads: usize,
    pub host: String,
    pub koom_version: &'static str,
    /// Set by `koom merge`: then the time and rate above are the shards' summed ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged: Option<Merged>,
}

/// What a merge combined: its shards and the time they took together.
#[derive(Clone, Debug, Serialize)]
pub struct Merged {
    pub shards: u64,
    /// The shards' wall-clock seconds times worker threads, summed.
    pub thread_s: f64,
}

/// The summary as pretty JSON with the `run` object appended, and `engine_failures` (per
/// outside program, its failures by kind) when one failed in the games summarized.
pub fn summary_json(
    summary: &impl Serialize,
    failures: &tuner::interop::external::EngineFailures,
    run: &RunInfo,
) -> serde_json::Result<String> {
    let mut value = serde_json::to_value(summary)?;
    if let serde_json::Value::Object(map) = &mut value {
        if !failures.is_empty() {
            map.insert("engine_failures".into(), serde_json::to_value(failures)?);
        }
        map.insert("run".into(), serde_json::to_value(run)?);
    }
    let mut text = serde_json::to_string_pretty(&value)?;
    text.push('\n');
    Ok(text)
}

/// A game's name as a title: `thud` → `Thud`, `trente-douze` → `Trente-douze`.
#[must_use]
pub fn title_case(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The host name for the `run` object (best effort: it is informational).
#[must_use]
pub fn host_name() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown".into())
}
