//! The balance report: `report.html` (self-contained, charts inline) and `report.md` (charts as
//! SVG files in `charts/`), built from `summary.json` alone so that `koom report DIR` can rebuild
//! it for any finished run, tournament or shard merge.

mod charts;
mod document;
mod specific;

use std::io;
use std::path::Path;

use serde_json::Value;

pub use document::{Block, Document, escape};

/// A `summary.json` as read back.
pub type Summary = Value;

use crate::write_atomic;

/// A value of the summary, or the reason it is missing.
fn num(v: &Value, path: &[&str]) -> Result<f64, String> {
    let mut at = v;
    for key in path {
        at = &at[*key];
    }
    at.as_f64()
        .ok_or_else(|| format!("summary.json has no number at {}", path.join(".")))
}

/// A `[lo, hi]` interval of the summary.
fn ci(v: &Value) -> Result<[f64; 2], String> {
    match (v[0].as_f64(), v[1].as_f64()) {
        (Some(lo), Some(hi)) => Ok([lo, hi]),
        _ => Err(format!(
            "summary.json has no interval where one is expected ({v})"
        )),
    }
}

/// A figure and its interval as a chart item.
fn item(label: String, value: &Value, interval: &Value) -> Result<charts::Interval, String> {
    let [lo, hi] = ci(interval)?;
    let value = value
        .as_f64()
        .ok_or_else(|| format!("summary.json has no value for {label}"))?;
    Ok(charts::Interval {
        label,
        value,
        lo,
        hi,
    })
}

fn text(v: &Value, key: &str) -> String {
    match &v[key] {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

fn interval_pct(v: &Value) -> String {
    ci(v)
        .map(|[lo, hi]| format!("[{}, {}]", pct(lo), pct(hi)))
        .unwrap_or_default()
}

fn interval(v: &Value, digits: usize) -> String {
    ci(v)
        .map(|[lo, hi]| format!("[{lo:.digits$}, {hi:.digits$}]"))
        .unwrap_or_default()
}

/// Builds the report of one `summary.json`.
pub fn build(summary: &Value) -> Result<Document, String> {
    if summary.get("pairings").is_some() {
        tournament(summary)
    } else if summary.get("by_seat").is_some() {
        run(summary)
    } else if summary.get("rungs").is_some() {
        ladder(summary)
    } else {
        Err("summary.json is neither a run, a tournament nor a ladder summary (gate summaries have no report)".into())
    }
}

fn reproduce(doc: &mut Document, s: &Value) {
    let agents: Vec<&str> = s["agents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    doc.heading("Experiment");
    let mut config = format!(
        "game = \"{}\"\nagents = {:?}\nseed = {}\n",
        text(s, "game"),
        agents,
        text(s, "seed")
    );
    if let Some(format) = s["format"].as_str() {
        config.push_str(&format!(
            "format = \"{format}\"\ngames = {}\n",
            text(s, "games_per_pairing")
        ));
    } else {
        // `games` counts matches where the game plays matches, as `--games` does.
        let games = if s["agent_unit"].as_str() == Some("matches") {
            "seed_groups"
        } else {
            "games_played"
        };
        config.push_str(&format!(
            "games = {}\ntime_control = \"{}\"\n",
            text(s, games),
            text(s, "time_control")
        ));
    }
    if let Some(options) = s["options"]
        .as_object()
        .or_else(|| s["pairings"][0]["summary"]["options"].as_object())
    {
        config.push_str("\n[options]\n");
        for (k, v) in options {
            config.push_str(&format!("{k} = {v}\n"));
        }
    }
    doc.text("The experiment as a config: `koom run CONFIG.toml` with this content replays it exactly (same seed, same games).");
    doc.code(config);
    if s["partial"].as_bool() == Some(true) {
        doc.text(
            "PARTIAL: the run was interrupted; these figures cover only the games that finished.",
        );
    }
}

fn record_rows(list: &Value, key: &str) -> Vec<Vec<String>> {
    list.as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| {
                    vec![
                        text(r, key),
                        text(r, "games"),
                        text(r, "wins"),
                        text(r, "draws"),
                        text(r, "losses"),
                        text(r, "no_result"),
                        r["win_rate"].as_f64().map(pct).unwrap_or_default(),
                        interval_pct(&r["win_rate_ci95"]),
                    ]
                })
                .collect()
        })
        .unwrap_or_default()
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
fn design_rows(s: &Value) -> Result<Vec<Vec<String>>, String> {
    let d = &s["design"];
    Ok(vec![
        vec![
            "balance (1 − largest gap between seats' mean scores)".into(),
            format!("{:.4}", num(d, &["balance"])?),
            String::new(),
        ],
        advantage_row(s)?,
        vec![
            "completion (games with a winner)".into(),
            pct(num(d, &["completion", "value"])?),
            interval_pct(&d["completion"]["ci95"]),
        ],
        vec![
            "drawishness (games drawn)".into(),
            pct(num(d, &["drawishness", "value"])?),
            interval_pct(&d["drawishness"]["ci95"]),
        ],
        vec![
            "timeouts (games ended by a cap)".into(),
            pct(num(d, &["timeouts", "value"])?),
            interval_pct(&d["timeouts"]["ci95"]),
        ],
        vec![
            "duration (mean moves)".into(),
            format!(
                "{:.1} (sd {:.1})",
                num(d, &["duration", "value"])?,
                num(d, &["duration_sd"])?
            ),
            interval(&d["duration"]["ci95"], 1),
        ],
    ])
}

/// The first-player advantage in its unit (percentage points of win rate, or points of margin
/// in games scored on points), with who the first player is.
fn advantage_row(s: &Value) -> Result<Vec<String>, String> {
    let f = &s["first_player_advantage"];
    let who = f["definition"].as_str().unwrap_or("seat 0");
    let value = num(f, &["value"])?;
    if f["unit"].as_str() == Some("points") {
        return Ok(vec![
            format!("first-player advantage: mean point margin per game of {who}"),
            format!("{value:+.2} points"),
            interval(&f["ci95"], 2),
        ]);
    }
    if f["decisive_games"].as_u64() == Some(0) {
        return Ok(vec![
            format!("first-player advantage ({who})"),
            "no decisive games".into(),
            String::new(),
        ]);
    }
    Ok(vec![
        format!("first-player advantage: win rate of {who} − fair share"),
        format!("{:+.2} percentage points", 100.0 * value),
        interval_points(&f["ci95"]),
    ])
}

/// The axis of a first-player-advantage chart: percentage points of win rate, or points.
fn advantage_axis(s: &Value) -> &'static str {
    if s["first_player_advantage"]["unit"].as_str() == Some("points") {
        "mean point margin per game"
    } else {
        "win rate − fair share (percentage points)"
    }
}

