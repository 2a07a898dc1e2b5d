//! Pieces every report kind builds with: number formats, the Experiment section, record and
//! design-metric tables, the charts' items, termination shares and the game's distributions.

use engine::sample::Estimate;
use serde_json::Value;
use tuner::batch::summary::{
    Bins, DesignMetrics, FirstPlayer, Histogram, RecordSummary, Termination,
};

use super::{Document, ReportError, RunSummary, charts};
use crate::table::signed;

/// A seat's row label: its side's name (`white`, `attackers`), else `seat N`.
pub(super) fn side_name(r: &RecordSummary) -> String {
    r.side
        .clone()
        .unwrap_or_else(|| format!("seat {}", r.seat.unwrap_or_default()))
}

/// An estimate as a chart item.
pub(super) fn item(label: String, e: &Estimate) -> charts::Interval {
    charts::Interval {
        label,
        value: e.value,
        lo: e.ci95[0],
        hi: e.ci95[1],
    }
}

/// The ratings as a table (`first` names the rated column) and as the rating-ladder chart.
pub(super) fn rating_ladder(
    doc: &mut Document,
    first: &str,
    ratings: &[charts::Interval],
) -> Result<(), ReportError> {
    doc.table(
        &[first, "Elo", "95% interval"],
        ratings
            .iter()
            .map(|r| {
                // The anchor's rating is 0 by definition: an interval [+0.0, +0.0] on it would
                // read as a measurement.
                let interval = if r.lo == r.hi {
                    "the anchor: 0 by definition".to_owned()
                } else {
                    format!("[{}, {}]", signed(r.lo, 1), signed(r.hi, 1))
                };
                vec![r.label.clone(), signed(r.value, 1), interval]
            })
            .collect(),
    );
    doc.chart(
        "ratings.svg",
        "Rating ladder (Elo, 95% intervals)",
        charts::intervals(
            "Rating ladder",
            "Elo",
            ratings,
            Some(0.0),
            charts::Scale::ELO,
        )?,
    );
    Ok(())
}

pub(super) fn pct(x: f64) -> String {
    crate::percent(x, 2)
}

pub(super) fn interval_pct(e: &Estimate) -> String {
    format!("[{}, {}]", pct(e.ci95[0]), pct(e.ci95[1]))
}

pub(super) fn interval(e: &Estimate, digits: usize) -> String {
    let [lo, hi] = e.ci95;
    format!("[{lo:.digits$}, {hi:.digits$}]")
}

pub(super) fn interval_points(e: &Estimate) -> String {
    format!("[{:+.2}, {:+.2}] pts", 100.0 * e.ci95[0], 100.0 * e.ci95[1])
}

/// What the "Experiment" section shows: the config that replays the summary.
pub(super) struct Experiment<'a> {
    pub(super) game: &'a str,
    pub(super) agents: &'a [String],
    pub(super) seed: u64,
    /// Games as the config asks for them: matches where the game counts matches.
    pub(super) games: u64,
    pub(super) time_control: engine::TimeControl,
    pub(super) format: Option<tuner::config::Format>,
    pub(super) options: Option<&'a Value>,
    pub(super) openings: Option<&'a tuner::openings::SuiteInfo>,
    pub(super) partial: bool,
}

impl Experiment<'_> {
    /// The experiment as a config file, serialised with the config's own types so that every
    /// field `koom run` reads back is written (agents' `@weights` paths are part of their names).
    fn config(&self) -> Result<String, ReportError> {
        let options = match self.options {
            Some(v) if v.as_object().is_some_and(|o| !o.is_empty()) => Some(
                serde_json::from_value::<toml::Table>(v.clone()).map_err(ReportError::Options)?,
            ),
            _ => None,
        };
        let file = tuner::config::ExperimentFile {
            game: Some(self.game.to_owned()),
            agents: Some(self.agents.to_vec()),
            games: Some(self.games),
            seed: Some(self.seed),
            time_control: Some(self.time_control),
            options,
            format: self.format,
            openings: self.openings.map(|o| o.path.clone().into()),
            openings_order: self.openings.map(|o| o.order),
            ..Default::default()
        };
        toml::to_string(&file)
            .map(|text| text.trim_end().to_owned())
            .map_err(ReportError::Config)
    }
}

