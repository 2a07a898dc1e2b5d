//! `koom connect`: a Hnefatafl level playing on a hnefatafl-copenhagen server
//! (`tuner::interop::connect`). Bad input is refused before anything is sent (exit 2); a network or server
//! error ends the command with one line and exit 1.

use std::io::BufReader;
use std::net::{IpAddr, SocketAddr, TcpStream, ToSocketAddrs};
use std::process::ExitCode;
use std::time::Duration;

use engine::games::hnefatafl::Hnefatafl;
use tuner::InputError;
use tuner::agents::parse_agent;
use tuner::interop::connect::wire::{check_password, check_username};
use tuner::interop::connect::{
    Account, ConnectError, Connection, DEFAULT_PORT, GameReport, Player, Seek,
};
use tuner::interop::protocol::htp::role_name;

use super::args::{ConnectArgs, Role};
use super::live::WallClock;

/// How long to wait for the server to accept the connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// `HOST`, `HOST:PORT`, an IP address, or `[IPv6]:PORT`: the host and the port.
fn host_and_port(server: &str) -> Result<(String, u16), InputError> {
    if let Ok(address) = server.parse::<SocketAddr>() {
        return Ok((address.ip().to_string(), address.port()));
    }
    if let Ok(ip) = server.parse::<IpAddr>() {
        return Ok((ip.to_string(), DEFAULT_PORT));
    }
    let (host, port) = match server.rsplit_once(':') {
        Some((host, port)) => {
            let port = port.parse::<u16>().map_err(|_| {
                InputError::new(format!(
                    "--server {server}: `{port}` is not a port (1 to 65535)"
                ))
            })?;
            (host, port)
        }
        None => (server, DEFAULT_PORT),
    };
    if host.is_empty() || port == 0 || host.contains(char::is_whitespace) {
        return Err(InputError::new(format!(
            "--server {server}: expected HOST or HOST:PORT"
        )));
    }
    Ok((host.to_owned(), port))
}

/// Connects to the first address of `host` that answers.
fn open(host: &str, port: u16) -> std::io::Result<TcpStream> {
    let mut last = std::io::Error::other("the name has no address");
    for address in (host, port).to_socket_addrs()? {
        match TcpStream::connect_timeout(&address, CONNECT_TIMEOUT) {
            Ok(stream) => return Ok(stream),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// One line per game, then its notes.
fn print_game(level: &str, game: &GameReport) {
    let result = match game.winner {
        Some(seat) if seat == game.seat => format!("koom won ({}s)", role_name(seat)),
        Some(seat) => format!("koom lost ({}s won)", role_name(seat)),
        None => "draw".to_owned(),
    };
    outln!(
        "game {}: koom {level} as the {}s against {}: {result} after {} moves",
        game.id,
        role_name(game.seat),
        game.opponent,
        game.moves.len()
    );
    for note in &game.notes {
        outln!("  note: {note}");
    }
}

pub fn connect(args: &ConnectArgs) -> anyhow::Result<ExitCode> {
    check_username(&args.username).map_err(InputError::new)?;
    check_password(&args.password).map_err(InputError::new)?;
    let (host, port) = host_and_port(&args.server)?;
    let setup = parse_agent::<Hnefatafl>(&args.level, args.time_control)?;
    if args.games == 0 {
        return Err(InputError::new("--games must be at least 1").into());
    }
    let seek = match args.join {
        Some(id) => Seek::Join(id),
        None => Seek::Offer {
            seat: usize::from(args.role == Role::Defender),
            rated: args.rated,
        },
    };
    let games = if args.join.is_some() { 1 } else { args.games };
    let stream = match open(&host, port) {
        Ok(stream) => stream,
        Err(e) => {
            errln!("koom: error: cannot connect to {host}:{port}: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    stream.set_read_timeout(Some(Duration::from_secs(args.read_timeout)))?;
    let verbose = args.verbose;
    let trace = Box::new(move |sent: bool, line: &str| {
        if verbose {
            errln!("{} {line}", if sent { "->" } else { "<-" });
        }
    });
    let mut conn = Connection::new(BufReader::new(stream.try_clone()?), stream, trace);
    let clock = WallClock::new();
    let mut player = Player::new(&setup, &clock);
    let account = Account {
        username: args.username.clone(),
        password: args.password.clone(),
        create: args.create_account,
    };
    let mut score = [0u64; 3];
    let mut session = || -> Result<(), ConnectError> {
        conn.login(&account)?;
        for _ in 0..games {
            let (id, seat, opponent) = conn.seek(seek, &account.username)?;
            let game = player.play(&mut conn, id, seat, opponent)?;
            print_game(&args.level, &game);
            score[match game.winner {
                Some(seat) if seat == game.seat => 0,
                Some(_) => 1,
                None => 2,
            }] += 1;
        }
        Ok(())
    };
    let result = session();
    let played: u64 = score.iter().sum();
    outln!(
        "{played} of {games} games played: {} won, {} lost, {} drawn",
        score[0],
        score[1],
        score[2]
    );
    match result {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            errln!("koom: error: {host}:{port}: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn servers_are_read_with_the_default_port() {
        let ok = |s: &str| host_and_port(s).unwrap();
        assert_eq!(ok("localhost"), ("localhost".into(), 49152));
        assert_eq!(ok("hnefatafl.org:4000"), ("hnefatafl.org".into(), 4000));
        assert_eq!(ok("127.0.0.1:5"), ("127.0.0.1".into(), 5));
        assert_eq!(ok("::1"), ("::1".into(), 49152));
        assert_eq!(ok("[::1]:7"), ("::1".into(), 7));
        for bad in ["host:port", ":80", "host:0", "host:70000", "a b:1", ""] {
            assert!(host_and_port(bad).is_err(), "{bad}");
        }
    }
}
