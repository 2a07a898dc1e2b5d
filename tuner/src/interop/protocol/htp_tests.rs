//! The Hnefatafl Text Protocol: the wire format, a session's known answers, and a seeded fuzz.

use engine::games::hnefatafl::Hnefatafl;
use engine::{AgentSetup, NoClock, NoLog, RandomStream, TimeControl};

use super::htp::{
    Fischer, HtpCommand, HtpError, parse_command, play_text, read_play, read_response_start,
    response,
};
use super::{EngineSession, Flow, HtpSession};
use engine::Notation;
use engine::Players;
use engine::Rules;

fn setup(level: usize) -> AgentSetup<Hnefatafl> {
    AgentSetup {
        level: &Hnefatafl::levels()[level],
        weights: Vec::new(),
        time_control: TimeControl::Batch,
        network: None,
    }
}

fn session(level: usize) -> HtpSession {
    HtpSession::new("test".into(), &setup(level), Default::default())
}

/// The text of the one response a line gets, `Ok` for `=`, `Err` for `?`.
fn ask(engine: &mut HtpSession, line: &str) -> Result<String, String> {
    let (lines, _) = engine.handle(line, &NoClock);
    assert_eq!(
        lines.last().map(String::as_str),
        Some(""),
        "{line}: {lines:?}"
    );
    let text = lines[..lines.len() - 1].join("\n");
    read_response_start(&text).unwrap_or_else(|| panic!("{line}: not a response: {lines:?}"))
}

#[test]
fn commands_parse_with_roles_in_any_case_and_comments_dropped() {
    let play = |seat, from: &str, to: &str| HtpCommand::Play {
        seat,
        from: from.into(),
        to: to.into(),
    };
    for (line, command) in [
        ("play attacker d1 b1", play(0, "d1", "b1")),
        ("play A D1 B1  # a comment", play(0, "D1", "B1")),
        ("play Defender e5 e2", play(1, "e5", "e2")),
        ("play d resigns", HtpCommand::Resign(1)),
        ("generate_move", HtpCommand::GenerateMove(None)),
        ("generate_move attacker", HtpCommand::GenerateMove(Some(0))),
        ("clear_board", HtpCommand::Reset),
        ("reset_board", HtpCommand::Reset),
        ("time_settings un-timed", HtpCommand::TimeSettings(None)),
        (
            "time_settings fischer 900000 10",
            HtpCommand::TimeSettings(Some(Fischer {
                start_ms: 900_000,
                add_ms: 10_000,
            })),
        ),
        ("   # only a comment", HtpCommand::Empty),
        ("", HtpCommand::Empty),
    ] {
        assert_eq!(parse_command(line), Ok(command), "{line}");
    }
    for (line, needle) in [
        ("fly", "unknown command"),
        ("play attacker d1", "expected: play ROLE FROM TO"),
        ("play king d1 d2", "not a role"),
        ("time_settings fischer ten 10", "expected: time_settings"),
        ("known_command", "expected: known_command"),
        ("play_to attacker", "expected: play_to ROLE FROM"),
    ] {
        let err = parse_command(line).unwrap_err().to_string();
        assert!(err.contains(needle), "{line}: {err}");
    }
    assert_eq!(
        parse_command("play king d1 d2"),
        Err(HtpError::Role("king".into()))
    );
    assert_eq!(parse_command("fly"), Err(HtpError::Unknown));
}

#[test]
fn generated_moves_are_read_in_every_form_hnefatafl_copenhagen_writes() {
    // Its AI appends its score after a comma on the next line; early versions omit `play`.
    assert_eq!(
        read_play("play attacker A4 A2\n, score: 0.5, delay milliseconds: 10"),
        Ok((0, Some("A4-A2".into())))
    );
    assert_eq!(read_play("defender e5 e2"), Ok((1, Some("e5-e2".into()))));
    assert_eq!(
        read_play(&play_text(1, "e5-e2")),
        Ok((1, Some("e5-e2".into())))
    );
    // koom writes a move's captures; HTP's `play` names the two squares only.
    assert_eq!(play_text(0, "g3-e3xe2xd3"), "play attacker g3 e3");
    assert_eq!(read_play("play attacker resigns _"), Ok((0, None)));
    assert_eq!(read_play("Defender RESIGNS"), Ok((1, None)));
    assert!(read_play("play nobody resigns").is_err());
    assert!(read_play("I resign, good game").is_err());
    assert!(read_play("").is_err());
}

