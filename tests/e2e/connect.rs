//! `koom connect` against a small fake hnefatafl-copenhagen server that speaks the real one's
//! lines (hnefatafl-copenhagen 6.4.1, `src/bin/hnefatafl-server/main.rs`: `login`, `new_game`,
//! `challenge_requested`, `join_game`, `game ID generate_move ROLE`, `game ID play ROLE FROM TO`,
//! `= game_over ID ...`, `= draw accept`), holds the rules with koom's engine, plays seeded
//! random moves for koom's opponent and checks every move koom sends.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::thread::JoinHandle;
use std::time::Duration;

use engine::games::hnefatafl::{Hnefatafl, MoveList, square_name};
use engine::{NoLog, RandomStream};

use crate::common::{Koom, stderr, stdout};
use engine::Notation;
use engine::Rules;

/// The real server's draw: the move played after 141 plies ends the game drawn.
const DRAW_AFTER: u32 = 142;

const ROLES: [&str; 2] = ["attacker", "defender"];

/// One connection, as the server sees it.
struct Peer {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Peer {
    fn hear(&mut self) -> String {
        let mut line = String::new();
        assert!(
            self.reader.read_line(&mut line).unwrap() > 0,
            "koom hung up"
        );
        line.trim_end().to_owned()
    }

    fn say(&mut self, line: &str) {
        writeln!(self.writer, "{line}").unwrap();
    }
}

/// How a game on the fake server ended: the winner's seat (`None`: drawn) and the plies.
type Ending = (Option<usize>, u32);

/// Plays game `id` with koom in `seat` and a random opponent on `seed`, as the server runs a game:
/// the opponent's move goes to koom, then `generate_move`; koom's move must be legal and its
/// role's. With `refuse_first`, koom's first move is refused as the server refuses a repeated
/// board, and koom must resign.
fn referee(peer: &mut Peer, id: u128, seat: usize, seed: u64, refuse_first: bool) -> Ending {
    let mut game = Hnefatafl::new(
        &Default::default(),
        2,
        &mut RandomStream::dice(0),
        &mut NoLog,
    );
    let mut rng = RandomStream::tie_break(seed, 0);
    loop {
        if let Some(outcome) = game.outcome() {
            let winner = outcome.sole_winner().unwrap();
            peer.say(&format!("= game_over {id} {}_wins", ROLES[winner]));
            return (Some(winner), game.plies());
        }
        if game.plies() >= DRAW_AFTER {
            peer.say("= draw accept");
            return (None, game.plies());
        }
        let mover = game.to_move();
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        if mover != seat {
            let mv = moves[rng.below(moves.len() as u32) as usize];
            game.apply(mv);
            peer.say(&format!(
                "game {id} play {} {} {}",
                ROLES[mover],
                square_name(mv.from),
                square_name(mv.to)
            ));
            continue;
        }
        peer.say(&format!("game {id} generate_move {}", ROLES[seat]));
        let line = peer.hear();
        let words: Vec<&str> = line.split_whitespace().collect();
        if refuse_first {
            peer.say("? game play: you already reached that position");
            assert_eq!(
                peer.hear(),
                format!("game {id} play {} resigns _", ROLES[seat])
            );
            peer.say(&format!("= game_over {id} {}_wins", ROLES[1 - seat]));
            return (Some(1 - seat), game.plies());
        }
        let ["game", game_id, "play", role, from, to] = words[..] else {
            panic!("not a move: {line}")
        };
        assert_eq!((game_id, role), (id.to_string().as_str(), ROLES[seat]));
        let mv = game
            .parse_move(&format!("{from}-{to}"))
            .unwrap_or_else(|e| panic!("ply {}: {line}: {e}", game.plies()));
        game.apply(mv);
        // The server acknowledges a move that does not end the game, and tells the clocks.
        if game.outcome().is_none() && game.plies() < DRAW_AFTER {
            peer.say("= game");
            peer.say(&format!("= game_time {{\"id\":{id}}}"));
        }
    }
}

/// What the fake server does after accepting koom.
#[derive(Clone, Copy)]
enum Script {
    /// Accept the login, then host `games` games that koom offers, each challenged by `rival`.
    Offer { games: usize, refuse_first: bool },
    /// Accept the login; koom asks to join waiting game 7, where it is the attackers.
    Join,
    /// Refuse the login as a wrong password.
    RefuseLogin,
    /// Hang up after the login.
    HangUp,
}

/// What the fake server saw: the lines koom sent before the games, and the games' endings.
type Seen = (Vec<String>, Vec<Ending>);

/// Serves one connection on a free port.
fn serve(script: Script) -> (u16, JoinHandle<Seen>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let handle = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        let mut peer = Peer {
            reader: BufReader::new(stream.try_clone().unwrap()),
            writer: stream,
        };
        let mut heard = vec![peer.hear()];
        if let Script::RefuseLogin = script {
            peer.say("? login multiple_possible_errors play: wrong password");
            return (heard, Vec::new());
        }
        peer.say("= login");
        heard.push(peer.hear());
        // What the real server sends every client after a login.
        peer.say("= display_users koom-test 1500 rival 1500");
        peer.say("version 6.4.1");
        let mut endings = Vec::new();
        match script {
            Script::Offer {
                games,
                refuse_first,
            } => {
                for id in 0..games as u128 {
                    heard.push(peer.hear());
                    peer.say(&format!("= new_game {id}"));
                    peer.say(&format!("= challenge_requested {id}"));
                    assert_eq!(peer.hear(), format!("join_game {id}"));
                    peer.say("= join_game rival koom-test false UnTimed 11");
                    endings.push(referee(&mut peer, id, 1, id as u64, refuse_first));
                }
            }
            Script::Join => {
                assert_eq!(peer.hear(), "join_game_pending 7");
                peer.say("= join_game_pending 7");
                peer.say("= join_game koom-test rival false UnTimed 11");
                endings.push(referee(&mut peer, 7, 0, 7, false));
            }
            Script::RefuseLogin => unreachable!(),
            Script::HangUp => {}
        }
        (heard, endings)
    });
    (port, handle)
}

