//! The report of one run (or shard merge): results by agent and side, head to head, design
//! metrics, charts and the game's own statistics.

use serde_json::Value;
use tuner::batch::summary::HeadToHead;
use tuner::config::Design;

use super::parts::*;
use super::{Document, ReportError, RunSummary, charts, specific};

pub(super) fn run(s: &RunSummary) -> Result<Document, ReportError> {
    let mut doc = Document {
        title: format!("koom report: {}", crate::title_case(&s.game)),
        blocks: Vec::new(),
    };
    reproduce(
        &mut doc,
        &Experiment {
            game: &s.game,
            agents: &s.agents,
            seed: s.seed,
            games: games_asked(&s.game, s.seed_groups, s.rotations),
            time_control: s.time_control,
            format: None,
            options: Some(&s.options),
            openings: s.openings.as_ref(),
            partial: s.partial,
        },
    )?;
    run_results(&mut doc, s);
    if let Some(h) = &s.head_to_head {
        head_to_head(&mut doc, h);
    }
    doc.heading("Game-design metrics");
    doc.table(
        &["metric", "value", "95% interval"],
        design_rows(&s.design, &s.first_player_advantage),
    );
    doc.subheading("How games ended");
    let header = ending_header("ending", s);
    doc.table(
        &header.iter().map(String::as_str).collect::<Vec<_>>(),
        ending_rows(None, s),
    );
    run_charts(&mut doc, s)?;
    game_specific(&mut doc, &s.game_specific, one_game(&s.agent_unit))?;
    Ok(doc)
}

/// `1 draw`, `3 draws`.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What a seed group shares in this game, and what that evens out: dice games share the rolls,
/// the others the agents' tie-breaks (and the opening, when there is a suite).
fn luck(game: &str) -> &'static str {
    if GameFacts::of(game).is_none_or(|f| f.has_dice) {
        "the same dice, so no agent had luckier rolls than another"
    } else {
        "the same seeds, so every agent met the same openings and tie-breaks"
    }
}

/// The Results section's opening, in a designer's words: what was played and how to read the
/// ranges. The statistics behind the ranges follow it, folded away.
fn results_text(s: &RunSummary) -> String {
    let ended = format!(
        "{}, {} without a result",
        count(s.draws, "draw", "draws"),
        s.no_result
    );
    let played = if s.agent_unit == "matches" {
        format!(
            "{} matches: in each the agents played one round as each side from the same start, and the match went to whoever scored more points over its {} rounds ({} rounds in all; {}).",
            s.seed_groups,
            s.rotations,
            s.games_played,
            count(s.draws, "round drawn", "rounds drawn")
        )
    } else if s.group_design.design == Design::Mirror {
        format!(
            "{}, the same agent in every seat ({ended}).",
            count(s.games_played, "game", "games")
        )
    } else {
        format!(
            "{} in {} sets of {}: within a set every agent took every seat once, on {} ({ended}).",
            count(s.games_played, "game", "games"),
            s.seed_groups,
            s.rotations,
            luck(&s.game)
        )
    };
    format!(
        "{played} Each figure comes with a 95% range: the values the true figure could plausibly take after this many games. More games narrow it."
    )
}

/// The run's results: what was played, and the records by agent and by side.
fn run_results(doc: &mut Document, s: &RunSummary) {
    doc.heading("Results");
    let matches = s.agent_unit == "matches";
    doc.text(results_text(s));
    doc.details("How the 95% ranges are computed", interval_note(s));
    let mut header = RECORD_HEADER;
    header[0] = "agent";
    header[1] = if matches { "matches" } else { "games" };
    doc.table(
        &header,
        record_rows(&s.by_agent, |r| r.agent.clone().unwrap_or_default()),
    );
    header[0] = "side";
    header[1] = if matches { "rounds" } else { "games" };
    doc.table(&header, record_rows(&s.by_seat, side_name));
}

/// A two-agent run's score, Elo and likelihood of superiority.
fn head_to_head(doc: &mut Document, h: &HeadToHead) {
    let e = &h.estimate;
    doc.heading("Head to head");
    doc.table(
        &[
            "agent",
            "opponent",
            "score",
            "95% interval",
            "Elo",
            "95% interval",
            "LOS",
        ],
        vec![vec![
            h.agent.clone(),
            h.opponent.clone(),
            pct(e.score.value),
            interval_pct(&e.score),
            elo_value(&e.elo),
            elo_interval(&e.elo),
            pct(e.los),
        ]],
    );
    doc.text(SCORE_NOTE);
}

/// The run's charts: win rates per agent and per side against the fair share, game length and
/// how games ended.
fn run_charts(doc: &mut Document, s: &RunSummary) -> Result<(), ReportError> {
    doc.heading("Charts");
    let fair = Some(1.0 / s.by_seat.len().max(1) as f64);
    let items: Vec<_> = s
        .by_agent
        .iter()
        .map(|r| item(r.agent.clone().unwrap_or_default(), &r.win_rate))
        .collect();
    doc.chart(
        "win-rates.svg",
        "Win rate per agent (95% intervals; dashed: the fair share)",
        charts::intervals(
            "Win rate per agent",
            "win rate",
            &items,
            fair,
            charts::Scale::SHARE,
        )?,
    );
    let seats: Vec<_> = s
        .by_seat
        .iter()
        .map(|r| item(side_name(r), &r.win_rate))
        .collect();
    doc.chart(
        "first-player-advantage.svg",
        "Win rate per side (dashed: the fair share)",
        charts::intervals(
            "Win rate per side",
            "win rate",
            &seats,
            fair,
            charts::Scale::SHARE,
        )?,
    );
    doc.chart(
        "game-length.svg",
        "Game length (moves)",
        length_chart(
            &s.length_histogram,
            "game-length.svg",
            "Game length",
            one_game(&s.agent_unit),
        )?,
    );
    let (reasons, shares) = termination_shares(vec![("all games".into(), &s.termination[..])]);
    doc.chart(
        "termination.svg",
        "How games ended",
        charts::grouped_shares("How games ended", &reasons, &shares)?,
    );
    Ok(())
}

/// The game's own figures, and a histogram of each distribution it lists.
fn game_specific(doc: &mut Document, specific: &Value, counted: &str) -> Result<(), ReportError> {
    if specific.is_null() {
        return Ok(());
    }
    doc.heading("Game-specific statistics");
    specific::tables(doc, specific);
    distributions(doc, specific, "distribution", "", counted)?;
    Ok(())
}
