//! Game records: one finished game on one line, tab-separated,
//!
//! `INDEX  GROUP  ROTATION  SEED  AGENTS  RESULT  REASON  RULES  START  MOVES  OPENING  [SCORES]`
//!
//! - INDEX, GROUP, ROTATION: the game's place in its run (game index, seed group, seat rotation);
//! - SEED: the game's seed, from which its dice stream derives. Dice games need it: the moves
//!   alone do not say what the dice showed, and the seed's stream replays every roll exactly;
//! - AGENTS: the agents by seat, comma separated (their number is the number of seats);
//! - RESULT: `seat N wins`, `draw`, `seats N,M share` or `no result`; REASON: the game's reason;
//! - RULES: `default`, or the rule options the game was played under as JSON (the runner
//!   writes and reads them; the engine only carries the text);
//! - START: `start` or the position text the game began from;
//! - MOVES: the moves in the game's notation from START, comma separated (an opening's first);
//! - OPENING: the index of the suite's opening the game began from, or `-` without a suite;
//! - SCORES (only in records written with `--records-scores`): one entry per move of MOVES,
//!   comma separated: `SCORE@DEPTH`, the mover's searched score (its searcher's integer units,
//!   from the mover's side) and depth, or `-` for a move that was not searched (an opening's
//!   moves, forced moves, levels that do not search). Lines with and without it read alike.
//!
//! The reader lives here rather than in the runner so that the command line and the browser
//! package read the same lines the same way.

use core::fmt;

use crate::agent::MoveScore;
use crate::error::{ParseError, quote};
use crate::game::{EndReason, Ending, Game, NoLog, Outcome};
use crate::random::RandomStream;

/// The fields of a record line, in order; `scores` is optional.
pub const FIELDS: [&str; 12] = [
    "index", "group", "rotation", "seed", "agents", "result", "reason", "rules", "start", "moves",
    "opening", "scores",
];

/// One game as a record says it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub index: u64,
    pub group: u64,
    pub rotation: usize,
    pub seed: u64,
    pub agents: Vec<String>,
    pub result: String,
    pub reason: String,
    /// The rule options as the runner wrote them; `None`: the game's defaults.
    pub rules: Option<String>,
    /// `None`: the initial position.
    pub start: Option<String>,
    pub moves: Vec<String>,
    /// The opening's index in its suite (`None`: no suite).
    pub opening: Option<u64>,
    /// Each move's searched score, one per move (`None`: the record has no SCORES field).
    pub scores: Option<Vec<Option<MoveScore>>>,
}

/// `seat 1 wins`, `draw`, `seats 0,2 share`, `no result`.
#[must_use]
pub fn result_text<R: EndReason>(outcome: &Outcome<R>) -> String {
    match outcome.sole_winner() {
        _ if outcome.no_result => "no result".to_string(),
        Some(seat) => format!("seat {seat} wins"),
        None if outcome.winners.is_empty() => "draw".to_string(),
        None => {
            let seats: Vec<String> = outcome.winners.iter().map(|s| s.to_string()).collect();
            format!("seats {} share", seats.join(","))
        }
    }
}

impl fmt::Display for Record {
    /// The record line, without its newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.index,
            self.group,
            self.rotation,
            self.seed,
            self.agents.join(","),
            self.result,
            self.reason,
            self.rules.as_deref().unwrap_or("default"),
            self.start.as_deref().unwrap_or("start"),
            self.moves.join(","),
            self.opening.map_or("-".to_string(), |o| o.to_string())
        )?;
        if let Some(scores) = &self.scores {
            let entry = |s: &Option<MoveScore>| {
                s.map_or("-".to_string(), |s| format!("{}@{}", s.score, s.depth))
            };
            let entries: Vec<String> = scores.iter().map(entry).collect();
            write!(f, "\t{}", entries.join(","))?;
        }
        Ok(())
    }
}

