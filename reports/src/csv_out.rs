//! `summary.csv` (one row per agent and per seat) and the streamed `games.csv`.

use std::io;

use engine::EndReason;
use serde::Serialize;
use tuner::batch::summary::Summary;
use tuner::batch::tally::GameRow;

/// A number for CSV: plain decimal, or scientific notation for magnitudes below 1e-6 (a LOS of
/// 1e-300 written out in full would be 300 zeros).
#[must_use]
pub fn num(x: f64) -> String {
    if x == 0.0 || x.abs() >= 1e-6 {
        x.to_string()
    } else {
        format!("{x:e}")
    }
}

fn csv_error(e: csv::Error) -> io::Error {
    io::Error::other(e.to_string())
}

/// `summary.csv`: one row per agent (`kind` agent; its games, or its matches where the game
/// plays matches, as `unit` says) and per side (`kind` side; its games or rounds), then the
/// run-wide figures repeated on every row so that each row stands alone in a spreadsheet: the
/// first-player advantage with its interval and unit, the head-to-head Elo with its interval
/// (empty unless exactly two agents play) and the mean length in moves.
pub fn summary_csv<R: Serialize>(s: &Summary<R>) -> io::Result<Vec<u8>> {
    let mut out = csv::Writer::from_writer(Vec::new());
    out.write_record([
        "kind",
        "name",
        "unit",
        "games",
        "wins",
        "draws",
        "losses",
        "no_result",
        "win_rate",
        "ci95_lo",
        "ci95_hi",
        "score_of_decided",
        "first_player_advantage",
        "first_player_advantage_lo",
        "first_player_advantage_hi",
        "first_player_advantage_unit",
        "elo",
        "elo_lo",
        "elo_hi",
        "mean_length",
    ])
    .map_err(csv_error)?;
    let side_unit = if s.agent_unit == "matches" {
        "rounds"
    } else {
        "games"
    };
    let rows = s
        .by_agent
        .iter()
        .map(|r| {
            (
                "agent",
                r.agent.clone().unwrap_or_default(),
                s.agent_unit.as_str(),
                r,
            )
        })
        .chain(
            s.by_seat
                .iter()
                .map(|r| ("side", r.side.clone().unwrap_or_default(), side_unit, r)),
        );
    let fpa = &s.first_player_advantage;
    let elo = s.head_to_head.as_ref().map(|h| &h.estimate);
    let run_wide = [
        num(fpa.advantage.value),
        num(fpa.advantage.ci95[0]),
        num(fpa.advantage.ci95[1]),
        fpa.unit.clone(),
        elo.map(|e| num(e.elo.value)).unwrap_or_default(),
        elo.map(|e| num(e.elo.ci95[0])).unwrap_or_default(),
        elo.map(|e| num(e.elo.ci95[1])).unwrap_or_default(),
        num(s.length.mean),
    ];
    for (kind, name, unit, r) in rows {
        let record = [
            kind.to_owned(),
            name,
            unit.to_owned(),
            r.record.games.to_string(),
            r.record.wins.to_string(),
            r.record.draws.to_string(),
            r.record.losses.to_string(),
            r.record.no_result.to_string(),
            num(r.win_rate.value),
            num(r.win_rate.ci95[0]),
            num(r.win_rate.ci95[1]),
            num(r.score_of_decided),
        ];
        out.write_record(record.iter().chain(&run_wide))
            .map_err(csv_error)?;
    }
    out.into_inner()
        .map_err(|e| io::Error::other(e.to_string()))
}

/// `games.csv`'s columns: a line a game, streamed by the run as games finish (see
/// `tuner::lines`, which lets a resume continue it after a crash).
#[derive(Debug)]
pub struct GamesCsv;

impl GamesCsv {
    /// The column names for `seats` seats.
    #[must_use]
    pub fn header(seats: usize) -> Vec<String> {
        let mut header: Vec<String> = [
            "index",
            "seed",
            "rotation",
            "winner_seat",
            "winner_agent",
            "result",
            "reason",
            "moves",
            "rolls",
        ]
        .into_iter()
        .map(str::to_owned)
        .collect();
        header.extend((0..seats).map(|s| format!("agent_seat{s}")));
        header.extend((0..seats).map(|s| format!("captures_seat{s}")));
        // Last, so that the columns before keep their places; empty without a suite.
        header.push("opening".to_owned());
        header
    }

    /// The CSV fields of one game; `koom play` prints the same line, so a replay can be compared
    /// with the batch row.
    #[must_use]
    pub fn fields<R: EndReason>(row: &GameRow<R>, labels: &[String]) -> Vec<String> {
        let outcome = &row.outcome;
        let winner = outcome.sole_winner();
        let result = if outcome.no_result {
            "no result"
        } else if winner.is_some() {
            "win"
        } else {
            "draw"
        };
        let mut fields = vec![
            row.index.to_string(),
            row.seed.to_string(),
            row.rotation.to_string(),
            winner.map(|s| s.to_string()).unwrap_or_default(),
            winner
                .map(|s| labels[row.seat_agents[s]].clone())
                .unwrap_or_default(),
            result.to_owned(),
            outcome.reason.name().to_owned(),
            row.moves.to_string(),
            row.rolls.to_string(),
        ];
        fields.extend(row.seat_agents.iter().map(|&a| labels[a].clone()));
        fields.extend(row.captures.iter().map(u32::to_string));
        fields.push(row.opening.map(|o| o.to_string()).unwrap_or_default());
        fields
    }
}

/// One row as CSV text (no trailing newline).
#[must_use]
pub fn csv_line(fields: &[String]) -> String {
    let mut out = csv::Writer::from_writer(Vec::new());
    // Writing into memory cannot fail.
    let _ = out.write_record(fields);
    String::from_utf8(out.into_inner().unwrap_or_default())
        .unwrap_or_default()
        .trim_end()
        .to_owned()
}
