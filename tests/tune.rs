//! End-to-end tests of `koom tune`.

mod common;

use common::{interrupt, koom, scratch, stderr};
use std::path::Path;
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Writes `text` as `dir/name` and returns its path as a string.
fn config(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

/// Runs `koom tune CONFIG --out OUT --quiet [extra]`.
fn tune(config: &str, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["tune", config, "--out", out.to_str().unwrap(), "--quiet"];
    args.extend(extra);
    koom(&args)
}

/// A small tune of every Ludo Hard weight from a bad start.
const SMALL: &str = "game = 'ludo'\nlevel = 'hard'\niterations = 12\npairs = 4\nseed = 3\n\
    r_end = 0.02\n[verify]\ngames = 64\n[start]\ncapture = 0.5\nrisk_weight = 0.0\n";

#[test]
fn bad_start_moves_risk_weight_up_and_capture_above_progress() {
    // The shipped config, shortened: 20 iterations of 32 seed groups (2560 games).
    let dir = scratch("bad-start");
    let shipped =
        read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/tune/ludo-hard-bad-start.toml"));
    let mut text = shipped.clone();
    for (from, to) in [
        ("iterations = 400", "iterations = 20"),
        ("pairs = 64 ", "pairs = 32 "),
        ("games = 40000", "games = 400"),
    ] {
        assert!(text.contains(from), "the config still says `{from}`");
        text = text.replace(from, to);
    }
    let cfg = config(&dir, "bad.toml", &text);
    let out = dir.join("out");
    let o = tune(&cfg, &out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = json(&out.join("summary.json"));
    let start = &s["theta_start"];
    let end = &s["theta_end"];
    let f = |v: &serde_json::Value, name: &str| v[name].as_f64().unwrap();
    assert_eq!((f(start, "capture"), f(start, "risk_weight")), (0.5, 0.0));
    // Being captured costs a pawn's whole progress: the risk term is worth paying for (Hard,
    // risk_weight 1, beats Normal, risk_weight 0), so SPSA raises it from 0.
    assert!(f(end, "risk_weight") > 0.15, "{end}");
    // A capture sends a pawn home, worth more than one plain move: the start ranks it below
    // progress (0.5 < 1); tuning moves the difference up, past 0.
    assert!(
        f(end, "capture") - f(end, "progress") > 0.0,
        "capture − progress was −0.5: {end}"
    );
    assert_eq!(s["iterations_done"], 20);
    assert_eq!(s["games_played"], 20 * 32 * 4);
    // The verification ran on its own seed.
    let v = &s["verification"];
    assert!(v["games_played"].as_u64().unwrap() > 0);
    assert_ne!(v["seed"], s["seed"]);
    assert!(v["elo"]["ci95"].as_array().unwrap().len() == 2);
    // The outputs, and the tuned weights load as an agent.
    let csv = read(&out.join("tuning.csv"));
    assert_eq!(
        csv.lines().count(),
        1 + 1 + 20,
        "header, start, 20 iterations"
    );
    assert!(csv.starts_with("iteration,games,result,c_k_steps,r_k,delta,capture,"));
    assert!(read(&out.join("convergence.svg")).starts_with("<svg"));
    assert!(
        std::fs::read(out.join("convergence.png"))
            .unwrap()
            .starts_with(b"\x89PNG")
    );
    let agent = format!("hard@{}", out.join("tuned.toml").display());
    let run = koom(&[
        "run",
        "--agents",
        &format!("{agent},hard,easy,easy"),
        "--games",
        "8",
        "--out",
        dir.join("run").to_str().unwrap(),
        "--quiet",
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
}

/// `summary.json` less what may differ between identical runs in different folders.
fn comparable(out: &Path) -> serde_json::Value {
    let mut s = json(&out.join("summary.json"));
    let map = s.as_object_mut().unwrap();
    map.remove("run");
    map.remove("weights_file");
    s
}

#[test]
fn resuming_a_checkpoint_ends_exactly_like_the_uninterrupted_run() {
    let dir = scratch("resume");
    let cfg = config(&dir, "small.toml", SMALL);
    let whole = dir.join("whole");
    assert!(tune(&cfg, &whole, &[]).status.success());
    // The checkpoint as it stood after iteration 5 of 12 (every parameter is tuned, so θ is
    // the fifth record's).
    let mut cp = json(&whole.join("checkpoint.json"));
    let history = cp["history"].as_array().unwrap()[..5].to_vec();
    cp["theta"] = history[4]["theta"].clone();
    cp["history"] = serde_json::Value::Array(history);
    cp["iterations_done"] = 5.into();
    let part = dir.join("part");
    std::fs::create_dir_all(&part).unwrap();
    std::fs::write(
        part.join("checkpoint.json"),
        serde_json::to_string_pretty(&cp).unwrap(),
    )
    .unwrap();
    let o = tune(&cfg, &part, &["--resume", "--threads", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("resuming at iteration 6 of 12"));
    for file in [
        "tuning.csv",
        "tuned.toml",
        "checkpoint.json",
        "convergence.svg",
    ] {
        assert_eq!(read(&part.join(file)), read(&whole.join(file)), "{file}");
    }
    assert_eq!(comparable(&part), comparable(&whole));
}

fn spawn_tune(config: &str, out: &Path, extra: &[&str]) -> Child {
    let mut args = vec!["tune", config, "--out", out.to_str().unwrap(), "--quiet"];
    args.extend(extra);
    Command::new(env!("CARGO_BIN_EXE_koom"))
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until the checkpoint in `out` records more than `done` iterations, then sends Ctrl-C
/// and returns the exit status and stderr.
fn interrupt_after(child: Child, out: &Path, done: u64) -> (Option<i32>, String) {
    let path = out.join("checkpoint.json");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let now = std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|cp| cp["iterations_done"].as_u64());
        if now.is_some_and(|n| n > done) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no progress past iteration {done}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    interrupt(&child);
    let out = child.wait_with_output().unwrap();
    (out.status.code(), stderr(&out))
}

#[test]
fn ctrl_c_leaves_a_checkpoint_that_resume_continues() {
    let dir = scratch("ctrl-c");
    // Too long to finish before the signal: 100000 iterations of one seed group.
    let cfg = config(
        &dir,
        "long.toml",
        &SMALL
            .replace("iterations = 12", "iterations = 100000")
            .replace("pairs = 4", "pairs = 1"),
    );
    let out = dir.join("out");
    let (code, err) = interrupt_after(spawn_tune(&cfg, &out, &[]), &out, 1);
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("--resume"), "{err}");
    let first = json(&out.join("checkpoint.json"));
    let k = first["iterations_done"].as_u64().unwrap();
    assert!(k >= 2);
    assert_eq!(read(&out.join("tuning.csv")).lines().count() as u64, 2 + k);
    assert!(!out.join("tuned.toml").exists(), "no result before the end");

    let (code, err) = interrupt_after(spawn_tune(&cfg, &out, &["--resume"]), &out, k + 1);
    assert_eq!(code, Some(130), "{err}");
    assert!(
        err.contains(&format!("resuming at iteration {} of 100000", k + 1)),
        "{err}"
    );
    let second = json(&out.join("checkpoint.json"));
    let history = second["history"].as_array().unwrap();
    assert!(history.len() as u64 > k + 1);
    assert_eq!(
        history[..k as usize],
        first["history"].as_array().unwrap()[..],
        "the resumed run continues the first"
    );
}

/// Bad input: exit status 2 and one line on stderr naming the problem.
fn rejects(args: &[&str], expected: &str) {
    let o = koom(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(
        err.contains(expected),
        "{args:?}: expected `{expected}` in `{err}`"
    );
    assert!(!err.contains("panicked"));
}

#[test]
fn bad_configs_are_one_line_and_exit_2() {
    let dir = scratch("bad");
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let base = "game = 'ludo'\nlevel = 'hard'\niterations = 3\n";
    let cases = [
        (
            "parameters = ['capture', 'risc']",
            "unknown parameter `risc` for weight set `ludo-hard` (accepted: capture,",
        ),
        (
            "[ranges.safe]\nmin = 4.0\nmax = 2.0",
            "ranges.safe: min (4) must be below max (2)",
        ),
        (
            "[ranges.safe]\nstep = -0.5",
            "ranges.safe: step (-0.5) must be above 0",
        ),
        (
            "[start]\nsafe = 20.0",
            "start: parameter `safe` = 20 is outside its range [0, 10]",
        ),
        ("pairs = 0", "pairs must be at least 1"),
        ("iteratoins = 3", "unknown field `iteratoins`"),
    ];
    for (i, (extra, expected)) in cases.iter().enumerate() {
        let cfg = config(&dir, &format!("bad{i}.toml"), &format!("{base}{extra}\n"));
        rejects(&["tune", &cfg, "--out", out, "--quiet"], expected);
    }
    let cfg = config(&dir, "chess.toml", &base.replace("ludo", "chess"));
    rejects(&["tune", &cfg, "--out", out], "unknown game `chess`");
    let cfg = config(&dir, "normal.toml", &base.replace("hard", "normal"));
    rejects(
        &["tune", &cfg, "--out", out],
        "level `normal` has no weight set to tune",
    );
    rejects(&["tune", "missing.toml"], "cannot read config missing.toml");
    assert!(!Path::new(out).join("summary.json").exists());
}

#[test]
fn checkpoints_are_never_silently_replaced() {
    let dir = scratch("checkpoints");
    let small = SMALL.replace("iterations = 12", "iterations = 2");
    let cfg = config(&dir, "small.toml", &small);
    let out = dir.join("out");
    assert!(tune(&cfg, &out, &[]).status.success());
    let o = out.to_str().unwrap();
    // Without --resume, an existing run is not overwritten.
    rejects(
        &["tune", &cfg, "--out", o, "--quiet"],
        "holds a tuning run: add --resume",
    );
    // Another config's checkpoint.
    let other = config(&dir, "other.toml", &small.replace("seed = 3", "seed = 4"));
    rejects(
        &["tune", &other, "--out", o, "--resume", "--quiet"],
        "belongs to another config (hash",
    );
    // A corrupt one is reported and left as it is.
    let path = out.join("checkpoint.json");
    let garbled = read(&path).replacen("\"theta\"", "\"thetta\"", 1);
    std::fs::write(&path, &garbled).unwrap();
    rejects(
        &["tune", &cfg, "--out", o, "--resume", "--quiet"],
        "is corrupt (unknown field `thetta`",
    );
    assert_eq!(read(&path), garbled);
    std::fs::write(&path, "{\"format\": ").unwrap();
    rejects(
        &["tune", &cfg, "--out", o, "--resume", "--quiet"],
        "is corrupt (EOF while parsing",
    );
}
