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
    gate_of_hard_is_never_h0("gate-external", &koom_engine("hnefatafl", "hard"), 8);
}

/// A Hnefatafl gate of `hard` against `baseline`, the same level behind a protocol, at most
/// `games` games: H1 or inconclusive (exit 0 or 3), never H0, and no game forfeited.
pub fn gate_of_hard_is_never_h0(name: &str, baseline: &str, games: u32) {
    let dir = scratch(name);
    let o = Koom::new("gate")
        .args(["--game", "hnefatafl", "--candidate", "hard"])
        .arg("--baseline")
        .arg(baseline)
        .arg("--max-games")
        .arg(games.to_string())
        .args(["--batch", "2", "--threads", "2"])
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
    assert!(s["games_played"].as_u64().unwrap() >= u64::from(games));
    assert!(s.get("engine_failures").is_none(), "{s}");
}

#[test]
fn every_kind_of_failure_loses_the_game_with_its_reason() {
    each_failure_loses("misbehaving", "misbehave.sh", "koom");
}

/// The test engine `tests/engines/SCRIPT` speaking `protocol` (`koom` or `htp`), crashing,
/// answering an illegal move, garbage, or nothing (as an `[engines]` table with a 100 ms
/// limit): each forfeits each of the 4 games of a run against `easy` with its own reason, in
/// `games.csv` and `summary.json`.
pub fn each_failure_loses(name: &str, script: &str, protocol: &str) {
    let dir = scratch(name);
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines")
        .join(script);
    let config = write(
        &dir,
        "config.toml",
        &format!(
            "game = \"hnefatafl\"\n[engines.sleeper]\ncommand = \"sh {} hang\"\nprotocol = \"{protocol}\"\ntimeout_ms = 100\n",
            script.display()
        ),
    );
    let prefix = if protocol == "htp" { "htp" } else { "cmd" };
    let agent = |mode| format!("{prefix}:sh {} {mode}", script.display());
    let agents = [
        agent("crash"),
        agent("illegal"),
        agent("garbage"),
        "sleeper".to_owned(),
    ];
    let reasons = [
        "program crashed",
        "illegal move",
        "unreadable reply",
        "no move in time",
    ];
    for (agent, kind) in agents.iter().zip(reasons) {
        let out = dir.join(kind.replace(' ', "-"));
        let o = Koom::new("run")
            .arg(&config)
            .arg("--agents")
            .arg(format!("easy,{agent}"))
            .args(["--games", "4", "--games-csv", "--threads", "1"])
            .quiet()
            .out(&out)
            .output();
        // Failing every game is more than half of them: the results are written, with exit 2.
        assert_eq!(o.status.code(), Some(2), "{}", crate::common::stderr(&o));
        assert!(crate::common::stderr(&o).contains("failed 4 of its 4 games"));
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
        .output();
    let s = summary(&dir);
    // Two matches of two rounds involve the crashing engine: it moves (and crashes) in all,
    // which is more than half of its games: the report is written, with exit 2.
    assert_eq!(s["engine_failures"][&crash]["program crashed"], 8, "{s}");
    assert_eq!(o.status.code(), Some(2));
    assert!(crate::common::stderr(&o).contains("failed 8 of its 8 games"));
    assert!(stdout(&o).contains("beginner"));
}
