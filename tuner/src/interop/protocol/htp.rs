//! The Hnefatafl Text Protocol (HTP) of the hnefatafl-copenhagen project, as its engine and
//! server speak it (`docs/engine-protocol.md`, "Hnefatafl Text Protocol"): GTP-style commands,
//! one a line, answered `= TEXT` or `? TEXT` and a blank line. This module is the wire format
//! for both directions: [`HtpCommand`] for `koom engine --protocol htp`
//! ([`super::HtpSession`]), and [`read_play`] / [`play_text`] for koom driving such a program
//! ([`crate::interop::external`]).

/// The commands koom answers, as `list_commands` lists them (sorted, as hnefatafl-copenhagen
/// lists its own).
pub const COMMANDS: &[&str] = &[
    "board_size",
    "clear_board",
    "final_status",
    "generate_move",
    "known_command",
    "list_commands",
    "name",
    "play",
    "play_from",
    "play_to",
    "protocol_version",
    "quit",
    "reset_board",
    "show_board",
    "time_settings",
    "version",
];

/// The answer to `protocol_version`: the version hnefatafl-copenhagen reports.
pub const PROTOCOL_VERSION: &str = "1-beta";

/// The HTP name of a seat's role: seat 0 is the attackers, seat 1 the defenders.
#[must_use]
pub fn role_name(seat: usize) -> &'static str {
    if seat == 0 { "attacker" } else { "defender" }
}

/// Why a line is not an HTP command (the text answered after `? `) or an answer is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HtpError {
    /// A word that is no role.
    #[error("`{}` is not a role (attacker, defender, a or d)", super::shorten(.0))]
    Role(String),
    /// A known command with the wrong arguments; the form it takes.
    #[error("expected: {0}")]
    Usage(&'static str),
    /// A word that is no command.
    #[error("unknown command")]
    Unknown,
    /// An answer to `generate_move` that is not a move.
    #[error("`{}` is not `play ROLE FROM TO`", super::shorten(.0))]
    NotAPlay(String),
}

/// Reads a role: `a`, `attacker`, `d` or `defender`, in any case (and koom's plurals); the
/// seat it names.
pub fn parse_role(word: &str) -> Result<usize, HtpError> {
    match word.to_ascii_lowercase().as_str() {
        "a" | "attacker" | "attackers" => Ok(0),
        "d" | "defender" | "defenders" => Ok(1),
        _ => Err(HtpError::Role(word.to_owned())),
    }
}

/// Fischer time: the starting time of each side and what is added after each of its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fischer {
    pub start_ms: u64,
    pub add_ms: u64,
}

/// What the controlling program sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HtpCommand {
    /// An empty line, or only a comment: no answer at all.
    Empty,
    /// `board_size N`: a new game on an N×N board (koom plays 11 only).
    BoardSize(String),
    /// `reset_board` or GTP's `clear_board`: a new game from the start position.
    Reset,
    /// `final_status`: `ongoing`, `attacker_wins`, `defender_wins` or `draw`.
    FinalStatus,
    /// `generate_move [ROLE]`: the engine chooses a move for the side to move, plays it on its
    /// board and answers `play ROLE FROM TO`.
    GenerateMove(Option<usize>),
    KnownCommand(String),
    ListCommands,
    Name,
    /// `play ROLE FROM TO`: a move by the side to move, answered with the squares it captured.
    Play {
        seat: usize,
        from: String,
        to: String,
    },
    /// `play ROLE resigns`: that side gives the game up.
    Resign(usize),
    /// `play_from`: the role to move and every square it can move from.
    PlayFrom,
    /// `play_to ROLE FROM`: every square the piece on FROM can reach.
    PlayTo {
        seat: usize,
        from: String,
    },
    ProtocolVersion,
    Quit,
    ShowBoard,
    /// `time_settings un-timed` (`None`) or `time_settings fischer MILLISECONDS ADD_SECONDS`.
    TimeSettings(Option<Fischer>),
    Version,
}

