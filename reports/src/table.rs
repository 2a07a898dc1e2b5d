//! The readable table printed at the end of a run: each agent, each side under the game's name
//! for it, the head-to-head Elo when two agents meet, and the first-player advantage with what
//! "first player" means in this game.

use std::fmt::Write as _;

use engine::sample::Estimate;
use serde::Serialize;
use tuner::batch::summary::{FirstPlayer, HeadToHead, RecordSummary, Summary, Termination};

fn pct(x: f64) -> String {
    crate::percent(x, 1)
}

fn record_line(out: &mut String, name: &str, games: &str, r: &RecordSummary) {
    let interval = format!("[{}, {}]", pct(r.win_rate.ci95[0]), pct(r.win_rate.ci95[1]));
    counts_line(out, name, games, r, &interval);
}

/// A row's counts and win rate, `after` following the rate (its interval, or why it has none).
fn counts_line(out: &mut String, name: &str, games: &str, r: &RecordSummary, after: &str) {
    let _ = writeln!(
        out,
        "  {name:<28} {games:>13} {:>9} {:>7} {:>9} {:>8}  {:>7} {after}",
        r.record.wins,
        r.record.draws,
        r.record.losses,
        r.record.no_result,
        pct(r.win_rate.value),
    );
}

fn header(out: &mut String, first: &str, unit: &str) {
    let _ = writeln!(
        out,
        "  {first:<28} {unit:>13} {:>9} {:>7} {:>9} {:>8}  {:>7} 95% interval",
        "wins", "draws", "losses", "no res.", "win"
    );
}

/// An agent's row: `3 seats × 1000` where one agent holds several seats of every game, so that
/// its seat-games are never read as games. An agent in every seat wins every game that has a
/// winner, so its win rate is one in `seats` by construction: it gets no interval, as it
/// measures no strength.
fn agent_line(out: &mut String, r: &RecordSummary, game_seats: usize) {
    let name = r.agent.as_deref().unwrap_or("");
    match r.seats {
        Some(seats) if seats > 1 => {
            let games = format!("{seats} seats × {}", r.record.games / seats as u64);
            if seats == game_seats {
                let why = format!("(holds all {seats} seats: fixed by construction)");
                counts_line(out, name, &games, r, &why);
            } else {
                record_line(out, name, &games, r);
            }
        }
        _ => record_line(out, name, &r.record.games.to_string(), r),
    }
}

/// `x` with its sign and `digits` decimals; a figure that rounds to zero (a tie) is `+0.0`,
/// never `-0.0`.
#[must_use]
pub fn signed(x: f64, digits: usize) -> String {
    let zero = format!("{:.digits$}", 0.0);
    let text = format!("{x:+.digits$}");
    if text[1..] == zero {
        format!("+{zero}")
    } else {
        text
    }
}

/// An Elo figure, a bound at a score of 0 or 1 (beyond ±4000) written `+inf` or `-inf`.
pub(crate) fn elo_text(elo: f64) -> String {
    if !elo.is_finite() || elo.abs() >= 4000.0 {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_owned()
    } else {
        signed(elo, 1)
    }
}

/// The one-sided 95% bound of an Elo with no finite value (a score of 0 or 1): `> +973` or
/// `< -973`; `None` for a finite Elo.
#[must_use]
pub fn elo_bound(e: &Estimate) -> Option<String> {
    if e.value == f64::INFINITY {
        Some(format!("> {}", elo_text(e.ci95[0])))
    } else if e.value == f64::NEG_INFINITY {
        Some(format!("< {}", elo_text(e.ci95[1])))
    } else {
        None
    }
}

/// A finite Elo's 95% interval: `[lo, hi]`, or the one-sided `<= hi` / `>= lo` where the score's
/// interval reaches 0% or 100% (an Elo of minus or plus infinity).
#[must_use]
pub fn elo_interval(e: &Estimate) -> String {
    let open = |x: f64| !x.is_finite() || x.abs() >= 4000.0;
    match (open(e.ci95[0]), open(e.ci95[1])) {
        (false, false) => format!("[{}, {}]", elo_text(e.ci95[0]), elo_text(e.ci95[1])),
        (true, false) => format!("<= {}", elo_text(e.ci95[1])),
        (false, true) => format!(">= {}", elo_text(e.ci95[0])),
        (true, true) => "unbounded".to_owned(),
    }
}

