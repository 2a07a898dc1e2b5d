//! The balance report: `report.html` (self-contained, charts inline) and `report.md` (charts as
//! SVG files in `charts/`), built from `summary.json` alone so that `koom report DIR` can rebuild
//! it for any finished run, tournament or shard merge.
//!
//! `summary.json` is read back into the tuner's own summary types, so the schema has one
//! definition; only the game-specific part stays JSON, since its type depends on the game.

mod charts;
mod document;
mod specific;

use std::io;
use std::path::Path;

use engine::sample::Estimate;
use serde_json::Value;
use tuner::batch::summary::{
    Bins, DesignMetrics, FirstPlayer, HeadToHead, Histogram, RecordSummary, Termination,
};
use tuner::strength::LadderSummary;
use tuner::strength::tournament::{PairingSummary, TournamentSummary};

pub use document::{Block, Document, escape};

use crate::table::signed;
use crate::write_atomic;
use tuner::config::Design;

/// A run's `summary.json` as read back.
pub type RunSummary = tuner::batch::summary::Summary<Value>;

/// A `summary.json` as read back: a run (or shard merge) or a tournament.
#[derive(Clone, Debug)]
pub enum Summary {
    Run(Box<RunSummary>),
    Tournament(Box<TournamentSummary<Value>>),
    Ladder(Box<LadderSummary>),
}

/// A seat's row label: its side's name (`white`, `attackers`), else `seat N`.
fn side_name(r: &RecordSummary) -> String {
    r.side
        .clone()
        .unwrap_or_else(|| format!("seat {}", r.seat.unwrap_or_default()))
}

/// An estimate as a chart item.
fn item(label: String, e: &Estimate) -> charts::Interval {
    charts::Interval {
        label,
        value: e.value,
        lo: e.ci95[0],
        hi: e.ci95[1],
    }
}

/// The ratings as a table (`first` names the rated column) and as the rating-ladder chart.
fn rating_ladder(
    doc: &mut Document,
    first: &str,
    ratings: &[charts::Interval],
) -> Result<(), String> {
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

fn pct(x: f64) -> String {
    crate::percent(x, 2)
}

fn interval_pct(e: &Estimate) -> String {
    format!("[{}, {}]", pct(e.ci95[0]), pct(e.ci95[1]))
}

fn interval(e: &Estimate, digits: usize) -> String {
    let [lo, hi] = e.ci95;
    format!("[{lo:.digits$}, {hi:.digits$}]")
}

fn interval_points(e: &Estimate) -> String {
    format!("[{:+.2}, {:+.2}] pts", 100.0 * e.ci95[0], 100.0 * e.ci95[1])
}

/// Builds the report of one `summary.json`.
pub fn build(summary: &Summary) -> Result<Document, String> {
    match summary {
        Summary::Run(s) => run(s),
        Summary::Tournament(t) => tournament(t),
        Summary::Ladder(l) => ladder(l),
    }
}

/// What the "Experiment" section shows: the config that replays the summary.
struct Experiment<'a> {
    game: &'a str,
    agents: &'a [String],
    seed: u64,
    /// Games as the config asks for them: matches where the game counts matches.
    games: u64,
    time_control: engine::TimeControl,
    format: Option<tuner::config::Format>,
    options: Option<&'a Value>,
    openings: Option<&'a tuner::openings::SuiteInfo>,
    partial: bool,
}

