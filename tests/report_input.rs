//! `koom report` on hostile or junk `summary.json` files (issue 15, items 2, 3 and 18): one line
//! on stderr, exit 2, no panic, no hang, nothing written.

mod common;

use common::{koom, scratch, stderr};
use std::path::Path;

/// A real Thud summary (it has a game-specific distribution) to edit.
fn thud_summary(dir: &Path) -> serde_json::Value {
    let o = koom(&[
        "run",
        "--game",
        "thud",
        "--agents",
        "easy,beginner",
        "--games",
        "2",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// `koom report` on `summary` exits 2 with one line that contains `expected`.
fn rejects(dir: &Path, summary: &str, expected: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("summary.json"), summary).unwrap();
    let o = koom(&["report", dir.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(expected), "{err}");
    assert!(!dir.join("report.html").exists(), "nothing written");
}

#[test]
fn report_rejects_junk_and_hostile_summaries() {
    let dir = scratch("hostile");
    let good = thud_summary(&dir.join("good"));
    rejects(
        &dir.join("junk"),
        r#"{"pairings": 5}"#,
        "not a valid summary",
    );
    rejects(&dir.join("empty"), "{}", "neither a run nor a tournament");
    let mut unsorted = good.clone();
    unsorted["game_specific"]["distributions"][0]["counts"] = serde_json::json!([[100, 1], [0, 1]]);
    rejects(
        &dir.join("unsorted"),
        &unsorted.to_string(),
        "not in increasing order",
    );
    let mut wide = good.clone();
    wide["length_histogram"]["width"] = serde_json::json!(1e307);
    rejects(&dir.join("wide"), &wide.to_string(), "expected u32");
    let mut zero = good.clone();
    zero["length_histogram"]["width"] = serde_json::json!(0);
    rejects(&dir.join("zero"), &zero.to_string(), "width is 0");
    // A distribution spanning the whole 64-bit range is binned, not allocated.
    let mut span = good;
    span["game_specific"]["distributions"][0]["counts"] =
        serde_json::json!([[i64::MIN, 1], [i64::MAX, 1]]);
    let spanned = dir.join("span");
    std::fs::create_dir_all(&spanned).unwrap();
    std::fs::write(spanned.join("summary.json"), span.to_string()).unwrap();
    let o = koom(&["report", spanned.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
}
