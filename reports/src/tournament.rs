//! A tournament's CSV and terminal table.

use std::fmt::Write as _;
use std::io;

use serde::Serialize;
use tuner::strength::tournament::TournamentSummary;

use crate::csv_out::num;
use crate::table::signed;

/// `summary.csv` of a tournament: one row per pairing.
pub fn tournament_csv<R: Serialize>(t: &TournamentSummary<R>) -> io::Result<Vec<u8>> {
    let mut out = csv::Writer::from_writer(Vec::new());
    let header = [
        "agent",
        "opponent",
        "games",
        "score",
        "score_ci95_lo",
        "score_ci95_hi",
        "elo",
        "elo_ci95_lo",
        "elo_ci95_hi",
        "los",
    ];
    out.write_record(header).map_err(io::Error::other)?;
    for p in &t.pairings {
        let Some(h) = &p.summary.head_to_head else {
            continue;
        };
        let e = &h.estimate;
        out.write_record([
            p.agent.clone(),
            p.opponent.clone(),
            p.summary.games_played.to_string(),
            num(e.score.value),
            num(e.score.ci95[0]),
            num(e.score.ci95[1]),
            num(e.elo.value),
            num(e.elo.ci95[0]),
            num(e.elo.ci95[1]),
            num(e.los),
        ])
        .map_err(io::Error::other)?;
    }
    out.into_inner()
        .map_err(|e| io::Error::other(e.to_string()))
}

/// The ratings and the score matrix as text.
#[must_use]
pub fn tournament_table<R: Serialize>(t: &TournamentSummary<R>) -> String {
    let mut out = String::new();
    let unit = t
        .pairings
        .first()
        .map_or("games", |p| p.summary.agent_unit.as_str());
    let _ = writeln!(
        out,
        "{} {}, {} {unit} per pairing, seed {}; score = mean score per {}",
        crate::title_case(&t.game),
        t.format,
        t.games_per_pairing,
        t.seed,
        if unit == "matches" { "match" } else { "game" },
    );
    if let Some(anchor) = t.ratings.first() {
        let _ = writeln!(
            out,
            "  ratings (Bradley-Terry): {} anchored at 0 (so its interval is 0 by construction); the fit adds {}",
            anchor.agent, t.prior
        );
    }
    for r in &t.ratings {
        let _ = writeln!(
            out,
            "  {:<24} {:>8} Elo {}",
            r.agent,
            signed(r.elo.value, 1),
            crate::table::elo_interval(&r.elo)
        );
    }
    let _ = write!(out, "  {:<24}", "score of row vs column");
    for a in &t.agents {
        let _ = write!(out, " {:>10.10}", a);
    }
    out.push('\n');
    for (a, row) in t.agents.iter().zip(&t.score_matrix) {
        let _ = write!(out, "  {a:<24}");
        for cell in row {
            match cell {
                Some(x) => {
                    let _ = write!(out, " {:>9.1}%", 100.0 * x);
                }
                None => {
                    let _ = write!(out, " {:>10}", "-");
                }
            }
        }
        out.push('\n');
    }
    out
}
