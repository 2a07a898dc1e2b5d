//! The lines of the hnefatafl-copenhagen server (`hnefatafl-server`, TCP port 49152) that a
//! player program sends and reads, as that project's source writes them (version 6.4.1:
//! `src/bin/hnefatafl-server/main.rs` for the server, `src/bin/taflzero.rs` for its AI client,
//! `src/lib.rs` for the version id, `src/server_game.rs` for `new_game`'s JSON). One message a
//! line; the server's answers to a command are `= COMMAND ...` or `? COMMAND WHY`, and it tells
//! a player about its games with `game ID generate_move ROLE` and `game ID play ROLE FROM TO`.

use engine::games::hnefatafl::Move;
use engine::games::hnefatafl::square_name;

use crate::interop::protocol::htp::{HtpError, parse_role, role_name};
use crate::interop::protocol::shorten;

/// The id a client sends before `login`: the server refuses any other (`? login wrong_version`).
/// hnefatafl-copenhagen 6.4.1's `VERSION_ID`.
pub const VERSION_ID: &str = "32d9a140";

/// The server's port (`SERVER_PORT`).
pub const DEFAULT_PORT: u16 = 49152;

/// The longest password the server accepts.
pub const MAX_PASSWORD: usize = 32;

/// A game's number on the server (`Id` there: a `u128`).
pub type GameId = u128;

/// A username or password the server would refuse, found before connecting.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AccountError {
    /// A username that breaks the server's rule; `why` says which part.
    #[error("the username `{name}` {why} (the server's rule)")]
    Username { name: String, why: &'static str },
    /// A password longer than [`MAX_PASSWORD`] bytes.
    #[error("the password is longer than {MAX_PASSWORD} bytes (the server's limit)")]
    PasswordLength,
    /// A password with a control character.
    #[error("the password holds a control character")]
    PasswordControl,
}

/// A server line about a game that does not read; each names the line, shortened.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// A game id that is not a number.
    #[error("`{word}` is not a game id in `{}`", shorten(.line))]
    GameId { word: String, line: String },
    /// A role that is not one.
    #[error("{role} in `{}`", shorten(.line))]
    Role { role: HtpError, line: String },
    /// A game result that is neither side's win.
    #[error("`{word}` is not a result in `{}`", shorten(.line))]
    Result { word: String, line: String },
}

/// Checks a username as the server does (`invalid_username` in its `src/lib.rs`): at most 16
/// letters, digits, `-` and `_`, neither first nor last, and never two of them in a row.
pub fn check_username(name: &str) -> Result<(), AccountError> {
    let separator = |c: char| c == '-' || c == '_';
    let chars: Vec<char> = name.chars().collect();
    let why = if name.is_empty() {
        "is empty"
    } else if name.len() > 16 {
        "is longer than 16 bytes"
    } else if !chars.iter().all(|&c| c.is_alphanumeric() || separator(c)) {
        "may hold only letters, digits, `-` and `_`"
    } else if separator(chars[0]) || separator(chars[chars.len() - 1]) {
        "may not begin or end with `-` or `_`"
    } else if chars.windows(2).any(|w| separator(w[0]) && separator(w[1])) {
        "may not hold two of `-` and `_` in a row"
    } else {
        return Ok(());
    };
    Err(AccountError::Username {
        name: name.to_owned(),
        why,
    })
}

/// Checks a password as the server does: at most 32 bytes, no control character. Spaces are
/// kept: the server joins the words after the username with single spaces.
pub fn check_password(password: &str) -> Result<(), AccountError> {
    if password.len() > MAX_PASSWORD {
        Err(AccountError::PasswordLength)
    } else if password.chars().any(char::is_control) {
        Err(AccountError::PasswordControl)
    } else {
        Ok(())
    }
}

/// The first line of a connection: `VERSION_ID login USER PASSWORD`, or `create_account`.
#[must_use]
pub fn login(create_account: bool, username: &str, password: &str) -> String {
    let verb = if create_account {
        "create_account"
    } else {
        "login"
    };
    format!("{VERSION_ID} {verb} {username} {password}")
}

/// Names the client program once logged in (the server stores it with the account).
#[must_use]
pub fn software_id() -> String {
    format!("software_id koom-{}", env!("CARGO_PKG_VERSION"))
}

