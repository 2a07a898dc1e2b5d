//! What a run prints and writes as its headline: matches where the game plays matches, sides by
//! the game's names, the head-to-head Elo in the terminal, and seats × games.

use std::path::Path;

use crate::common::{Koom, read, scratch, stdout, summary};

fn csv_rows(dir: &Path) -> Vec<Vec<String>> {
    read(&dir.join("summary.csv"))
        .lines()
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect()
}

/// Thud's headline counts matches (two rounds, sides swapped, most points wins): Hard beats
/// Balanced in every one of these matches although each side wins every round it plays as the
/// trolls, so a count of rounds would read 50% / 50%.
#[test]
fn thud_counts_matches_and_hard_is_ahead_of_balanced() {
    let dir = scratch("thud-matches");
    let o = Koom::new("run")
        .args([
            "--game",
            "thud",
            "--agents",
            "hard,balanced",
            "--games",
            "6",
        ])
        .out(&dir)
        .ok();
    let rows = csv_rows(&dir);
    let col = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
    let find = |kind: &str, name: &str| {
        rows.iter()
            .find(|r| r[0] == kind && r[1] == name)
            .unwrap_or_else(|| panic!("no {kind} row {name} in summary.csv"))
    };
    let (hard, balanced) = (find("agent", "hard"), find("agent", "balanced"));
    assert_eq!(hard[col("unit")], "matches");
    assert_eq!(hard[col("games")], "6", "six matches, not twelve rounds");
    let rate = |r: &Vec<String>| r[col("win_rate")].parse::<f64>().unwrap();
    assert!(
        rate(hard) > rate(balanced),
        "Hard ahead: {hard:?} {balanced:?}"
    );
    let (dwarfs, trolls) = (find("side", "dwarfs"), find("side", "trolls"));
    assert_eq!(
        (dwarfs[col("unit")].as_str(), dwarfs[col("games")].as_str()),
        ("rounds", "12")
    );
    assert_eq!(trolls[col("games")], "12");
    assert_eq!(hard[col("first_player_advantage_unit")], "points");
    let table = stdout(&o);
    assert!(table.contains("6 matches of 2 rounds"), "{table}");
    assert!(
        table.contains("hard vs balanced: Elo difference:"),
        "{table}"
    );
    assert!(table.contains(" over 6 matches\n"), "{table}");
    assert!(table.contains("first player = the dwarfs"), "{table}");
}

/// Thud's first-player advantage, the dwarfs' mean point margin per round, has its interval
/// over matches (seed groups), as every interval does: Balanced playing itself would play each
/// match's two rounds as one game twice, so a mirror run plays it once and six matches are six
/// rounds, six observations. The reference is the textbook interval on the six per-match means,
/// from games.csv's captures (a round's margin is 4 points a troll the dwarfs took minus a point
/// a dwarf the trolls took): mean ± 1.96 · sd / √6. The dwarfs' share of rounds won is counted
/// over matches as well.
#[test]
fn thud_first_player_interval_counts_matches_not_rounds() {
    let dir = scratch("thud-mirror-interval");
    Koom::new("run")
        .args([
            "--game",
            "thud",
            "--agents",
            "balanced,balanced",
            "--games",
            "6",
            "--games-csv",
        ])
        .out(&dir)
        .quiet()
        .ok();
    let games = read(&dir.join("games.csv"));
    let mut lines = games.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut per_match = std::collections::BTreeMap::<String, Vec<f64>>::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let taken = |c: &str| f[col(c)].parse::<f64>().unwrap();
        let margin = 4.0 * taken("captures_seat0") - taken("captures_seat1");
        per_match
            .entry(f[col("seed")].to_owned())
            .or_default()
            .push(margin);
    }
    let means: Vec<f64> = per_match
        .values()
        .map(|m| m.iter().sum::<f64>() / m.len() as f64)
        .collect();
    assert_eq!(means.len(), 6);
    let g = means.len() as f64;
    let mean = means.iter().sum::<f64>() / g;
    let sd = (means.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (g - 1.0)).sqrt();
    assert!(sd > 0.0, "the matches differ: {means:?}");
    let half = 1.959_963_984_540_054 * sd / g.sqrt();
    let s = summary(&dir);
    assert_eq!(
        (&s["rotations"], &s["games_played"], &s["exact_replays"]),
        (&1.into(), &6.into(), &0.into()),
        "a mirror plays each match's game once"
    );
    let fpa = &s["first_player_advantage"];
    let got = |i: usize| fpa["ci95"][i].as_f64().unwrap();
    assert!(
        (fpa["value"].as_f64().unwrap() - mean).abs() < 1e-9,
        "{fpa}"
    );
    assert!(
        (got(0) - (mean - half)).abs() < 1e-9,
        "{fpa} vs {}",
        mean - half
    );
    assert!(
        (got(1) - (mean + half)).abs() < 1e-9,
        "{fpa} vs {}",
        mean + half
    );
}

