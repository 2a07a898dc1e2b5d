//! Game records (`koom run --records FILE`): one line a game, tab-separated,
//!
//! `INDEX  GROUP  ROTATION  AGENTS  RESULT  REASON  START  MOVES  OPENING`
//!
//! where AGENTS are the agents by seat (comma separated), RESULT is `seat N wins`, `draw`,
//! `seats N,M share` or `no result`, START is `start` or the position text the game began from,
//! MOVES are the moves in the game's notation, comma separated (an opening's moves first), and
//! OPENING is the index of the suite's opening the game started from, or `-` without a suite.
//! `koom legal --record LINE` and `koom play --record LINE` replay a line; lines without OPENING
//! (written before suites existed) read too.

use engine::{EndReason, Game, Outcome};

use crate::InputError;
use crate::tally::GameRow;

/// One game as a record says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub index: u64,
    pub group: u64,
    pub rotation: usize,
    pub agents: Vec<String>,
    pub result: String,
    pub reason: String,
    /// `None`: the initial position.
    pub start: Option<String>,
    pub moves: Vec<String>,
    /// The opening's index in its suite.
    pub opening: Option<u64>,
}

/// `seat 1 wins`, `draw`, `seats 0,2 share`, `no result`.
#[must_use]
pub fn result_text<R: EndReason>(outcome: &Outcome<R>) -> String {
    match outcome.sole_winner() {
        _ if outcome.no_result => "no result".to_owned(),
        Some(seat) => format!("seat {seat} wins"),
        None if outcome.winners.is_empty() => "draw".to_owned(),
        None => {
            let seats: Vec<String> = outcome.winners.iter().map(|s| s.to_string()).collect();
            format!("seats {} share", seats.join(","))
        }
    }
}

/// The record line of a finished game (`row.notation` holds its moves), without the newline.
#[must_use]
pub fn record_line<G: Game>(row: &GameRow<G::Reason>, labels: &[String], groups_of: u64) -> String {
    let agents: Vec<&str> = row
        .seat_agents
        .iter()
        .map(|&slot| labels[slot].as_str())
        .collect();
    let reason = row.outcome.reason.name();
    format!(
        "{}\t{}\t{}\t{}\t{}\t{reason}\t{}\t{}\t{}",
        row.index,
        row.index / groups_of,
        row.rotation,
        agents.join(","),
        result_text(&row.outcome),
        row.start.as_deref().unwrap_or("start"),
        row.notation.join(","),
        row.opening.map_or("-".to_owned(), |o| o.to_string())
    )
}

/// Reads a record line; the error says which field is wrong.
pub fn parse_record(line: &str) -> Result<Record, InputError> {
    let fields: Vec<&str> = line.trim_end_matches(['\n', '\r']).split('\t').collect();
    let (fields, opening) = match fields[..] {
        [ref first @ .., last] if fields.len() == 9 => (first, Some(last)),
        _ => (&fields[..], None),
    };
    let [index, group, rotation, agents, result, reason, start, moves] = fields[..] else {
        return Err(InputError::new(format!(
            "a record has 9 tab-separated fields (index, group, rotation, agents, result, reason, start, moves, opening), this one has {}",
            fields.len() + usize::from(opening.is_some())
        )));
    };
    let number = |name: &str, text: &str| {
        text.trim()
            .parse::<u64>()
            .map_err(|_| InputError::new(format!("record: {name} `{text}` is not a number")))
    };
    Ok(Record {
        index: number("index", index)?,
        group: number("group", group)?,
        rotation: number("rotation", rotation)? as usize,
        agents: agents.split(',').map(str::to_owned).collect(),
        result: result.to_owned(),
        reason: reason.to_owned(),
        start: (start != "start").then(|| start.to_owned()),
        moves: moves
            .split(',')
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .map(str::to_owned)
            .collect(),
        opening: match opening {
            None | Some("-") => None,
            Some(text) => Some(number("opening", text)?),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Ending;
    use engine::SeatSet;
    use engine::games::hnefatafl::{Hnefatafl, Reason};

    #[test]
    fn lines_round_trip_and_bad_ones_name_the_field() {
        let row = GameRow {
            index: 7,
            seed: 1,
            rotation: 1,
            outcome: Outcome::win(1, Reason::Corner),
            seat_agents: vec![1, 0],
            moves: 2,
            rolls: 0,
            captures: vec![0, 0],
            opening: Some(4),
            start: None,
            notation: vec!["d1-b1".into(), "e5-e2".into()],
        };
        let labels = ["hard".to_owned(), "cmd:x y".to_owned()];
        let line = record_line::<Hnefatafl>(&row, &labels, 2);
        assert_eq!(
            line,
            "7\t3\t1\tcmd:x y,hard\tseat 1 wins\tcorner\tstart\td1-b1,e5-e2\t4"
        );
        let record = parse_record(&line).unwrap();
        assert_eq!(
            (record.index, record.group, record.rotation, record.start),
            (7, 3, 1, None)
        );
        assert_eq!(record.moves, ["d1-b1", "e5-e2"]);
        assert_eq!(record.agents, ["cmd:x y", "hard"]);
        assert_eq!(record.opening, Some(4));
        let eight = line.rsplit_once('\t').unwrap().0;
        assert_eq!(parse_record(eight).unwrap().opening, None);
        assert!(
            parse_record(&format!("{line}\tx"))
                .unwrap_err()
                .0
                .contains("has 10")
        );
        assert!(parse_record("1\t2").unwrap_err().0.contains("has 2"));
        let bad = line.replacen('7', "x", 1);
        assert!(parse_record(&bad).unwrap_err().0.contains("index `x`"));
        let shared = Outcome {
            winners: SeatSet(0b101),
            no_result: false,
            reason: Ending::Rules(Reason::Corner),
        };
        assert_eq!(result_text(&shared), "seats 0,2 share");
    }
}