/// Offers a game on the 11×11 board in which the client plays `seat`'s role: un-timed, as
/// `NewGame` serialises in serde's JSON (`role` is the enum variant's name).
#[must_use]
pub fn new_game(seat: usize, rated: bool) -> String {
    let role = if seat == 0 { "Attacker" } else { "Defender" };
    format!(
        r#"new_game {{"role":"{role}","rated":{rated},"time_settings":"UnTimed","board_size":11}}"#
    )
}

/// Accepts the challenger of a game the client offered.
#[must_use]
pub fn join_game(id: GameId) -> String {
    format!("join_game {id}")
}

/// Asks to play in a game someone else offered; its owner then accepts or declines.
#[must_use]
pub fn join_game_pending(id: GameId) -> String {
    format!("join_game_pending {id}")
}

/// A move of the client's role in game `id`.
#[must_use]
pub fn play(id: GameId, seat: usize, mv: Move) -> String {
    format!(
        "game {id} play {} {} {}",
        role_name(seat),
        square_name(mv.from),
        square_name(mv.to)
    )
}

/// The client's role gives game `id` up.
#[must_use]
pub fn resign(id: GameId, seat: usize) -> String {
    format!("game {id} play {} resigns _", role_name(seat))
}

/// What the server says, as far as a player needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `= login`: logged in (also the answer to a successful `create_account`).
    LoggedIn,
    /// `? COMMAND WHY`: the server refused a command.
    Refused { command: String, why: String },
    /// `= new_game ID`: the game the client offered is waiting for a challenger.
    Created(GameId),
    /// `= challenge_requested ID`: someone asked to play in the client's game.
    Challenged(GameId),
    /// `= join_game_pending ID`: the client's request to join waits for the owner.
    Pending(GameId),
    /// `= join_game ATTACKER DEFENDER RATED TIMED SIZE`: a game began between these two.
    Started { attacker: String, defender: String },
    /// `game ID generate_move ROLE`: the client's role is to move.
    YourMove { id: GameId, seat: usize },
    /// `game ID play ROLE FROM TO`: the opponent's move.
    Played {
        id: GameId,
        seat: usize,
        from: String,
        to: String,
    },
    /// `game ID play ROLE resigns`: that role gave the game up (`game_over` follows).
    Resigned { id: GameId, seat: usize },
    /// `= game_over ID attacker_wins|defender_wins`: the winner's seat.
    Over { id: GameId, winner: usize },
    /// `= draw accept`: the current game ended in a draw (the server gives no id).
    Drawn,
    /// Anything else: lists of users and games, chat, clocks, acknowledgements.
    Other,
}

/// Reads one line from the server. Lines that do not concern a player's games are `Other`;
/// `Err` is a line about a game that does not read (a role or id that is not one).
pub fn parse(line: &str) -> Result<Message, WireError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let id = |word: &str| {
        word.parse::<GameId>().map_err(|_| WireError::GameId {
            word: word.to_owned(),
            line: line.to_owned(),
        })
    };
    let role = |word: &str| {
        parse_role(word).map_err(|role| WireError::Role {
            role,
            line: line.to_owned(),
        })
    };
    Ok(match words.as_slice() {
        ["=", "login", ..] => Message::LoggedIn,
        ["?", command, why @ ..] => Message::Refused {
            command: (*command).to_owned(),
            why: why.join(" "),
        },
        ["=", "new_game", game] => Message::Created(id(game)?),
        ["=", "challenge_requested", game, ..] => Message::Challenged(id(game)?),
        ["=", "join_game_pending", game] => Message::Pending(id(game)?),
        ["=", "join_game", attacker, defender, ..] => Message::Started {
            attacker: (*attacker).to_owned(),
            defender: (*defender).to_owned(),
        },
        ["game", game, "generate_move", r] => Message::YourMove {
            id: id(game)?,
            seat: role(r)?,
        },
        ["game", game, "play", r, "resigns", ..] => Message::Resigned {
            id: id(game)?,
            seat: role(r)?,
        },
        ["game", game, "play", r, from, to] => Message::Played {
            id: id(game)?,
            seat: role(r)?,
            from: (*from).to_owned(),
            to: (*to).to_owned(),
        },
        ["=", "game_over", game, result] => Message::Over {
            id: id(game)?,
            winner: match *result {
                "attacker_wins" => 0,
                "defender_wins" => 1,
                other => {
                    return Err(WireError::Result {
                        word: other.to_owned(),
                        line: line.to_owned(),
                    });
                }
            },
        },
        ["=", "draw", "accept"] => Message::Drawn,
        _ => Message::Other,
    })
}

