//! External players: a program speaking koom's engine protocol or the Hnefatafl Text Protocol
//! (`docs/engine-protocol.md`) as an agent. The engine crate stays pure; the processes, pipes,
//! threads and clocks live here.
//!
//! One process serves one agent slot of one worker and is reused across games, as cutechess
//! does. A program that exits, misses its time limit plus [`MARGIN_MS`], answers an illegal
//! move or writes something that is not protocol forfeits the game ([`Agent::forfeit`]); it is
//! stopped and started afresh for the next move it is asked for, and the failure is counted per
//! engine ([`EngineFailures`]).

use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use engine::{Agent, Budget, Context, Forfeit, Game};

use crate::InputError;
use crate::interop::protocol::line::{Line, read_line};
use crate::interop::protocol::{self, Command as Sent, Protocol, Reply};

mod failures;
mod group;
mod htp;

pub use failures::EngineFailures;
pub use group::end_all;

/// Time allowed beyond a program's own limit for pipes and process start.
pub const MARGIN_MS: u64 = 1000;

/// The per-move time limit of a `cmd:` agent with no `[engines]` table.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;

/// How to run one external program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSpec {
    /// The name failures are counted under (the table's name, or the `cmd:` text).
    pub name: String,
    /// The program and its arguments.
    pub command: Vec<String>,
    pub dir: Option<PathBuf>,
    /// The limits sent with every `go`.
    pub go: Budget,
    /// The longest wait for a move, before [`MARGIN_MS`].
    pub timeout_ms: u64,
    pub protocol: Protocol,
}

impl ExternalSpec {
    /// `cmd:PROGRAM ARGS` (koom's protocol) or `htp:PROGRAM ARGS` (the Hnefatafl Text
    /// Protocol), split as [`split_command`] does; `None` when `spec` is neither.
    pub fn from_cmd(spec: &str) -> Option<Result<Self, InputError>> {
        let spec = spec.trim();
        let (protocol, rest) = match spec.split_once(':') {
            Some(("cmd", rest)) => (Protocol::Koom, rest),
            Some(("htp", rest)) => (Protocol::Htp, rest),
            _ => return None,
        };
        let command = match split_command(rest, spec) {
            Ok(command) if command.is_empty() => {
                return Some(Err(InputError::new(format!(
                    "`{spec}`: name the program after the colon (e.g. `cmd:koom engine --game thud --level hard`)"
                ))));
            }
            Ok(command) => command,
            Err(e) => return Some(Err(e)),
        };
        Some(Ok(Self {
            name: spec.trim().to_owned(),
            command,
            dir: None,
            go: Budget::default(),
            timeout_ms: DEFAULT_TIMEOUT_MS,
            protocol,
        }))
    }
}

/// A command line split into words as a POSIX shell splits it (`'...'`, `"..."` and `\`
/// quote), without running a shell: no variables, globs or pipes. `what` names it in the error.
pub fn split_command(line: &str, what: &str) -> Result<Vec<String>, InputError> {
    shell_words::split(line).map_err(|_| {
        InputError::new(format!(
            "`{what}`: a quote is not closed (the command is split as a shell would, with '...', \"...\" and \\)"
        ))
    })
}

/// Starts `spec` once and runs its handshake, which names the game it plays, before any game:
/// a program that does not start, does not speak the protocol or plays another game is refused
/// here rather than forfeiting every game of the run.
pub fn probe<G: Game>(spec: &ExternalSpec) -> Result<(), InputError> {
    let fail = |why: String| {
        InputError::new(format!(
            "outside player `{}` {why}, so no game was played (check its command)",
            spec.name
        ))
    };
    let mut process = Process::start(spec).map_err(|e| fail(format!("does not start: {e}")))?;
    handshake::<G>(&mut process, spec).map_err(|e| fail(e.to_string()))
}

/// [`probe`] for each distinct program of a plan's agent slots.
pub fn probe_all<G: Game>(externals: &[Option<Arc<ExternalSpec>>]) -> Result<(), InputError> {
    let mut seen = std::collections::BTreeSet::new();
    externals
        .iter()
        .flatten()
        .filter(|spec| seen.insert(spec.name.clone()))
        .try_for_each(|spec| probe::<G>(spec))
}

