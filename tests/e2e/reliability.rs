//! End-to-end reproductions of the reliability issue: no panic, no hang, no silent corruption,
//! bounded resources, and every signal ending a run with its documented exit code.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::common::{Koom, interrupt, json, koom, scratch, stderr};

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `koom ARGS` is bad input: exit 2, one line holding `expected`, no panic.
fn rejects(args: &[&str], expected: &str) {
    Koom::new(args[0]).args(&args[1..]).rejects(expected);
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_koom"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Sends `signal` (`INT`, `TERM`) once `path` exists (the run has started and installed its
/// handlers), or after `wait` when no path is given.
fn signal_when(child: &Child, path: Option<&Path>, wait: Duration, signal: &str) {
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    std::thread::sleep(wait);
    while let Some(p) = path
        && !p.exists()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "{} never appeared",
            p.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    if signal == "INT" {
        interrupt(child);
    } else {
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    }
}

fn three_shards(dir: &Path) -> Vec<String> {
    (0..3)
        .map(|k| {
            let out = dir.join(format!("s{k}"));
            let shard = format!("{k}/3");
            let o = koom(&[
                "run",
                "--games",
                "60",
                "--shard",
                &shard,
                "--quiet",
                "--out",
                s(&out),
            ]);
            assert!(o.status.success(), "{}", stderr(&o));
            s(&out).to_owned()
        })
        .collect()
}

#[test]
fn merge_refuses_edited_shards_with_one_line() {
    let dir = scratch("merge-edits");
    let shards = three_shards(&dir);
    let out = dir.join("merged");
    let merge = || {
        Koom::new("merge")
            .args(&shards)
            .args(["--out", s(&out), "--quiet"])
    };
    merge().ok();
    let path = Path::new(&shards[1]).join("shard.json");
    let original = std::fs::read_to_string(&path).unwrap();
    // The reproduction: an index beyond the count (once panicked in merge).
    let edits = [
        ("\"index\": 1", "\"index\": 7", "checksum mismatch"),
        ("\"games\": 60", "\"games\": 61", "checksum mismatch"),
    ];
    for (from, to, expected) in edits {
        assert!(original.contains(from), "{from}");
        std::fs::write(&path, original.replacen(from, to, 1)).unwrap();
        merge().rejects(expected);
    }
    // Edits that keep the checksum right are caught by the invariants: rewrite the checksum.
    let resealed = |from: &str, to: &str| {
        let mut value: serde_json::Value =
            serde_json::from_str(&original.replacen(from, to, 1)).unwrap();
        value.as_object_mut().unwrap().shift_remove("checksum");
        std::fs::write(&path, tuner::checksum::seal(value).unwrap()).unwrap();
    };
    resealed("\"index\": 1", "\"index\": 7");
    merge().rejects("shard index 7 is not below the shard count 3");
    let wins = original.find("\"wins\": ").unwrap() + "\"wins\": ".len();
    let digit = &original[wins..wins + 1];
    let other = if digit == "1" { "2" } else { "1" };
    resealed(&format!("\"wins\": {digit}"), &format!("\"wins\": {other}"));
    merge().rejects("counts do not add up");
    std::fs::write(&path, &original).unwrap();
    merge().ok();
}

#[test]
fn huge_counts_are_refused_before_any_memory_is_taken() {
    let dir = scratch("huge");
    let out = dir.join("out");
    rejects(
        &["run", "--games", "1000000000000000000"],
        "above koom's limit of 1000000000000",
    );
    rejects(
        &["ladder", "--games", "9223372036854775808"],
        "above koom's limit",
    );
    let cfg = dir.join("tune.toml");
    std::fs::write(
        &cfg,
        "game = 'ludo'\nlevel = 'hard'\niterations = 10\npairs = 1000000000000000000\n",
    )
    .unwrap();
    rejects(&["tune", s(&cfg)], "pairs = 1000000000000000000");
    // A shard of a trillion: the shard runs, and merge says which shards are missing, briefly.
    let shard = dir.join("h");
    let o = koom(&[
        "run",
        "--games",
        "40",
        "--shard",
        "0/1000000000000",
        "--quiet",
        "--out",
        s(&shard),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    rejects(
        &["merge", s(&shard), "--out", s(&out)],
        "missing shard(s) 1/1000000000000, 2/1000000000000",
    );
    rejects(
        &["run", "--threads", "1000000", "--games", "40"],
        "threads = 1000000",
    );
    rejects(&["perft", "--game", "thud", "--depth", "200"], "0..=32");
    rejects(
        &["perft", "--game", "trente-douze", "--depth", "5000"],
        "0..=32",
    );
    rejects(&["gate", "--batch", "0"], "--batch");
}

/// Resident memory of a running process, in KiB (Linux).
#[cfg(target_os = "linux")]
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn a_hundred_billion_games_start_in_little_memory() {
    // Once 1.5 GB before the first game: the runner planned every chunk up front.
    let dir = scratch("1e11");
    let child = spawn(&[
        "run",
        "--games",
        "100000000000",
        "--threads",
        "1",
        "--quiet",
        "--out",
        s(&dir),
    ]);
    std::thread::sleep(Duration::from_millis(1500));
    let rss = rss_kib(child.id());
    signal_when(&child, None, Duration::ZERO, "INT");
    let out = child.wait_with_output().unwrap();
    assert!(rss < 100_000, "{rss} KiB resident");
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
}

#[test]
fn closed_or_full_output_streams_keep_the_exit_code() {
    let dir = scratch("streams");
    // stderr on a full device: the error line is lost, the exit code is not.
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
    if let Ok(full) = full {
        let o = Command::new(env!("CARGO_BIN_EXE_koom"))
            .args(["run", "--game", "chess"])
            .stderr(full)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
    }
    // `koom gate … | head -1`: stdout closed after the first line keeps the gate's verdict.
    let args = [
        "gate",
        "--game",
        "trente-douze",
        "--candidate",
        "hard",
        "--baseline",
        "easy",
        "--max-games",
        "200",
        "--quiet",
        "--out",
    ];
    let open = koom(&[&args[..], &[s(&dir.join("a"))]].concat());
    let verdict = open.status.code();
    assert!(matches!(verdict, Some(0 | 1 | 3)), "{}", stderr(&open));
    let mut child = Command::new(env!("CARGO_BIN_EXE_koom"))
        .args([&args[..], &[s(&dir.join("b"))]].concat())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    assert_eq!(child.wait().unwrap().code(), verdict);
}

#[cfg(unix)]
#[test]
fn a_non_utf8_output_folder_is_refused_up_front() {
    use std::os::unix::ffi::OsStrExt as _;
    let dir = scratch("utf8");
    let bad = dir.join(std::ffi::OsStr::from_bytes(b"bad\xff"));
    Koom::new("run")
        .args(["--game", "ludo", "--games", "400", "--shard", "0/2"])
        .out(&bad)
        .rejects("is not a UTF-8 path");
    assert!(!bad.exists());
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_save_leaves_no_temporary_file() {
    let dir = scratch("full-disk");
    // summary.csv's temporary points at /dev/full: every write to it fails with ENOSPC.
    std::os::unix::fs::symlink("/dev/full", dir.join("summary.csv.tmp")).unwrap();
    let o = koom(&["run", "--games", "40", "--quiet", "--out", s(&dir)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("No space left"), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(dir.join("summary.csv.tmp")).is_err());
    assert!(!dir.join("summary.csv").exists());
}

#[test]
fn sigterm_acts_as_ctrl_c_and_exits_143() {
    let dir = scratch("sigterm");
    let child = spawn(&["run", "--games", "100000000", "--quiet", "--out", s(&dir)]);
    signal_when(
        &child,
        Some(&dir.join("checkpoint.json")),
        Duration::ZERO,
        "TERM",
    );
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(143), "{}", stderr(&o));
    assert_eq!(json(&dir.join("summary.json"))["partial"], true);
    assert!(dir.join("checkpoint.json").exists());
    assert!(stderr(&o).contains("continue with --resume"));
}

#[test]
fn ctrl_c_in_a_round_robin_exits_130_with_a_partial_report() {
    let dir = scratch("round-robin");
    let cfg = dir.join("rr.toml");
    std::fs::write(
        &cfg,
        "game = 'ludo'\nagents = ['easy', 'normal', 'hard']\nformat = 'round-robin'\n",
    )
    .unwrap();
    let out = dir.join("out");
    let child = spawn(&[
        "run",
        s(&cfg),
        "--games",
        "100000000",
        "--quiet",
        "--out",
        s(&out),
    ]);
    signal_when(&child, None, Duration::from_millis(2000), "INT");
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let summary = json(&out.join("summary.json"));
    assert_eq!(summary["partial"], true);
    // Only easy–normal was (partly) played: hard never played and has no rating.
    let rated: Vec<&str> = summary["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["agent"].as_str().unwrap())
        .collect();
    assert_eq!(rated, ["easy", "normal"]);
    assert_eq!(summary["pairings"][0]["summary"]["partial"], true);
    assert!(out.join("report.html").exists());
}

#[test]
fn ctrl_c_in_a_ladder_exits_130() {
    let dir = scratch("ladder");
    let child = spawn(&[
        "ladder",
        "--game",
        "ludo",
        "--games",
        "100000000",
        "--quiet",
        "--out",
        s(&dir),
    ]);
    signal_when(&child, None, Duration::from_millis(2000), "INT");
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(stderr(&o).contains("interrupted"));
    assert_eq!(json(&dir.join("summary.json"))["partial"], true);
}

#[test]
fn games_csv_after_ctrl_c_is_marked_partial_and_resume_continues_it_exactly() {
    let dir = scratch("games-csv");
    let run = || {
        Koom::new("run")
            .args([
                "--games",
                "60000",
                "--seed",
                "8",
                "--threads",
                "2",
                "--games-csv",
            ])
            .quiet()
    };
    let out = dir.join("resumed");
    let child = run().out(&out).spawn();
    signal_when(&child, None, Duration::from_millis(700), "INT");
    let mut child = child;
    if child.wait().unwrap().code() == Some(130) {
        // Interrupted: the rows so far carry "partial" in their name, and no games.csv exists.
        assert!(out.join("games.partial.csv").exists());
        assert!(!out.join("games.csv").exists());
        assert_eq!(json(&out.join("summary.json"))["partial"], true);
    }
    run().out(&out).arg("--resume").ok();
    assert!(!out.join("games.partial.csv").exists());
    let full = dir.join("full");
    run().out(&full).ok();
    assert!(
        std::fs::read(out.join("games.csv")).unwrap()
            == std::fs::read(full.join("games.csv")).unwrap(),
        "the resumed games.csv equals the uninterrupted one, byte for byte"
    );
}

#[test]
fn edited_run_checkpoints_are_refused() {
    let dir = scratch("checkpoint-edits");
    let out = dir.join("out");
    // A finished shard has the layout of a checkpoint: make it this run's checkpoint.
    Koom::new("run")
        .args(["--games", "80"])
        .quiet()
        .out(&out)
        .ok();
    let shard = dir.join("shard");
    Koom::new("run")
        .args(["--games", "80", "--shard", "0/1"])
        .quiet()
        .out(&shard)
        .ok();
    let original = std::fs::read_to_string(shard.join("shard.json")).unwrap();
    let checkpoint = out.join("checkpoint.json");
    let resume = || {
        Koom::new("run")
            .args(["--games", "80", "--shard", "0/1", "--resume"])
            .quiet()
            .out(&out)
    };
    let resealed = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut value: serde_json::Value = serde_json::from_str(&original).unwrap();
        value.as_object_mut().unwrap().shift_remove("checksum");
        edit(&mut value);
        std::fs::write(&checkpoint, tuner::checksum::seal(value).unwrap()).unwrap();
    };
    // `done` emptied: once counted every game twice.
    resealed(&|v| v["done"] = serde_json::json!([]));
    resume().rejects("counts hold 20 seed groups, its played ranges 0");
    // `done` past the last group: once made every --resume exit 130.
    resealed(&|v| v["done"] = serde_json::json!([{"start": 0, "end": 25}]));
    resume().rejects("are not sorted disjoint ranges within");
    // A digit flipped without resealing.
    std::fs::write(
        &checkpoint,
        original.replacen("\"games\": 80", "\"games\": 81", 1),
    )
    .unwrap();
    resume().rejects("checksum mismatch");
}

#[test]
fn merge_without_arguments_and_an_empty_out_are_one_clear_line() {
    // Once "required arguments were not provided:" with the list cut off.
    rejects(&["merge"], "not provided: --out <OUT> <SHARDS>...");
    // Once `out = ""` wrote the results into the current folder.
    let dir = scratch("empty-out");
    let config = dir.join("empty-out.toml");
    std::fs::write(&config, "out = \"\"\n").unwrap();
    let o = Koom::new("run")
        .arg(&config)
        .args(["--games", "4"])
        .current_dir(&dir)
        .output();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the output folder is empty"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("summary.json").exists());
}

/// `--records` and `koom openings --out` given a symlink or a FIFO: refused with one line,
/// the special file left as it was (once a regular file was renamed over it).
#[cfg(unix)]
#[test]
fn special_files_are_refused_never_replaced() {
    let dir = scratch("special-files");
    let link = dir.join("link");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for target in [&link, &fifo] {
        Koom::new("run")
            .args(["--game", "ludo", "--games", "4", "--records"])
            .arg(target)
            .out(dir.join("run"))
            .rejects("is not a regular file");
        Koom::new("openings")
            .args([
                "--game", "thud", "--plies", "2", "--count", "1", "--quiet", "--out",
            ])
            .arg(target)
            .rejects("is not a regular file");
        let kind = std::fs::symlink_metadata(target).unwrap().file_type();
        assert!(kind.is_symlink() || !kind.is_file(), "{}", target.display());
    }
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}
