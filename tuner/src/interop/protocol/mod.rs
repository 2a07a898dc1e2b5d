//! koom's engine protocol (`docs/engine-protocol.md`): one command a line, in the spirit of UCI,
//! for every game. [`Command`] and [`Reply`] are the two directions as data, so that the engine
//! side (`koom engine`, [`EngineSession`]) and the player side (external programs in a run,
//! [`crate::interop::external`]) read and write one format.

pub mod htp;
mod htp_session;
#[cfg(test)]
mod htp_tests;
pub mod line;
mod session;
#[cfg(test)]
mod tests;

pub use htp_session::HtpSession;
pub use session::{EngineSession, Flow};

use engine::Budget;

/// The protocol koom speaks to an external program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    /// koom's own line protocol (`cmd:` agents, `protocol = "koom"`).
    #[default]
    Koom,
    /// The Hnefatafl Text Protocol (`htp:` agents, `protocol = "htp"`), Hnefatafl only.
    Htp,
}

impl Protocol {
    /// The protocol in words, for messages.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            Self::Koom => "koom's engine protocol",
            Self::Htp => "the Hnefatafl Text Protocol",
        }
    }

    /// The one game the protocol serves, or `None` when it serves every game.
    #[must_use]
    pub const fn only_game(self) -> Option<&'static str> {
        match self {
            Self::Koom => None,
            Self::Htp => Some(<engine::games::hnefatafl::Hnefatafl as engine::Rules>::NAME),
        }
    }
}

/// The protocol's version, answered to `koom-protocol`.
pub const VERSION: u32 = 1;

/// What the controlling program sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `koom-protocol`: the handshake; the engine names itself and answers `koom-protocol-ok`.
    Hello,
    /// `isready`: answered `readyok` once earlier commands are done.
    IsReady,
    /// `newgame`: the next positions belong to a new game (tables and history are cleared).
    NewGame,
    /// `position start|TEXT [moves M1, M2, ...]`: `None` is the initial position.
    Position {
        text: Option<String>,
        moves: Vec<String>,
    },
    /// `dice ROLL`: the roll the seat to move chooses with (dice games).
    Dice(String),
    /// `go [depth N] [nodes N] [movetime MS]`.
    Go(Budget),
    /// `quit`.
    Quit,
}

/// The word that separates a position from the moves played from it.
const MOVES: &str = " moves ";

/// Why a line is not a command: the engine answers `error` with its text. The words a user
/// typed are kept whole and shortened only when shown.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// An empty line.
    #[error("empty line")]
    Empty,
    /// A word that is no command.
    #[error(
        "unknown command `{}` (known: koom-protocol, isready, newgame, position, dice, go, quit)",
        shorten(.0)
    )]
    Unknown(String),
    /// A bare command given arguments.
    #[error("`{word}` takes no arguments, got `{}`", shorten(.rest))]
    TakesNoArguments { word: String, rest: String },
    /// `dice` without the roll.
    #[error("`dice` needs the roll, e.g. `dice 6`")]
    NoRoll,
    /// `position` without `start` or a text.
    #[error("`position` needs `start` or a position text")]
    NoPosition,
    /// A `go` whose limits do not read.
    #[error("`go {}`: {problem}", shorten(.args))]
    Go { args: String, problem: GoProblem },
}

/// What is wrong with a `go` line's limits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoProblem {
    /// A limit without its number.
    #[error("`{0}` needs a number")]
    NoNumber(String),
    /// A number that is not a whole number.
    #[error("`{0}` is not a whole number")]
    NotWhole(String),
    /// A limit that is none of depth, nodes, movetime.
    #[error("unknown limit `{0}` (known: depth, nodes, movetime)")]
    UnknownLimit(String),
    /// A limit given twice.
    #[error("`{0}` is given twice")]
    Twice(String),
}

/// A line of an engine's output that is not protocol.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a protocol reply: `{}`", shorten(.0))]
pub struct ReplyError(pub String);