fn advantage_scale(s: &Value) -> charts::Scale {
    if s["first_player_advantage"]["unit"].as_str() == Some("points") {
        charts::Scale::POINTS
    } else {
        charts::Scale::SHARE
    }
}

/// An Elo interval, a bound at a score of 0 or 1 written `±inf`.
fn elo_interval(v: &Value) -> String {
    ci(v)
        .map(|[lo, hi]| {
            format!(
                "[{}, {}]",
                crate::table::elo_text(lo),
                crate::table::elo_text(hi)
            )
        })
        .unwrap_or_default()
}

fn interval_points(v: &Value) -> String {
    ci(v)
        .map(|[lo, hi]| format!("[{:+.2}, {:+.2}]", 100.0 * lo, 100.0 * hi))
        .unwrap_or_default()
}

fn length_chart(s: &Value, file: &str, title: &str) -> Result<String, String> {
    let h = &s["length_histogram"];
    let counts: Vec<u64> = h["counts"]
        .as_array()
        .map(|c| c.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    charts::histogram(
        title,
        "moves",
        num(h, &["start"])?,
        num(h, &["width"])?,
        &counts,
    )
    .map_err(|e| format!("{file}: {e}"))
}

fn termination_shares(s: &Value) -> (Vec<String>, Vec<f64>) {
    s["termination"]
        .as_array()
        .map(|t| {
            t.iter()
                .map(|r| (text(r, "reason"), r["share"].as_f64().unwrap_or(0.0)))
                .unzip()
        })
        .unwrap_or_default()
}

fn run(s: &Value) -> Result<Document, String> {
    let mut doc = Document {
        title: format!("koom report: {}", crate::title_case(&text(s, "game"))),
        blocks: Vec::new(),
    };
    reproduce(&mut doc, s);
    doc.heading("Results");
    let matches = s["agent_unit"].as_str() == Some("matches");
    doc.text(if matches {
        format!(
            "{} matches of {} rounds with the sides swapped ({} rounds; a match is won on the points of its rounds); {} rounds drawn. Intervals are Wilson 95%.",
            text(s, "seed_groups"),
            text(s, "rotations"),
            text(s, "games_played"),
            text(s, "draws"),
        )
    } else {
        format!(
            "{} games ({} seed groups × {} seat rotations, every agent in every seat on the same dice); {} draws, {} without result. Intervals are Wilson 95%.",
            text(s, "games_played"),
            text(s, "seed_groups"),
            text(s, "rotations"),
            text(s, "draws"),
            text(s, "no_result")
        )
    });
    let mut header = RECORD_HEADER;
    header[0] = "agent";
    header[1] = if matches { "matches" } else { "games" };
    doc.table(&header, record_rows(&s["by_agent"], "agent"));
    header[0] = "side";
    header[1] = if matches { "rounds" } else { "games" };
    doc.table(&header, record_rows(&s["by_seat"], "side"));
    if let Some(h) = s.get("head_to_head") {
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
                text(h, "agent"),
                text(h, "opponent"),
                pct(num(h, &["score"])?),
                interval_pct(&h["score_ci95"]),
                crate::table::elo_text(num(h, &["elo"])?),
                elo_interval(&h["elo_ci95"]),
                pct(num(h, &["los"])?),
            ]],
        );
    }
    doc.heading("Game-design metrics");
    doc.table(&["metric", "value", "95% interval"], design_rows(s)?);
    doc.heading("Charts");
    let rotations = num(s, &["rotations"])?;
    let items = s["by_agent"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| item(text(r, "agent"), &r["win_rate"], &r["win_rate_ci95"]))
        .collect::<Result<Vec<_>, _>>()?;
    doc.chart(
        "win-rates.svg",
        "Win rate per agent (95% intervals; dashed: the fair share)",
        charts::intervals(
            "Win rate per agent",
            "win rate",
            &items,
            Some(1.0 / rotations),
            charts::Scale::SHARE,
        )?,
    );
    let seats = s["by_seat"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| item(text(r, "side"), &r["win_rate"], &r["win_rate_ci95"]))
        .collect::<Result<Vec<_>, _>>()?;
    doc.chart(
        "first-player-advantage.svg",
        "Win rate per side (dashed: the fair share)",
        charts::intervals(
            "Win rate per side",
            "win rate",
            &seats,
            Some(1.0 / rotations),
            charts::Scale::SHARE,
        )?,
    );
    doc.chart(
        "game-length.svg",
        "Game length (moves)",
        length_chart(s, "game-length.svg", "Game length")?,
    );
    let (reasons, shares) = termination_shares(s);
    doc.chart(
        "termination.svg",
        "How games ended",
        charts::grouped_shares("How games ended", &reasons, &[("all games".into(), shares)])?,
    );
    game_specific(&mut doc, s)?;
    Ok(doc)
}

