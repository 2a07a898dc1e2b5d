//! Issue 53: adjudication on the players' search scores, opt-in, with its own endings counted
//! per side in the table, `summary.json`, the report and `games.csv`.

use crate::common::{Koom, read, scratch, stdout, summary, write};

/// Two Normal Hnefatafl games with a resign rule both searches meet early: every game ends
/// `adjudicated: resign`, the table says which side won them, and so do the files.
#[test]
fn resign_adjudication_is_its_own_ending_in_every_table() {
    let dir = scratch("adjudication-resign");
    let o = Koom::new("run")
        .args([
            "--game",
            "hnefatafl",
            "--agents",
            "normal,normal",
            "--games",
            "2",
        ])
        .args(["--resign", "movecount=3,score=900", "--games-csv"])
        .out(&dir)
        .ok();
    let text = stdout(&o);
    let ended = text.lines().find(|l| l.contains("ended by:")).unwrap();
    assert!(
        ended.contains("adjudicated: resign 2 (won: attackers"),
        "{ended}"
    );
    let s = summary(&dir);
    let resign = s["termination"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["reason"] == "adjudicated: resign")
        .unwrap();
    assert_eq!(resign["games"], 2);
    let won: u64 = resign["won_by"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .sum();
    assert_eq!(won, 2);
    // The report's ending table gives the same per-side counts, with nothing left drawn.
    let by_side: Vec<String> = resign["won_by"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.to_string())
        .collect();
    let md = read(&dir.join("report.md"));
    let row = format!(
        "| adjudicated: resign | 2 | 100.00% | {} | 0 |",
        by_side.join(" | ")
    );
    assert!(md.contains(&row), "{row} in\n{md}");
    assert!(
        md.contains(
            "| ending | games | share | won by attackers | won by defenders | drawn or shared |"
        ),
        "{md}"
    );
    let csv = read(&dir.join("games.csv"));
    assert_eq!(csv.matches("adjudicated: resign").count(), 2, "{csv}");
    // Off by default: the same games played out end by the rules.
    let plain = scratch("adjudication-off");
    Koom::new("run")
        .args([
            "--game",
            "hnefatafl",
            "--agents",
            "normal,normal",
            "--games",
            "2",
        ])
        .out(&plain)
        .quiet()
        .ok();
    let ends = summary(&plain)["termination"].to_string();
    assert!(
        ends.contains("\"reason\":\"adjudicated: resign\",\"games\":0"),
        "{ends}"
    );
}

#[test]
fn bad_adjudication_rules_are_one_line_and_exit_2() {
    let run = || Koom::new("run");
    run()
        .args(["--game", "hnefatafl", "--agents", "normal,normal"])
        .args(["--resign", "movecount=3"])
        .rejects("missing field `score`");
    run()
        .args(["--game", "hnefatafl", "--agents", "normal,normal"])
        .args(["--draw", "movecount=0,score=10"])
        .rejects("adjudication.draw: movecount must be at least 1");
    run()
        .args([
            "--agents",
            "hard,hard,hard,hard",
            "--resign",
            "movecount=3,score=9",
        ])
        .rejects("ludo is not a two-player game");
    let dir = scratch("adjudication-config");
    let typo = write(
        &dir,
        "typo.toml",
        "[adjudication.resign]\nmovecnt = 3\nscore = 9\n",
    );
    run().arg(&typo).rejects("unknown field `movecnt`");
}
