//! The statistics a batch yields.

use super::*;

use crate::game::GameStats;

// ---------------------------------------------------------------- statistics

/// Two seed groups of two games each: in group 1 agent 0 attacks and wins (king captured),
/// then, sides swapped, agent 1 defends and wins (corner); in group 2 a draw at the ply cap,
/// then the defenders (agent 0) win at the corner. Returned as the two groups' statistics.
fn two_groups() -> (HnefataflStats, HnefataflStats) {
    let mut corner = game("/11/11/2t4T3/11/11/11/K10/11/11/11/11/ d");
    play(&mut corner, "a5-a1");
    let mut captured = game("/11/11/4t6/3tKt5/2t8/11/11/11/11/11/11/ a");
    play(&mut captured, "c7-e7");
    let mut capped = Hnefatafl::from_position(START, &HnefataflOptions { ply_cap: 1 }).unwrap();
    play(&mut capped, "d1-d3");
    let mut first = HnefataflStats::default();
    first.add_group(&[captured, corner]);
    let mut second = HnefataflStats::default();
    second.add_group(&[capped, corner]);
    (first, second)
}

/// The two groups merged, summarised for agents `a` and `b`.
fn summary_of_two_groups() -> HnefataflSummary {
    let (mut stats, second) = two_groups();
    stats.merge(&second);
    stats.summary(&["a".into(), "b".into()])
}

/// Wins, draws and losses.
fn wdl(r: &crate::sample::Record) -> (u64, u64, u64) {
    (r.wins, r.draws, r.losses)
}

#[test]
fn statistics_count_results_and_endings() {
    let report = summary_of_two_groups();
    assert_eq!(report.games, 4);
    assert_eq!(
        (report.attacker_wins, report.defender_wins, report.draws),
        (1, 2, 1)
    );
    assert_eq!(report.timeouts, 1);
    assert_eq!((report.moves_min, report.moves_max), (1, 1));
    let endings: Vec<(&str, u64)> = report.endings.iter().map(|e| (e.reason, e.games)).collect();
    assert_eq!(
        endings,
        [
            ("corner", 2),
            ("fort", 0),
            ("king captured", 1),
            ("encirclement", 0),
            ("no move", 0),
            ("cap", 1),
            ("forfeit: program crashed", 0),
            ("forfeit: no move in time", 0),
            ("forfeit: illegal move", 0),
            ("forfeit: unreadable reply", 0),
            ("forfeit: resigned", 0),
            ("adjudicated: resign", 0),
            ("adjudicated: draw", 0),
            ("adjudicated: margin", 0),
        ]
    );
    // Attackers scored 1 + 0 + 0.5 + 0 of 4: 0.375, advantage -0.125.
    assert!((report.attackers_score_minus_half.value + 0.125).abs() < 1e-12);
    let [low, high] = report.attackers_score_minus_half.ci95;
    assert!(low < -0.125 && high > -0.125);
}

#[test]
fn statistics_score_each_agent_on_each_side() {
    let report = summary_of_two_groups();
    // Agent "a" (slot 0) attacks in rotation 0 of both groups (a win, a draw) and defends in
    // rotation 1 of both (the defenders won both).
    let a = &report.agents[0];
    assert_eq!(a.agent, "a");
    assert_eq!(wdl(&a.as_attackers), (1, 1, 0));
    assert_eq!(wdl(&a.as_defenders), (2, 0, 0));
    let b = &report.agents[1];
    assert_eq!(wdl(&b.as_defenders), (0, 1, 1));
    assert_eq!(wdl(&b.as_attackers), (0, 0, 2));
}

#[test]
fn statistics_merge_in_any_order() {
    let (first, second) = two_groups();
    let mut forward = first.clone();
    forward.merge(&second);
    let mut reversed = second;
    reversed.merge(&first);
    assert_eq!(reversed, forward);
}

/// Counts written before `forfeit: resigned` and the adjudications existed hold one to four
/// endings fewer: they read back with zeros for them; any other length is refused.
#[test]
fn stats_written_before_resignations_read_back_with_a_zero_for_them() {
    let (stats, _) = two_groups();
    let mut value = serde_json::to_value(&stats).unwrap();
    for late in 0..4 {
        let endings = value["endings"].as_array_mut().unwrap();
        assert_eq!(endings.pop(), Some(serde_json::json!(0)), "ending {late}");
        let old: HnefataflStats = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(old, stats);
    }
    value["endings"].as_array_mut().unwrap().pop();
    let err = serde_json::from_value::<HnefataflStats>(value).unwrap_err();
    assert!(err.to_string().contains("14 ending counts"), "{err}");
}
