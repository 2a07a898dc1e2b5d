//! External players (`cmd:` agents and `[engines.NAME]` tables): koom driving programs over its
//! engine protocol, itself (`koom engine`) and the misbehaving test engine
//! `tests/engines/misbehave.sh`.

use std::path::Path;

use crate::common::{Koom, read, scratch, stdout, summary, write};

/// `cmd:` running this koom as an engine.
fn koom_engine(game: &str, level: &str) -> String {
    format!(
        "cmd:{} engine --game {game} --level {level}",
        env!("CARGO_BIN_EXE_koom")
    )
}

/// `cmd:` running the misbehaving test engine in `mode`.
fn misbehaving(mode: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/misbehave.sh");
    format!("cmd:sh {} {mode}", script.display())
}

#[test]
fn gate_of_hard_against_koom_engine_running_hard_is_never_h0() {
    let dir = scratch("gate-external");
    let o = Koom::new("gate")
        .args(["--game", "hnefatafl", "--candidate", "hard"])
        .arg("--baseline")
        .arg(koom_engine("hnefatafl", "hard"))
        .args(["--max-games", "8", "--batch", "2", "--threads", "2"])
        .quiet()
        .out(&dir)
        .output();
    let code = o.status.code();
    assert!(
        code == Some(0) || code == Some(3),
        "H1 or inconclusive, got {code:?}: {}",
        crate::common::stderr(&o)
    );
    let s = summary(&dir);
    assert!(s["games_played"].as_u64().unwrap() >= 8);
    assert!(s.get("engine_failures").is_none(), "{s}");
}

#[test]
fn every_kind_of_failure_loses_the_game_with_its_reason() {
    let dir = scratch("misbehaving");
    let config = write(
        &dir,
        "config.toml",
        &format!(
            "game = \"hnefatafl\"\n[engines.sleeper]\ncommand = \"sh {}/tests/engines/misbehave.sh hang\"\ntimeout_ms = 100\n",
            env!("CARGO_MANIFEST_DIR")
        ),
    );
    each_failure_loses(
        &dir,
        &config,
        [
            misbehaving("crash"),
            misbehaving("illegal"),
            misbehaving("garbage"),
            "sleeper".to_owned(),
        ],
    );
}

/// Each of `agents` (crashing, illegal, garbage, hanging, in this order) forfeits each of the
/// 4 games of a run against `easy` with its own reason, in `games.csv` and `summary.json`.
pub fn each_failure_loses(dir: &Path, config: &Path, agents: [String; 4]) {
    let reasons = [
        "program crashed",
        "illegal move",
        "unreadable reply",
        "no move in time",
    ];
    for (agent, kind) in agents.iter().zip(reasons) {
        let out = dir.join(kind.replace(' ', "-"));
        Koom::new("run")
            .arg(config)
            .arg("--agents")
            .arg(format!("easy,{agent}"))
            .args(["--games", "4", "--games-csv", "--threads", "1"])
            .quiet()
            .out(&out)
            .ok();
        let s = summary(&out);
        assert_eq!(s["games_played"], 4);
        // Each game the program moves in, it forfeits: the two where it moves first at once,
        // the others at its first move.
        assert_eq!(s["engine_failures"][agent][kind], 4, "{s}");
        assert_eq!(s["by_agent"][0]["wins"], 4, "easy wins all four: {s}");
        let csv = read(&out.join("games.csv"));
        let reason = format!("forfeit: {kind}");
        assert_eq!(
            csv.lines().filter(|l| l.contains(&reason)).count(),
            4,
            "{csv}"
        );
    }
}

#[test]
fn a_tournament_with_a_crashing_engine_completes_and_reports_the_failures() {
    let dir = scratch("tournament-crash");
    let config = write(
        &dir,
        "config.toml",
        "game = \"thud\"\nformat = \"round-robin\"\n",
    );
    let crash = misbehaving("crash");
    let o = Koom::new("run")
        .arg(&config)
        .arg("--agents")
        .arg(format!("beginner,easy,{crash}"))
        .args(["--games", "2", "--threads", "2"])
        .out(&dir)
        .ok();
    let s = summary(&dir);
    // Two matches of two rounds involve the crashing engine: it moves (and crashes) in all.
    assert_eq!(s["engine_failures"][&crash]["program crashed"], 8, "{s}");
    assert!(stdout(&o).contains("beginner"));
}
