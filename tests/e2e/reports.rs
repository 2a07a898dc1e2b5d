//! `report.html`, `report.md` and `koom report`: what the reports show and that they parse.

use crate::common::{Koom, reproducible, run_config, scratch, summary};
use std::path::Path;

/// Parses `report.html` as XML (it is written well-formed) and returns its text and the number
/// of `<svg>` elements.
fn parse_html(path: &Path) -> (String, usize) {
    use quick_xml::events::Event;
    let html = std::fs::read_to_string(path).unwrap();
    let body = html.trim_start_matches("<!DOCTYPE html>\n");
    let mut reader = quick_xml::Reader::from_str(body);
    reader.config_mut().check_end_names = true;
    let (mut text, mut svgs) = (String::new(), 0);
    loop {
        match reader.read_event().expect("report.html is well-formed") {
            Event::Start(e) if AsRef::<str>::as_ref(&e.name()) == "svg" => svgs += 1,
            Event::Text(t) => {
                text.push_str(&t.into_inner());
                text.push(' ');
            }
            Event::Eof => break,
            _ => {}
        }
    }
    (text, svgs)
}

/// How many chart files a report folder holds.
fn charts(out: &Path) -> usize {
    std::fs::read_dir(out.join("charts")).unwrap().count()
}

#[test]
fn the_report_parses_and_shows_the_summary_numbers() {
    let out = scratch("report").join("run");
    Koom::new("run")
        .args(["--agents", "hard,normal,easy,easy"])
        .args(["--games", "800", "--seed", "6"])
        .quiet()
        .out(&out)
        .ok();
    let (text, svgs) = parse_html(&out.join("report.html"));
    assert_eq!(svgs, charts(&out), "one inline SVG per chart file");
    assert_eq!(svgs, 4);
    let s = summary(&out);
    for r in s["by_agent"].as_array().unwrap() {
        let rate = format!("{:.2}%", 100.0 * r["win_rate"]["value"].as_f64().unwrap());
        assert!(
            text.contains(&rate),
            "win rate {rate} of {} in the report",
            r["agent"]
        );
        assert!(text.contains(&r["wins"].to_string()));
    }
    let fpa = format!(
        "{:+.2} percentage points",
        100.0 * s["first_player_advantage"]["value"].as_f64().unwrap()
    );
    assert!(text.contains(&fpa), "{fpa}");
    assert!(
        text.contains("seed = 6"),
        "the config is printed so the report reproduces"
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("![Game length (moves)](charts/game-length.svg)"));
    // Rebuilding the report from the folder gives the same file.
    let before = std::fs::read(out.join("report.html")).unwrap();
    Koom::new("report").arg(&out).ok();
    assert_eq!(std::fs::read(out.join("report.html")).unwrap(), before);
}

#[test]
fn a_round_robin_report_holds_the_full_matrix() {
    let out = run_config(
        "report-rr",
        "format = 'round-robin'\nagents = ['easy', 'normal', 'hard']\ngames = 200\n",
        &[],
    );
    let (text, svgs) = parse_html(&out.join("report.html"));
    assert_eq!(svgs, charts(&out));
    let s = summary(&out);
    for (i, row) in s["score_matrix"].as_array().unwrap().iter().enumerate() {
        for (j, cell) in row.as_array().unwrap().iter().enumerate() {
            if i != j {
                let shown = format!("{:.1}%", 100.0 * cell.as_f64().unwrap());
                assert!(text.contains(&shown), "cell {i},{j} = {shown}");
            }
        }
    }
}