impl Experiment<'_> {
    /// The experiment as a config file, serialised with the config's own types so that every
    /// field `koom run` reads back is written (agents' `@weights` paths are part of their names).
    fn config(&self) -> Result<String, String> {
        let options = match self.options {
            Some(v) if v.as_object().is_some_and(|o| !o.is_empty()) => Some(
                serde_json::from_value::<toml::Table>(v.clone())
                    .map_err(|e| format!("the summary's options are not a table: {e}"))?,
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
            .map_err(|e| format!("cannot write the experiment's config: {e}"))
    }
}

/// What the report needs to know of a game by name: whether `--games` counts groups (matches),
/// and whether it has dice (else a seed group shares only the agents' tie-breaks). `None` for a
/// game this build does not know.
#[derive(Clone, Copy)]
struct GameFacts {
    counts_groups: bool,
    has_dice: bool,
}

impl GameFacts {
    fn of(game: &str) -> Option<Self> {
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
fn games_asked(game: &str, seed_groups: u64, rotations: usize) -> u64 {
    if GameFacts::of(game).is_some_and(|f| f.counts_groups) {
        seed_groups
    } else {
        seed_groups * rotations as u64
    }
}

fn reproduce(doc: &mut Document, e: &Experiment<'_>) -> Result<(), String> {
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

fn record_rows(
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

const RECORD_HEADER: [&str; 8] = [
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
fn design_rows(d: &DesignMetrics, fpa: &FirstPlayer) -> Vec<Vec<String>> {
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
fn advantage_row(advantage: &Estimate, f: &FirstPlayer) -> Vec<String> {
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
fn advantage_axis(s: &RunSummary) -> &'static str {
    if s.first_player_advantage.unit == "points" {
        "mean point margin per round"
    } else {
        "win rate − fair share (percentage points)"
    }
}

fn advantage_scale(s: &RunSummary) -> charts::Scale {
    if s.first_player_advantage.unit == "points" {
        charts::Scale::POINTS
    } else {
        charts::Scale::SHARE
    }
}

/// How the score and Elo intervals of a match are made, and what a one-sided bound means.
const SCORE_NOTE: &str = "Score intervals are the normal approximation to the mean score, as fishtest and fastchess compute it, clipped to 0-100% (Wilson's interval when every group scored the same); the Elo interval is the score interval converted to Elo. Where the score interval reaches 0% or 100% (1 win in 20 gets [0.00%, 14.55%]) the Elo has one finite end only, written <= or >=.";

/// An Elo, or for a score of 0 or 1 (no finite Elo) its one-sided 95% bound: `> +973`.
fn elo_value(e: &Estimate) -> String {
    crate::table::elo_bound(e).unwrap_or_else(|| crate::table::elo_text(e.value))
}

/// An Elo interval; "one-sided" when [`elo_value`] gave the bound.
fn elo_interval(e: &Estimate) -> String {
    if crate::table::elo_bound(e).is_some() {
        "one-sided".to_owned()
    } else {
        crate::table::elo_interval(e)
    }
}

/// What one game of a summary is called: a round where the game counts matches (Thud).
fn one_game(agent_unit: &str) -> &'static str {
    if agent_unit == "matches" {
        "rounds"
    } else {
        "games"
    }
}

fn length_chart(h: &Histogram, file: &str, title: &str, counted: &str) -> Result<String, String> {
    charts::histogram(
        title,
        "moves",
        counted,
        f64::from(h.start),
        f64::from(h.width),
        &h.counts,
    )
    .map_err(|e| format!("{file}: {e}"))
}

/// The reasons some game ended by, and each named termination table's shares of them. A reason
/// no game ended by (the forfeits, when no external program played) is left out: it would be a
/// row of empty bars.
fn termination_shares(
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

/// The note every report carries about its intervals.
fn interval_note(s: &RunSummary) -> String {
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

fn run(s: &RunSummary) -> Result<Document, String> {
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
fn run_charts(doc: &mut Document, s: &RunSummary) -> Result<(), String> {
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
fn game_specific(doc: &mut Document, specific: &Value, counted: &str) -> Result<(), String> {
    if specific.is_null() {
        return Ok(());
    }
    doc.heading("Game-specific statistics");
    specific::tables(doc, specific);
    distributions(doc, specific, "distribution", "", counted)?;
    Ok(())
}

/// A histogram (at most 40 bins) of each `[value, count]` distribution in `specific`, written as
/// `{file_prefix}-N.svg` and titled with `title_suffix`; `counted` names what the bars count.
fn distributions(
    doc: &mut Document,
    specific: &Value,
    file_prefix: &str,
    title_suffix: &str,
    counted: &str,
) -> Result<(), String> {
    for (i, d) in specific["distributions"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let name = d["name"].as_str().unwrap_or_default().to_owned();
        let pairs: Vec<(i64, u64)> = serde_json::from_value(d["counts"].clone()).map_err(|e| {
            format!("distribution `{name}`: counts are not [value, count] pairs ({e})")
        })?;
        if pairs.windows(2).any(|w| w[0].0 >= w[1].0) {
            return Err(format!(
                "distribution `{name}`: values are not in increasing order"
            ));
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

/// Why a ladder's ratings differ slightly from each rung's own Elo: said in the terminal and in
/// the report.
pub const LADDER_NOTE: &str = "Ratings: a Bradley–Terry fit over every rung with half a point of prior each way (it keeps a clean sweep finite), so adjacent ratings sit a little closer than each rung's own Elo, which is the figure `koom run` prints for the same pair and seeds.";

/// A rating ladder: the fitted ratings, and each adjacent pair's own match.
fn ladder(s: &LadderSummary) -> Result<Document, String> {
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

/// What a full ladder calls intransitive (the README says the same).
pub const INTRANSITIVE_NOTE: &str = "Levels ranked by their ratings, weakest first. A triple is \
    flagged as a cycle when each of the three beats the next round a circle with its score's 95% \
    interval above an even score, and as an order contradiction when the strongest scores less \
    against the weakest than the middle one does, or than it does against the middle one, with \
    the 95% interval of the difference (half-widths combined as independent) below 0. The order \
    check also runs on each side of a two-sided game.";

fn tournament(t: &TournamentSummary<Value>) -> Result<Document, String> {
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
fn pairings(doc: &mut Document, pairings: &[PairingSummary<Value>]) -> Result<(), String> {
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
            .ok_or_else(|| format!("pairing {name} has no head_to_head"))?;
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
) -> Result<(), String> {
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

/// Compares two runs side by side (e.g. two rule variants), with the interval of the
/// difference of their first-player advantages (independent runs: the variances add; each
/// run's interval already counts its seed groups).
pub fn compare(a: &Summary, b: &Summary, names: [&str; 2]) -> Result<Document, String> {
    let runs = [(a, names[0]), (b, names[1])].map(|(s, name)| match s {
        Summary::Run(run) => Ok(run),
        Summary::Tournament(_) | Summary::Ladder(_) => Err(format!(
            "{name}: only run summaries can be compared (not a tournament, gate or ladder)"
        )),
    });
    let [a, b] = runs;
    let (a, b) = (a?, b?);
    let mut doc = Document {
        title: format!("koom report: {} compared with {}", names[0], names[1]),
        blocks: Vec::new(),
    };
    doc.heading("Experiments");
    for (s, name) in [(a, names[0]), (b, names[1])] {
        doc.text(format!(
            "{name}: game {}, agents {:?}, seed {}, options {}",
            s.game, s.agents, s.seed, s.options
        ));
    }
    doc.details("How the 95% ranges are computed", interval_note(a));
    let fa = item(names[0].to_owned(), &a.first_player_advantage.advantage);
    let fb = item(names[1].to_owned(), &b.first_player_advantage.advantage);
    let half = |x: &charts::Interval| (x.hi - x.lo) / 2.0;
    let diff = fa.value - fb.value;
    let diff_half = (half(&fa).powi(2) + half(&fb).powi(2)).sqrt();
    doc.heading("First-player advantage");
    doc.table(
        &[
            "",
            names[0],
            names[1],
            "difference",
            "95% interval of the difference",
        ],
        vec![vec![
            "first player's win rate − fair share".into(),
            format!("{:+.2} percentage points", 100.0 * fa.value),
            format!("{:+.2} percentage points", 100.0 * fb.value),
            format!("{:+.2} percentage points", 100.0 * diff),
            format!(
                "[{:+.2}, {:+.2}]",
                100.0 * (diff - diff_half),
                100.0 * (diff + diff_half)
            ),
        ]],
    );
    doc.text(independence_note(a.seed, b.seed));
    doc.heading("Game-design metrics");
    let (ra, rb) = (
        design_rows(&a.design, &a.first_player_advantage),
        design_rows(&b.design, &b.first_player_advantage),
    );
    let rows = ra
        .iter()
        .zip(&rb)
        .map(|(x, y)| {
            vec![
                x[0].clone(),
                format!("{} {}", x[1], x[2]),
                format!("{} {}", y[1], y[2]),
            ]
        })
        .collect();
    doc.table(&["metric", names[0], names[1]], rows);
    let items = vec![fa, fb];
    doc.chart(
        "first-player-advantage.svg",
        "First-player advantage in each run (95% intervals)",
        charts::intervals(
            "First-player advantage",
            advantage_axis(a),
            &items,
            Some(0.0),
            advantage_scale(a),
        )?,
    );
    Ok(doc)
}

/// How the difference of two runs is computed, and when that misleads.
fn independence_note(seed_a: u64, seed_b: u64) -> String {
    let base = "The interval of the difference treats the two runs as independent: their \
        variances (each counted over its own seed groups) add.";
    if seed_a == seed_b {
        format!(
            "{base} Both runs used seed {seed_a}, so their games share dice and seeds group by \
             group and are not independent: with a positive correlation the true interval is \
             narrower, with a negative one wider. A paired comparison needs each group's \
             result, which summary.json does not keep; rerun one side with another seed for an \
             independent comparison."
        )
    } else {
        format!("{base} The runs used different seeds ({seed_a} and {seed_b}).")
    }
}

/// Reads `DIR/summary.json`; the error says what is wrong in one line.
pub fn read_summary(dir: &Path) -> Result<Summary, String> {
    let path = dir.join("summary.json");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "no results in {}: cannot read summary.json ({e})",
            dir.display()
        )
    })?;
    parse_summary(&text).map_err(|e| format!("{} is not a valid summary ({e})", path.display()))
}

/// Parses and checks a `summary.json`: typed as a run or a tournament by its keys, then checked
/// for what the types cannot say (histograms with a width, sorted distributions).
pub fn parse_summary(text: &str) -> Result<Summary, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let summary = if value.get("pairings").is_some() {
        Summary::Tournament(Box::new(
            serde_json::from_value(value).map_err(|e| e.to_string())?,
        ))
    } else if value.get("by_seat").is_some() {
        Summary::Run(Box::new(
            serde_json::from_value(value).map_err(|e| e.to_string())?,
        ))
    } else if value.get("rungs").is_some() {
        Summary::Ladder(Box::new(
            serde_json::from_value(value).map_err(|e| e.to_string())?,
        ))
    } else {
        return Err(
            "neither a run, a tournament nor a ladder summary (gate summaries have no report)"
                .into(),
        );
    };
    let runs: Vec<&RunSummary> = match &summary {
        Summary::Run(s) => vec![s],
        Summary::Tournament(t) => t.pairings.iter().map(|p| &p.summary).collect(),
        Summary::Ladder(_) => Vec::new(),
    };
    for run in runs {
        if run.length_histogram.width == 0 {
            return Err("length_histogram.width is 0".into());
        }
    }
    Ok(summary)
}

/// Writes `report.html`, `report.md` and `charts/*.svg` into `dir`, each atomically.
pub fn write(dir: &Path, doc: &Document) -> io::Result<()> {
    let charts = dir.join("charts");
    std::fs::create_dir_all(&charts)?;
    for chart in doc.charts() {
        write_atomic(&charts.join(&chart.file), chart.svg.as_bytes())?;
    }
    write_atomic(&dir.join("report.md"), doc.markdown().as_bytes())?;
    write_atomic(&dir.join("report.html"), doc.html().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_are_typed_on_reading() {
        assert!(
            parse_summary(r#"{"pairings": 5}"#)
                .unwrap_err()
                .contains("expected a sequence")
        );
        assert!(
            parse_summary(r#"{"verdict": "H1"}"#)
                .unwrap_err()
                .contains("neither")
        );
    }

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
