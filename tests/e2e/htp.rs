//! The Hnefatafl Text Protocol, both ways, from outside the process: two `koom engine
//! --protocol htp` processes play a whole game through a relay that holds the rules; a gate
//! against koom behind HTP; misbehaving HTP programs forfeit with their reasons; bad input.

use engine::games::hnefatafl::{Hnefatafl, Square, square_name};
use engine::{Game, NoLog, RandomStream};

use crate::common::{Koom, scratch, write};
use crate::engine_protocol::Engine;
use crate::external::{each_failure_loses, gate_of_hard_is_never_h0};

/// An HTP engine: `koom engine --game hnefatafl --protocol htp --level LEVEL`.
fn start(level: &str) -> Engine {
    Engine::spawn(&["--game", "hnefatafl", "--protocol", "htp", "--level", level])
}

/// Sends a command; the response's text (`Ok` for `=`, `Err` for `?`), which must end with a
/// blank line.
fn ask(engine: &mut Engine, command: &str) -> Result<String, String> {
    engine.send(command);
    let mut lines = Vec::new();
    loop {
        let line = engine.line();
        if line.is_empty() {
            break;
        }
        lines.push(line);
    }
    let text = lines.join("\n");
    if let Some(ok) = text.strip_prefix('=') {
        Ok(ok.trim().to_owned())
    } else if let Some(err) = text.strip_prefix('?') {
        Err(err.trim().to_owned())
    } else {
        panic!("`{command}`: not a response: {text:?}")
    }
}

fn role(seat: usize) -> &'static str {
    ["attacker", "defender"][seat]
}

/// Each side's engine is asked `generate_move`, its move is checked and played on the relay's
/// own game and sent to the other engine with `play`, whose answer must name exactly the
/// squares the move captured. At the end both engines' `final_status` must name the result.
#[test]
fn two_htp_engines_play_a_whole_game_through_a_relay() {
    let levels = ["easy", "normal"];
    let mut engines = levels.map(start);
    for (engine, level) in engines.iter_mut().zip(levels) {
        assert_eq!(ask(engine, "name"), Ok(format!("koom {level}")));
        assert_eq!(ask(engine, "protocol_version"), Ok("1-beta".into()));
        assert_eq!(ask(engine, "time_settings un-timed"), Ok(String::new()));
    }
    let mut dice = RandomStream::dice(0);
    let mut game = Hnefatafl::new(&Default::default(), 2, &mut dice, &mut NoLog);
    while game.outcome().is_none() {
        let seat = game.to_move();
        let answer = ask(&mut engines[seat], &format!("generate_move {}", role(seat))).unwrap();
        let words: Vec<&str> = answer.split_whitespace().collect();
        let ["play", who, from, to] = words[..] else {
            panic!("{answer}")
        };
        assert_eq!(who, role(seat), "{answer}");
        let mv = game
            .parse_move(&format!("{from}-{to}"))
            .unwrap_or_else(|e| panic!("ply {}: {answer}: {e}", game.plies()));
        let captured = game.apply(mv).soldiers;
        let expected: Vec<String> = (0..121)
            .map(Square::from_index)
            .filter(|&s| captured >> s.index() & 1 != 0)
            .map(square_name)
            .collect();
        let reply = ask(&mut engines[1 - seat], &answer);
        assert_eq!(reply, Ok(expected.join(" ")), "{answer}");
    }
    let outcome = game.outcome().unwrap();
    let status = match outcome.sole_winner() {
        Some(0) => "attacker_wins",
        Some(_) => "defender_wins",
        None => "draw",
    };
    for mut engine in engines {
        let engine = &mut engine;
        assert_eq!(ask(engine, "final_status"), Ok(status.into()));
        assert!(ask(engine, "generate_move").unwrap_err().contains("over"));
        assert_eq!(ask(engine, "quit"), Ok(String::new()));
        assert!(engine.child.wait().unwrap().success());
    }
    assert!(game.plies() > 0);
}

