use engine::games::hnefatafl::Hnefatafl;
use engine::games::ludo::Ludo;
use engine::games::thud::Thud;
use engine::games::trente_douze::TrenteDouze;
use engine::{AgentSetup, Budget, Game, NoClock, RandomStream, TimeControl};

use super::*;

#[test]
fn commands_round_trip_through_their_text() {
    let commands = [
        Command::Hello,
        Command::IsReady,
        Command::NewGame,
        Command::Quit,
        Command::Dice("13456".into()),
        Command::Position {
            text: None,
            moves: vec!["d1-b1".into(), "e5-e2".into()],
        },
        Command::Position {
            text: Some("seats=2 round=1 scores=30,30 turn=1 mover=1 roll=222445".into()),
            moves: vec!["keep 2 2 small".into()],
        },
        Command::Position {
            text: Some("pawns=y,y,y,y/y,y,y,y/y,y,y,y/y,y,y,y mover=0 roll=6".into()),
            moves: Vec::new(),
        },
        Command::Go(Budget::default()),
        Command::Go(Budget {
            depth: Some(4),
            nodes: Some(1000),
            time_ms: Some(250),
        }),
    ];
    for command in commands {
        assert_eq!(parse_command(&command.to_string()), Ok(command.clone()));
    }
}

#[test]
fn bad_commands_name_the_problem() {
    for (line, needle) in [
        ("fly", "unknown command `fly`"),
        ("go depth", "needs a number"),
        ("go depth x", "not a whole number"),
        ("go speed 3", "unknown limit `speed`"),
        ("go depth 3 depth 4", "given twice"),
        ("isready now", "takes no arguments"),
        ("position", "needs `start`"),
        ("dice", "needs the roll"),
        ("", "empty line"),
    ] {
        let err = parse_command(line).unwrap_err().to_string();
        assert!(err.contains(needle), "{line}: {err}");
    }
    assert_eq!(
        parse_command("go depth 3 depth 4"),
        Err(CommandError::Go {
            args: "depth 3 depth 4".into(),
            problem: GoProblem::Twice("depth".into())
        })
    );
    assert_eq!(
        parse_command("go nodes x").unwrap_err().to_string(),
        "`go nodes x`: `x` is not a whole number"
    );
}

#[test]
fn replies_parse_and_garbage_is_named() {
    assert_eq!(
        parse_reply("bestmove keep 2 2 small"),
        Ok(Reply::BestMove("keep 2 2 small".into()))
    );
    assert_eq!(parse_reply("readyok"), Ok(Reply::ReadyOk));
    assert!(matches!(parse_reply("info depth 3"), Ok(Reply::Info(_))));
    assert!(parse_reply("bestmove").is_err());
    let long = "x".repeat(500);
    let err = parse_reply(&long).unwrap_err();
    assert_eq!(err, ReplyError(long.clone()));
    assert!(err.to_string().chars().count() < 120, "{err}");
}

fn session<G: Game>(level: usize) -> EngineSession<G> {
    let setup = AgentSetup {
        level: &G::levels()[level],
        weights: Vec::new(),
        time_control: TimeControl::Batch,
        network: None,
    };
    EngineSession::new("test".into(), &setup, G::Options::default())
}

/// Seeded random lines: protocol words in random order with numbers, moves, pieces of positions
/// and random printable and control characters. The session must answer every line without
/// panicking, and every answer must be protocol.
fn fuzz<G: Game>(level: usize, seed: u64) {
    const WORDS: &[&str] = &[
        "koom-protocol",
        "isready",
        "newgame",
        "position",
        "start",
        "moves",
        "dice",
        "go",
        "depth",
        "nodes",
        "movetime",
        "quit",
        "d1-b1",
        "F1-F2",
        "pawn",
        "keep",
        "victim",
        "small",
        "big",
        ",",
        "0",
        "1",
        "6",
        "13456",
        "999999999999999999999",
        "-3",
        "pawns=y,y,y,y",
        "mover=9",
        "roll=6",
        "seats=2",
        "/11/",
        "d",
        "a",
        "ü",
        "\t",
        "\u{0}",
    ];
    let mut rng = RandomStream::from_seed(seed, 7);
    let mut engine = session::<G>(level);
    for _ in 0..400 {
        let words = rng.below(8) as usize;
        let mut line = String::new();
        for _ in 0..words {
            if rng.below(6) == 0 {
                line.push(char::from_u32(rng.below(0x250)).unwrap_or('?'));
            } else {
                line.push_str(WORDS[rng.below(WORDS.len() as u32) as usize]);
            }
            line.push(if rng.below(4) == 0 { ',' } else { ' ' });
        }
        // Keep searches short: a `go` gets a small depth limit half of the time.
        if line.starts_with("go") && rng.below(2) == 0 {
            line = "go depth 1".into();
        }
        let (replies, _) = engine.handle(&line, &NoClock);
        for reply in replies {
            assert!(parse_reply(&reply).is_ok(), "`{line}` got `{reply}`");
        }
        assert!(parse_reply(&line).is_ok() || parse_reply(&line).is_err());
    }
}

#[test]
fn random_lines_never_panic_in_any_game() {
    for seed in 0..3 {
        fuzz::<Ludo>(2, seed);
        fuzz::<TrenteDouze>(2, seed);
        fuzz::<Thud>(1, seed);
        fuzz::<Hnefatafl>(0, seed);
    }
}

#[test]
fn a_session_plays_the_move_its_level_plays() {
    let mut engine = session::<Hnefatafl>(0);
    let (replies, flow) = engine.handle(
        "position /11/11/11/11/5t5/t10/11/11/11/K10/9t1/ d",
        &NoClock,
    );
    assert!(replies.is_empty() && flow == Flow::Continue, "{replies:?}");
    let (replies, _) = engine.handle("go", &NoClock);
    assert_eq!(replies.last().map(String::as_str), Some("bestmove a2-a1"));
    let (replies, _) = engine.handle("position start moves d1-b1, a1-a2", &NoClock);
    assert!(
        replies[0].starts_with("error move 2 `a1-a2`"),
        "{replies:?}"
    );
    assert_eq!(engine.handle("quit", &NoClock).1, Flow::Quit);
}
