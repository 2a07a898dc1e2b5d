//! Protocol conformance of `koom engine`, driven from outside the process: for each game a full
//! game is played through standard input and output, the test holding the rules and the dice.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use engine::games::hnefatafl::Hnefatafl;
use engine::games::ludo::Ludo;
use engine::games::thud::Thud;
use engine::games::trente_douze::TrenteDouze;
use engine::{Game, NoLog, RandomStream};

/// `koom engine` as a child process, its input and output piped.
pub struct Engine {
    pub child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(game: &str, level: &str) -> Self {
        Self::spawn(&["--game", game, "--level", level])
    }

    /// `koom engine ARGS`.
    pub fn spawn(args: &[&str]) -> Self {
        Self::program(env!("CARGO_BIN_EXE_koom"), &[&["engine"], args].concat())
    }

    /// Any program with its arguments.
    pub fn program(path: &str, args: &[&str]) -> Self {
        let mut child = Command::new(path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Self {
            child,
            stdin,
            stdout,
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("engine reads");
    }

    pub fn line(&mut self) -> String {
        let mut line = String::new();
        assert!(
            self.stdout.read_line(&mut line).unwrap() > 0,
            "engine closed"
        );
        line.trim_end().to_owned()
    }

    /// Lines up to and including the first that starts with `last`.
    fn until(&mut self, last: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            let done = line.starts_with(last);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }
}

/// Handshake, then a whole game of `level` against itself. Board games send the move list from
/// the start; dice games the position text (which holds the roll). Returns the plies played.
fn play_through_the_protocol<G: Game>(level: &str, seed: u64) -> u32 {
    let mut engine = Engine::start(G::NAME, level);
    engine.send("koom-protocol");
    let hello = engine.until("koom-protocol-ok");
    assert_eq!(
        hello,
        [
            format!("id name koom {level}"),
            format!("id game {}", G::NAME),
            "protocol 1".to_owned(),
            "koom-protocol-ok".to_owned()
        ]
    );
    engine.send("isready");
    assert_eq!(engine.line(), "readyok");
    engine.send("newgame");
    let mut dice = RandomStream::dice(seed);
    let mut game = G::new(&G::Options::default(), G::SEATS.0, &mut dice, &mut NoLog);
    let mut played: Vec<String> = Vec::new();
    while game.outcome().is_none() {
        if G::HAS_DICE {
            engine.send(&format!("position {}", game.position().unwrap()));
        } else if played.is_empty() {
            engine.send("position start");
        } else {
            engine.send(&format!("position start moves {}", played.join(", ")));
        }
        engine.send("go");
        let replies = engine.until("bestmove");
        let (best, infos) = replies.split_last().unwrap();
        assert!(infos.iter().all(|l| l.starts_with("info ")), "{replies:?}");
        let text = best.strip_prefix("bestmove ").unwrap();
        let mv = game
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{}: `{text}` after {played:?}: {e}", G::NAME));
        played.push(game.format_move(mv));
        game.play(mv, &mut dice, &mut NoLog);
    }
    if !G::HAS_DICE {
        engine.send(&format!("position start moves {}", played.join(", ")));
        engine.send("go");
        let reply = engine.line();
        assert!(reply.starts_with("error go: the game is over"), "{reply}");
    }
    engine.send("quit");
    let status = engine.child.wait().unwrap();
    assert!(status.success());
    game.counters().moves
}

#[test]
fn a_full_game_of_each_game_through_stdin_and_stdout() {
    assert!(play_through_the_protocol::<Hnefatafl>("easy", 1) > 0);
    assert!(play_through_the_protocol::<Thud>("easy", 1) > 0);
    assert!(play_through_the_protocol::<Ludo>("hard", 1) > 0);
    assert!(play_through_the_protocol::<TrenteDouze>("hard", 1) > 0);
}

#[test]
fn bad_lines_get_one_error_each_and_the_engine_goes_on() {
    let mut engine = Engine::start("thud", "easy");
    for line in [
        "hello",
        "position start moves Z1-Z2",
        "position nonsense",
        "go depth x",
        "dice 3",
    ] {
        engine.send(line);
        let reply = engine.line();
        assert!(reply.starts_with("error "), "{line}: {reply}");
    }
    engine.send("isready");
    assert_eq!(engine.line(), "readyok");
    drop(engine.stdin);
    assert!(
        engine.child.wait().unwrap().success(),
        "end of input ends it"
    );
}
