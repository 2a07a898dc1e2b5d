//! `koom gate` and `koom ladder`: verdicts, exit codes and their bad input.

use crate::common::{Koom, scratch, stdout, summary, write};

#[test]
fn gate_exit_codes_follow_the_verdict() {
    let dir = scratch("gate");
    let gate = |candidate: &str, baseline: &str, extra: &[&str]| {
        let out = dir.join(format!("{candidate}-{baseline}"));
        let o = Koom::new("gate")
            .args(["--game", "ludo", "--candidate", candidate])
            .args(["--baseline", baseline])
            .args(extra)
            .out(&out)
            .output();
        (o.status.code(), summary(&out), stdout(&o))
    };
    let (code, s, text) = gate("hard", "easy", &[]);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(s["verdict"], "H1 accepted: not weaker");
    assert!(s["sprt"]["llr"].as_f64().unwrap() >= s["sprt"]["upper"].as_f64().unwrap());
    assert!(s["elo"]["ci95"][0].as_f64().unwrap() > 0.0);
    assert!(text.contains("LLR") && text.contains("Elo"));
    // Stopped at a bound: fishtest's corrected Elo is stored and printed beside the naive one.
    let corrected = &s["sprt"]["elo_sequential"]["elo"];
    let (lo, hi) = (
        corrected["ci95"][0].as_f64().unwrap(),
        corrected["ci95"][1].as_f64().unwrap(),
    );
    assert!(
        lo < corrected["value"].as_f64().unwrap() && lo > 0.0 && hi <= 1000.0,
        "{corrected}"
    );
    assert!(text.contains("Elo corrected for the early stop"), "{text}");
    // The SPRT's histogram, in words.
    assert!(
        text.contains("hard's points per seed group of 4 games (how many groups scored each): 0: "),
        "{text}"
    );
    assert_eq!(
        (s["unit"].as_str(), &s["played"]),
        (Some("games"), &s["games_played"])
    );
    let (code, s, _) = gate("easy", "hard", &["--preset", "gain"]);
    assert_eq!(code, Some(1));
    assert_eq!(s["sprt"]["bounds"]["elo1"], 2.0);
    // A level against itself on common dice mirrors every game: no evidence either way.
    let (code, s, text) = gate("hard", "hard", &["--max-games", "400"]);
    assert_eq!(code, Some(3));
    assert_eq!(s["games_played"], 400);
    assert!(
        s["sprt"]["elo_sequential"].is_null(),
        "not stopped at a bound"
    );
    assert!(!text.contains("corrected"), "{text}");
    let (code, s, _) = gate(
        "hard",
        "normal",
        &["--logistic", "--elo0", "0", "--elo1", "10"],
    );
    assert_eq!(code, Some(0));
    assert_eq!(s["sprt"]["bounds"]["model"], "logistic");
}

/// In Thud `--max-games` counts matches (two rounds, sides swapped), and says so.
#[test]
fn thud_gate_counts_matches() {
    let out = scratch("gate-thud");
    let o = Koom::new("gate")
        .args([
            "--game",
            "thud",
            "--candidate",
            "easy",
            "--baseline",
            "beginner",
        ])
        .args(["--max-games", "6", "--batch", "2"])
        .out(&out)
        .output();
    let s = summary(&out);
    assert_eq!(
        (s["unit"].as_str(), &s["played"]),
        (Some("matches"), &6.into())
    );
    assert_eq!(s["games_played"], 12, "two rounds per match");
    assert_eq!(s["group_size"], 1, "one match per seed group");
    let text = stdout(&o);
    assert!(text.contains("over 6 matches (12 rounds)"), "{text}");
    assert!(text.contains("(nElo per match)"), "{text}");
}

