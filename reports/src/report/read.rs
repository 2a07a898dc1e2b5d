//! The shared reader: `summary.json` back into the tuner's summary types, checked.

use std::path::Path;

use serde_json::Value;

use super::{ReportError, RunSummary, Summary, SummaryError};

/// Reads `DIR/summary.json`; the error says what is wrong in one line.
pub fn read_summary(dir: &Path) -> Result<Summary, ReportError> {
    let path = dir.join("summary.json");
    let text = std::fs::read_to_string(&path).map_err(|source| ReportError::Read {
        dir: dir.to_owned(),
        source,
    })?;
    parse_summary(&text).map_err(|source| ReportError::Invalid { path, source })
}

/// Parses and checks a `summary.json`: typed as a run or a tournament by its keys, then checked
/// for what the types cannot say (histograms with a width, sorted distributions).
pub fn parse_summary(text: &str) -> Result<Summary, SummaryError> {
    let value: Value = serde_json::from_str(text)?;
    let summary = if value.get("pairings").is_some() {
        Summary::Tournament(Box::new(serde_json::from_value(value)?))
    } else if value.get("by_seat").is_some() {
        Summary::Run(Box::new(serde_json::from_value(value)?))
    } else if value.get("rungs").is_some() {
        Summary::Ladder(Box::new(serde_json::from_value(value)?))
    } else {
        return Err(SummaryError::UnknownKind);
    };
    let runs: Vec<&RunSummary> = match &summary {
        Summary::Run(s) => vec![s],
        Summary::Tournament(t) => t.pairings.iter().map(|p| &p.summary).collect(),
        Summary::Ladder(_) => Vec::new(),
    };
    if runs.iter().any(|run| run.length_histogram.width == 0) {
        return Err(SummaryError::ZeroWidth);
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_are_typed_on_reading() {
        let wrong_type = parse_summary(r#"{"pairings": 5}"#).unwrap_err();
        assert!(matches!(wrong_type, SummaryError::Json(_)));
        assert!(wrong_type.to_string().contains("expected a sequence"));
        assert!(matches!(
            parse_summary(r#"{"verdict": "H1"}"#),
            Err(SummaryError::UnknownKind)
        ));
    }

    #[test]
    fn a_missing_summary_names_its_folder() {
        let dir = std::path::Path::new("/nonexistent/koom-run");
        let e = read_summary(dir).unwrap_err();
        assert!(matches!(e, ReportError::Read { .. }));
        assert!(
            e.to_string()
                .starts_with("no results in /nonexistent/koom-run: cannot read summary.json (")
        );
    }
}
