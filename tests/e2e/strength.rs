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
