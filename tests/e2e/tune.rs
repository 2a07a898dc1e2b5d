//! `koom tune`: SPSA results, checkpoints, `--resume` after Ctrl-C, and bad configs.

use crate::common::{Koom, interrupt, json, read, scratch, stderr, write};
use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

/// `koom tune CONFIG --out OUT --quiet`.
fn tune(config: &Path, out: &Path) -> Koom {
    Koom::new("tune").arg(config).out(out)
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
    let cfg = write(&dir, "bad.toml", &text);
    let out = dir.join("out");
    tune(&cfg, &out).ok();
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
        !out.join("convergence.png").exists(),
        "no PNG: it could carry no text"
    );
    let agent = format!("hard@{}", out.join("tuned.toml").display());
    Koom::new("run")
        .args(["--agents", &format!("{agent},hard,easy,easy")])
        .args(["--games", "8"])
        .out(dir.join("run"))
        .quiet()
        .ok();
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
    let cfg = write(&dir, "small.toml", SMALL);
    let whole = dir.join("whole");
    tune(&cfg, &whole).ok();
    // The checkpoint as it stood after iteration 5 of 12 (every parameter is tuned, so θ is
    // the fifth record's).
    let mut cp = json(&whole.join("checkpoint.json"));
    let history = cp["history"].as_array().unwrap()[..5].to_vec();
    cp["theta"] = history[4]["theta"].clone();
    cp["history"] = serde_json::Value::Array(history);
    cp["iterations_done"] = 5.into();
    cp.as_object_mut().unwrap().shift_remove("checksum");
    let part = dir.join("part");
    std::fs::create_dir_all(&part).unwrap();
    write(
        &part,
        "checkpoint.json",
        &String::from_utf8(tuner::checksum::seal(cp).unwrap()).unwrap(),
    );
    let o = tune(&cfg, &part).args(["--resume", "--threads", "1"]).ok();
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
    let cfg = write(
        &dir,
        "long.toml",
        &SMALL
            .replace("iterations = 12", "iterations = 100000")
            .replace("pairs = 4", "pairs = 1"),
    );
    let out = dir.join("out");
    let (code, err) = interrupt_after(tune(&cfg, &out).spawn(), &out, 1);
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("--resume"), "{err}");
    let first = json(&out.join("checkpoint.json"));
    let k = first["iterations_done"].as_u64().unwrap();
    assert!(k >= 2);
    assert_eq!(read(&out.join("tuning.csv")).lines().count() as u64, 2 + k);
    assert!(!out.join("tuned.toml").exists(), "no result before the end");

    let resumed = tune(&cfg, &out).arg("--resume").spawn();
    let (code, err) = interrupt_after(resumed, &out, k + 1);
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

#[test]
fn max_time_says_whether_it_stopped_the_run_or_the_iterations_ended_first() {
    let dir = scratch("max-time");
    let cfg = write(&dir, "small.toml", SMALL);
    let o = tune(&cfg, &dir.join("early"))
        .args(["--max-time", "600"])
        .ok();
    let err = stderr(&o);
    assert!(err.contains("all 12 iterations done with"), "{err}");
    assert!(err.contains("of --max-time left"), "{err}");
    assert_eq!(json(&dir.join("early/summary.json"))["iterations_done"], 12);

    // 100000 iterations cannot finish in a second: the time stops them, and the verification
    // still follows.
    let long = write(
        &dir,
        "long.toml",
        &SMALL.replace("iterations = 12", "iterations = 100000"),
    );
    let o = tune(&long, &dir.join("stopped"))
        .args(["--max-time", "1"])
        .ok();
    let err = stderr(&o);
    assert!(err.contains("--max-time reached after"), "{err}");
    assert!(!err.contains("of --max-time left"), "{err}");
    let s = json(&dir.join("stopped/summary.json"));
    assert!(s["iterations_done"].as_u64().unwrap() < 100000);
    assert!(s["verification"]["games_played"].as_u64().unwrap() > 0);
}

#[test]
fn bad_configs_are_one_line_and_exit_2() {
    let dir = scratch("bad");
    let out = dir.join("out");
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
        let cfg = write(&dir, &format!("bad{i}.toml"), &format!("{base}{extra}\n"));
        tune(&cfg, &out).rejects(expected);
    }
    let cfg = write(&dir, "chess.toml", &base.replace("ludo", "chess"));
    tune(&cfg, &out).rejects("unknown game `chess`");
    let cfg = write(&dir, "normal.toml", &base.replace("hard", "normal"));
    tune(&cfg, &out).rejects("level `normal` has no weight set to tune");
    Koom::new("tune")
        .arg("missing.toml")
        .rejects("cannot read config missing.toml");
}

#[test]
fn checkpoints_are_never_silently_replaced() {
    let dir = scratch("checkpoints");
    let small = SMALL.replace("iterations = 12", "iterations = 2");
    let cfg = write(&dir, "small.toml", &small);
    let out = dir.join("out");
    tune(&cfg, &out).ok();
    // Without --resume, an existing run is not overwritten.
    tune(&cfg, &out).rejects("holds a tuning run: add --resume");
    // Another config's checkpoint.
    let other = write(&dir, "other.toml", &small.replace("seed = 3", "seed = 4"));
    tune(&other, &out)
        .arg("--resume")
        .rejects("belongs to another config (hash");
    // A corrupt one is reported and left as it is.
    let path = out.join("checkpoint.json");
    let garbled = read(&path).replacen("\"theta\"", "\"thetta\"", 1);
    std::fs::write(&path, &garbled).unwrap();
    tune(&cfg, &out)
        .arg("--resume")
        .rejects("is corrupt (unknown field `thetta`");
    assert_eq!(read(&path), garbled);
    std::fs::write(&path, "{\"format\": ").unwrap();
    tune(&cfg, &out)
        .arg("--resume")
        .rejects("is corrupt (EOF while parsing");
}