/// What the report needs to know of a game by name: whether `--games` counts groups (matches),
/// and whether it has dice (else a seed group shares only the agents' tie-breaks). `None` for a
/// game this build does not know.
#[derive(Clone, Copy)]
pub(super) struct GameFacts {
    pub(super) counts_groups: bool,
    pub(super) has_dice: bool,
}

impl GameFacts {
    pub(super) fn of(game: &str) -> Option<Self> {
        struct Facts;
        impl engine::GameVisitor for Facts {
            type Output = GameFacts;
            fn visit<G: engine::Game>(self) -> GameFacts {
                GameFacts {
                    counts_groups: G::GAMES_COUNT_GROUPS,
                    has_dice: G::HAS_DICE,
                }
            }
        }
        engine::visit_game(game, Facts).ok()
    }
}

/// Games a config asks for to play `seed_groups` groups of `rotations` games: the game counts
/// groups (matches) or games (one a group in a mirror run, one per seat otherwise).
pub(super) fn games_asked(game: &str, seed_groups: u64, rotations: usize) -> u64 {
    if GameFacts::of(game).is_some_and(|f| f.counts_groups) {
        seed_groups
    } else {
        seed_groups * rotations as u64
    }
}

pub(super) fn reproduce(doc: &mut Document, e: &Experiment<'_>) -> Result<(), ReportError> {
    doc.heading("Experiment");
    doc.text("The experiment as a config: `koom run CONFIG.toml` with this content, run from the same folder (paths are as given), replays it exactly (same seed, same games).");
    doc.code(e.config()?);
    if e.partial {
        doc.text(
            "PARTIAL: the run was interrupted; these figures cover only the games that finished, and the config asks for the games played so far.",
        );
    }
    Ok(())
}

pub(super) fn record_rows(
    list: &[RecordSummary],
    label: impl Fn(&RecordSummary) -> String,
) -> Vec<Vec<String>> {
    list.iter()
        .map(|r| {
            let c = &r.record;
            vec![
                label(r),
                c.games.to_string(),
                c.wins.to_string(),
                c.draws.to_string(),
                c.losses.to_string(),
                c.no_result.to_string(),
                pct(r.win_rate.value),
                interval_pct(&r.win_rate),
            ]
        })
        .collect()
}

pub(super) const RECORD_HEADER: [&str; 8] = [
    "",
    "games",
    "wins",
    "draws",
    "losses",
    "no result",
    "win rate",
    "95% interval",
];

/// The design-metrics rows of one run summary.
pub(super) fn design_rows(d: &DesignMetrics, fpa: &FirstPlayer) -> Vec<Vec<String>> {
    vec![
        vec![
            "balance (1 − largest gap between seats' mean scores)".into(),
            format!("{:.4}", d.balance),
            String::new(),
        ],
        advantage_row(&d.advantage, fpa),
        vec![
            "completion (games with a winner)".into(),
            pct(d.completion.value),
            interval_pct(&d.completion),
        ],
        vec![
            "drawishness (games drawn)".into(),
            pct(d.drawishness.value),
            interval_pct(&d.drawishness),
        ],
        vec![
            "timeouts (games ended by a cap)".into(),
            pct(d.timeouts.value),
            interval_pct(&d.timeouts),
        ],
        vec![
            "duration (mean moves)".into(),
            format!("{:.1} (sd {:.1})", d.duration.value, d.duration_sd),
            interval(&d.duration, 1),
        ],
    ]
}

/// The first-player advantage in its unit (percentage points of win rate, or points of margin
/// in games scored on points), with who the first player is.
pub(super) fn advantage_row(advantage: &Estimate, f: &FirstPlayer) -> Vec<String> {
    let who = if f.definition.is_empty() {
        "seat 0"
    } else {
        f.definition.as_str()
    };
    if f.unit == "points" {
        return vec![
            format!("first-player advantage: mean point margin per round of {who}"),
            format!("{:+.2} points", advantage.value),
            interval(advantage, 2),
        ];
    }
    if f.decisive_games == 0 {
        return vec![
            format!("first-player advantage ({who})"),
            "no decisive games".into(),
            String::new(),
        ];
    }
    vec![
        format!("first-player advantage: win rate of {who} − fair share"),
        format!("{:+.2} percentage points", 100.0 * advantage.value),
        interval_points(advantage),
    ]
}