/// Why a handshake failed.
#[derive(Debug)]
enum Refused {
    Forfeit(Forfeit),
    /// The program named another game in `id game`: that game, and the one played.
    WrongGame(String, &'static str),
}

impl From<Forfeit> for Refused {
    fn from(why: Forfeit) -> Self {
        Self::Forfeit(why)
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Forfeit(why) => write!(
                f,
                "failed its handshake ({})",
                why.name().trim_start_matches("forfeit: ")
            ),
            Self::WrongGame(theirs, ours) => {
                write!(f, "plays {theirs}, not {ours} (its `id game` line)")
            }
        }
    }
}

/// The handshake of the spec's protocol on a new process. koom's protocol: `koom-protocol`,
/// answered by `koom-protocol-ok`; an `id game` line before it must name `G`.
fn handshake<G: Game>(process: &mut Process, spec: &ExternalSpec) -> Result<(), Refused> {
    let deadline = deadline(spec);
    match spec.protocol {
        Protocol::Koom => {
            process.send(&Sent::Hello)?;
            loop {
                match protocol::parse_reply(&process.line(deadline)?) {
                    Ok(Reply::HelloOk) => return Ok(()),
                    Ok(Reply::Info(line)) => match line.strip_prefix("id game ") {
                        Some(game) if game.trim() != G::NAME => {
                            return Err(Refused::WrongGame(
                                protocol::shorten(game.trim()),
                                G::NAME,
                            ));
                        }
                        _ => {}
                    },
                    _ => return Err(Forfeit::Garbage.into()),
                }
            }
        }
        Protocol::Htp => Ok(htp::handshake(process, deadline)?),
    }
}

/// When a move asked for now is late: the longer of the program's own limit and its timeout,
/// plus [`MARGIN_MS`], saturating (a limit past any clock waits as good as forever).
fn deadline(spec: &ExternalSpec) -> Instant {
    let limit = spec.go.time_ms.unwrap_or(spec.timeout_ms);
    let wait = Duration::from_millis(limit.max(spec.timeout_ms).saturating_add(MARGIN_MS));
    let now = Instant::now();
    now.checked_add(wait)
        .unwrap_or_else(|| now + Duration::from_secs(u64::from(u32::MAX)))
}

/// A running program: its input, and its output lines as they arrive (a reader thread feeds the
/// channel, so that waiting for a line can time out).
struct Process {
    child: Child,
    /// Taken (and so ended) before the child is reaped.
    group: Option<group::Group>,
    stdin: ChildStdin,
    lines: Receiver<Line>,
}

impl Process {
    fn start(spec: &ExternalSpec) -> std::io::Result<Self> {
        let mut command = Command::new(&spec.command[0]);
        command
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        group::isolate(&mut command);
        let mut child = command.spawn()?;
        let group = Some(group::Group::of(&child));
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| std::io::Error::other("no stdin"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no stdout"))?;
        let (send, lines) = channel();
        std::thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            let mut buf = Vec::new();
            while let Ok(Some(line)) = read_line(&mut stdout, &mut buf) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Self {
            child,
            group,
            stdin,
            lines,
        })
    }