/// The game's own figures, and a histogram of each distribution it lists.
fn game_specific(doc: &mut Document, s: &Value) -> Result<(), String> {
    let specific = &s["game_specific"];
    if specific.is_null() {
        return Ok(());
    }
    doc.heading("Game-specific statistics");
    specific::tables(doc, specific);
    distributions(doc, specific, "distribution", "")?;
    Ok(())
}

/// A histogram (at most 40 bins) of each `[value, count]` distribution in `specific`, written as
/// `{file_prefix}-N.svg` and titled with `title_suffix`.
fn distributions(
    doc: &mut Document,
    specific: &Value,
    file_prefix: &str,
    title_suffix: &str,
) -> Result<(), String> {
    for (i, d) in specific["distributions"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let name = text(d, "name");
        let pairs: Vec<(i64, u64)> = d["counts"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| Some((p[0].as_i64()?, p[1].as_u64()?)))
            .collect();
        let (Some(lo), Some(hi)) = (pairs.first().map(|p| p.0), pairs.last().map(|p| p.0)) else {
            continue;
        };
        let width = ((hi - lo) / 40 + 1).max(1);
        let mut counts = vec![0u64; ((hi - lo) / width + 1) as usize];
        for (x, n) in pairs {
            counts[((x - lo) / width) as usize] += n;
        }
        let title = format!("{name}{title_suffix}");
        doc.chart(
            &format!("{file_prefix}-{}.svg", i + 1),
            &title,
            charts::histogram(&title, &name, lo as f64, width as f64, &counts)?,
        );
    }
    Ok(())
}

