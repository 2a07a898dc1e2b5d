//! The report of a tournament: ratings, the score matrix, and each pairing's match and design
//! metrics.

use serde_json::Value;
use tuner::strength::tournament::{PairingSummary, TournamentSummary};

use super::parts::*;
use super::{Document, ReportError, charts};

pub(super) fn tournament(t: &TournamentSummary<Value>) -> Result<Document, ReportError> {
    let format = serde_json::to_value(t.format).unwrap_or_default();
    let format = format.as_str().unwrap_or_default().to_owned();
    let mut doc = Document {
        title: format!("koom report: {} {}", crate::title_case(&t.game), format),
        blocks: Vec::new(),
    };
    let first = t.pairings.first();
    reproduce(
        &mut doc,
        &Experiment {
            game: &t.game,
            agents: &t.agents,
            seed: t.seed,
            games: t.games_per_pairing,
            time_control: first.map(|p| p.summary.time_control).unwrap_or_default(),
            format: Some(t.format),
            options: first.map(|p| &p.summary.options),
            openings: first.and_then(|p| p.summary.openings.as_ref()),
            partial: t.partial,
        },
    )?;
    doc.heading("Ratings");
    doc.text(format!("Bradley–Terry maximum-likelihood ratings over every pairing, the first agent anchored at 0, with 95% intervals from the seed groups' variance; the fit adds {}.", t.prior));
    let ratings: Vec<_> = t
        .ratings
        .iter()
        .map(|r| item(r.agent.clone(), &r.elo))
        .collect();
    rating_ladder(&mut doc, "agent", &ratings)?;
    doc.chart(
        "score-matrix.svg",
        "Score of the row agent against the column agent",
        charts::heatmap("Win-rate matrix", &t.agents, &t.score_matrix)?,
    );
    pairings(&mut doc, &t.pairings)?;
    doc.heading("Game-design metrics per pairing");
    for (i, p) in t.pairings.iter().enumerate() {
        pairing_design(&mut doc, i + 1, p)?;
    }
    Ok(doc)
}

/// `agent vs opponent`.
fn pairing_name(p: &PairingSummary<Value>) -> String {
    format!("{} vs {}", p.agent, p.opponent)
}

/// The tournament's pairings: one table row each (score, Elo, first-player advantage), and
/// charts of the first-player advantages and of how games ended.
fn pairings(doc: &mut Document, pairings: &[PairingSummary<Value>]) -> Result<(), ReportError> {
    doc.heading("Pairings");
    let mut rows = Vec::new();
    let mut advantage = Vec::new();
    let mut ends = Vec::new();
    for p in pairings {
        let name = pairing_name(p);
        let ps = &p.summary;
        let h = ps
            .head_to_head
            .as_ref()
            .ok_or_else(|| ReportError::NoHeadToHead(name.clone()))?;
        let e = &h.estimate;
        let fpa = &ps.first_player_advantage;
        let mut row = vec![
            name.clone(),
            if ps.agent_unit == "matches" {
                format!("{} matches", ps.seed_groups)
            } else {
                format!("{} games", ps.games_played)
            },
            pct(e.score.value),
            interval_pct(&e.score),
            elo_value(&e.elo),
            elo_interval(&e.elo),
        ];
        row.extend(advantage_row(&fpa.advantage, fpa).into_iter().skip(1));
        rows.push(row);
        advantage.push(item(name.clone(), &fpa.advantage));
        ends.push((name, &ps.termination[..]));
    }
    doc.table(
        &[
            "pairing",
            "played",
            "score",
            "95% interval",
            "Elo",
            "95% interval",
            "first-player advantage",
            "95% interval",
        ],
        rows,
    );
    doc.text(SCORE_NOTE);
    let first = pairings.first().map(|p| &p.summary);
    doc.chart(
        "first-player-advantage.svg",
        "First-player advantage per pairing (95% intervals)",
        charts::intervals(
            "First-player advantage",
            first.map_or("win rate − fair share (percentage points)", advantage_axis),
            &advantage,
            Some(0.0),
            first.map_or(charts::Scale::SHARE, advantage_scale),
        )?,
    );
    if let Some(first) = pairings.first() {
        doc.subheading("How games ended, per pairing");
        let header = ending_header("pairing: ending", &first.summary);
        let rows = pairings
            .iter()
            .flat_map(|p| ending_rows(Some(&pairing_name(p)), &p.summary))
            .collect();
        doc.table(&header.iter().map(String::as_str).collect::<Vec<_>>(), rows);
    }
    let (reasons, ends) = termination_shares(ends);
    doc.chart(
        "termination.svg",
        "How games ended, per pairing",
        charts::grouped_shares("How games ended", &reasons, &ends)?,
    );
    Ok(())
}

/// Pairing `number`'s game-design metrics, game length and the game's own distributions.
fn pairing_design(
    doc: &mut Document,
    number: usize,
    p: &PairingSummary<Value>,
) -> Result<(), ReportError> {
    let name = pairing_name(p);
    doc.subheading(name.clone());
    doc.table(
        &["metric", "value", "95% interval"],
        design_rows(&p.summary.design, &p.summary.first_player_advantage),
    );
    let file = format!("game-length-{number}.svg");
    let title = format!("Game length: {name}");
    doc.chart(
        &file,
        &title,
        length_chart(
            &p.summary.length_histogram,
            &file,
            &title,
            one_game(&p.summary.agent_unit),
        )?,
    );
    distributions(
        doc,
        &p.summary.game_specific,
        &format!("distribution-{number}"),
        &format!(": {name}"),
        one_game(&p.summary.agent_unit),
    )
}