fn connect(port: u16, more: &[&str]) -> Koom {
    Koom::new("connect")
        .args(["--server", &format!("127.0.0.1:{port}")])
        .args(["--username", "koom-test", "--password", "pass word"])
        .args(more)
}

/// The result line `koom connect` prints for a game.
fn result_line(id: u128, seat: usize, (winner, plies): Ending) -> String {
    let result = match winner {
        Some(w) if w == seat => format!("koom won ({}s)", ROLES[w]),
        Some(w) => format!("koom lost ({}s won)", ROLES[w]),
        None => "draw".to_owned(),
    };
    format!(
        "game {id}: koom easy as the {}s against rival: {result} after {plies} moves",
        ROLES[seat]
    )
}

#[test]
fn offered_games_are_played_to_the_server_s_end() {
    let (port, server) = serve(Script::Offer {
        games: 2,
        refuse_first: false,
    });
    let out = connect(port, &["--level", "easy", "--games", "2"]).ok();
    let (heard, endings) = server.join().unwrap();
    assert_eq!(heard[0], "32d9a140 login koom-test pass word");
    assert_eq!(
        heard[1],
        format!("software_id koom-{}", env!("CARGO_PKG_VERSION"))
    );
    let offer: serde_json::Value =
        serde_json::from_str(heard[2].strip_prefix("new_game ").unwrap()).unwrap();
    assert_eq!(
        offer,
        serde_json::json!({"role": "Defender", "rated": false, "time_settings": "UnTimed", "board_size": 11})
    );
    let text = stdout(&out);
    for (id, ending) in endings.iter().enumerate() {
        assert!(
            text.contains(&result_line(id as u128, 1, *ending)),
            "{text}"
        );
    }
    let won = endings.iter().filter(|e| e.0 == Some(1)).count();
    let drawn = endings.iter().filter(|e| e.0.is_none()).count();
    assert!(
        text.contains(&format!(
            "2 of 2 games played: {won} won, {} lost, {drawn} drawn",
            2 - won - drawn
        )),
        "{text}"
    );
}

#[test]
fn a_joined_game_is_played_as_the_role_the_server_gives() {
    let (port, server) = serve(Script::Join);
    let out = connect(port, &["--level", "easy", "--join", "7"]).ok();
    let (_, endings) = server.join().unwrap();
    assert!(
        stdout(&out).contains(&result_line(7, 0, endings[0])),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_refused_move_makes_koom_resign_and_say_why() {
    let (port, server) = serve(Script::Offer {
        games: 1,
        refuse_first: true,
    });
    let out = connect(port, &["--level", "easy", "--role", "defender"]).ok();
    server.join().unwrap();
    let text = stdout(&out);
    assert!(text.contains("koom lost (attackers won)"), "{text}");
    assert!(
        text.contains("note: the server refused koom's move") && text.contains("already reached"),
        "{text}"
    );
}

/// Network and server errors: one line, exit 1.
#[test]
fn network_and_server_errors_end_with_one_line_and_exit_1() {
    let check = |out: std::process::Output, expected: &str| {
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(expected), "{err}");
    };
    let (port, server) = serve(Script::RefuseLogin);
    check(
        connect(port, &["--level", "easy"]).output(),
        "the server refused `login`: multiple_possible_errors play: wrong password",
    );
    server.join().unwrap();
    let (port, server) = serve(Script::HangUp);
    check(
        connect(port, &["--level", "easy"]).output(),
        "the server closed the connection",
    );
    server.join().unwrap();
    // A server that accepts and then says nothing: koom gives up after --read-timeout.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let started = std::time::Instant::now();
    check(
        connect(port, &["--level", "easy", "--read-timeout", "1"]).output(),
        "the server sent nothing within the read timeout",
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    drop(silent);
    // A port nobody listens on: bind one, then free it.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    check(
        connect(port, &["--level", "easy"]).output(),
        &format!("cannot connect to 127.0.0.1:{port}"),
    );
}

#[test]
fn bad_input_is_refused_before_connecting() {
    for (args, expected) in [
        (&["--username", "a b"][..], "may hold only letters"),
        (&["--username", "koom_"], "may not begin or end"),
        (
            &["--level", "grandmaster"],
            "unknown hnefatafl level `grandmaster`",
        ),
        (&["--server", "host:port"], "`port` is not a port"),
        (&["--role", "king"], "king"),
        (&["--games", "0"], "--games must be at least 1"),
        (&["--join", "3", "--games", "2"], "cannot be used with"),
    ] {
        let mut full = vec![
            "--server",
            "127.0.0.1:1",
            "--username",
            "koom",
            "--level",
            "easy",
        ];
        for pair in args.chunks(2) {
            match full.iter().position(|a| *a == pair[0]) {
                Some(i) => full[i + 1] = pair[1],
                None => full.extend_from_slice(pair),
            }
        }
        Koom::new("connect").args(&full).rejects(expected);
    }
    Koom::new("connect")
        .args([
            "--server",
            "127.0.0.1:1",
            "--username",
            "koom",
            "--level",
            "easy",
        ])
        .args(["--password", &"p".repeat(33)])
        .rejects("longer than 32 bytes");
}