#[cfg(test)]
mod tests {
    use engine::games::hnefatafl::Square;

    use super::*;

    /// The usernames hnefatafl-copenhagen's `invalid_username` accepts and refuses.
    #[test]
    fn usernames_follow_the_server_rule() {
        for good in [
            "koom",
            "koom-hard",
            "a_b-c",
            "Émile",
            "x1234567890123456"[..16].as_ref(),
        ] {
            assert_eq!(check_username(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "-koom",
            "koom_",
            "a--b",
            "a-_b",
            "has space",
            "a!",
            "x12345678901234567",
        ] {
            assert!(check_username(bad).is_err(), "{bad}");
        }
        assert!(check_password(&"p".repeat(32)).is_ok());
        assert_eq!(
            check_password(&"p".repeat(33)),
            Err(AccountError::PasswordLength)
        );
        assert_eq!(
            check_password("tab\there"),
            Err(AccountError::PasswordControl)
        );
    }

    /// The lines koom writes, byte for byte as taflzero writes them.
    #[test]
    fn commands_are_written_as_the_server_reads_them() {
        assert_eq!(login(false, "koom", "pw"), "32d9a140 login koom pw");
        assert_eq!(login(true, "koom", ""), "32d9a140 create_account koom ");
        assert_eq!(
            new_game(1, false),
            r#"new_game {"role":"Defender","rated":false,"time_settings":"UnTimed","board_size":11}"#
        );
        let mv = Move {
            from: Square::at(3, 0),
            to: Square::at(3, 2),
        };
        assert_eq!(play(7, 0, mv), "game 7 play attacker d1 d3");
        assert_eq!(resign(7, 1), "game 7 play defender resigns _");
        assert_eq!(join_game(3), "join_game 3");
        assert_eq!(join_game_pending(3), "join_game_pending 3");
    }

    /// The lines the server writes (`handle_messages`, `join_game`, `game`), read.
    #[test]
    fn server_lines_are_read() {
        let cases = [
            ("= login", Message::LoggedIn),
            (
                "? login wrong_version",
                Message::Refused {
                    command: "login".into(),
                    why: "wrong_version".into(),
                },
            ),
            ("= new_game 12", Message::Created(12)),
            ("= challenge_requested 12", Message::Challenged(12)),
            ("= join_game_pending 5", Message::Pending(5)),
            (
                "= join_game bob koom false UnTimed 11",
                Message::Started {
                    attacker: "bob".into(),
                    defender: "koom".into(),
                },
            ),
            (
                "game 12 generate_move defender",
                Message::YourMove { id: 12, seat: 1 },
            ),
            (
                "game 12 play attacker d1 d3",
                Message::Played {
                    id: 12,
                    seat: 0,
                    from: "d1".into(),
                    to: "d3".into(),
                },
            ),
            (
                "game 12 play attacker resigns ",
                Message::Resigned { id: 12, seat: 0 },
            ),
            (
                "= game_over 12 defender_wins",
                Message::Over { id: 12, winner: 1 },
            ),
            ("= draw accept", Message::Drawn),
            ("= game", Message::Other),
            ("= game_time {\"id\":1}", Message::Other),
            ("version 6.4.1", Message::Other),
            ("", Message::Other),
        ];
        for (line, expected) in cases {
            assert_eq!(parse(line), Ok(expected), "{line}");
        }
        assert!(matches!(
            parse("game x generate_move defender"),
            Err(WireError::GameId { .. })
        ));
        assert_eq!(
            parse("game 1 generate_move king").map_err(|e| e.to_string()),
            Err(
                "`king` is not a role (attacker, defender, a or d) in `game 1 generate_move king`"
                    .into()
            )
        );
        assert!(matches!(
            parse("= game_over 1 nobody_wins"),
            Err(WireError::Result { .. })
        ));
    }
}