/// `htp:` running this koom as an HTP engine.
fn koom_htp(level: &str) -> String {
    format!(
        "htp:{} engine --game hnefatafl --protocol htp --level {level}",
        env!("CARGO_BIN_EXE_koom")
    )
}

/// koom behind HTP is the same level: the gate never rejects it, and no game is forfeited.
#[test]
fn gate_of_hard_against_koom_behind_htp_is_never_h0() {
    gate_of_hard_is_never_h0("gate-htp", &koom_htp("hard"), 4);
}

#[test]
fn every_kind_of_htp_failure_loses_the_game_with_its_reason() {
    each_failure_loses("misbehaving-htp", "misbehave-htp.sh", "htp");
}

#[test]
fn htp_outside_hnefatafl_koom_limits_on_htp_and_htp_with_openings_are_refused() {
    Koom::new("engine")
        .args(["--game", "thud", "--level", "easy", "--protocol", "htp"])
        .rejects("serves hnefatafl only, not thud");
    Koom::new("run")
        .args(["--game", "thud", "--agents"])
        .arg(format!("easy,{}", koom_htp("easy")))
        .rejects("serves hnefatafl only, not thud");
    let dir = scratch("htp-limits");
    let config = write(
        &dir,
        "config.toml",
        "game = \"hnefatafl\"\n[engines.deep]\ncommand = \"koom\"\nprotocol = \"htp\"\ndepth = 3\n",
    );
    Koom::new("run")
        .arg(&config)
        .args(["--agents", "easy,deep"])
        .rejects("the Hnefatafl Text Protocol has none");
    let openings = write(&dir, "openings.txt", "moves: d1-b1\n");
    Koom::new("run")
        .args(["--game", "hnefatafl", "--agents"])
        .arg(format!("easy,{}", koom_htp("easy")))
        .arg("--openings")
        .arg(&openings)
        .rejects("cannot set up a position");
}

/// hnefatafl-copenhagen's own engine, built from crates.io (docs/engine-protocol.md, "Playing
/// hnefatafl-copenhagen's own program"), plays koom's `easy` on both sides: it follows every move
/// koom sends and answers every `generate_move` with a legal move, so no game is forfeited.
/// `KOOM_HNEFATAFL_HTP` names its binary; `KOOM_HNEFATAFL_PLIES` (default 20) caps the games, as
/// its AI takes up to a minute and a half a move.
#[test]
#[ignore = "needs hnefatafl-copenhagen's hnefatafl-text-protocol: set KOOM_HNEFATAFL_HTP"]
fn the_real_hnefatafl_copenhagen_program_follows_and_answers_every_move() {
    let program = std::env::var("KOOM_HNEFATAFL_HTP")
        .expect("KOOM_HNEFATAFL_HTP: the path of hnefatafl-text-protocol");
    let plies = std::env::var("KOOM_HNEFATAFL_PLIES").unwrap_or_else(|_| "20".into());
    let dir = scratch("htp-real");
    let config = write(
        &dir,
        "real.toml",
        &format!(
            "game = \"hnefatafl\"\nagents = [\"easy\", \"copenhagen\"]\ngames = 2\nthreads = 2\n\
             [engines.copenhagen]\ncommand = \"{program} --repeat-moves\"\nprotocol = \"htp\"\n\
             timeout_ms = 300000\n"
        ),
    );
    let out = dir.join("out");
    Koom::new("run")
        .arg(&config)
        .args(["--option", &format!("ply_cap={plies}"), "--games-csv"])
        .out(&out)
        .quiet()
        .ok();
    let csv = crate::common::read(&out.join("games.csv"));
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{csv}");
    for row in rows {
        assert!(!row.contains("forfeit"), "{row}");
    }
    assert!(
        crate::common::summary(&out)
            .get("engine_failures")
            .is_none()
    );
}
