//! The report of a rating ladder: fitted ratings, each rung's match, intransitive triples.

use tuner::strength::LadderSummary;

use super::parts::*;
use super::{Document, ReportError};

/// Why a ladder's ratings differ slightly from each rung's own Elo: said in the terminal and in
/// the report.
pub const LADDER_NOTE: &str = "Ratings: a Bradley–Terry fit over every rung with half a point of prior each way (it keeps a clean sweep finite), so adjacent ratings sit a little closer than each rung's own Elo, which is the figure `koom run` prints for the same pair and seeds.";

/// A rating ladder: the fitted ratings, and each adjacent pair's own match.
pub(super) fn ladder(s: &LadderSummary) -> Result<Document, ReportError> {
    let l = &s.ladder;
    let mut doc = Document {
        title: format!("koom report: {} ladder", crate::title_case(&s.game)),
        blocks: Vec::new(),
    };
    let (pairs, below) = if l.full {
        ("pair (every pair, --full)", "every level below")
    } else {
        ("adjacent pair", "the one below")
    };
    doc.text(format!(
        "{} {} per {pairs}, seed {}; verdict: {}.",
        s.games_per_pair,
        s.unit,
        s.seed,
        if l.passed {
            format!("every level beats {below}")
        } else {
            format!("some level does not beat {below}")
        }
    ));
    if l.partial {
        doc.text(
            "PARTIAL: the ladder was interrupted; these figures cover only the games that finished.",
        );
    }
    doc.heading("Ratings");
    doc.text(LADDER_NOTE);
    let ratings: Vec<_> = l
        .levels
        .iter()
        .zip(&l.fit.ratings)
        .map(|(level, e)| item(level.clone(), e))
        .collect();
    rating_ladder(&mut doc, "level", &ratings)?;
    doc.heading("Rungs");
    let rows = l
        .rungs
        .iter()
        .map(|r| {
            let e = &r.estimate;
            vec![
                format!("{} vs {}", r.upper, r.lower),
                r.games.to_string(),
                pct(e.score.value),
                interval_pct(&e.score),
                elo_value(&e.elo),
                elo_interval(&e.elo),
                if r.passed { "ok" } else { "FAIL" }.to_owned(),
            ]
        })
        .collect();
    doc.table(
        &[
            "pair",
            "games",
            "score",
            "95% interval",
            "Elo",
            "95% interval",
            "upper ahead",
        ],
        rows,
    );
    if l.full {
        intransitive_section(&mut doc, &l.intransitive);
    }
    Ok(doc)
}

/// The triples of a full ladder whose scores contradict the ratings' order.
fn intransitive_section(doc: &mut Document, triples: &[tuner::strength::stats::Intransitive]) {
    doc.heading("Intransitive triples");
    doc.text(INTRANSITIVE_NOTE);
    if triples.is_empty() {
        doc.text("None.");
        return;
    }
    let rows = triples
        .iter()
        .map(|t| {
            vec![
                t.levels.join(" < "),
                format!("{:?}", t.kind).to_lowercase(),
                t.side.clone().unwrap_or_else(|| "both".to_owned()),
                t.detail.clone(),
            ]
        })
        .collect();
    doc.table(&["levels (by rating)", "kind", "side", "scores"], rows);
}

/// What a full ladder calls intransitive (docs/statistics.md says the same).
pub const INTRANSITIVE_NOTE: &str = "Levels ranked by their ratings, weakest first. A triple is \
    flagged as a cycle when each of the three beats the next round a circle with its score's 95% \
    interval above an even score, and as an order contradiction when the strongest scores less \
    against the weakest than the middle one does, or than it does against the middle one, with \
    the 95% interval of the difference (half-widths combined as independent) below 0. The order \
    check also runs on each side of a two-sided game.";