/// The axis of a first-player-advantage chart: percentage points of win rate, or points.
pub(super) fn advantage_axis(s: &RunSummary) -> &'static str {
    if s.first_player_advantage.unit == "points" {
        "mean point margin per round"
    } else {
        "win rate − fair share (percentage points)"
    }
}

pub(super) fn advantage_scale(s: &RunSummary) -> charts::Scale {
    if s.first_player_advantage.unit == "points" {
        charts::Scale::POINTS
    } else {
        charts::Scale::SHARE
    }
}

/// How the score and Elo intervals of a match are made, and what a one-sided bound means.
pub(super) const SCORE_NOTE: &str = "Score intervals are the normal approximation to the mean score, as fishtest and fastchess compute it, clipped to 0-100% (Wilson's interval when every group scored the same); the Elo interval is the score interval converted to Elo. Where the score interval reaches 0% or 100% (1 win in 20 gets [0.00%, 14.55%]) the Elo has one finite end only, written <= or >=.";

/// An Elo, or for a score of 0 or 1 (no finite Elo) its one-sided 95% bound: `> +973`.
pub(super) fn elo_value(e: &Estimate) -> String {
    crate::table::elo_bound(e).unwrap_or_else(|| crate::table::elo_text(e.value))
}

/// An Elo interval; "one-sided" when [`elo_value`] gave the bound.
pub(super) fn elo_interval(e: &Estimate) -> String {
    if crate::table::elo_bound(e).is_some() {
        "one-sided".to_owned()
    } else {
        crate::table::elo_interval(e)
    }
}

/// What one game of a summary is called: a round where the game counts matches (Thud).
pub(super) fn one_game(agent_unit: &str) -> &'static str {
    if agent_unit == "matches" {
        "rounds"
    } else {
        "games"
    }
}

pub(super) fn length_chart(
    h: &Histogram,
    file: &str,
    title: &str,
    counted: &str,
) -> Result<String, ReportError> {
    charts::histogram(
        title,
        "moves",
        counted,
        f64::from(h.start),
        f64::from(h.width),
        &h.counts,
    )
    .map_err(|source| ReportError::ChartFile {
        file: file.to_owned(),
        source,
    })
}

/// The reasons some game ended by, and each named termination table's shares of them. A reason
/// no game ended by (the forfeits, when no external program played) is left out: it would be a
/// row of empty bars.
pub(super) fn termination_shares(
    tables: Vec<(String, &[Termination])>,
) -> (Vec<String>, Vec<(String, Vec<f64>)>) {
    let first = tables.first().map_or(&[][..], |(_, t)| *t);
    let occurred: Vec<usize> = (0..first.len())
        .filter(|&i| {
            tables
                .iter()
                .any(|(_, t)| t.get(i).is_some_and(|r| r.games > 0))
        })
        .collect();
    let reasons = occurred.iter().map(|&i| first[i].reason.clone()).collect();
    let shares = tables
        .into_iter()
        .map(|(name, t)| {
            let shares = occurred
                .iter()
                .map(|&i| t.get(i).map_or(0.0, |r| r.share))
                .collect();
            (name, shares)
        })
        .collect();
    (reasons, shares)
}

/// The "How games ended" table's header: each ending, its count and share, and which side each
/// of its games went to (an adjudication on the players' own scores may favour one side).
pub(super) fn ending_header(first: &str, s: &RunSummary) -> Vec<String> {
    // Endings are counted per round where a match is several rounds (Thud).
    let unit = if s.agent_unit == "matches" {
        "rounds"
    } else {
        "games"
    };
    let mut header = vec![first.to_owned(), unit.to_owned(), "share".to_owned()];
    header.extend(s.by_seat.iter().map(|r| format!("won by {}", side_name(r))));
    header.push("drawn or shared".to_owned());
    header
}

