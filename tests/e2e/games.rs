//! Each game through the binary: `perft`, `legal`, `run` and `play`, and its bad input.

use crate::common::{Koom, koom, scratch, stderr, stdout, summary, write};

#[test]
fn trente_douze_runs_end_to_end() {
    let dir = scratch("trente");
    Koom::new("run")
        .args(["--game", "trente-douze", "--agents", "hard,normal,easy"])
        .args(["--games", "300"])
        .quiet()
        .out(&dir)
        .ok();
    let s = summary(&dir);
    assert_eq!(s["rotations"], 3);
    assert_eq!(s["games_played"], 300);
    assert!(s["game_specific"]["first_player"].is_object());
    let run = |agents: &str| Koom::new("run").args(["--game", "trente-douze", "--agents", agents]);
    run("hard").rejects("trente-douze needs 2 to 8 agents");
    run("hard,hard,hard,hard,hard,hard,hard,hard,hard").rejects("got 9");
    let p = Koom::new("play")
        .args(["--game", "trente-douze", "--agents", "hard,easy"])
        .args(["--seed", "3"])
        .ok();
    assert!(stdout(&p).contains("the sum must be"));
}

#[test]
fn thud_end_to_end_perft_legal_matches_and_bad_input() {
    let o = koom(&["perft", "--game", "thud", "--depth", "1"]);
    assert_eq!(stdout(&o).trim(), "perft 1 = 656");
    let text = stdout(&koom(&[
        "perft", "--game", "thud", "--depth", "2", "--divide",
    ]));
    let divided: u64 = text
        .lines()
        .filter_map(|l| l.rsplit_once(": "))
        .map(|(_, n)| n.parse::<u64>().unwrap())
        .sum();
    assert_eq!(divided, 22_624);
    assert!(text.ends_with("perft 2 = 22624\n"));
    let o = Koom::new("legal")
        .args(["--game", "thud", "--moves", "F1-F2"])
        .ok();
    assert!(
        stdout(&o).lines().next().unwrap().ends_with(" t"),
        "trolls to move after a dwarf move"
    );
    Koom::new("legal")
        .args(["--game", "thud", "--moves", "F1-F2,F2-F3"])
        .rejects("move 2 `F2-F3` is illegal");
    Koom::new("perft")
        .args(["--game", "thud", "--depth", "1", "--position", "dd1dd/x"])
        .rejects("bad thud position");
    let dir = scratch("thud");
    Koom::new("run")
        .args([
            "--game",
            "thud",
            "--agents",
            "balanced,easy",
            "--games",
            "3",
        ])
        .quiet()
        .out(&dir)
        .ok();
    let s = summary(&dir);
    assert_eq!(
        (s["seed_groups"].as_u64(), s["games_played"].as_u64()),
        (Some(3), Some(6)),
        "--games counts matches"
    );
    assert_eq!(s["game_specific"]["matches"], 3);
    let bad = write(
        &dir,
        "bad.toml",
        "game = 'thud'\nagents = ['easy', 'easy']\n[options]\nply_cap = 0\n",
    );
    Koom::new("run").arg(&bad).rejects("ply_cap");
    let p = koom(&[
        "play",
        "--game",
        "thud",
        "--agents",
        "easy,beginner",
        "--seed",
        "2",
    ]);
    assert_eq!(
        stdout(&p).matches("== thud game").count(),
        2,
        "a whole match: both rounds"
    );
}

#[test]
fn hnefatafl_end_to_end_perft_legal_run_and_bad_input() {
    let o = koom(&["perft", "--game", "hnefatafl", "--depth", "2"]);
    assert_eq!(stdout(&o).trim(), "perft 2 = 6788");
    let o = Koom::new("legal")
        .args(["--game", "hnefatafl", "--moves", "d1-d3"])
        .ok();
    let text = stdout(&o);
    assert!(
        text.lines().next().unwrap().ends_with(" d"),
        "defenders to move: {text}"
    );
    Koom::new("legal")
        .args(["--game", "hnefatafl", "--moves", "d1-d3,a1-a2"])
        .rejects("move 2 `a1-a2` is illegal");
    Koom::new("perft")
        .args(["--game", "hnefatafl", "--depth", "1"])
        .args(["--position", "/11/11/ a"])
        .rejects("bad hnefatafl position");
    let dir = scratch("hnefatafl");
    Koom::new("run")
        .args(["--game", "hnefatafl", "--agents", "normal,easy"])
        .args(["--games", "4"])
        .quiet()
        .out(&dir)
        .ok();
    let s = summary(&dir);
    assert_eq!(s["games_played"], 4);
    assert!(s["game_specific"].is_object());
    let bad = write(
        &dir,
        "bad.toml",
        "game = 'hnefatafl'\nagents = ['easy', 'easy']\n[options]\nply_cap = 0\n",
    );
    Koom::new("run").arg(&bad).rejects("ply_cap");
}

#[test]
fn bad_input_is_quoted_on_one_line_and_cut() {
    // A newline in the input does not break the message in two.
    Koom::new("legal")
        .args(["--game", "hnefatafl", "--moves", "d1-d3\nrm -rf"])
        .rejects("move 1 `d1-d3\\nrm -rf` is illegal");
    // 100,000 characters of input (near the 128 KiB the kernel allows one argument) give a
    // message of a few hundred bytes.
    let huge = "x".repeat(100_000);
    for game in ["thud", "hnefatafl", "trente-douze"] {
        let o = Koom::new("perft")
            .args(["--game", game, "--depth", "1", "--position"])
            .arg(&huge)
            .output();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{game}: {err}");
        assert!(err.len() < 600, "{game}: {} bytes: {err}", err.len());
        assert!(err.contains("… (100000 characters)"), "{game}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1);
    }
}
