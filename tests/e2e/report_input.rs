//! `koom report` on hostile or junk `summary.json` files (issue 15, items 2, 3 and 18): one line
//! on stderr, exit 2, no panic, no hang, nothing written.

use crate::common::{Koom, scratch, summary, write};
use std::path::Path;

/// `koom report DIR` on `text` as DIR/summary.json is refused with `expected`.
fn rejects(dir: &Path, text: &str, expected: &str) {
    std::fs::create_dir_all(dir).unwrap();
    write(dir, "summary.json", text);
    Koom::new("report").arg(dir).rejects(expected);
    assert!(!dir.join("report.html").exists(), "nothing written");
}

#[test]
fn report_rejects_junk_and_hostile_summaries() {
    let dir = scratch("hostile");
    let good_dir = dir.join("good");
    Koom::new("run")
        .args([
            "--game",
            "thud",
            "--agents",
            "easy,beginner",
            "--games",
            "2",
        ])
        .out(&good_dir)
        .quiet()
        .ok();
    let good = summary(&good_dir);
    rejects(
        &dir.join("junk"),
        r#"{"pairings": 5}"#,
        "not a valid summary",
    );
    rejects(
        &dir.join("empty"),
        "{}",
        "neither a run, a tournament nor a ladder",
    );
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
    write(&spanned, "summary.json", &span.to_string());
    Koom::new("report").arg(&spanned).ok();
}