/// fastchess's line with the intervals written out: `Elo difference: +232.8 [+180.6, +296.2],
/// LOS 100.0%, nElo …`; a score of 0% or 100% has no finite Elo, and says so. `unit` names what
/// a group of one counts (games, or Thud's matches).
#[must_use]
pub fn head_to_head_line(h: &HeadToHead, unit: &str) -> String {
    let e = &h.estimate;
    let score = e.score.value;
    let elo = if let Some(bound) = elo_bound(&e.elo) {
        format!(
            "{bound} (95%; every seed group {})",
            if score >= 1.0 { "won" } else { "lost" }
        )
    } else {
        let open = if e.score.ci95[0] <= 0.0 || e.score.ci95[1] >= 1.0 {
            " (one-sided: the score's normal-approximation interval reaches 0% or 100%)"
        } else {
            ""
        };
        format!("{} {}{open}", signed(e.elo.value, 1), elo_interval(&e.elo))
    };
    let nelo = if e.nelo.value.is_finite() {
        format!(
            "{} [{}, {}]",
            signed(e.nelo.value, 1),
            signed(e.nelo.ci95[0], 1),
            signed(e.nelo.ci95[1], 1)
        )
    } else {
        "undefined".to_owned()
    };
    let groups = match h.group_size {
        1 => unit.to_owned(),
        2 => "side-swapped pairs (pentanomial)".to_owned(),
        n => format!("seed groups of {n} games"),
    };
    format!(
        "{} vs {}: Elo difference: {elo}, LOS {:.1}%, nElo {nelo}, score {} [{}, {}] over {} {groups}",
        h.agent,
        h.opponent,
        100.0 * e.los,
        pct(score),
        pct(e.score.ci95[0]),
        pct(e.score.ci95[1]),
        e.groups,
    )
}

/// The first-player advantage in its unit, with its definition; "no decisive games" rather than
/// a figure when no game had a single winner.
#[must_use]
pub fn first_player_lines(f: &FirstPlayer) -> Vec<String> {
    let mut lines = vec![format!("first player = {}", f.definition)];
    if f.unit == "points" {
        lines.push(format!(
            "first-player advantage: {:+.2} points [{:+.2}, {:+.2}] (the first player's mean point margin per round)",
            f.advantage.value, f.advantage.ci95[0], f.advantage.ci95[1]
        ));
    } else if f.decisive_games == 0 {
        lines.push("first-player advantage: no decisive games".to_owned());
    } else {
        lines.push(format!(
            "first-player advantage: {:+.2} percentage points [{:+.2}, {:+.2}] (outright win rate − fair share of {})",
            100.0 * f.advantage.value,
            100.0 * f.advantage.ci95[0],
            100.0 * f.advantage.ci95[1],
            pct(f.fair_share)
        ));
    }
    lines.push(format!(
        "first player's wins: outright {} [{}, {}], shared or drawn {} [{}, {}]",
        pct(f.outright_wins.value),
        pct(f.outright_wins.ci95[0]),
        pct(f.outright_wins.ci95[1]),
        pct(f.shared_wins.value),
        pct(f.shared_wins.ci95[0]),
        pct(f.shared_wins.ci95[1]),
    ));
    lines
}