    fn send(&mut self, command: &dyn std::fmt::Display) -> Result<(), Forfeit> {
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| Forfeit::Crashed)
    }

    /// The next line of output before `deadline`.
    fn line(&mut self, deadline: Instant) -> Result<String, Forfeit> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            // Bytes that are not UTF-8 and over-long lines are not protocol.
            Ok(line) => line.text().map_err(|_| Forfeit::Garbage),
            Err(RecvTimeoutError::Timeout) => Err(Forfeit::TimedOut),
            Err(RecvTimeoutError::Disconnected) => Err(Forfeit::Crashed),
        }
    }

    /// The next reply before `deadline`, `info` lines skipped.
    fn reply(&mut self, deadline: Instant) -> Result<Reply, Forfeit> {
        loop {
            match protocol::parse_reply(&self.line(deadline)?) {
                Ok(Reply::Info(_)) => {}
                Ok(Reply::Error(_)) | Err(_) => return Err(Forfeit::Garbage),
                Ok(reply) => return Ok(reply),
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "{}", Sent::Quit);
        drop(self.group.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An external program as an agent of game `G`.
pub struct External<G> {
    spec: Arc<ExternalSpec>,
    process: Option<Process>,
    /// Whether a new game is due before the next position.
    new_game: bool,
    /// HTP: the position on the program's board (the game is sent to it move by move).
    board: Option<G>,
    forfeit: Option<Forfeit>,
}

impl<G> std::fmt::Debug for External<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("External")
            .field("spec", &self.spec)
            .finish_non_exhaustive()
    }
}

impl<G: Game> External<G> {
    #[must_use]
    pub fn new(spec: Arc<ExternalSpec>) -> Self {
        Self {
            spec,
            process: None,
            new_game: true,
            board: None,
            forfeit: None,
        }
    }

    /// The running process, or a new one once it has answered the handshake of its protocol.
    /// The process is taken out of `self` while it is used, and put back only after a good
    /// answer: a failure leaves no process, and the next move starts a fresh one.
    fn take_process(&mut self) -> Result<Process, Forfeit> {
        if let Some(process) = self.process.take() {
            return Ok(process);
        }
        let mut process = Process::start(&self.spec).map_err(|_| Forfeit::Crashed)?;
        handshake::<G>(&mut process, &self.spec).map_err(|why| match why {
            Refused::Forfeit(why) => why,
            Refused::WrongGame(..) => Forfeit::Garbage,
        })?;
        self.new_game = true;
        self.board = None;
        Ok(process)
    }

    /// Asks the program for its move in `game`.
    fn ask(&mut self, game: &G, moves: &[G::Move]) -> Result<G::Move, Forfeit> {
        let mut process = self.take_process()?;
        let answer = match self.spec.protocol {
            Protocol::Koom => self.ask_koom(&mut process, game, moves),
            Protocol::Htp => self.ask_htp(&mut process, game, moves),
        };
        if !matches!(answer, Err(why) if why.is_failure()) {
            self.process = Some(process);
        }
        answer
    }

    /// koom's protocol: `newgame` when due, the position, `go`, and the `bestmove`.
    fn ask_koom(
        &mut self,
        process: &mut Process,
        game: &G,
        moves: &[G::Move],
    ) -> Result<G::Move, Forfeit> {
        let position = game.position().ok_or(Forfeit::Garbage)?;
        let deadline = deadline(&self.spec);
        if std::mem::take(&mut self.new_game) {
            process.send(&Sent::NewGame)?;
        }
        process.send(&Sent::Position {
            text: Some(position),
            moves: Vec::new(),
        })?;
        process.send(&Sent::Go(self.spec.go))?;
        loop {
            match process.reply(deadline)? {
                Reply::BestMove(text) => return legal(game, moves, &text),
                Reply::ReadyOk | Reply::HelloOk => {}
                Reply::Info(_) | Reply::Error(_) => return Err(Forfeit::Garbage),
            }
        }
    }
}

/// The move `text` names, if it is one of `moves`.
fn legal<G: Game>(game: &G, moves: &[G::Move], text: &str) -> Result<G::Move, Forfeit> {
    match game.parse_move(text) {
        Ok(mv) if moves.contains(&mv) => Ok(mv),
        _ => Err(Forfeit::IllegalMove),
    }
}

impl<G: Game> Agent<G> for External<G> {
    fn new_game(&mut self) {
        self.new_game = true;
        self.forfeit = None;
    }

    /// On a failure the program is stopped (it is started again when next asked) and the first
    /// legal move stands in for the forfeited game's last move; the game's ending counts the
    /// failure ([`EngineFailures`]). A resignation is a loss the program chose: the program,
    /// which answered in protocol, keeps running (the next game resets its board).
    fn choose(&mut self, game: &G, moves: &[G::Move], _: &mut Context<'_>) -> G::Move {
        match self.ask(game, moves) {
            Ok(mv) => mv,
            Err(why) => {
                self.forfeit = Some(why);
                moves[0]
            }
        }
    }

    fn forfeit(&mut self) -> Option<Forfeit> {
        self.forfeit.take()
    }
}