#[test]
fn two_rule_variants_compare_with_the_interval_of_the_difference() {
    let dir = scratch("compare");
    let a = dir.join("cap-default");
    Koom::new("run")
        .args(["--games", "800"])
        .quiet()
        .out(&a)
        .ok();
    let b = run_config(
        "cap-300",
        "[options]\nroll_cap = 300\n",
        &["--games", "800"],
    );
    Koom::new("report").arg(&a).arg(&b).ok();
    let (text, svgs) = parse_html(&a.join("compare/report.html"));
    assert_eq!(svgs, 1);
    assert!(text.contains("95% interval of the difference"));
    // Both runs used the default seed: the report says the interval ignores their pairing.
    assert!(text.contains("treats the two runs as independent"));
    assert!(text.contains("Both runs used seed 1"), "{text}");
    let timeouts = summary(&b)["design"]["timeouts"]["value"].as_f64().unwrap();
    assert!(timeouts > 0.0, "a 300-roll cap cuts games short");
    assert!(text.contains(&format!("{:.2}%", 100.0 * timeouts)));
    // A folder without results: one line, exit 2, nothing written.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    Koom::new("report").arg(&empty).rejects("no results in");
    assert!(!empty.join("report.html").exists());
}

#[test]
fn a_thud_tournament_report_draws_each_pairings_margin_distribution() {
    let out = run_config(
        "thud-report",
        "game = 'thud'\nformat = 'round-robin'\nagents = ['beginner', 'easy', 'balanced']\ngames = 2\n",
        &[],
    );
    let (text, svgs) = parse_html(&out.join("report.html"));
    assert_eq!(svgs, charts(&out));
    for i in 1..=3 {
        assert!(
            out.join(format!("charts/distribution-{i}-1.svg")).exists(),
            "pairing {i}"
        );
    }
    assert!(text.contains("dwarf - troll point margin per round: beginner vs easy"));
    // Thud's bars count rounds, and say so.
    for chart in ["game-length-1.svg", "distribution-1-1.svg"] {
        let svg = std::fs::read_to_string(out.join("charts").join(chart)).unwrap();
        assert!(svg.contains("\nrounds\n</text>"), "{chart} counts rounds");
    }
}

/// The config block of a report's "Experiment" section.
fn written_config(out: &Path) -> String {
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let (_, rest) = md
        .split_once("## Experiment")
        .expect("an Experiment section");
    let (_, rest) = rest.split_once("```\n").expect("a config block");
    rest.split_once("\n```").unwrap().0.to_owned()
}

/// Runs `config`, then the config its report writes, and asserts that both give the same
/// `summary.json` less `run`; returns the written config.
fn replays(name: &str, config: &str) -> String {
    let first = run_config(name, config, &[]);
    let written = written_config(&first);
    let again = run_config(&format!("{name}-again"), &written, &[]);
    assert_eq!(
        reproducible(&first),
        reproducible(&again),
        "{name}: the written config\n{written}\nreplays the run"
    );
    written
}

#[test]
fn a_thud_report_config_replays_openings_options_and_matches() {
    let written = replays(
        "replay-thud",
        "game = 'thud'\nagents = ['beginner', 'easy']\ngames = 3\nseed = 4\n\
         openings = 'configs/openings/thud.txt'\nopenings_order = 'random'\n\
         [options]\nno_capture_plies = 30\n",
    );
    // Thud counts matches: 3 matches, not the 6 rounds they played.
    assert!(written.contains("games = 3\n"), "{written}");
}

#[test]
fn a_hnefatafl_report_config_replays_openings_and_options() {
    replays(
        "replay-hnefatafl",
        "game = 'hnefatafl'\nagents = ['easy', 'normal']\ngames = 2\nseed = 2\n\
         openings = 'configs/openings/hnefatafl.txt'\n[options]\nply_cap = 120\n",
    );
}

#[test]
fn a_ludo_report_config_replays_weights_options_and_time_control() {
    // Ludo's levels do not search, so the player time control is still reproducible.
    let written = replays(
        "replay-ludo",
        "game = 'ludo'\nagents = ['hard@configs/weights/ludo-hard.toml', 'normal', 'easy', 'easy']\n\
         games = 41\nseed = 5\ntime_control = 'player'\n[options]\nroll_cap = 300\n",
    );
    // 41 games are rounded up to whole seed groups of 4.
    assert!(written.contains("games = 44\n"), "{written}");
}

#[test]
fn a_mirror_report_config_asks_for_its_distinct_games() {
    // One level in every seat plays each seed group once: 41 games are 41 groups, not 164.
    let written = replays(
        "replay-ludo-mirror",
        "game = 'ludo'\nagents = ['hard', 'hard', 'hard', 'hard']\ngames = 41\nseed = 5\n",
    );
    assert!(written.contains("games = 41\n"), "{written}");
}

