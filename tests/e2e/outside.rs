//! Outside players that cannot give a result (issue 50): a program that never runs, plays
//! another game or fails most of its games ends the command with exit 2 and one line, never
//! with a verdict.

use std::path::Path;

use crate::common::{Koom, scratch, stderr, stdout, summary};

fn koom_engine(game: &str) -> String {
    format!(
        "cmd:{} engine --game {game} --level easy",
        env!("CARGO_BIN_EXE_koom")
    )
}

fn misbehaving(mode: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/misbehave.sh");
    format!("cmd:sh {} {mode}", script.display())
}

fn gate_against(baseline: &str) -> Koom {
    Koom::new("gate")
        .args(["--game", "hnefatafl", "--candidate", "easy", "--seed", "1"])
        .arg("--baseline")
        .arg(baseline)
        .args(["--max-games", "16", "--batch", "2", "--threads", "1"])
}

#[test]
fn a_gate_against_a_program_that_does_not_exist_is_refused_before_any_game() {
    gate_against("cmd:/nonexistent/engine").rejects("`cmd:/nonexistent/engine` does not start");
}

#[test]
fn a_gate_against_an_engine_of_another_game_is_refused_by_its_handshake() {
    gate_against(&koom_engine("thud")).rejects("plays thud, not hnefatafl");
}

#[test]
fn run_and_ladder_refuse_a_program_that_does_not_start() {
    let dir = scratch("outside-nonexistent");
    Koom::new("run")
        .args([
            "--game",
            "hnefatafl",
            "--agents",
            "easy,cmd:/nonexistent/engine",
        ])
        .args(["--games", "4"])
        .out(dir.join("run"))
        .rejects("does not start");
    Koom::new("ladder")
        .args([
            "--game",
            "thud",
            "--levels",
            "beginner,cmd:/nonexistent/engine",
        ])
        .args(["--games", "2"])
        .out(dir.join("ladder"))
        .rejects("does not start");
}

#[test]
fn a_gate_whose_baseline_forfeits_every_game_has_no_verdict_and_exits_2() {
    let dir = scratch("outside-gate-crash");
    let crash = misbehaving("crash");
    let o = gate_against(&crash).out(&dir).output();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.lines().any(|l| l.contains("failed 16 of its 16 games")),
        "{err}"
    );
    assert_eq!(
        err.lines().filter(|l| l.contains("error")).count(),
        1,
        "{err}"
    );
    // The verdict block names the forfeits, and the summary carries no pass.
    let out = stdout(&o);
    assert!(out.contains("verdict: none"), "{out}");
    assert!(
        out.contains(&format!(
            "engine failures: {crash}: 16 program crashed (of 16 games)"
        )),
        "{out}"
    );
    let s = summary(&dir);
    assert_eq!(s["exit_code"], 2, "{s}");
    assert_eq!(s["engine_failures"][&crash]["program crashed"], 16, "{s}");
}
