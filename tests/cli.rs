//! End-to-end tests of the `koom` binary.

mod common;

use common::{interrupt, koom, scratch, stderr};
use std::path::{Path, PathBuf};
use std::process::Command;

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
    assert!(table.contains("hard") && table.contains("first-player advantage"));
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
    interrupt(&child);
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

#[test]
fn shards_merge_into_the_unsharded_summary() {
    let dir = scratch("shards");
    let base = [
        "run",
        "--agents",
        "hard,normal,easy,easy",
        "--games",
        "1202",
        "--seed",
        "21",
        "--quiet",
    ];
    let run = |extra: &[&str], out: &Path, env: Option<(&str, &str)>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_koom"));
        cmd.args(base)
            .args(extra)
            .args(["--out", out.to_str().unwrap()]);
        if let Some((k, v)) = env {
            cmd.env(k, v);
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    };
    let shard = |k: usize| dir.join(format!("s{k}"));
    run(&["--shard", "0/3"], &shard(0), None);
    run(
        &["--shard", "env/3"],
        &shard(1),
        Some(("SLURM_ARRAY_TASK_ID", "1")),
    );
    run(
        &["--shard", "env/3"],
        &shard(2),
        Some(("JOB_COMPLETION_INDEX", "2")),
    );
    run(&[], &dir.join("full"), None);
    let merged = dir.join("merged");
    let args = |dirs: &[PathBuf], out: &Path| {
        let mut v: Vec<String> = vec!["merge".into()];
        v.extend(dirs.iter().map(|d| d.to_str().unwrap().to_owned()));
        v.extend([
            "--out".into(),
            out.to_str().unwrap().to_owned(),
            "--quiet".into(),
        ]);
        v
    };
    let all = [shard(0), shard(1), shard(2)];
    let o = Command::new(env!("CARGO_BIN_EXE_koom"))
        .args(args(&all, &merged))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(reproducible(&merged), reproducible(&dir.join("full")));
    // Refusals: a shard twice, a missing shard, a shard of another experiment.
    let refuse = |dirs: &[PathBuf], expected: &str| {
        let out = dir.join("refused");
        let o = Command::new(env!("CARGO_BIN_EXE_koom"))
            .args(args(dirs, &out))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains(expected), "{}", stderr(&o));
        assert!(!out.join("summary.json").exists());
    };
    refuse(&[shard(0), shard(1), shard(1)], "shard 1/3 is given twice");
    refuse(&[shard(0), shard(2)], "missing shard(s) 1/3");
    let other = dir.join("other");
    let o = koom(&[
        "run",
        "--games",
        "400",
        "--shard",
        "1/3",
        "--quiet",
        "--out",
        other.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    refuse(&[shard(0), other, shard(2)], "is from another experiment");
    std::fs::write(
        dir.join("s2/shard.json"),
        "{\"kind\": \"koom-partial\", \"format_ver",
    )
    .unwrap();
    refuse(&all, "is corrupt or truncated");
}

#[test]
fn gnu_parallel_runs_the_shards_when_installed() {
    if Command::new("parallel").arg("--version").output().is_err() {
        eprintln!("SKIPPED: GNU parallel is not installed");
        return;
    }
    let dir = scratch("parallel");
    let koom_bin = env!("CARGO_BIN_EXE_koom");
    let d = dir.to_str().unwrap();
    let script = format!(
        "parallel -j 2 {koom_bin} run --games 800 --seed 2 --quiet --shard {{}}/4 --out {d}/s{{}} ::: 0 1 2 3 && {koom_bin} merge {d}/s0 {d}/s1 {d}/s2 {d}/s3 --out {d}/m --quiet && {koom_bin} run --games 800 --seed 2 --quiet --out {d}/full"
    );
    let o = Command::new("sh").args(["-c", &script]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        reproducible(&dir.join("m")),
        reproducible(&dir.join("full"))
    );
}

#[test]
fn resume_after_ctrl_c_equals_an_uninterrupted_run() {
    let dir = scratch("resume");
    let out = dir.join("resumed");
    let args = [
        "run",
        "--games",
        "120000",
        "--seed",
        "31",
        "--quiet",
        "--threads",
        "2",
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_koom"))
        .args(args)
        .args(["--out", out.to_str().unwrap()])
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    interrupt(&child);
    let status = child.wait().unwrap();
    if status.code() == Some(130) {
        assert!(out.join("checkpoint.json").exists());
        assert_eq!(summary(&out)["partial"], true);
    }
    let o = koom(&[&args[..], &["--out", out.to_str().unwrap(), "--resume"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        !out.join("checkpoint.json").exists(),
        "a finished run removes its checkpoint"
    );
    let full = dir.join("full");
    let o = koom(&[&args[..], &["--out", full.to_str().unwrap()]].concat());
    assert!(o.status.success());
    assert_eq!(reproducible(&out), reproducible(&full));
}

#[test]
fn a_corrupt_or_foreign_checkpoint_is_reported_not_overwritten() {
    let dir = scratch("bad-checkpoint");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("checkpoint.json"), "{ not json").unwrap();
    let o = koom(&[
        "run",
        "--games",
        "40",
        "--resume",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is corrupt or truncated"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(out.join("checkpoint.json")).unwrap(),
        "{ not json"
    );
    // A shard file is not this run's checkpoint.
    let shard = dir.join("shard");
    assert!(
        koom(&[
            "run",
            "--games",
            "40",
            "--shard",
            "0/2",
            "--quiet",
            "--out",
            shard.to_str().unwrap()
        ])
        .status
        .success()
    );
    std::fs::copy(shard.join("shard.json"), out.join("checkpoint.json")).unwrap();
    let o = koom(&[
        "run",
        "--games",
        "40",
        "--resume",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("belongs to another experiment or shard"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_round_robin_config_summarises_every_pairing() {
    let dir = scratch("round-robin");
    let config = dir.join("rr.toml");
    std::fs::write(&config, "game = 'ludo'\nformat = 'round-robin'\nagents = ['easy', 'normal', 'hard']\ngames = 400\nseed = 2\n").unwrap();
    let out = dir.join("out");
    let o = koom(&[
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = summary(&out);
    assert_eq!(s["format"], "round-robin");
    assert_eq!(s["pairings"].as_array().unwrap().len(), 3);
    let m = s["score_matrix"].as_array().unwrap();
    assert!(m[0][0].is_null() && m[2][0].as_f64().unwrap() > 0.5);
    assert_eq!(s["pairings"][0]["summary"]["games_played"], 400);
    let gauntlet = dir.join("gauntlet.toml");
    std::fs::write(
        &gauntlet,
        "format = 'gauntlet'\nagents = ['hard', 'normal', 'easy']\ngames = 200\n",
    )
    .unwrap();
    let out = dir.join("g");
    assert!(
        koom(&[
            "run",
            gauntlet.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet"
        ])
        .status
        .success()
    );
    let s = summary(&out);
    assert_eq!(s["pairings"].as_array().unwrap().len(), 2);
    assert!(
        s["score_matrix"][1][2].is_null(),
        "the gauntlet does not pair normal with easy"
    );
    std::fs::write(&gauntlet, "format = 'swiss'\nagents = ['hard', 'normal']\n").unwrap();
    rejects(
        &["run", gauntlet.to_str().unwrap()],
        "unknown format `swiss`",
    );
}

/// Parses `report.html` as XML (it is written well-formed) and returns its text and the number
/// of `<svg>` elements.
fn parse_html(path: &Path) -> (String, usize) {
    use quick_xml::events::Event;
    let html = std::fs::read_to_string(path).unwrap();
    let body = html.trim_start_matches("<!DOCTYPE html>\n");
    let mut reader = quick_xml::Reader::from_str(body);
    reader.config_mut().check_end_names = true;
    let (mut text, mut svgs) = (String::new(), 0);
    loop {
        match reader.read_event().expect("report.html is well-formed") {
            Event::Start(e) if AsRef::<str>::as_ref(&e.name()) == "svg" => svgs += 1,
            Event::Text(t) => {
                text.push_str(&t.into_inner());
                text.push(' ');
            }
            Event::Eof => break,
            _ => {}
        }
    }
    (text, svgs)
}

#[test]
fn the_report_parses_and_shows_the_summary_numbers() {
    let dir = scratch("report");
    let out = dir.join("run");
    let o = koom(&[
        "run",
        "--agents",
        "hard,normal,easy,easy",
        "--games",
        "800",
        "--seed",
        "6",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (text, svgs) = parse_html(&out.join("report.html"));
    let charts = std::fs::read_dir(out.join("charts")).unwrap().count();
    assert_eq!(svgs, charts, "one inline SVG per chart file");
    assert_eq!(charts, 4);
    let s = summary(&out);
    for r in s["by_agent"].as_array().unwrap() {
        let rate = format!("{:.2}%", 100.0 * r["win_rate"].as_f64().unwrap());
        assert!(
            text.contains(&rate),
            "win rate {rate} of {} in the report",
            r["agent"]
        );
        assert!(text.contains(&r["wins"].to_string()));
    }
    let fpa = format!(
        "{:+.2} pts",
        100.0 * s["first_player_advantage"]["value"].as_f64().unwrap()
    );
    assert!(text.contains(&fpa), "{fpa}");
    assert!(
        text.contains("seed = 6"),
        "the config is printed so the report reproduces"
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("![Game length (moves)](charts/game-length.svg)"));
    // Rebuilding the report from the folder gives the same file.
    let before = std::fs::read(out.join("report.html")).unwrap();
    assert!(koom(&["report", out.to_str().unwrap()]).status.success());
    assert_eq!(std::fs::read(out.join("report.html")).unwrap(), before);
}

#[test]
fn a_round_robin_report_holds_the_full_matrix() {
    let dir = scratch("report-rr");
    let config = dir.join("rr.toml");
    std::fs::write(
        &config,
        "format = 'round-robin'\nagents = ['easy', 'normal', 'hard']\ngames = 200\n",
    )
    .unwrap();
    let out = dir.join("out");
    assert!(
        koom(&[
            "run",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet"
        ])
        .status
        .success()
    );
    let (text, svgs) = parse_html(&out.join("report.html"));
    assert_eq!(svgs, std::fs::read_dir(out.join("charts")).unwrap().count());
    let s = summary(&out);
    for (i, row) in s["score_matrix"].as_array().unwrap().iter().enumerate() {
        for (j, cell) in row.as_array().unwrap().iter().enumerate() {
            if i != j {
                let shown = format!("{:.1}%", 100.0 * cell.as_f64().unwrap());
                assert!(text.contains(&shown), "cell {i},{j} = {shown}");
            }
        }
    }
}

#[test]
fn two_rule_variants_compare_with_the_interval_of_the_difference() {
    let dir = scratch("compare");
    let (a, b) = (dir.join("cap-default"), dir.join("cap-300"));
    assert!(
        koom(&[
            "run",
            "--games",
            "800",
            "--quiet",
            "--out",
            a.to_str().unwrap()
        ])
        .status
        .success()
    );
    let config = dir.join("cap.toml");
    std::fs::write(&config, "[options]\nroll_cap = 300\n").unwrap();
    assert!(
        koom(&[
            "run",
            config.to_str().unwrap(),
            "--games",
            "800",
            "--quiet",
            "--out",
            b.to_str().unwrap()
        ])
        .status
        .success()
    );
    let o = koom(&["report", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (text, svgs) = parse_html(&a.join("compare/report.html"));
    assert_eq!(svgs, 1);
    assert!(text.contains("95% interval of the difference"));
    let sb = summary(&b);
    let timeouts = format!(
        "{:.2}%",
        100.0 * sb["design"]["timeouts"]["value"].as_f64().unwrap()
    );
    assert!(
        sb["design"]["timeouts"]["value"].as_f64().unwrap() > 0.0,
        "a 300-roll cap cuts games short"
    );
    assert!(text.contains(&timeouts));
    // A folder without results: one line, exit 2, nothing written.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = koom(&["report", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no results in"));
    assert!(!empty.join("report.html").exists());
}

#[test]
fn shipped_weight_files_hold_each_level_defaults() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/weights");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let game = text
            .lines()
            .find_map(|l| l.strip_prefix("game = \""))
            .unwrap()
            .trim_end_matches('"');
        let set = text
            .lines()
            .find_map(|l| l.strip_prefix("weight_set = \""))
            .unwrap()
            .trim_end_matches('"');
        let level = set.rsplit('-').next().unwrap();
        // The file loads as an agent, and equals what `koom weights` prints for the defaults.
        let o = koom(&[
            "weights",
            "--game",
            game,
            "--level",
            &format!("{level}@{}", path.display()),
        ]);
        assert!(o.status.success(), "{}: {}", path.display(), stderr(&o));
        let defaults = koom(&["weights", "--game", game, "--level", level]);
        assert_eq!(
            o.stdout,
            defaults.stdout,
            "{} holds the defaults",
            path.display()
        );
        checked += 1;
    }
    assert!(checked >= 2);
}

#[test]
fn trente_douze_runs_end_to_end() {
    let dir = scratch("trente");
    let o = koom(&[
        "run",
        "--game",
        "trente-douze",
        "--agents",
        "hard,normal,easy",
        "--games",
        "300",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = summary(&dir);
    assert_eq!(s["rotations"], 3);
    assert_eq!(s["games_played"], 300);
    assert!(s["game_specific"]["first_player"].is_object());
    rejects(
        &["run", "--game", "trente-douze", "--agents", "hard"],
        "trente-douze needs 2 to 8 agents",
    );
    rejects(
        &[
            "run",
            "--game",
            "trente-douze",
            "--agents",
            "hard,hard,hard,hard,hard,hard,hard,hard,hard",
        ],
        "got 9",
    );
    let p = koom(&[
        "play",
        "--game",
        "trente-douze",
        "--agents",
        "hard,easy",
        "--seed",
        "3",
    ]);
    assert!(p.status.success());
    assert!(
        String::from_utf8(p.stdout)
            .unwrap()
            .contains("the sum must be")
    );
}

#[test]
fn bench_signature_is_deterministic_whatever_the_threads() {
    let signature = |threads: &str| {
        let o = koom(&[
            "bench",
            "--game",
            "ludo",
            "--games",
            "40",
            "--threads",
            threads,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(text.contains("ludo           hard"));
        text.lines().last().unwrap().to_owned()
    };
    let one = signature("1");
    assert!(one.starts_with("signature "));
    assert_eq!(one, signature("2"));
}

#[test]
fn thud_end_to_end_perft_legal_matches_and_bad_input() {
    let o = koom(&["perft", "--game", "thud", "--depth", "1"]);
    assert_eq!(String::from_utf8(o.stdout).unwrap().trim(), "perft 1 = 656");
    let o = koom(&["perft", "--game", "thud", "--depth", "2", "--divide"]);
    let text = String::from_utf8(o.stdout).unwrap();
    let divided: u64 = text
        .lines()
        .filter_map(|l| l.rsplit_once(": "))
        .map(|(_, n)| n.parse::<u64>().unwrap())
        .sum();
    assert_eq!(divided, 22_624);
    assert!(text.ends_with("perft 2 = 22624\n"));
    let o = koom(&["legal", "--game", "thud", "--moves", "F1-F2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.lines().next().unwrap().ends_with(" t"),
        "trolls to move after a dwarf move"
    );
    rejects(
        &["legal", "--game", "thud", "--moves", "F1-F2,F2-F3"],
        "move 2 `F2-F3` is illegal",
    );
    rejects(
        &[
            "perft",
            "--game",
            "thud",
            "--depth",
            "1",
            "--position",
            "dd1dd/x",
        ],
        "bad thud position",
    );
    let dir = scratch("thud");
    let o = koom(&[
        "run",
        "--game",
        "thud",
        "--agents",
        "balanced,easy",
        "--games",
        "3",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = summary(&dir);
    assert_eq!(
        (s["seed_groups"].as_u64(), s["games_played"].as_u64()),
        (Some(3), Some(6)),
        "--games counts matches"
    );
    assert_eq!(s["game_specific"]["matches"], 3);
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "game = 'thud'\nagents = ['easy', 'easy']\n[options]\nply_cap = 0\n",
    )
    .unwrap();
    rejects(&["run", bad.to_str().unwrap()], "ply_cap");
    let p = koom(&[
        "play",
        "--game",
        "thud",
        "--agents",
        "easy,beginner",
        "--seed",
        "2",
    ]);
    let text = String::from_utf8(p.stdout).unwrap();
    assert_eq!(
        text.matches("== thud game").count(),
        2,
        "a whole match: both rounds"
    );
}

#[test]
fn hnefatafl_end_to_end_perft_legal_run_and_bad_input() {
    let o = koom(&["perft", "--game", "hnefatafl", "--depth", "2"]);
    assert_eq!(
        String::from_utf8(o.stdout).unwrap().trim(),
        "perft 2 = 6788"
    );
    let o = koom(&["legal", "--game", "hnefatafl", "--moves", "d1-d3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.lines().next().unwrap().ends_with(" d"),
        "defenders to move: {text}"
    );
    rejects(
        &["legal", "--game", "hnefatafl", "--moves", "d1-d3,a1-a2"],
        "move 2 `a1-a2` is illegal",
    );
    rejects(
        &[
            "perft",
            "--game",
            "hnefatafl",
            "--depth",
            "1",
            "--position",
            "/11/11/ a",
        ],
        "bad hnefatafl position",
    );
    let dir = scratch("hnefatafl");
    let o = koom(&[
        "run",
        "--game",
        "hnefatafl",
        "--agents",
        "normal,easy",
        "--games",
        "4",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = summary(&dir);
    assert_eq!(s["games_played"], 4);
    assert!(s["game_specific"].is_object());
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "game = 'hnefatafl'\nagents = ['easy', 'easy']\n[options]\nply_cap = 0\n",
    )
    .unwrap();
    rejects(&["run", bad.to_str().unwrap()], "ply_cap");
}

#[test]
fn a_thud_tournament_report_draws_each_pairings_margin_distribution() {
    let dir = scratch("thud-report");
    let config = dir.join("rr.toml");
    std::fs::write(&config, "game = 'thud'\nformat = 'round-robin'\nagents = ['beginner', 'easy', 'balanced']\ngames = 2\n").unwrap();
    let out = dir.join("out");
    let o = koom(&[
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (text, svgs) = parse_html(&out.join("report.html"));
    assert_eq!(svgs, std::fs::read_dir(out.join("charts")).unwrap().count());
    for i in 1..=3 {
        assert!(
            out.join(format!("charts/distribution-{i}-1.svg")).exists(),
            "pairing {i}"
        );
    }
    assert!(text.contains("dwarf - troll point margin per round: beginner vs easy"));
}
