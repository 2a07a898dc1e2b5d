//! `koom fit`: Texel-style fitting on recorded games, its outputs, and bad input.

use crate::common::{Koom, json, read, scratch, write};
use std::path::{Path, PathBuf};

/// 40 games of Hnefatafl Normal self-play, recorded.
fn records(dir: &Path) -> PathBuf {
    let path = dir.join("games.rec");
    Koom::new("run")
        .args([
            "--game",
            "hnefatafl",
            "--agents",
            "normal,normal",
            "--games",
            "40",
        ])
        .args(["--seed", "3", "--threads", "2", "--quiet", "--records"])
        .arg(&path)
        .out(dir.join("run"))
        .ok();
    path
}

fn fit(records: &Path, out: &Path) -> Koom {
    Koom::new("fit")
        .args(["--game", "hnefatafl", "--level", "easy", "--records"])
        .arg(records)
        .args([
            "--every",
            "3",
            "--skip",
            "4",
            "--iterations",
            "150",
            "--quiet",
        ])
        .arg("--out")
        .arg(out)
}

#[test]
fn a_fit_samples_the_recorded_positions_and_lowers_the_held_out_error() {
    let dir = scratch("fit");
    let games = records(&dir);
    let out = dir.join("fitted.toml");
    fit(&games, &out).ok();
    let report = json(&dir.join("fit.json"));
    // The positions kept, counted from the records' own move lists: plies 4, 7, 10, ...
    // before each game's end, once per distinct game (Normal self-play is a mirror run, one game
    // a seed group, so none repeats), with every fifth seed group held out.
    let text = read(&games);
    let (mut expected, mut held_out, mut replays) = (0, 0, 0);
    let mut seeds: Vec<&str> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for line in text.lines() {
        let columns: Vec<&str> = line.split('\t').collect();
        let group = match seeds.iter().position(|s| *s == columns[3]) {
            Some(group) => group,
            None => {
                seeds.push(columns[3]);
                seeds.len() - 1
            }
        };
        if !seen.insert((columns[7], columns[8], columns[9])) {
            replays += 1;
            continue;
        }
        let moves = columns[9].split(',').count();
        let kept = (4..moves).filter(|p| p % 3 == 0).count();
        expected += kept;
        if group % 5 == 4 {
            held_out += kept;
        }
    }
    assert_eq!(replays, 0, "a mirror run plays each game once");
    assert!(held_out > 0 && held_out < expected);
    assert_eq!(report["games"], 40);
    assert_eq!(report["games_replayed"], replays);
    assert_eq!(report["positions"], expected);
    assert_eq!(report["positions_held_out"], held_out);
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    // The weights kept are the held-out games' best (the fitted positions' error may then
    // still be falling, or already rising).
    assert!(f(&report["after"]["held_out"]) < f(&report["before"]["held_out"]));
    // The held weight (the unit) and the search parameters after the evaluation's stay.
    let (start, fitted) = (&report["start"], &report["fitted"]);
    assert_eq!(start[0], fitted[0]);
    let names = report["names"].as_array().unwrap();
    let depth = names.iter().position(|n| n == "depth").unwrap();
    assert_eq!(start[depth], fitted[depth]);
    assert_ne!(start, fitted);
    // The weights file loads as a level, and the same inputs give the same file.
    let agents = format!("easy@{},easy", out.display());
    Koom::new("run")
        .args(["--game", "hnefatafl", "--agents", &agents])
        .args(["--games", "2", "--quiet"])
        .out(dir.join("check"))
        .ok();
    let again = dir.join("again").join("fitted.toml");
    std::fs::create_dir_all(again.parent().unwrap()).unwrap();
    fit(&games, &again).ok();
    assert_eq!(read(&out), read(&again));
}

#[test]
fn bad_fits_are_refused_in_one_line() {
    let dir = scratch("fit-bad");
    let games = records(&dir);
    let out = dir.join("never.toml");
    Koom::new("fit")
        .args(["--game", "ludo", "--level", "hard", "--records"])
        .arg(&games)
        .arg("--out")
        .arg(&out)
        .rejects("ludo has no evaluation linear in its weights");
    fit(&games, &out)
        .args(["--hold", "nonsense"])
        .rejects("--hold `nonsense`: not an evaluation weight");
    let text = read(&games);
    let first = text.lines().next().unwrap();
    let broken = first.replacen(',', ",z9z9,", 1);
    let bad = write(&dir, "bad.rec", &format!("{first}\n{broken}\n"));
    fit(&bad, &out).rejects("bad.rec line 2");
    fit(&dir.join("missing.rec"), &out).rejects("cannot read records");
    fit(&games, &out)
        .args(["--rate", "0"])
        .rejects("--rate must be a positive number");
    assert!(!out.exists());
}