/// Reads one command line (text after `#` is a comment); the error is the text to answer
/// after `? `.
pub fn parse_command(line: &str) -> Result<HtpCommand, HtpError> {
    let line = line.split('#').next().unwrap_or("");
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&word, args)) = words.split_first() else {
        return Ok(HtpCommand::Empty);
    };
    let command = match word {
        "board_size" => HtpCommand::BoardSize(args.join(" ")),
        "reset_board" | "clear_board" => HtpCommand::Reset,
        "final_status" => HtpCommand::FinalStatus,
        "generate_move" => HtpCommand::GenerateMove(match args.first() {
            Some(role) => Some(parse_role(role)?),
            None => None,
        }),
        "known_command" => match args {
            [name] => HtpCommand::KnownCommand((*name).to_owned()),
            _ => return Err(HtpError::Usage("known_command COMMAND")),
        },
        "list_commands" => HtpCommand::ListCommands,
        "name" => HtpCommand::Name,
        "play" => parse_play_command(args)?,
        "play_from" => HtpCommand::PlayFrom,
        "play_to" => match args {
            [role, from] => HtpCommand::PlayTo {
                seat: parse_role(role)?,
                from: (*from).to_owned(),
            },
            _ => return Err(HtpError::Usage("play_to ROLE FROM")),
        },
        "protocol_version" => HtpCommand::ProtocolVersion,
        "quit" => HtpCommand::Quit,
        "show_board" => HtpCommand::ShowBoard,
        "time_settings" => HtpCommand::TimeSettings(parse_time_settings(args)?),
        "version" => HtpCommand::Version,
        _ => return Err(HtpError::Unknown),
    };
    Ok(command)
}

fn parse_play_command(args: &[&str]) -> Result<HtpCommand, HtpError> {
    match args {
        [role, resigns] if resigns.eq_ignore_ascii_case("resigns") => {
            Ok(HtpCommand::Resign(parse_role(role)?))
        }
        [role, from, to] => Ok(HtpCommand::Play {
            seat: parse_role(role)?,
            from: (*from).to_owned(),
            to: (*to).to_owned(),
        }),
        _ => Err(HtpError::Usage("play ROLE FROM TO or play ROLE resigns")),
    }
}

fn parse_time_settings(args: &[&str]) -> Result<Option<Fischer>, HtpError> {
    const EXPECTED: HtpError =
        HtpError::Usage("time_settings un-timed | fischer MILLISECONDS ADD_SECONDS");
    match args {
        [none] if ["un-timed", "none"].contains(&none.to_ascii_lowercase().as_str()) => Ok(None),
        [fischer, start, add] if fischer.eq_ignore_ascii_case("fischer") => {
            let number = |text: &str| text.parse::<u64>().map_err(|_| EXPECTED);
            Ok(Some(Fischer {
                start_ms: number(start)?,
                add_ms: number(add)?.saturating_mul(1000),
            }))
        }
        _ => Err(EXPECTED),
    }
}

/// A response: `= TEXT` or `? TEXT` (TEXT may span lines), then the blank line that ends every
/// response.
#[must_use]
pub fn response(ok: bool, text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(str::to_owned)
        .collect();
    let mark = if ok { "=" } else { "?" };
    match lines.first_mut() {
        Some(first) => *first = format!("{mark} {first}"),
        None => lines.push(mark.to_owned()),
    }
    lines.push(String::new());
    lines
}

/// The first line of a response, as the controlling program reads it: `Ok` with the text after
/// `=`, `Err` with the text after `?`; `None` when the line is neither.
#[must_use]
pub fn read_response_start(line: &str) -> Option<Result<String, String>> {
    let line = line.trim();
    if let Some(text) = line.strip_prefix('=') {
        Some(Ok(text.trim().to_owned()))
    } else {
        line.strip_prefix('?')
            .map(|text| Err(text.trim().to_owned()))
    }
}

/// `play ROLE FROM TO` for the seat and a move in koom's notation (`d1-d3`, or `g3-e3xe2` with
/// the captures, which HTP's `play` does not take: the engine works them out itself).
#[must_use]
pub fn play_text(seat: usize, koom_move: &str) -> String {
    let squares = koom_move.split(['x', 'X']).next().unwrap_or(koom_move);
    format!("play {} {}", role_name(seat), squares.replace('-', " "))
}

/// Reads the answer to `generate_move`: `play ROLE FROM TO`, or `ROLE FROM TO` as early
/// versions of hnefatafl-copenhagen answer; anything after a comma (the score its AI appends)
/// is ignored. Returns the seat and the move in koom's notation, or no move when the answer is
/// `play ROLE resigns` (the program gives the game up).
pub fn read_play(text: &str) -> Result<(usize, Option<String>), HtpError> {
    let first = text.lines().next().unwrap_or("");
    let play = first.split(',').next().unwrap_or("");
    let words: Vec<&str> = play.split_whitespace().collect();
    let words = match words.split_first() {
        Some((&"play", rest)) => rest,
        _ => &words[..],
    };
    match words {
        [role, resigns, ..] if resigns.eq_ignore_ascii_case("resigns") => {
            Ok((parse_role(role)?, None))
        }
        [role, from, to] => Ok((parse_role(role)?, Some(format!("{from}-{to}")))),
        _ => Err(HtpError::NotAPlay(first.to_owned())),
    }
}