/// Reads one command line; the error is the line to answer with `error`.
pub fn parse_command(line: &str) -> Result<Command, CommandError> {
    let line = line.trim();
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    let rest = rest.trim();
    let bare = |command: Command| {
        if rest.is_empty() {
            Ok(command)
        } else {
            Err(CommandError::TakesNoArguments {
                word: word.to_owned(),
                rest: rest.to_owned(),
            })
        }
    };
    match word {
        "koom-protocol" => bare(Command::Hello),
        "isready" => bare(Command::IsReady),
        "newgame" => bare(Command::NewGame),
        "quit" => bare(Command::Quit),
        "position" => parse_position(rest),
        "dice" if !rest.is_empty() => Ok(Command::Dice(rest.to_owned())),
        "dice" => Err(CommandError::NoRoll),
        "go" => parse_go(rest)
            .map(Command::Go)
            .map_err(|problem| CommandError::Go {
                args: rest.to_owned(),
                problem,
            }),
        "" => Err(CommandError::Empty),
        _ => Err(CommandError::Unknown(word.to_owned())),
    }
}

fn parse_position(rest: &str) -> Result<Command, CommandError> {
    let padded = format!(" {rest}");
    let (position, moves) = match padded.find(MOVES) {
        Some(at) => (&padded[..at], Some(&padded[at + MOVES.len()..])),
        None if padded.trim_end().ends_with(" moves") => {
            (&padded[..padded.trim_end().len() - 6], Some(""))
        }
        None => (padded.as_str(), None),
    };
    let position = position.trim();
    let text = match position {
        "" => return Err(CommandError::NoPosition),
        "start" => None,
        text => Some(text.to_owned()),
    };
    let moves = moves
        .map(|m| {
            m.split(',')
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    Ok(Command::Position { text, moves })
}

fn parse_go(rest: &str) -> Result<Budget, GoProblem> {
    let mut budget = Budget::default();
    let words: Vec<&str> = rest.split_whitespace().collect();
    for pair in words.chunks(2) {
        let [key, value] = pair else {
            return Err(GoProblem::NoNumber(pair[0].to_owned()));
        };
        let number: u64 = value
            .parse()
            .map_err(|_| GoProblem::NotWhole((*value).to_owned()))?;
        let slot_taken = match *key {
            "depth" => budget
                .depth
                .replace(u32::try_from(number).unwrap_or(u32::MAX))
                .is_some(),
            "nodes" => budget.nodes.replace(number).is_some(),
            "movetime" => budget.time_ms.replace(number).is_some(),
            _ => {
                return Err(GoProblem::UnknownLimit((*key).to_owned()));
            }
        };
        if slot_taken {
            return Err(GoProblem::Twice((*key).to_owned()));
        }
    }
    Ok(budget)
}

impl core::fmt::Display for Command {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Hello => f.write_str("koom-protocol"),
            Self::IsReady => f.write_str("isready"),
            Self::NewGame => f.write_str("newgame"),
            Self::Quit => f.write_str("quit"),
            Self::Dice(roll) => write!(f, "dice {roll}"),
            Self::Position { text, moves } => {
                write!(f, "position {}", text.as_deref().unwrap_or("start"))?;
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(", "))?;
                }
                Ok(())
            }
            Self::Go(b) => {
                f.write_str("go")?;
                if let Some(d) = b.depth {
                    write!(f, " depth {d}")?;
                }
                if let Some(n) = b.nodes {
                    write!(f, " nodes {n}")?;
                }
                if let Some(t) = b.time_ms {
                    write!(f, " movetime {t}")?;
                }
                Ok(())
            }
        }
    }
}

/// What an engine answers, as the controlling program reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `koom-protocol-ok`: the handshake is done.
    HelloOk,
    /// `readyok`.
    ReadyOk,
    /// `bestmove M`: the move, in the game's notation.
    BestMove(String),
    /// `info ...`, `id ...`, `protocol N`: shown, not acted on.
    Info(String),
    /// `error MESSAGE`: the engine could not act on a command.
    Error(String),
}

/// Reads one line of an engine's output; the error says why it is not protocol.
pub fn parse_reply(line: &str) -> Result<Reply, ReplyError> {
    let line = line.trim();
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    let rest = rest.trim();
    match word {
        "koom-protocol-ok" if rest.is_empty() => Ok(Reply::HelloOk),
        "readyok" if rest.is_empty() => Ok(Reply::ReadyOk),
        "bestmove" if !rest.is_empty() => Ok(Reply::BestMove(rest.to_owned())),
        "info" | "id" | "protocol" => Ok(Reply::Info(line.to_owned())),
        "error" => Ok(Reply::Error(rest.to_owned())),
        _ => Err(ReplyError(line.to_owned())),
    }
}

/// `text` cut to 80 characters, for error messages about untrusted output.
#[must_use]
pub fn shorten(text: &str) -> String {
    let mut out: String = text.chars().take(80).collect();
    if text.chars().count() > 80 {
        out.push('…');
    }
    out
}