/// The rows of [`ending_header`]'s table for the endings some game of `s` ended by, each
/// labelled `label` (the pairing, in a tournament) and the ending.
pub(super) fn ending_rows(label: Option<&str>, s: &RunSummary) -> Vec<Vec<String>> {
    s.termination
        .iter()
        .filter(|t| t.games > 0)
        .map(|t| {
            let ending = match label {
                Some(label) => format!("{label}: {}", t.reason),
                None => t.reason.clone(),
            };
            let mut row = vec![ending, t.games.to_string(), pct(t.share)];
            row.extend((0..s.by_seat.len()).map(|i| {
                t.won_by
                    .get(i)
                    .map_or_else(|| "–".to_owned(), u64::to_string)
            }));
            row.push(if t.won_by.is_empty() {
                "–".to_owned()
            } else {
                t.games.saturating_sub(t.won_by.iter().sum()).to_string()
            });
            row
        })
        .collect()
}

/// The note every report carries about its intervals.
pub(super) fn interval_note(s: &RunSummary) -> String {
    let replays = if s.exact_replays > 0 {
        format!(
            " {} of {} seed groups were exact replays (every game of the group the same game, as when one agent fills every seat on common dice): each counts as one observation.",
            s.exact_replays, s.seed_groups
        )
    } else {
        String::new()
    };
    format!(
        "Intervals are 95% and count seed groups, not games: the games of a group share their seed (dice and tie-breaks), so a group is one observation (cluster-robust variance; Wilson intervals on the effective number of groups for proportions).{replays}"
    )
}

/// A histogram (at most 40 bins) of each `[value, count]` distribution in `specific`, written as
/// `{file_prefix}-N.svg` and titled with `title_suffix`; `counted` names what the bars count.
pub(super) fn distributions(
    doc: &mut Document,
    specific: &Value,
    file_prefix: &str,
    title_suffix: &str,
    counted: &str,
) -> Result<(), ReportError> {
    for (i, d) in specific["distributions"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let name = d["name"].as_str().unwrap_or_default().to_owned();
        let pairs: Vec<(i64, u64)> = match serde_json::from_value(d["counts"].clone()) {
            Ok(pairs) => pairs,
            Err(source) => return Err(ReportError::DistributionCounts { name, source }),
        };
        if pairs.windows(2).any(|w| w[0].0 >= w[1].0) {
            return Err(ReportError::DistributionOrder(name));
        }
        let (Some(&(lo, _)), Some(&(hi, _))) = (pairs.first(), pairs.last()) else {
            continue;
        };
        let bins = Bins::new(lo, hi, 40);
        let mut counts = vec![0u64; bins.count];
        for (x, n) in pairs {
            let slot = &mut counts[bins.index(x)];
            *slot = slot.saturating_add(n);
        }
        let title = format!("{name}{title_suffix}");
        doc.chart(
            &format!("{file_prefix}-{}.svg", i + 1),
            &title,
            charts::histogram(
                &title,
                &name,
                counted,
                lo as f64,
                bins.width as f64,
                &counts,
            )?,
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ending_chart_shows_only_reasons_some_game_ended_by() {
        let table = |games: [u64; 3]| -> Vec<Termination> {
            ["corner", "ply cap", "forfeit: program crashed"]
                .iter()
                .zip(games)
                .map(|(reason, games)| Termination {
                    reason: (*reason).to_owned(),
                    games,
                    share: games as f64 / 10.0,
                    won_by: Vec::new(),
                })
                .collect()
        };
        let (a, b) = (table([10, 0, 0]), table([8, 0, 2]));
        let (reasons, shares) = termination_shares(vec![("a".into(), &a[..])]);
        assert_eq!(reasons, ["corner"]);
        assert_eq!(shares, [("a".to_owned(), vec![1.0])]);
        // A reason that occurred in one pairing is shown for every pairing.
        let (reasons, shares) =
            termination_shares(vec![("a".into(), &a[..]), ("b".into(), &b[..])]);
        assert_eq!(reasons, ["corner", "forfeit: program crashed"]);
        assert_eq!(shares[0].1, [1.0, 0.0]);
        assert_eq!(shares[1].1, [0.8, 0.2]);
    }
}
