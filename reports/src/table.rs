//! The readable table printed at the end of a run.

use std::fmt::Write as _;

use serde::Serialize;
use tuner::summary::{RecordSummary, Summary};

fn pct(x: f64) -> String {
    crate::percent(x, 1)
}

fn record_line(out: &mut String, name: &str, r: &RecordSummary) {
    let _ = writeln!(
        out,
        "  {name:<28} {:>9} {:>9} {:>7} {:>9} {:>8}  {:>7} [{}, {}]",
        r.record.games,
        r.record.wins,
        r.record.draws,
        r.record.losses,
        r.record.no_result,
        pct(r.win_rate.value),
        pct(r.win_rate.ci95[0]),
        pct(r.win_rate.ci95[1]),
    );
}

/// A plain-text table of a summary.
#[must_use]
pub fn terminal_table<R: Serialize>(s: &Summary<R>) -> String {
    let mut out = String::new();
    let partial = if s.partial {
        " (PARTIAL: interrupted)"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "{}: {} games ({} seed groups x {} rotations), seed {}{partial}",
        s.game, s.games_played, s.seed_groups, s.rotations, s.seed
    );
    let header = format!(
        "  {:<28} {:>9} {:>9} {:>7} {:>9} {:>8}  {:>7} {}",
        "", "games", "wins", "draws", "losses", "no res.", "win", "95% interval"
    );
    let _ = writeln!(out, "{header}");
    for r in &s.by_agent {
        record_line(
            &mut out,
            &format!("agent {}", r.agent.as_deref().unwrap_or("")),
            r,
        );
    }
    for r in &s.by_seat {
        record_line(&mut out, &format!("seat {}", r.seat.unwrap_or(0)), r);
    }
    let fpa = &s.first_player_advantage;
    let _ = writeln!(
        out,
        "  first-player advantage: {:+.2} points [{:+.2}, {:+.2}] over the fair share of {}",
        100.0 * fpa.value,
        100.0 * fpa.ci95[0],
        100.0 * fpa.ci95[1],
        pct(1.0 / s.rotations as f64)
    );
    for d in std::iter::once(&s.length).chain(s.length_rolls.as_ref()) {
        let _ = writeln!(
            out,
            "  length ({}): mean {:.1}, sd {:.1}, min {}, max {}",
            d.unit, d.mean, d.sd, d.min, d.max
        );
    }
    let ends: Vec<String> = s
        .termination
        .iter()
        .filter(|t| t.games > 0)
        .map(|t| format!("{} {}", t.reason, t.games))
        .collect();
    let _ = writeln!(out, "  ended by: {}", ends.join(", "));
    let caps: Vec<String> = s
        .captures_by_seat
        .iter()
        .map(|c| format!("seat {} {:.2}", c.seat, c.per_game))
        .collect();
    let _ = writeln!(out, "  captures per game: {}", caps.join(", "));
    out
}
