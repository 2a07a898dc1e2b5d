//! End-to-end tests of the `koom` binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn koom(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_koom"))
        .args(args)
        .output()
        .expect("koom runs")
}

/// A fresh scratch folder per test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("koom-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn summary(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("summary.json")).expect("summary.json written");
    serde_json::from_str(&text).unwrap()
}

/// The summary without its `run` object: what must not depend on threads or timing.
fn reproducible(dir: &Path) -> serde_json::Value {
    let mut s = summary(dir);
    s.as_object_mut().unwrap().remove("run");
    s
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn run_with_flags_writes_a_consistent_summary() {
    let dir = scratch("flags");
    let out = dir.to_str().unwrap();
    let o = koom(&[
        "run",
        "--game",
        "ludo",
        "--agents",
        "hard,normal,easy,easy",
        "--games",
        "402",
        "--seed",
        "5",
        "--out",
        out,
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = summary(&dir);
    assert_eq!(
        s["games_played"], 404,
        "402 rounded up to whole rotations of 4"
    );
    assert_eq!(s["seed"], 5);
    assert_eq!(s["partial"], false);
    let seat_wins: u64 = s["by_seat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["wins"].as_u64().unwrap())
        .sum();
    let agent_wins: u64 = s["by_agent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["wins"].as_u64().unwrap())
        .sum();
    let no_result = s["no_result"].as_u64().unwrap();
    assert_eq!(seat_wins + no_result, 404);
    assert_eq!(agent_wins, seat_wins);
    let easy = &s["by_agent"][2];
    assert_eq!(
        (easy["agent"].as_str(), easy["games"].as_u64()),
        (Some("easy"), Some(808)),
        "two Easy slots pooled"
    );
    let ci = s["by_seat"][0]["win_rate_ci95"].as_array().unwrap();
    let rate = s["by_seat"][0]["win_rate"].as_f64().unwrap();
    assert!(ci[0].as_f64().unwrap() < rate && rate < ci[1].as_f64().unwrap());
    let fpa = s["first_player_advantage"]["value"].as_f64().unwrap();
    assert!((fpa - (rate - 0.25)).abs() < 1e-12);
    let csv = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    assert_eq!(
        csv.lines().count(),
        1 + 3 + 4,
        "header, three agents, four seats"
    );
    assert!(!dir.join("games.csv").exists());
}

#[test]
fn run_from_a_config_with_flags_overriding_it() {
    let dir = scratch("config");
    let config = dir.join("exp.toml");
    std::fs::write(&config, "game = 'ludo'\nagents = ['easy', 'easy', 'easy', 'normal']\ngames = 40\nseed = 3\n[options]\nroll_cap = 20\n").unwrap();
    let out = dir.join("out");
    let o = koom(&[
        "run",
        config.to_str().unwrap(),
        "--seed",
        "4",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = summary(&out);
    assert_eq!(
        (s["seed"].as_u64(), s["games_played"].as_u64()),
        (Some(4), Some(40))
    );
    assert_eq!(s["options"]["roll_cap"], 20);
    assert_eq!(s["no_result"], 40, "no Ludo game finishes within 20 rolls");
    assert_eq!(s["length_rolls"]["max"], 20);
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let dir = scratch("threads");
    let run = |threads: &str| {
        let out = dir.join(threads);
        let o = koom(&[
            "run",
            "--games",
            "2000",
            "--seed",
            "11",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
            "--quiet",
            "--games-csv",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        out
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(reproducible(&one), reproducible(&two));
    assert_eq!(
        std::fs::read(one.join("games.csv")).unwrap(),
        std::fs::read(two.join("games.csv")).unwrap()
    );
    assert_eq!(summary(&one)["run"]["threads"], 1);
}

#[test]
fn play_replays_the_batch_game_exactly() {
    let dir = scratch("replay");
    let agents = "hard,normal,easy,hard";
    let o = koom(&[
        "run",
        "--agents",
        agents,
        "--games",
        "24",
        "--seed",
        "9",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
        "--games-csv",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 25);
    for index in [0usize, 7, 22] {
        let p = koom(&[
            "play",
            "--agents",
            agents,
            "--seed",
            "9",
            "--index",
            &index.to_string(),
        ]);
        assert!(p.status.success(), "{}", stderr(&p));
        let text = String::from_utf8(p.stdout).unwrap();
        let last = text.lines().last().unwrap();
        assert_eq!(last, rows[index + 1], "game {index}");
        assert!(text.contains(" rolls "), "the narration shows the rolls");
        assert!(text.contains(" plays pawn "), "and the moves");
    }
}

#[test]
fn the_default_experiment_runs_with_no_arguments() {
    let dir = scratch("default");
    let o = Command::new(env!("CARGO_BIN_EXE_koom"))
        .arg("run")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let s = summary(&dir.join("koom-results/ludo"));
    assert_eq!(s["games_played"], 40_000);
    assert!(stderr(&o).contains("results written to koom-results/ludo"));
    let table = String::from_utf8(o.stdout).unwrap();
    assert!(table.contains("agent hard") && table.contains("first-seat advantage"));
}

#[test]
fn ctrl_c_writes_a_partial_summary() {
    let dir = scratch("interrupt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_koom"))
        .args([
            "run",
            "--games",
            "100000000",
            "--quiet",
            "--out",
            dir.to_str().unwrap(),
        ])
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let s = summary(&dir);
    assert_eq!(s["partial"], true);
    let played = s["games_played"].as_u64().unwrap();
    assert!(played > 0 && played < 100_000_000);
    let seat_games: u64 = s["by_seat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["games"].as_u64().unwrap())
        .sum();
    assert_eq!(
        seat_games,
        4 * played,
        "the summary covers exactly the finished games"
    );
}

#[test]
fn list_shows_games_levels_and_weights() {
    let o = koom(&["list"]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    for needle in [
        "ludo (4 seats)",
        "easy",
        "normal",
        "hard",
        "ludo-hard",
        "risk_weight",
    ] {
        assert!(text.contains(needle), "{needle}");
    }
}

#[test]
fn weights_files_load_as_agents() {
    let dir = scratch("weights");
    let weights = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/configs/weights/ludo-hard.toml"
    );
    let a = dir.join("a");
    let b = dir.join("b");
    let with_file = format!("hard@{weights},easy,easy,easy");
    for (agents, out) in [(with_file.as_str(), &a), ("hard,easy,easy,easy", &b)] {
        let o = koom(&[
            "run",
            "--agents",
            agents,
            "--games",
            "200",
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    // The shipped file holds the defaults, so the results are the same.
    assert_eq!(summary(&a)["by_seat"], summary(&b)["by_seat"]);
}

/// Bad input: exit status 2, one line on stderr naming the problem, no result file.
fn rejects(args: &[&str], expected: &str) {
    let dir = scratch(&format!("bad-{}", expected.len()));
    let out = dir.join("out");
    let mut all: Vec<&str> = args.to_vec();
    let out_s = out.to_str().unwrap().to_owned();
    if matches!(args[0], "run" | "gate" | "ladder") && !args.contains(&"--out") {
        all.extend(["--out", &out_s]);
    }
    let o = koom(&all);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(
        err.contains(expected),
        "{args:?}: expected `{expected}` in `{err}`"
    );
    assert!(!err.contains("panicked") && !err.contains("backtrace"));
    assert!(!out.join("summary.json").exists());
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    rejects(
        &["run", "--game", "chess"],
        "unknown game `chess` (accepted: ludo",
    );
    rejects(
        &["run", "--agents", "hard,expert,easy,easy"],
        "unknown ludo level `expert` (accepted: easy, normal, hard)",
    );
    rejects(&["run", "--agents", "hard,easy"], "ludo needs 4 agents");
    rejects(&["run", "--games", "0"], "games must be at least 1");
    rejects(
        &["run", "--agents", "hard@/nonexistent/w.toml,easy,easy,easy"],
        "cannot read weights file",
    );
    rejects(
        &["play", "--game", "ludo", "--agents", "easy"],
        "ludo needs 4 agents",
    );
    let dir = scratch("bad-config");
    let malformed = dir.join("malformed.toml");
    std::fs::write(&malformed, "game = 'ludo\n").unwrap();
    rejects(&["run", malformed.to_str().unwrap()], "malformed.toml");
    let unknown = dir.join("unknown.toml");
    std::fs::write(&unknown, "gmaes = 10\n").unwrap();
    rejects(&["run", unknown.to_str().unwrap()], "unknown field `gmaes`");
    let bad_option = dir.join("option.toml");
    std::fs::write(&bad_option, "[options]\nroll_cap = 0\n").unwrap();
    rejects(
        &["run", bad_option.to_str().unwrap()],
        "roll_cap must be at least 1",
    );
    rejects(&["run", "--config-missing"], "unexpected argument");
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    let under_file = file.join("out");
    rejects(
        &["run", "--games", "4", "--out", under_file.to_str().unwrap()],
        "cannot create output folder",
    );
}

#[test]
fn gate_exit_codes_follow_the_verdict() {
    let dir = scratch("gate");
    let gate = |candidate: &str, baseline: &str, extra: &[&str]| {
        let out = dir.join(format!("{candidate}-{baseline}"));
        let mut args = vec![
            "gate",
            "--game",
            "ludo",
            "--candidate",
            candidate,
            "--baseline",
            baseline,
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ];
        args.extend(extra);
        let o = koom(&args);
        (
            o.status.code(),
            summary(&out),
            String::from_utf8(o.stdout).unwrap(),
        )
    };
    let (code, s, text) = gate("hard", "easy", &[]);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(s["verdict"], "H1 accepted: not weaker");
    assert!(s["sprt"]["llr"].as_f64().unwrap() >= s["sprt"]["upper"].as_f64().unwrap());
    assert!(s["elo_ci95"][0].as_f64().unwrap() > 0.0);
    assert!(text.contains("LLR") && text.contains("Elo"));
    let (code, s, _) = gate("easy", "hard", &["--preset", "gain"]);
    assert_eq!(code, Some(1));
    assert_eq!(s["sprt"]["bounds"]["elo1"], 2.0);
    // A level against itself on common dice mirrors every game: no evidence either way.
    let (code, s, _) = gate("hard", "hard", &["--max-games", "400"]);
    assert_eq!(code, Some(3));
    assert_eq!(s["games_played"], 400);
    let (code, s, _) = gate(
        "hard",
        "normal",
        &["--logistic", "--elo0", "0", "--elo1", "10"],
    );
    assert_eq!(code, Some(0));
    assert_eq!(s["sprt"]["bounds"]["model"], "logistic");
}

#[test]
fn ladder_passes_in_order_and_fails_reversed() {
    let dir = scratch("ladder");
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/ladders/ludo.toml");
    let out = dir.join("ok");
    let o = koom(&[
        "ladder",
        config,
        "--games",
        "2000",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = summary(&out);
    assert_eq!(s["levels"], serde_json::json!(["easy", "normal", "hard"]));
    assert_eq!(s["rungs"].as_array().unwrap().len(), 2);
    let out = dir.join("reversed");
    let o = koom(&[
        "ladder",
        "--game",
        "ludo",
        "--levels",
        "hard,normal,easy",
        "--games",
        "2000",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8(o.stdout).unwrap().contains("FAIL"));
}

#[test]
fn bad_gate_input_is_one_line_and_exit_2() {
    let gate = [
        "gate",
        "--game",
        "ludo",
        "--candidate",
        "hard",
        "--baseline",
        "easy",
    ];
    let with = |extra: &[&str]| {
        let mut v = gate.to_vec();
        v.extend(extra);
        v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>()
    };
    for (extra, expected) in [
        (
            vec!["--elo0", "2", "--elo1", "1"],
            "elo0 (2) must be below elo1 (1)",
        ),
        (vec!["--elo0", "1", "--elo1", "1"], "must be below"),
        (vec!["--alpha", "0.5"], "alpha = 0.5 must lie in (0, 0.5)"),
        (vec!["--beta", "0"], "beta = 0 must lie in (0, 0.5)"),
    ] {
        let args = with(&extra);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        rejects(&refs, expected);
    }
    rejects(
        &[
            "gate",
            "--game",
            "ludo",
            "--candidate",
            "hard",
            "--baseline",
            "grandmaster",
        ],
        "unknown ludo level `grandmaster`",
    );
    let dir = scratch("bad-weights");
    let weights = dir.join("w.toml");
    std::fs::write(&weights, "[weights]\ncapture = 5.0\nrisk = 1.0\n").unwrap();
    let candidate = format!("hard@{}", weights.display());
    rejects(
        &[
            "gate",
            "--game",
            "ludo",
            "--candidate",
            &candidate,
            "--baseline",
            "easy",
        ],
        "unknown parameter `risk`",
    );
    std::fs::write(&weights, "[weights]\ncapture = 50.0\ncapture_extra = 0.1\nfinish = 4.0\nleave_yard = 3.0\nsafe = 2.0\nprogress = 1.0\nrisk_weight = 1.0\n").unwrap();
    rejects(
        &[
            "gate",
            "--game",
            "ludo",
            "--candidate",
            &candidate,
            "--baseline",
            "easy",
        ],
        "outside its range [0, 10]",
    );
}