#[test]
fn a_trente_douze_tournament_report_config_replays_its_format_and_weights() {
    replays(
        "replay-trente-douze",
        "game = 'trente-douze'\nformat = 'gauntlet'\n\
         agents = ['hard@configs/weights/trente-douze-hard.toml', 'normal', 'easy']\n\
         games = 20\nseed = 7\n",
    );
}

#[test]
fn an_elo_interval_that_reaches_a_score_of_zero_prints_a_one_sided_bound_not_inf() {
    // 2 wins in 12 with a spread that puts the score's interval at [0.00%, 43.34%].
    let dir = scratch("one-sided");
    let config = crate::common::write(
        &dir,
        "config.toml",
        "game = 'ludo'\nformat = 'gauntlet'\nagents = ['easy', 'hard']\ngames = 12\nseed = 6\n",
    );
    let out = dir.join("out");
    let o = Koom::new("run").arg(config).out(&out).ok();
    let terminal = crate::common::stdout(&o);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let row = md
        .lines()
        .find(|l| l.starts_with("| easy vs hard"))
        .expect("the pairing's row");
    assert!(row.contains("[0.00%, ") && row.contains("| <= -"), "{row}");
    assert!(md.contains("normal approximation to the mean score"));
    for text in [&terminal, &md] {
        assert!(!text.contains("inf"), "{text}");
        assert!(!text.contains("-0.0 "), "a tie is +0.0: {text}");
    }
    // The anchor's rating is a tie with itself.
    assert!(terminal.contains("+0.0 Elo [+0.0, +0.0]"), "{terminal}");
    assert!(terminal.contains("anchored at 0"), "{terminal}");
}

/// What a designer reads: no raw Markdown in the HTML, no ending that no game ended by, no
/// dice in a game without them, and every Elo bound finite.
#[test]
fn reports_show_no_raw_markdown_no_zero_count_endings_and_no_inf() {
    let dir = scratch("designer");
    let run = dir.join("run");
    Koom::new("run")
        .args(["--game", "hnefatafl", "--agents", "easy,normal"])
        .args(["--games", "8"])
        .quiet()
        .out(&run)
        .ok();
    let ladder = dir.join("ladder");
    Koom::new("ladder")
        .args(["--game", "ludo", "--levels", "easy,normal"])
        .args(["--games", "40"])
        .quiet()
        .out(&ladder)
        .ok();
    for out in [&run, &ladder] {
        let html = std::fs::read_to_string(out.join("report.html")).unwrap();
        assert!(!html.contains('`'), "a raw backtick in {}", out.display());
        let (text, _) = parse_html(&out.join("report.html"));
        assert!(!text.contains("inf"), "{text}");
    }
    assert!(
        std::fs::read_to_string(ladder.join("report.html"))
            .unwrap()
            .contains("<code>koom run</code>")
    );
    let ladder_md = std::fs::read_to_string(ladder.join("report.md")).unwrap();
    assert!(
        ladder_md.contains("| easy | +0.0 | the anchor: 0 by definition |"),
        "{ladder_md}"
    );
    let md = std::fs::read_to_string(run.join("report.md")).unwrap();
    let endings: Vec<&str> = md
        .lines()
        .skip_while(|l| *l != "### endings")
        .skip(3)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert!(!endings.is_empty(), "{md}");
    for row in &endings {
        assert!(!row.contains("| 0 | 0.00% |"), "a zero-count ending: {row}");
        assert!(!row.contains("forfeit"), "no program played: {row}");
    }
    let results = md
        .split("## Results")
        .nth(1)
        .and_then(|r| r.split("\n| agent").next())
        .unwrap();
    let opening = results.split("<details>").next().unwrap();
    assert!(!opening.contains("dice"), "Hnefatafl has none: {opening}");
    assert!(results.contains("on the same seeds"), "{results}");
    assert!(results.contains("<details><summary>"), "{results}");
}