#[test]
fn responses_end_with_a_blank_line_and_hold_none_inside() {
    assert_eq!(response(true, ""), ["=", ""]);
    assert_eq!(
        response(false, "unknown command"),
        ["? unknown command", ""]
    );
    assert_eq!(response(true, "a\n\nb\n"), ["= a", "b", ""]);
    assert_eq!(read_response_start("= d4 e3"), Some(Ok("d4 e3".into())));
    assert_eq!(read_response_start("? no"), Some(Err("no".into())));
    assert_eq!(read_response_start("bestmove d1-d3"), None);
}

/// A game of koom's `easy` (attackers) and `normal` in which h4-g4 closes the ring around the king
/// on f4 (attackers on e4, f5, f3). hnefatafl-copenhagen 6.4.1's engine, given the same `play`
/// lines, answers `= f4` and then `attacker_wins`: the king's square is among the captures.
#[test]
fn play_names_the_king_s_square_when_the_move_captures_him() {
    const MOVES: &str = "b6-b2,g5-h5,f10-b10,g7-g8,j6-j2,e5-e4,h11-i11,e7-d7,d1-c1,g8-h8,\
        g11-g8,d7-d8,a7-d7,h8-h7,e11-e8,f7-f8,a5-d5,e6-d6,k5-i5,f5-g5,f2-f3,f4-h4,i5-i4,g5-g4,\
        a4-d4,e4-e8,i4-i5,g4-g5,k4-i4,h4-g4,i4-h4,f6-f4,c1-c7,d6-d7,e1-e7,f4-e4,f3-e3,e4-f4,\
        f11-f9,f4-f3,h1-h3,f3-f4,e7-f7,h7-h9,f7-f5,h9-h10,i5-i1,h10-j10,f1-f3,j10-j11,e3-e4,\
        g4-g3";
    let mut engine = session(0);
    for (i, mv) in MOVES.split(',').enumerate() {
        let (from, to) = mv.split_once('-').unwrap();
        let role = ["attacker", "defender"][i % 2];
        ask(&mut engine, &format!("play {role} {from} {to}")).unwrap();
    }
    assert_eq!(ask(&mut engine, "final_status"), Ok("ongoing".into()));
    assert_eq!(ask(&mut engine, "play attacker h4 g4"), Ok("f4".into()));
    assert_eq!(ask(&mut engine, "final_status"), Ok("attacker_wins".into()));
}

/// a4-e4 and k4-g4 close on the defender on f4 from both sides (`docs/rules/hnefatafl.md`,
/// custodial capture): the answer to the second names f4, the other moves capture nothing.
#[test]
fn play_answers_the_squares_captured_and_checks_the_turn() {
    let mut engine = session(0);
    assert_eq!(ask(&mut engine, "play attacker a4 e4"), Ok(String::new()));
    let err = ask(&mut engine, "play attacker k4 g4").unwrap_err();
    assert!(err.contains("defender's turn"), "{err}");
    assert_eq!(ask(&mut engine, "play defender d6 d3"), Ok(String::new()));
    assert_eq!(ask(&mut engine, "play attacker K4 G4"), Ok("f4".into()));
    let err = ask(&mut engine, "play defender d3 d1").unwrap_err();
    assert!(err.contains("blocked") || err.contains("d1"), "{err}");
    assert_eq!(ask(&mut engine, "final_status"), Ok("ongoing".into()));
    assert_eq!(ask(&mut engine, "play defender resigns"), Ok(String::new()));
    assert_eq!(ask(&mut engine, "final_status"), Ok("attacker_wins".into()));
    assert!(
        ask(&mut engine, "generate_move")
            .unwrap_err()
            .contains("over")
    );
    assert_eq!(ask(&mut engine, "reset_board"), Ok(String::new()));
    assert_eq!(ask(&mut engine, "final_status"), Ok("ongoing".into()));
    assert!(
        ask(&mut engine, "board_size 13")
            .unwrap_err()
            .contains("11")
    );
    assert_eq!(ask(&mut engine, "known_command play_to"), Ok("true".into()));
    assert_eq!(
        ask(&mut engine, "known_command genmove"),
        Ok("false".into())
    );
    assert_eq!(engine.handle("quit", &NoClock).1, Flow::Quit);
}