/// Why a ladder's ratings differ slightly from each rung's own Elo: said in the terminal and in
/// the report.
pub const LADDER_NOTE: &str = "Ratings: a Bradley–Terry fit over every rung with half a point of prior each way (it keeps a clean sweep finite), so adjacent ratings sit a little closer than each rung's own Elo, which is the figure `koom run` prints for the same pair and seeds.";

/// A rating ladder: the fitted ratings, and each adjacent pair's own match.
fn ladder(s: &Value) -> Result<Document, String> {
    let mut doc = Document {
        title: format!(
            "koom report: {} ladder",
            crate::title_case(&text(s, "game"))
        ),
        blocks: Vec::new(),
    };
    doc.text(format!(
        "{} games per adjacent pair, seed {}; verdict: {}.",
        text(s, "games_per_pair"),
        text(s, "seed"),
        if s["passed"].as_bool() == Some(true) {
            "every level beats the one below"
        } else {
            "some level does not beat the one below"
        }
    ));
    doc.heading("Ratings");
    doc.text(LADDER_NOTE);
    let levels: Vec<String> = s["levels"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| l.as_str().map(str::to_owned))
        .collect();
    let ratings = levels
        .iter()
        .enumerate()
        .map(|(i, level)| item(level.clone(), &s["fit"]["ratings"][i], &s["fit"]["ci95"][i]))
        .collect::<Result<Vec<_>, _>>()?;
    doc.table(
        &["level", "Elo", "95% interval"],
        ratings
            .iter()
            .map(|r| {
                vec![
                    r.label.clone(),
                    format!("{:+.1}", r.value),
                    format!("[{:+.1}, {:+.1}]", r.lo, r.hi),
                ]
            })
            .collect(),
    );
    doc.chart(
        "ratings.svg",
        "Rating ladder (Elo, 95% intervals)",
        charts::intervals(
            "Rating ladder",
            "Elo",
            &ratings,
            Some(0.0),
            charts::Scale::ELO,
        )?,
    );
    doc.heading("Rungs");
    let rows = s["rungs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            Ok(vec![
                format!("{} vs {}", text(r, "upper"), text(r, "lower")),
                text(r, "games"),
                pct(num(r, &["score"])?),
                interval_pct(&r["score_ci95"]),
                format!("{:+.1}", num(r, &["elo"])?),
                interval(&r["elo_ci95"], 1),
                if r["passed"].as_bool() == Some(true) {
                    "ok"
                } else {
                    "FAIL"
                }
                .to_owned(),
            ])
        })
        .collect::<Result<Vec<_>, String>>()?;
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
    Ok(doc)
}