impl Record {
    /// Reads a record line; the error names the field that is wrong.
    pub fn parse(line: &str) -> Result<Self, ParseError> {
        let line = line.trim_end_matches(['\n', '\r']);
        let fields: Vec<&str> = line.split('\t').collect();
        let fail = |why: String| Err(ParseError::new(why).reading("record", line));
        if line.chars().any(|c| c.is_control() && c != '\t') {
            return fail("a record is one line of text: this one holds a control character".into());
        }
        let [
            index,
            group,
            rotation,
            seed,
            agents,
            result,
            reason,
            rules,
            start,
            moves,
            opening,
            ref scores @ ..,
        ] = fields[..]
        else {
            return fail(format!(
                "a record has {} tab-separated fields ({}) and an optional {}, this one has {}",
                FIELDS.len() - 1,
                FIELDS[..FIELDS.len() - 1].join(", "),
                FIELDS[FIELDS.len() - 1],
                fields.len()
            ));
        };
        let scores = match scores {
            [] => None,
            [text] => Some(parse_scores(text).map_err(|why| {
                ParseError::new(format!("scores: {why}")).reading("record", line)
            })?),
            more => {
                return fail(format!(
                    "a record has at most {} tab-separated fields, this one has {}",
                    FIELDS.len(),
                    FIELDS.len() - 1 + more.len()
                ));
            }
        };
        let number = |name: &str, text: &str| {
            text.trim().parse::<u64>().map_err(|_| {
                ParseError::new(format!("{name} {} is not a number", quote(text)))
                    .reading("record", line)
            })
        };
        let rotation = number("rotation", rotation)?;
        let agents: Vec<String> = agents.split(',').map(|a| a.trim().to_string()).collect();
        if agents.iter().any(String::is_empty) {
            return fail(format!("agents {} names an empty agent", quote(fields[4])));
        }
        if rotation >= agents.len() as u64 {
            return fail(format!(
                "rotation {rotation} is not below the number of seats ({})",
                agents.len()
            ));
        }
        let text = |t: &str| (!t.trim().is_empty()).then(|| t.trim().to_string());
        let moves: Vec<String> = move_list(moves)
            .map_err(|why| ParseError::new(format!("moves: {why}")).reading("record", line))?
            .into_iter()
            .map(str::to_string)
            .collect();
        if let Some(scores) = scores.as_ref().filter(|s| s.len() != moves.len()) {
            return fail(format!(
                "{} scores for {} moves: a score (or `-`) is due for every move",
                scores.len(),
                moves.len()
            ));
        }
        let (Some(result), Some(reason)) = (text(result), text(reason)) else {
            return fail("the result or the reason is empty".to_string());
        };
        Ok(Self {
            index: number("index", index)?,
            group: number("group", group)?,
            rotation: rotation as usize,
            seed: number("seed", seed)?,
            agents,
            result,
            reason,
            rules: text(rules).filter(|r| r != "default"),
            start: text(start).filter(|s| s != "start"),
            moves,
            opening: match opening.trim() {
                "-" => None,
                text => Some(number("opening", text)?),
            },
            scores,
        })
    }

    /// Plays the recorded moves from the recorded start on the game's own dice stream (the
    /// seed's), under `options`, and checks that they end as the record says. A game lost by a
    /// forfeit, or adjudicated, ended by the runner's verdict, not by its moves, so only its
    /// moves are checked; its position is then the one the verdict left (not over).
    pub fn replay<G: Game>(&self, options: &G::Options) -> Result<G, ReplayError> {
        self.replay_noting(options, |_, _| {})
    }

    /// [`Record::replay`] that shows each move, with the position it is played in, to `on_move`
    /// (`koom play --record` narrates them).
    pub fn replay_noting<G: Game>(
        &self,
        options: &G::Options,
        mut on_move: impl FnMut(&G, G::Move),
    ) -> Result<G, ReplayError> {
        let seats = self.agents.len();
        if !(G::SEATS.0..=G::SEATS.1).contains(&seats) {
            return Err(ReplayError::Seats {
                seats,
                range: G::SEATS,
            });
        }
        let mut dice = RandomStream::dice(self.seed);
        let mut game = match &self.start {
            Some(text) => {
                G::from_position(text, options).map_err(|e| ReplayError::Start(Box::new(e)))?
            }
            None => G::new(options, seats, &mut dice, &mut NoLog),
        };
        for (i, text) in self.moves.iter().enumerate() {
            let ply = i + 1;
            if game.outcome().is_some() {
                return Err(ReplayError::AfterEnd {
                    ply,
                    text: text.clone(),
                });
            }
            let mv = game.parse_move(text).map_err(|why| ReplayError::Illegal {
                ply,
                text: text.clone(),
                why: Box::new(why),
            })?;
            on_move(&game, mv);
            game.play(mv, &mut dice, &mut NoLog);
        }
        if Ending::<G::Reason>::is_verdict_name(&self.reason) {
            return Ok(game);
        }
        let replayed = game
            .outcome()
            .map(|o| (result_text(&o), o.reason.name().to_string()));
        if replayed.as_ref() != Some(&(self.result.clone(), self.reason.clone())) {
            return Err(ReplayError::Result {
                replayed: replayed.map(|(r, why)| format!("{r} ({why})")),
                recorded: format!("{} ({})", self.result, self.reason),
            });
        }
        Ok(game)
    }
}