#[test]
fn ladder_passes_in_order_and_fails_reversed() {
    let dir = scratch("ladder");
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/ladders/ludo.toml");
    let out = dir.join("ok");
    Koom::new("ladder")
        .arg(config)
        .args(["--games", "2000"])
        .out(&out)
        .quiet()
        .ok();
    let s = summary(&out);
    assert_eq!(s["levels"], serde_json::json!(["easy", "normal", "hard"]));
    assert_eq!(s["rungs"].as_array().unwrap().len(), 2);
    let o = Koom::new("ladder")
        .args(["--game", "ludo", "--levels", "hard,normal,easy"])
        .args(["--games", "2000"])
        .out(dir.join("reversed"))
        .output();
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("FAIL"));
}

/// `--full` plays every pair, fits the ratings over all of them and checks every triple; listed
/// in the wrong order the rungs fail, but the levels are not called intransitive (the triples
/// are ranked by rating).
#[test]
fn full_ladder_plays_every_pair() {
    let dir = scratch("ladder-full");
    for (levels, code) in [("easy,normal,hard", 0), ("hard,normal,easy", 1)] {
        let out = dir.join(levels.replace(',', "-"));
        let o = Koom::new("ladder")
            .args([
                "--game", "ludo", "--levels", levels, "--games", "400", "--full",
            ])
            .out(&out)
            .output();
        assert_eq!(o.status.code(), Some(code), "{}", stdout(&o));
        let s = summary(&out);
        let pairs: Vec<(String, String)> = s["rungs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["upper"].as_str().unwrap().into(),
                    r["lower"].as_str().unwrap().into(),
                )
            })
            .collect();
        let names: Vec<&str> = levels.split(',').collect();
        let pair = |a: usize, b: usize| (names[a].to_owned(), names[b].to_owned());
        assert_eq!(pairs, [pair(1, 0), pair(2, 1), pair(2, 0)]);
        assert_eq!(s["full"], true);
        assert_eq!(s["intransitive"], serde_json::json!([]));
        assert!(stdout(&o).contains("intransitive triples: none"));
        let report = std::fs::read_to_string(out.join("report.md")).unwrap();
        assert!(report.contains("## Intransitive triples") && report.contains("None."));
        // One rating per level, rising from easy to hard whichever order they were listed in.
        let r: Vec<f64> = (0..3)
            .map(|i| s["fit"]["ratings"][i]["value"].as_f64().unwrap())
            .collect();
        let rising = r[0] < r[1] && r[1] < r[2];
        let falling = r[0] > r[1] && r[1] > r[2];
        assert!(if code == 0 { rising } else { falling }, "{r:?}");
    }
}

#[test]
fn bad_gate_input_is_one_line_and_exit_2() {
    let gate = |candidate: &str, baseline: &str| {
        Koom::new("gate").args([
            "--game",
            "ludo",
            "--candidate",
            candidate,
            "--baseline",
            baseline,
        ])
    };
    for (extra, expected) in [
        (
            &["--elo0", "2", "--elo1", "1"][..],
            "elo0 (2) must be below elo1 (1)",
        ),
        (&["--elo0", "1", "--elo1", "1"], "must be below"),
        (&["--alpha", "0.5"], "alpha = 0.5 must lie in (0, 0.5)"),
        (&["--beta", "0"], "beta = 0 must lie in (0, 0.5)"),
    ] {
        gate("hard", "easy").args(extra).rejects(expected);
    }
    gate("hard", "grandmaster").rejects("unknown ludo level `grandmaster`");
    let dir = scratch("bad-weights");
    let weights = write(&dir, "w.toml", "[weights]\ncapture = 5.0\nrisk = 1.0\n");
    let candidate = format!("hard@{}", weights.display());
    gate(&candidate, "easy").rejects("unknown parameter `risk`");
    write(
        &dir,
        "w.toml",
        "[weights]\ncapture = 50.0\ncapture_extra = 0.1\nfinish = 4.0\nleave_yard = 3.0\nsafe = 2.0\nprogress = 1.0\nrisk_weight = 1.0\n",
    );
    gate(&candidate, "easy").rejects("outside its range [0, 10]");
}