/// From the start, `play_from` names every square with a legal move and `play_to` each one's
/// destinations: per square, and in all, what the move generator lists.
#[test]
fn play_from_and_play_to_list_what_the_move_generator_lists() {
    let mut engine = session(0);
    let game = Hnefatafl::new(
        &Default::default(),
        2,
        &mut RandomStream::dice(0),
        &mut NoLog,
    );
    let mut moves = <Hnefatafl as Rules>::MoveList::default();
    game.legal_moves(&mut moves);
    let from = ask(&mut engine, "play_from").unwrap();
    let (role, squares) = from.split_once(' ').unwrap();
    assert_eq!(role, "attacker");
    let mut total = 0;
    for square in squares.split_whitespace() {
        let to = ask(&mut engine, &format!("play_to a {square}")).unwrap();
        let expected = moves
            .iter()
            .filter(|mv| game.format_move(**mv).starts_with(&format!("{square}-")))
            .count();
        assert_eq!(to.split_whitespace().count(), expected, "{square}");
        total += expected;
    }
    assert_eq!(total, moves.len());
    assert!(ask(&mut engine, "play_to defender e5").is_err());
}

/// `generate_move` answers the move the level plays over koom's own protocol in the same
/// position, and plays it on the session's board.
#[test]
fn generate_move_plays_the_levels_move() {
    let mut htp = session(2);
    let mut koom = EngineSession::<Hnefatafl>::new("test".into(), &setup(2), Default::default());
    assert_eq!(ask(&mut htp, "play attacker d1 b1"), Ok(String::new()));
    koom.handle("position start moves d1-b1", &NoClock);
    let (lines, _) = koom.handle("go", &NoClock);
    let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    let answer = ask(&mut htp, "generate_move defender").unwrap();
    assert_eq!(answer, play_text(1, best));
    let err = ask(&mut htp, "generate_move defender").unwrap_err();
    assert!(err.contains("attacker's turn"), "{err}");
}

/// Seeded random lines of HTP words, squares, numbers and odd characters: every line is
/// answered without a panic, with nothing or one well-formed response, and the controller's
/// readers of answers take them without a panic.
#[test]
fn random_lines_never_panic_and_every_answer_is_one_response() {
    const WORDS: &[&str] = &[
        "play",
        "generate_move",
        "final_status",
        "time_settings",
        "fischer",
        "un-timed",
        "list_commands",
        "known_command",
        "name",
        "version",
        "protocol_version",
        "reset_board",
        "clear_board",
        "board_size",
        "show_board",
        "play_from",
        "play_to",
        "attacker",
        "defender",
        "a",
        "D",
        "resigns",
        "d1",
        "b1",
        "e5",
        "e2",
        "K11",
        "z99",
        "0",
        "11",
        "13",
        "18446744073709551616",
        "#",
        "=",
        "?",
        "ü",
        "\t",
        "\u{0}",
    ];
    for seed in 0..3 {
        let mut rng = RandomStream::from_seed(seed, 11);
        let mut engine = session(0);
        for _ in 0..400 {
            let mut line = String::new();
            for _ in 0..rng.below(6) {
                if rng.below(6) == 0 {
                    line.push(char::from_u32(rng.below(0x250)).unwrap_or('?'));
                } else {
                    line.push_str(WORDS[rng.below(WORDS.len() as u32) as usize]);
                }
                line.push(' ');
            }
            // The controller's readers take the same lines as answers: no panic either.
            let _ = (read_play(&line), read_response_start(&line));
            let (lines, flow) = engine.handle(&line, &NoClock);
            if lines.is_empty() {
                assert!(parse_command(&line) == Ok(HtpCommand::Empty), "`{line}`");
                continue;
            }
            let (last, body) = lines.split_last().unwrap();
            assert!(last.is_empty(), "`{line}`: {lines:?}");
            assert!(
                body.iter().all(|l| !l.trim().is_empty()),
                "`{line}`: {lines:?}"
            );
            assert!(
                read_response_start(&body[0]).is_some(),
                "`{line}`: {lines:?}"
            );
            if flow == Flow::Quit {
                engine = session(0);
            }
        }
    }
}
