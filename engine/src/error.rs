//! The engine's typed errors: text that does not read ([`ParseError`]), a rule option out of its
//! range ([`OptionError`]), a level the game does not have ([`UnknownLevel`]) and a move that the position does not allow ([`PlayError`]), and [`quote`], the one way every message repeats
//! what a user typed.
//!
//! The errors carry their parts as fields, so a caller (the command line, a browser page) can
//! compose its own message; `Display` gives one line that names everything.

use core::fmt;

/// The most characters of a user's input that a message repeats.
pub const QUOTE_LIMIT: usize = 80;

/// `text` as an error message repeats it: in backticks, with control characters escaped (a
/// newline shows as `\n`, so the message stays one line) and cut after [`QUOTE_LIMIT`]
/// characters, with the full length said (a 128 KiB input does not make a 128 KiB message).
#[must_use]
pub fn quote(text: &str) -> String {
    let mut quoted = String::from("`");
    for c in text.chars().take(QUOTE_LIMIT) {
        if c.is_control() {
            quoted.extend(c.escape_default());
        } else {
            quoted.push(c);
        }
    }
    quoted.push('`');
    let length = text.chars().count();
    if length > QUOTE_LIMIT {
        quoted.push_str(&format!("… ({length} characters)"));
    }
    quoted
}

/// The most characters of a reason or a place that a message keeps.
const REASON_LIMIT: usize = 240;

/// A reason or a place as a message keeps it: control characters escaped and cut after
/// [`REASON_LIMIT`] characters. Readers build reasons with `format!`, and some repeat a piece of
/// the input; this keeps every message one bounded line whatever a reader put in it.
fn one_line(text: String) -> String {
    if !text.chars().any(char::is_control) && text.chars().count() <= REASON_LIMIT {
        return text;
    }
    let mut line = String::new();
    for c in text.chars().take(REASON_LIMIT) {
        if c.is_control() {
            line.extend(c.escape_default());
        } else {
            line.push(c);
        }
    }
    if text.chars().count() > REASON_LIMIT {
        line.push('…');
    }
    line
}

/// Text that does not read as what it should be.
///
/// A reader builds it from where and why ([`ParseError::new`], [`ParseError::at`], or any
/// `String` through `?`); the public entry point then names what was read and the input
/// ([`ParseError::reading`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What the text should have been, e.g. `thud position` or `hnefatafl move`.
    pub what: String,
    /// The text, quoted with [`quote`].
    pub input: String,
    /// Where in the text the fault lies (`rank 3, character 2`), when it lies in one place.
    pub place: Option<String>,
    /// Why the text does not read, or which rule it breaks.
    pub why: String,
}

impl ParseError {
    /// A fault of the whole text.
    pub fn new(why: impl Into<String>) -> Self {
        Self {
            what: String::new(),
            input: String::new(),
            place: None,
            why: one_line(why.into()),
        }
    }

    /// A fault at one place in the text.
    pub fn at(place: impl Into<String>, why: impl Into<String>) -> Self {
        Self {
            place: Some(one_line(place.into())),
            ..Self::new(why)
        }
    }

    /// Names what was being read and the input (quoted here).
    #[must_use]
    pub fn reading(self, what: impl Into<String>, input: &str) -> Self {
        Self {
            what: what.into(),
            input: quote(input),
            ..self
        }
    }

    /// The place and the reason, without what was read: for a caller that names the input
    /// itself (`move 2 `F2-F3` is illegal: …`).
    #[must_use]
    pub fn reason(&self) -> String {
        match &self.place {
            Some(place) => format!("{place}: {}", self.why),
            None => self.why.clone(),
        }
    }
}

impl From<String> for ParseError {
    fn from(why: String) -> Self {
        Self::new(why)
    }
}

impl From<&str> for ParseError {
    fn from(why: &str) -> Self {
        Self::new(why)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.what.is_empty() {
            write!(f, "bad {}", self.what)?;
            if !self.input.is_empty() {
                write!(f, " {}", self.input)?;
            }
            f.write_str(": ")?;
        }
        f.write_str(&self.reason())
    }
}

impl core::error::Error for ParseError {}

/// A rule option outside what the game accepts ([`crate::Rules::check_options`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    /// The option's name in a config's `[options]` table.
    pub name: &'static str,
    /// The value given.
    pub value: String,
    /// What is accepted, with the default: `a whole number from 1 to 1000000 (default 500)`.
    pub accepted: String,
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "options.{} must be {}, not {}",
            self.name, self.accepted, self.value
        )
    }
}

impl core::error::Error for OptionError {}

