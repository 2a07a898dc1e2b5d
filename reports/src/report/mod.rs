//! The balance report: `report.html` (self-contained, charts inline) and `report.md` (charts as
//! SVG files in `charts/`), built from `summary.json` alone so that `koom report DIR` can rebuild
//! it for any finished run, tournament or shard merge.
//!
//! `summary.json` is read back into the tuner's own summary types, so the schema has one
//! definition; only the game-specific part stays JSON, since its type depends on the game.

mod charts;
mod compare;
mod document;
mod error;
mod ladder;
mod parts;
mod read;
mod run;
mod specific;
mod tournament;

use std::io;
use std::path::Path;

use serde_json::Value;
use tuner::strength::LadderSummary;
use tuner::strength::tournament::TournamentSummary;

pub use compare::compare;
pub use document::{Block, Document, escape};
pub use error::{ChartError, ReportError, SummaryError};
pub use ladder::{INTRANSITIVE_NOTE, LADDER_NOTE};
pub use read::{parse_summary, read_summary};

use crate::write_atomic;

/// A run's `summary.json` as read back.
pub type RunSummary = tuner::batch::summary::Summary<Value>;

/// A `summary.json` as read back: a run (or shard merge) or a tournament.
#[derive(Clone, Debug)]
pub enum Summary {
    Run(Box<RunSummary>),
    Tournament(Box<TournamentSummary<Value>>),
    Ladder(Box<LadderSummary>),
}

/// Builds the report of one `summary.json`.
pub fn build(summary: &Summary) -> Result<Document, ReportError> {
    match summary {
        Summary::Run(s) => run::run(s),
        Summary::Tournament(t) => tournament::tournament(t),
        Summary::Ladder(l) => ladder::ladder(l),
    }
}

/// Writes `report.html`, `report.md` and `charts/*.svg` into `dir`, each atomically.
pub fn write(dir: &Path, doc: &Document) -> io::Result<()> {
    let charts = dir.join("charts");
    std::fs::create_dir_all(&charts)?;
    for chart in doc.charts() {
        write_atomic(&charts.join(&chart.file), chart.svg.as_bytes())?;
    }
    write_atomic(&dir.join("report.md"), doc.markdown().as_bytes())?;
    write_atomic(&dir.join("report.html"), doc.html().as_bytes())
}