/// Each agent's win rate in each seat, when some agent plays more than one seat or there are
/// more than two agents (with two agents side-swapped, the side rows already say it).
fn agent_by_seat<R: Serialize>(out: &mut String, s: &Summary<R>) {
    if s.by_agent.len() < 2 || (s.by_agent.len() == 2 && s.by_seat.len() == 2) {
        return;
    }
    let _ = writeln!(out, "  win rate by agent and seat:");
    let sides: Vec<String> = s
        .by_seat
        .iter()
        .map(|r| r.side.clone().unwrap_or_default())
        .collect();
    let _ = writeln!(
        out,
        "  {:<16}{}",
        "",
        sides.iter().map(|n| format!("{n:>26}")).collect::<String>()
    );
    for agent in s.by_agent.iter().filter_map(|r| r.agent.as_deref()) {
        let cells: String = s
            .by_agent_seat
            .iter()
            .filter(|r| r.agent.as_deref() == Some(agent))
            .map(|r| {
                let cell = format!(
                    "{} [{}, {}]",
                    pct(r.win_rate.value),
                    pct(r.win_rate.ci95[0]),
                    pct(r.win_rate.ci95[1])
                );
                format!("{cell:>26}")
            })
            .collect();
        let _ = writeln!(out, "  {agent:<16}{cells}");
    }
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
    let round = if s.agent_unit == "matches" {
        "rounds"
    } else {
        "games"
    };
    if s.agent_unit == "matches" {
        let _ = writeln!(
            out,
            "{}: {} matches of {} rounds, sides swapped ({} rounds), seed {}{partial}",
            s.game, s.seed_groups, s.rotations, s.games_played, s.seed
        );
    } else {
        let _ = writeln!(
            out,
            "{}: {} games ({} seed groups × {} seat rotations), seed {}{partial}",
            s.game, s.games_played, s.seed_groups, s.rotations, s.seed
        );
    }
    // Summaries written before designs existed carry no reason.
    if !s.group_design.reason.is_empty() {
        let _ = writeln!(out, "design: {}", s.group_design.reason);
    }
    header(&mut out, "agent", &s.agent_unit);
    for r in &s.by_agent {
        agent_line(&mut out, r, s.by_seat.len());
    }
    header(&mut out, "side", round);
    for r in &s.by_seat {
        let name = r.side.clone().unwrap_or_default();
        record_line(&mut out, &name, &r.record.games.to_string(), r);
    }
    agent_by_seat(&mut out, s);
    if let Some(h) = &s.head_to_head {
        let _ = writeln!(out, "  {}", head_to_head_line(h, &s.agent_unit));
    }
    for line in first_player_lines(&s.first_player_advantage) {
        let _ = writeln!(out, "  {line}");
    }
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
        .map(|t| termination_entry(t, &s.by_seat))
        .collect();
    let _ = writeln!(out, "  ended by: {}", ends.join(", "));
    let caps: Vec<String> = s
        .captures_by_seat
        .iter()
        .zip(&s.by_seat)
        .map(|(c, r)| format!("{} {:.2}", r.side.as_deref().unwrap_or(""), c.per_game))
        .collect();
    let one = round.trim_end_matches('s');
    let _ = writeln!(out, "  captures per {one}: {}", caps.join(", "));
    out
}

/// An ending and its count; an adjudication also says which side it gave each win to, since a
/// verdict on the players' own scores may favour one side.
fn termination_entry(t: &Termination, seats: &[RecordSummary]) -> String {
    if !t.reason.starts_with("adjudicated") || t.won_by.is_empty() {
        return format!("{} {}", t.reason, t.games);
    }
    let sides: Vec<String> = seats
        .iter()
        .zip(&t.won_by)
        .map(|(r, won)| format!("{} {won}", r.side.as_deref().unwrap_or("")))
        .collect();
    let drawn = t.games.saturating_sub(t.won_by.iter().sum());
    format!(
        "{} {} (won: {}; drawn {drawn})",
        t.reason,
        t.games,
        sides.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_of_zero_or_one_prints_its_one_sided_bound() {
        let lost = Estimate {
            value: f64::NEG_INFINITY,
            ci95: [f64::NEG_INFINITY, -973.04],
        };
        assert_eq!(elo_bound(&lost).as_deref(), Some("< -973.0"));
        let won = Estimate {
            value: f64::INFINITY,
            ci95: [113.42, f64::INFINITY],
        };
        assert_eq!(elo_bound(&won).as_deref(), Some("> +113.4"));
        let finite = Estimate {
            value: 12.0,
            ci95: [-3.0, 27.0],
        };
        assert_eq!(elo_bound(&finite), None);
    }

    #[test]
    fn an_interval_reaching_a_score_of_zero_prints_a_one_sided_bound() {
        // 1 win in 20: the score's interval [0%, 14.55%] reaches 0, so the Elo's lower end is
        // minus infinity.
        let one_in_20 = Estimate {
            value: -511.5,
            ci95: [f64::NEG_INFINITY, -307.46],
        };
        assert_eq!(elo_interval(&one_in_20), "<= -307.5");
        let near_sweep = Estimate {
            value: 511.5,
            ci95: [307.46, f64::INFINITY],
        };
        assert_eq!(elo_interval(&near_sweep), ">= +307.5");
        let finite = Estimate {
            value: 232.8,
            ci95: [180.6, 296.2],
        };
        assert_eq!(elo_interval(&finite), "[+180.6, +296.2]");
    }

    #[test]
    fn a_tie_prints_plus_zero() {
        assert_eq!(signed(-0.0, 1), "+0.0");
        assert_eq!(signed(-0.04, 1), "+0.0");
        assert_eq!(signed(-0.05, 1), "-0.1");
        assert_eq!(signed(0.04, 2), "+0.04");
        assert_eq!(elo_text(-0.0), "+0.0");
    }
}
