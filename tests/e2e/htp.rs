//! The Hnefatafl Text Protocol, both ways, from outside the process: two `koom engine
//! --protocol htp` processes play a whole game through a relay that holds the rules; a gate
//! against koom behind HTP; misbehaving HTP programs forfeit with their reasons, a resigning
//! one loses without a failure; bad input.

use engine::games::hnefatafl::{Hnefatafl, Square, square_name};
use engine::{NoLog, RandomStream};

use crate::common::{Koom, read, scratch, summary, write};
use crate::engine_protocol::Engine;
use crate::external::{each_failure_loses, gate_of_hard_is_never_h0};
use engine::Notation;
use engine::Rules;

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
        let king = game.board().king;
        let captured = game.apply(mv);
        // The king's square is named when he is captured, as hnefatafl-copenhagen answers.
        let expected: Vec<String> = (0..121)
            .map(Square::from_index)
            .filter(|&s| captured.soldiers >> s.index() & 1 != 0 || (captured.king && s == king))
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

/// A program that answers `generate_move` with `play ROLE resigns` loses each of the 4 games
/// (it moves in every one) with the reason `forfeit: resigned`, and no failure is counted.
#[test]
fn an_htp_program_that_resigns_loses_every_game_without_a_failure() {
    let dir = scratch("resign-htp");
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/misbehave-htp.sh");
    let config = write(&dir, "config.toml", "game = \"hnefatafl\"\n");
    let out = dir.join("out");
    Koom::new("run")
        .arg(&config)
        .arg("--agents")
        .arg(format!("easy,htp:sh {} resign", script.display()))
        .args(["--games", "4", "--games-csv", "--threads", "1"])
        .quiet()
        .out(&out)
        .ok();
    let s = summary(&out);
    assert_eq!(s["games_played"], 4);
    assert!(s.get("engine_failures").is_none(), "{s}");
    assert_eq!(s["by_agent"][0]["wins"], 4, "easy wins all four: {s}");
    let csv = read(&out.join("games.csv"));
    let resigned = csv.lines().filter(|l| l.contains("forfeit: resigned"));
    assert_eq!(resigned.count(), 4, "{csv}");
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

/// The first line of the next answer: lines that start with neither `=` nor `?` (the blank line
/// after koom's answers, hnefatafl-copenhagen's diagnostics) are skipped.
fn answer(engine: &mut Engine, command: &str) -> String {
    engine.send(command);
    loop {
        let line = engine.line();
        if line.starts_with('=') || line.starts_with('?') {
            return line;
        }
    }
}

/// The same `play` lines sent to hnefatafl-copenhagen's engine (`KOOM_HNEFATAFL_HTP`) and to
/// `koom engine --protocol htp`, move by move over 20 games of koom's `easy` against `normal`:
/// both must answer every move with the same captured squares, up to the ply where the
/// program's own rules end its game (its draw at ply 142, its `can_not_escape` win), and both
/// `final_status` must agree where both play a game to its end.
#[test]
#[ignore = "needs hnefatafl-copenhagen's hnefatafl-text-protocol: set KOOM_HNEFATAFL_HTP"]
fn the_real_program_and_koom_s_htp_engine_answer_every_move_alike() {
    let program = std::env::var("KOOM_HNEFATAFL_HTP")
        .expect("KOOM_HNEFATAFL_HTP: the path of hnefatafl-text-protocol");
    let dir = scratch("htp-alike");
    let records = dir.join("records.txt");
    Koom::new("run")
        .args([
            "--game",
            "hnefatafl",
            "--agents",
            "easy,normal",
            "--games",
            "20",
        ])
        .arg("--records")
        .arg(&records)
        .out(dir.join("out"))
        .quiet()
        .ok();
    let (mut plies, mut cut_short, mut together) = (0, 0, 0);
    for record in crate::common::read(&records).lines() {
        let moves = record.split('\t').nth(9).unwrap();
        let mut theirs = Engine::program(&program, &["--repeat-moves"]);
        let mut ours = start("easy");
        let mut finished = true;
        for (i, mv) in moves.split(',').enumerate() {
            let squares = mv.split('x').next().unwrap().replace('-', " ");
            let play = format!("play {} {squares}", role(i % 2));
            let their = answer(&mut theirs, &play);
            if their.starts_with('?') {
                assert!(
                    their.contains("already over"),
                    "ply {}: {play}: {their}",
                    i + 1
                );
                finished = false;
                break;
            }
            let sorted = |text: &str| {
                let mut words: Vec<String> =
                    text[1..].split_whitespace().map(str::to_owned).collect();
                words.sort();
                words
            };
            let our = answer(&mut ours, &play);
            assert_eq!(sorted(&our), sorted(&their), "ply {}: {play}", i + 1);
            plies += 1;
        }
        if finished {
            together += 1;
            assert_eq!(
                answer(&mut theirs, "final_status"),
                answer(&mut ours, "final_status")
            );
        } else {
            cut_short += 1;
        }
        // hnefatafl-copenhagen 6.4.1 does not exit at the end of its input.
        let _ = theirs.child.kill();
        let _ = theirs.child.wait();
    }
    eprintln!(
        "{plies} plies answered alike; {together} games ended together, {cut_short} ended earlier by the program's rules"
    );
    assert_eq!(together + cut_short, 20);
}
