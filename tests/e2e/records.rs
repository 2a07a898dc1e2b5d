//! `--records`: every game as one line, replayed exactly by `koom legal --record` and narrated by
//! `koom play --record`.

use crate::common::{Koom, read, scratch, stdout};

/// Runs `games` games of `game` with records and replays every line; returns the lines.
fn records_replay(game: &str, agents: &str, games: &str) -> Vec<String> {
    let dir = scratch(&format!("records-{game}"));
    let path = dir.join("records.txt");
    Koom::new("run")
        .args(["--game", game, "--agents", agents, "--games", games])
        .arg("--records")
        .arg(&path)
        .quiet()
        .out(&dir)
        .ok();
    assert!(!dir.join("records.txt.partial").exists());
    let lines: Vec<String> = read(&path).lines().map(str::to_owned).collect();
    for (i, line) in lines.iter().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields[0], i.to_string(), "in game order");
        let o = Koom::new("legal")
            .args(["--game", game, "--record", line])
            .ok();
        let expected = format!("result: {} ({})", fields[4], fields[5]);
        assert_eq!(stdout(&o).lines().last(), Some(expected.as_str()), "{line}");
    }
    lines
}

#[test]
fn hnefatafl_records_replay_exactly_and_narrate() {
    let lines = records_replay("hnefatafl", "normal,easy", "6");
    assert_eq!(lines.len(), 6);
    let o = Koom::new("play")
        .args(["--game", "hnefatafl", "--record", &lines[1]])
        .ok();
    let text = stdout(&o);
    let moves = lines[1].split('\t').nth(7).unwrap().split(',').count();
    assert!(text.contains(&format!("{moves:>4}. seat")), "{text}");
    assert!(text.ends_with(&format!(
        "result: {} ({})\n",
        lines[1].split('\t').nth(4).unwrap(),
        lines[1].split('\t').nth(5).unwrap()
    )));
}

#[test]
fn thud_records_replay_exactly() {
    // Two matches: four rounds, sides swapped within each match.
    let lines = records_replay("thud", "easy,beginner", "2");
    assert_eq!(lines.len(), 4);
}

#[test]
fn records_with_an_illegal_move_or_a_wrong_result_are_rejected() {
    let lines = records_replay("hnefatafl", "easy,easy", "2");
    let fields: Vec<&str> = lines[0].split('\t').collect();
    let illegal = [&fields[..7], &["a1-a2"], &fields[8..]].concat().join("\t");
    Koom::new("legal")
        .args(["--game", "hnefatafl", "--record", &illegal])
        .rejects("move 1 `a1-a2` is illegal");
    let wrong = lines[0].replacen(fields[5], "encirclement", 1);
    Koom::new("legal")
        .args(["--game", "hnefatafl", "--record", &wrong])
        .rejects("the record says");
    Koom::new("legal")
        .args(["--game", "hnefatafl", "--record", "1\t2\t3"])
        .rejects("9 tab-separated fields");
}