/// A level name that the game does not have ([`crate::game::Level::named`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLevel {
    /// The game's name.
    pub game: &'static str,
    /// The name given, quoted with [`quote`].
    pub name: String,
    /// The game's level names, weakest first.
    pub accepted: Vec<&'static str>,
}

impl fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} level {} (accepted: {})",
            self.game,
            self.name,
            self.accepted.join(", ")
        )
    }
}

impl core::error::Error for UnknownLevel {}

/// A move that cannot be played in the position ([`crate::Rules::try_play`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game has ended; `reason` says how.
    GameOver { reason: &'static str },
    /// The move is not among the legal moves (shown in `Debug` form, since an illegal move may
    /// have no notation).
    Illegal { mv: String },
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::GameOver { reason } => write!(f, "the game is over ({reason}): no move is legal"),
            Self::Illegal { mv } => write!(f, "{mv} is not a legal move here"),
        }
    }
}

impl core::error::Error for PlayError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::game::Rules;
    use crate::{Game, NoLog, RandomStream};

    #[test]
    fn quote_keeps_one_line_and_cuts_long_input() {
        assert_eq!(quote("d1-d3"), "`d1-d3`");
        assert_eq!(quote("a\nb\t\u{7}"), "`a\\nb\\t\\u{7}`");
        let long = "x".repeat(128 * 1024);
        let quoted = quote(&long);
        assert_eq!(
            quoted,
            format!("`{}`… (131072 characters)", "x".repeat(QUOTE_LIMIT))
        );
        // Multi-byte characters are counted, not bytes, and never cut in half.
        assert_eq!(
            quote(&"é".repeat(81)).chars().filter(|&c| c == 'é').count(),
            80
        );
    }

    #[test]
    fn a_reason_that_repeats_raw_input_stays_one_bounded_line() {
        let e = ParseError::at(
            "rank\n2",
            format!("`{}` is not a pawn", "a\nb".repeat(5000)),
        );
        let shown = e.to_string();
        assert!(!shown.contains('\n'), "{shown}");
        assert!(shown.starts_with("rank\\n2: `a\\nb"), "{shown}");
        assert!(shown.ends_with('…'), "{shown}");
        assert!(shown.chars().count() < 2 * REASON_LIMIT, "{}", shown.len());
        // A plain reason is kept as it was written.
        assert_eq!(ParseError::new("no king").to_string(), "no king");
    }

    /// Plays `first` twice through [`Rules::try_play`](crate::Rules::try_play): the second time
    /// its piece has gone, so it is refused and the position stays as it was.
    fn replay_is_refused<G: Game>(first: &str) {
        let mut dice = RandomStream::dice(0);
        let mut game = G::new(&G::Options::default(), G::SEATS.0, &mut dice, &mut NoLog);
        let mv = game.parse_move(first).unwrap();
        assert!(game.is_legal(mv));
        assert_eq!(game.try_play(mv, &mut dice, &mut NoLog), Ok(()));
        let before = game.position();
        assert!(!game.is_legal(mv));
        assert!(matches!(
            game.try_play(mv, &mut dice, &mut NoLog),
            Err(PlayError::Illegal { .. })
        ));
        assert_eq!(game.position(), before);
    }

    #[test]
    fn try_play_refuses_an_illegal_move_and_leaves_the_position() {
        replay_is_refused::<crate::games::hnefatafl::Hnefatafl>("d1-d3");
        replay_is_refused::<crate::games::thud::Thud>("F1-F2");
    }

    #[test]
    fn try_play_refuses_every_move_once_the_game_is_over() {
        let options = crate::games::hnefatafl::HnefataflOptions { ply_cap: 1 };
        let mut game = crate::games::hnefatafl::Hnefatafl::new(
            &options,
            2,
            &mut RandomStream::dice(0),
            &mut NoLog,
        );
        let mv = game.parse_move("d1-d3").unwrap();
        game.try_play(mv, &mut RandomStream::dice(0), &mut NoLog)
            .unwrap();
        let reply = game.parse_move("d5-d3");
        assert!(reply.is_err(), "{reply:?}");
        let err = game
            .try_play(mv, &mut RandomStream::dice(0), &mut NoLog)
            .unwrap_err();
        assert!(matches!(err, PlayError::GameOver { .. }), "{err}");
    }

    #[test]
    fn a_parse_error_names_what_where_and_why() {
        let e = ParseError::at("rank 3", "`q` is not a piece").reading("thud position", "q\n");
        assert_eq!(
            e.to_string(),
            "bad thud position `q\\n`: rank 3: `q` is not a piece"
        );
        assert_eq!(e.reason(), "rank 3: `q` is not a piece");
    }
}
