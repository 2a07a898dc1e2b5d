//! Why a report cannot be read or built: one variant a case, so that callers and tests tell the
//! cases apart; the text of each is the one line `koom report` prints.

use std::path::PathBuf;

/// A chart plotters could not draw.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot draw a chart: {0}")]
pub struct ChartError(pub String);

/// Why `summary.json` text is not a summary a report can be built from.
#[derive(Debug, thiserror::Error)]
pub enum SummaryError {
    /// Not JSON, or JSON that does not fit the summary's types.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// JSON of none of the kinds that have a report.
    #[error("neither a run, a tournament nor a ladder summary (gate summaries have no report)")]
    UnknownKind,
    /// A length histogram whose bins have no width.
    #[error("length_histogram.width is 0")]
    ZeroWidth,
}

/// Why a report could not be read or built.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// `DIR/summary.json` cannot be read.
    #[error("no results in {}: cannot read summary.json ({source})", dir.display())]
    Read {
        dir: PathBuf,
        source: std::io::Error,
    },
    /// `summary.json` was read but is not a valid summary.
    #[error("{} is not a valid summary ({source})", path.display())]
    Invalid { path: PathBuf, source: SummaryError },
    /// A chart could not be drawn.
    #[error(transparent)]
    Chart(#[from] ChartError),
    /// A chart written as `file` could not be drawn.
    #[error("{file}: {source}")]
    ChartFile { file: String, source: ChartError },
    /// The summary's options are not a table a config can hold.
    #[error("the summary's options are not a table: {0}")]
    Options(serde_json::Error),
    /// The experiment's config could not be serialised.
    #[error("cannot write the experiment's config: {0}")]
    Config(toml::ser::Error),
    /// A game-specific distribution whose counts are not `[value, count]` pairs.
    #[error("distribution `{name}`: counts are not [value, count] pairs ({source})")]
    DistributionCounts {
        name: String,
        source: serde_json::Error,
    },
    /// A game-specific distribution whose values are not increasing.
    #[error("distribution `{0}`: values are not in increasing order")]
    DistributionOrder(String),
    /// A tournament pairing without its head-to-head figures.
    #[error("pairing {0} has no head_to_head")]
    NoHeadToHead(String),
    /// `koom report A --compare B` given something other than two runs.
    #[error("{0}: only run summaries can be compared (not a tournament, gate or ladder)")]
    NotARun(String),
}
