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

/// Two Thud matches, Easy against Beginner, written to `out`: a real run summary to corrupt.
fn small_thud_run(out: &Path) {
    Koom::new("run")
        .args([
            "--game",
            "thud",
            "--agents",
            "easy,beginner",
            "--games",
            "2",
        ])
        .out(out)
        .quiet()
        .ok();
}

#[test]
fn report_rejects_junk_and_hostile_summaries() {
    let dir = scratch("hostile");
    let good_dir = dir.join("good");
    small_thud_run(&good_dir);
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

/// A small xorshift generator: the fuzz test below must be reproducible.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Fuzzes the summary reader (issue 15): 1,500 seeded mutations of a real run summary and of a
/// real tournament summary (a byte replaced or deleted, a digit run made huge, the text cut)
/// are either refused with a one-line error or read; a summary that reads is then built into a
/// report, which must return a document or an error, never panic or hang.
#[test]
fn mutated_summaries_are_refused_or_reported_without_panicking() {
    let dir = scratch("summary-fuzz");
    small_thud_run(&dir.join("run"));
    write(
        &dir,
        "tournament.toml",
        "game = \"ludo\"\nformat = \"round-robin\"\nagents = [\"easy\", \"normal\", \"hard\"]\ngames = 8\n",
    );
    Koom::new("run")
        .arg(dir.join("tournament.toml"))
        .out(dir.join("tournament"))
        .quiet()
        .ok();
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let (mut refused, mut read) = (0, 0);
    for which in ["run", "tournament"] {
        let original = std::fs::read(dir.join(which).join("summary.json")).unwrap();
        assert!(reports::report::parse_summary(&String::from_utf8_lossy(&original)).is_ok());
        for _ in 0..750 {
            let mut bytes = original.clone();
            let at = (xorshift(&mut state) % bytes.len() as u64) as usize;
            match xorshift(&mut state) % 4 {
                0 => bytes[at] = (xorshift(&mut state) % 128) as u8,
                1 => {
                    bytes.remove(at);
                }
                2 => {
                    bytes.splice(at..at, b"1e308".iter().copied());
                }
                _ => bytes.truncate(at),
            }
            match reports::report::parse_summary(&String::from_utf8_lossy(&bytes)) {
                Err(e) => {
                    assert!(!e.to_string().contains('\n'), "a multi-line error: {e}");
                    refused += 1;
                }
                Ok(summary) => {
                    let _ = reports::report::build(&summary);
                    read += 1;
                }
            }
        }
    }
    assert!(refused > 500, "{refused} refused, {read} read");
}