fn tournament(s: &Value) -> Result<Document, String> {
    let mut doc = Document {
        title: format!(
            "koom report: {} {}",
            crate::title_case(&text(s, "game")),
            text(s, "format")
        ),
        blocks: Vec::new(),
    };
    reproduce(&mut doc, s);
    let agents: Vec<String> = s["agents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a.as_str().map(str::to_owned))
        .collect();
    doc.heading("Ratings");
    doc.text("Bradley–Terry maximum-likelihood ratings over every pairing, the first agent anchored at 0, with 95% intervals from the seed groups' variance.");
    let ratings = s["ratings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| item(text(r, "agent"), &r["elo"], &r["elo_ci95"]))
        .collect::<Result<Vec<_>, _>>()?;
    doc.table(
        &["agent", "Elo", "95% interval"],
        ratings
            .iter()
            .map(|r| {
                vec![
                    r.label.clone(),
                    format!("{:+.1}", r.value),
                    format!("[{:+.1}, {:+.1}]", r.lo, r.hi),
                ]
            })
            .collect(),
    );
    doc.chart(
        "ratings.svg",
        "Rating ladder (Elo, 95% intervals)",
        charts::intervals(
            "Rating ladder",
            "Elo",
            &ratings,
            Some(0.0),
            charts::Scale::ELO,
        )?,
    );
    let matrix: Vec<Vec<Option<f64>>> = s["score_matrix"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|row| {
            row.as_array()
                .into_iter()
                .flatten()
                .map(Value::as_f64)
                .collect()
        })
        .collect();
    doc.chart(
        "score-matrix.svg",
        "Score of the row agent against the column agent",
        charts::heatmap("Win-rate matrix", &agents, &matrix)?,
    );
    doc.heading("Pairings");
    let pairings = s["pairings"].as_array().cloned().unwrap_or_default();
    let mut rows = Vec::new();
    let mut advantage = Vec::new();
    let mut ends = Vec::new();
    let mut reasons = Vec::new();
    for p in &pairings {
        let name = format!("{} vs {}", text(p, "agent"), text(p, "opponent"));
        let ps = &p["summary"];
        let h = &ps["head_to_head"];
        rows.push(vec![
            name.clone(),
            if ps["agent_unit"].as_str() == Some("matches") {
                format!("{} matches", text(ps, "seed_groups"))
            } else {
                format!("{} games", text(ps, "games_played"))
            },
            pct(num(h, &["score"])?),
            interval_pct(&h["score_ci95"]),
            crate::table::elo_text(num(h, &["elo"])?),
            elo_interval(&h["elo_ci95"]),
        ]);
        let row = rows.last_mut().expect("just pushed");
        row.extend(advantage_row(ps)?.into_iter().skip(1));
        let fpa = &ps["first_player_advantage"];
        advantage.push(item(name.clone(), &fpa["value"], &fpa["ci95"])?);
        let (r, shares) = termination_shares(ps);
        reasons = r;
        ends.push((name, shares));
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
    doc.chart(
        "first-player-advantage.svg",
        "First-player advantage per pairing (95% intervals)",
        charts::intervals(
            "First-player advantage",
            advantage_axis(&pairings[0]["summary"]),
            &advantage,
            Some(0.0),
            advantage_scale(&pairings[0]["summary"]),
        )?,
    );
    doc.chart(
        "termination.svg",
        "How games ended, per pairing",
        charts::grouped_shares("How games ended", &reasons, &ends)?,
    );
    doc.heading("Game-design metrics per pairing");
    for (i, p) in pairings.iter().enumerate() {
        let name = format!("{} vs {}", text(p, "agent"), text(p, "opponent"));
        doc.text(name.clone());
        doc.table(
            &["metric", "value", "95% interval"],
            design_rows(&p["summary"])?,
        );
        let file = format!("game-length-{}.svg", i + 1);
        let title = format!("Game length: {name}");
        doc.chart(&file, &title, length_chart(&p["summary"], &file, &title)?);
        distributions(
            &mut doc,
            &p["summary"]["game_specific"],
            &format!("distribution-{}", i + 1),
            &format!(": {name}"),
        )?;
    }
    Ok(doc)
}

/// Compares two runs side by side (e.g. two rule variants), with the interval of the
/// difference of their first-player advantages (independent runs: the variances add).
pub fn compare(a: &Value, b: &Value, names: [&str; 2]) -> Result<Document, String> {
    for (s, name) in [(a, names[0]), (b, names[1])] {
        if s.get("design").is_none() {
            return Err(format!(
                "{name}: only run summaries can be compared (not a tournament, gate or ladder)"
            ));
        }
    }
    let mut doc = Document {
        title: format!("koom report: {} compared with {}", names[0], names[1]),
        blocks: Vec::new(),
    };
    doc.heading("Experiments");
    for (s, name) in [(a, names[0]), (b, names[1])] {
        doc.text(format!(
            "{name}: game {}, agents {}, seed {}, options {}",
            text(s, "game"),
            s["agents"],
            text(s, "seed"),
            s["options"]
        ));
    }
    let fa = item(
        names[0].to_owned(),
        &a["first_player_advantage"]["value"],
        &a["first_player_advantage"]["ci95"],
    )?;
    let fb = item(
        names[1].to_owned(),
        &b["first_player_advantage"]["value"],
        &b["first_player_advantage"]["ci95"],
    )?;
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
    doc.heading("Game-design metrics");
    let (ra, rb) = (design_rows(a)?, design_rows(b)?);
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

/// Reads `DIR/summary.json`; the error says what is wrong in one line.
pub fn read_summary(dir: &Path) -> Result<Value, String> {
    let path = dir.join("summary.json");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "no results in {}: cannot read summary.json ({e})",
            dir.display()
        )
    })?;
    serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a valid summary ({e})", path.display()))
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
