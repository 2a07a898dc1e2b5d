//! Hnefatafl's level weight files: the evaluation and the shared search parameters together,
//! every one required, each inside its range.

use crate::common::{Koom, scratch, stdout, write};

/// The Hard weights file as `koom weights` prints it, with `edit` applied to its lines.
fn hard_file(edit: impl Fn(&str) -> Option<String>) -> String {
    let printed = Koom::new("weights")
        .args(["--game", "hnefatafl", "--level", "hard"])
        .ok();
    stdout(&printed)
        .lines()
        .filter_map(edit)
        .map(|line| line + "\n")
        .collect()
}

#[test]
fn weight_files_with_unknown_missing_or_zero_values_are_rejected() {
    let dir = scratch("hnefatafl-weights");
    let cases = [
        (
            "unknown.toml",
            hard_file(|l| Some(l.replace("tempo = ", "tempi = "))),
            "unknown parameter `tempi`",
        ),
        (
            "missing.toml",
            hard_file(|l| (!l.starts_with("contempt =")).then(|| l.to_owned())),
            "parameter `contempt` of weight set `hnefatafl-hard` is missing",
        ),
        (
            "zero.toml",
            hard_file(|l| Some(l.replace("player_depth = 4.0", "player_depth = 0.0"))),
            "parameter `player_depth` = 0 is outside its range",
        ),
        (
            "no-nodes.toml",
            hard_file(|l| Some(l.replace("nodes = 150000.0", "nodes = 0.0"))),
            "parameter `nodes` = 0 is outside its range",
        ),
        (
            "no-time.toml",
            hard_file(|l| Some(l.replace("time_ms = 1000.0", "time_ms = 0.0"))),
            "parameter `time_ms` = 0 is outside its range",
        ),
    ];
    for (name, text, expected) in cases {
        let file = write(&dir, name, &text);
        Koom::new("run")
            .args(["--game", "hnefatafl", "--games", "2", "--agents"])
            .arg(format!("hard@{},easy", file.display()))
            .quiet()
            .rejects(expected);
    }
}