/// Hnefatafl's seats are named by their sides in the terminal, summary.json and summary.csv.
#[test]
fn hnefatafl_names_its_sides() {
    let dir = scratch("hnefatafl-sides");
    let o = Koom::new("run")
        .args([
            "--game",
            "hnefatafl",
            "--agents",
            "easy,normal",
            "--games",
            "4",
        ])
        .out(&dir)
        .ok();
    let table = stdout(&o);
    assert!(
        table.contains("attackers") && table.contains("defenders"),
        "{table}"
    );
    assert!(!table.contains("seat 0"), "{table}");
    assert_eq!(summary(&dir)["by_seat"][0]["side"], "attackers");
    assert!(
        csv_rows(&dir)
            .iter()
            .any(|r| r[0] == "side" && r[1] == "defenders")
    );
}

/// An agent holding several seats is counted as seats × games, and each agent's win rate in
/// each seat is printed.
#[test]
fn several_seats_of_one_agent_count_games_not_seats() {
    let dir = scratch("seats");
    let o = Koom::new("run")
        .args([
            "--game",
            "ludo",
            "--agents",
            "easy,hard,hard,hard",
            "--games",
            "40",
        ])
        .out(&dir)
        .ok();
    let table = stdout(&o);
    assert!(table.contains("3 seats × 40"), "{table}");
    assert!(table.contains("win rate by agent and seat"), "{table}");
    assert!(table.contains("seat 0 (first to move)"), "{table}");
    assert!(!table.contains("by construction"), "{table}");

    // One agent in every seat wins one game in four whatever its strength: no interval.
    let o = Koom::new("run")
        .args(["--game", "ludo", "--agents", "easy,easy,easy,easy"])
        .args(["--games", "8"])
        .out(dir.join("mirror"))
        .ok();
    let table = stdout(&o);
    let row = table
        .lines()
        .find(|l| l.contains("4 seats ×"))
        .unwrap_or_else(|| panic!("an agent row: {table}"));
    assert!(
        row.ends_with("25.0% (holds all 4 seats: fixed by construction)"),
        "{row}"
    );
}

/// `--quiet` prints nothing at all on success; `--option` and `--format` are flags like any
/// config key.
#[test]
fn quiet_prints_nothing_and_every_config_key_has_a_flag() {
    let dir = scratch("flags");
    let o = Koom::new("run")
        .args([
            "--game",
            "thud",
            "--agents",
            "easy,balanced",
            "--games",
            "1",
        ])
        .args(["--option", "ply_cap=60", "--option", "troll_capture=all"])
        .out(dir.join("run"))
        .quiet()
        .ok();
    assert!(o.stdout.is_empty() && o.stderr.is_empty(), "{o:?}");
    let s = summary(&dir.join("run"));
    assert_eq!(s["options"]["ply_cap"], 60);
    assert_eq!(s["options"]["troll_capture"], "all");
    Koom::new("run")
        .args(["--game", "ludo", "--agents", "easy,normal,hard"])
        .args(["--format", "gauntlet", "--games", "8"])
        .out(dir.join("gauntlet"))
        .quiet()
        .ok();
    let t = summary(&dir.join("gauntlet"));
    assert_eq!(t["format"], "gauntlet");
    assert_eq!(t["pairings"].as_array().unwrap().len(), 2);
    Koom::new("run")
        .args(["--game", "ludo", "--option", "roll_cap=0"])
        .rejects("roll_cap");
}

/// `koom list --game G` shows one game with its rule options, defaults and accepted values.
#[test]
fn list_of_one_game_shows_its_rule_options() {
    let text = stdout(&Koom::new("list").args(["--game", "thud"]).ok());
    assert!(text.starts_with("thud (2 seats: dwarfs, trolls)"), "{text}");
    assert!(
        text.contains("troll_capture") && text.contains("default \"choose\""),
        "{text}"
    );
    assert!(!text.contains("ludo"), "{text}");
}
