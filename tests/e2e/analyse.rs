//! End-to-end tests of `koom analyse` and of `koom legal` at the end of a game.

use crate::common::{koom, stderr, stdout};

fn analyse_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["analyse", "--json"];
    all.extend_from_slice(args);
    let o = koom(&all);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("one JSON object")
}

/// The king one step from corner a1, its only way out (a6 blocks the file; defenders, seat 1, to
/// move): every searching level sees
/// the escape, a win at ply 1 (score MATE - 1 = 999,999).
const KING_BY_THE_CORNER: &str = "/11/11/11/11/5t5/t10/11/11/11/K10/9t1/ d";

#[test]
fn hnefatafl_levels_find_the_corner_escape_and_legal_names_the_result() {
    for level in ["easy", "hard"] {
        let a = analyse_json(&[
            "--game",
            "hnefatafl",
            "--level",
            level,
            "--position",
            KING_BY_THE_CORNER,
        ]);
        assert_eq!(a["best"], "a2-a1", "{level}");
        assert_eq!(a["score"], 999_999.0, "{level}");
        assert_eq!(a["pv"][0], "a2-a1");
        assert!(a["depth"].as_u64().unwrap() >= 1 && a["nodes"].as_u64().unwrap() > 0);
    }
    let o = koom(&[
        "legal",
        "--game",
        "hnefatafl",
        "--position",
        KING_BY_THE_CORNER,
        "--moves",
        "a2-a1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("result: seat 1 wins (corner)\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn thud_hard_reports_a_legal_move_with_its_search_figures() {
    let a = analyse_json(&["--game", "thud", "--level", "hard"]);
    let legal = stdout(&koom(&["legal", "--game", "thud"]));
    let best = a["best"].as_str().unwrap();
    assert!(legal.lines().skip(1).any(|m| m == best), "{best}");
    assert_eq!(a["depth"], 5, "Hard searches 5 plies as the dwarfs");
    assert!(a["nodes"].as_u64().unwrap() > 100);
    assert!(a["score"].is_number());
    let trolls = analyse_json(&["--game", "thud", "--level", "hard", "--moves", best]);
    assert_eq!(trolls["depth"], 3, "and 3 as the trolls");
}

/// Roll 1 1 1 1 6 6 on a turn's first throw: keeping all six ends the turn, so its value is the
/// rule's terminal worth, computed by hand: small (sum 16, limit 12) misses by 4 = -4 points;
/// big (limit 30) misses by 14 = -14 (Hard's default loss weight is 1).
#[test]
fn trente_douze_hard_values_every_keep_and_prefers_the_best() {
    let a = analyse_json(&[
        "--game",
        "trente-douze",
        "--level",
        "hard",
        "--roll",
        "111166",
    ]);
    let moves = a["moves"].as_array().unwrap();
    let value = |name: &str| {
        moves
            .iter()
            .find(|m| m["move"] == name)
            .unwrap_or_else(|| panic!("{name} listed"))["value"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(value("keep 1 1 1 1 6 6 small"), -4.0);
    assert_eq!(value("keep 1 1 1 1 6 6 big"), -14.0);
    let top = moves
        .iter()
        .map(|m| m["value"].as_f64().unwrap())
        .fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(a["score"].as_f64().unwrap(), top);
    assert_eq!(value(a["best"].as_str().unwrap()), top);
}

/// A 6 with every pawn in the yard: each pawn may leave, worth Hard's `leave_yard` tier (3) on a
/// safe start square; a 2 then leaves only the pawn on the track to move.
#[test]
fn ludo_rolls_are_set_and_every_move_is_valued() {
    let position = "pawns=y,y,y,y/12,y,57,y/y,y,y,y/3,y,y,y mover=0 roll=6";
    let a = analyse_json(&["--game", "ludo", "--level", "hard", "--position", position]);
    let moves = a["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert!(moves.iter().all(|m| m["value"] == 3.0));
    let o = koom(&[
        "analyse",
        "--game",
        "ludo",
        "--level",
        "hard",
        "--position",
        position,
        "--roll",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2), "no pawn can move with a 2");
    assert!(
        stderr(&o).contains("no legal move with a 2"),
        "{}",
        stderr(&o)
    );
    let a = analyse_json(&[
        "--game",
        "ludo",
        "--level",
        "normal",
        "--position",
        "pawns=5,y,y,y/12,y,57,y/y,y,y,y/3,y,y,y mover=0 roll=6",
        "--roll",
        "2",
    ]);
    assert_eq!(a["best"], "pawn 0 5->7");
    assert_eq!(
        a["position"],
        "pawns=5,y,y,y/12,y,57,y/y,y,y,y/3,y,y,y mover=0 roll=2 sixes=0"
    );
}

#[test]
fn bad_analyse_input_is_one_line_and_exit_2() {
    for args in [
        &["analyse", "--game", "thud", "--level", "grandmaster"][..],
        &[
            "analyse", "--game", "thud", "--level", "hard", "--roll", "3",
        ],
        &[
            "analyse", "--game", "thud", "--level", "hard", "--moves", "Z9-Z9",
        ],
        &[
            "analyse",
            "--game",
            "ludo",
            "--level",
            "hard",
            "--position",
            "pawns=1",
        ],
    ] {
        let o = koom(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    }
}