/// A comma-separated list of moves (a record's MOVES field, an opening's `moves:`), each
/// trimmed; an empty text is no move. An empty entry (`a,,b`, a leading or trailing comma) is
/// refused rather than skipped: the list was cut or edited, and would replay another game.
pub fn move_list(text: &str) -> Result<Vec<&str>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let moves: Vec<&str> = text.split(',').map(str::trim).collect();
    match moves.iter().position(|m| m.is_empty()) {
        Some(at) => Err(format!(
            "move {} of {} is empty (a comma too many)",
            at + 1,
            quote(text.trim())
        )),
        None => Ok(moves),
    }
}

/// The SCORES field: `SCORE@DEPTH` or `-` per move, comma separated.
fn parse_scores(text: &str) -> Result<Vec<Option<MoveScore>>, String> {
    let entries = text.split(',').map(str::trim).filter(|e| !e.is_empty());
    entries
        .map(|entry| {
            if entry == "-" {
                return Ok(None);
            }
            let bad = || format!("{} is neither SCORE@DEPTH nor -", quote(entry));
            let (score, depth) = entry.split_once('@').ok_or_else(bad)?;
            let score = score.parse::<i32>().map_err(|_| bad())?;
            let depth = depth.parse::<u32>().map_err(|_| bad())?;
            if depth == 0 {
                return Err(format!(
                    "{}: a searched move has depth 1 or more",
                    quote(entry)
                ));
            }
            Ok(Some(MoveScore { score, depth }))
        })
        .collect()
}

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The agents give a number of seats the game does not take.
    Seats { seats: usize, range: (usize, usize) },
    /// The start position does not read.
    Start(Box<ParseError>),
    /// Move `ply` (from 1) is not legal where it is played.
    Illegal {
        ply: usize,
        text: String,
        why: Box<ParseError>,
    },
    /// Move `ply` comes after the end of the game.
    AfterEnd { ply: usize, text: String },
    /// The moves end otherwise than the record says (`None`: the game is not over).
    Result {
        replayed: Option<String>,
        recorded: String,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Seats { seats, range } => write!(
                f,
                "{seats} agents, but the game takes {} to {} seats",
                range.0, range.1
            ),
            Self::Start(e) => write!(f, "the start position does not read: {e}"),
            Self::Illegal { ply, text, why } => {
                write!(f, "move {ply} {} is illegal: {}", quote(text), why.reason())
            }
            Self::AfterEnd { ply, text } => {
                write!(f, "move {ply} {}: the game is already over", quote(text))
            }
            Self::Result { replayed, recorded } => write!(
                f,
                "the moves end in {}, the record says {recorded}",
                replayed.as_deref().unwrap_or("an unfinished game")
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str =
        "4\t2\t0\t77\tnormal,easy\tseat 0 wins\tcorner\tdefault\tstart\ta4-c4,k7-i7,d1-d3\t-";

    #[test]
    fn an_empty_move_in_a_record_is_refused_and_no_moves_is_an_empty_field() {
        assert_eq!(move_list(""), Ok(Vec::new()));
        assert_eq!(move_list(" a4-c4 , k7-i7"), Ok(vec!["a4-c4", "k7-i7"]));
        for cut in ["a4-c4,,k7-i7", ",a4-c4", "a4-c4,"] {
            let line = LINE.replace("a4-c4,k7-i7,d1-d3", cut);
            let err = Record::parse(&line).unwrap_err().to_string();
            assert!(err.contains("is empty (a comma too many)"), "{cut}: {err}");
        }
    }

    #[test]
    fn scores_are_an_optional_last_field_read_back_as_written() {
        let plain = Record::parse(LINE).unwrap();
        assert_eq!(plain.scores, None);
        let line = format!("{LINE}\t-,-35@4,120@5");
        let scored = Record::parse(&line).unwrap();
        let searched = |score, depth| Some(MoveScore { score, depth });
        assert_eq!(
            scored.scores,
            Some(vec![None, searched(-35, 4), searched(120, 5)])
        );
        assert_eq!(scored.to_string(), line);
        assert_eq!(
            Record {
                scores: None,
                ..scored
            },
            plain
        );
    }

    #[test]
    fn bad_scores_name_the_field() {
        let bad = |scores: &str| {
            Record::parse(&format!("{LINE}\t{scores}"))
                .unwrap_err()
                .to_string()
        };
        let short = bad("1@2,-");
        assert!(short.contains("2 scores for 3 moves"), "{short}");
        let text = bad("-,1@x,-");
        assert!(
            text.contains("scores: `1@x` is neither SCORE@DEPTH nor -"),
            "{text}"
        );
        let unsearched = bad("-,5@0,-");
        assert!(unsearched.contains("depth 1 or more"), "{unsearched}");
        let extra = Record::parse(&format!("{LINE}\t-,-,-\tmore")).unwrap_err();
        assert!(extra.to_string().contains("at most 12"), "{extra}");
    }
}
