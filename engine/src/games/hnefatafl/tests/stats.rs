//! The statistics a batch yields.

use super::*;

// ---------------------------------------------------------------- statistics

#[test]
fn statistics_count_what_happened() {
    use crate::game::GameStats;
    let mut corner = game("/11/11/2t4T3/11/11/11/K10/11/11/11/11/ d");
    play(&mut corner, "a5-a1");
    let mut captured = game("/11/11/4t6/3tKt5/2t8/11/11/11/11/11/11/ a");
    play(&mut captured, "c7-e7");
    let mut capped = Hnefatafl::from_position(START, &HnefataflOptions { ply_cap: 1 }).unwrap();
    play(&mut capped, "d1-d3");
    let mut stats = HnefataflStats::default();
    // Group 1: agent 0 attacks and wins; then, sides swapped, agent 1 defends... and wins.
    stats.add_group(&[captured, corner]);
    // Group 2: a draw, then the defenders (agent 0) win.
    let mut other = HnefataflStats::default();
    other.add_group(&[capped, corner]);
    stats.merge(&other);
    let report = stats.summary(&["a".into(), "b".into()]);
    assert_eq!(report.games, 4);
    assert_eq!(
        (report.attacker_wins, report.defender_wins, report.draws),
        (1, 2, 1)
    );
    assert_eq!(report.timeouts, 1);
    assert_eq!((report.plies_min, report.plies_max), (1, 1));
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
            ("forfeit: unreadable reply", 0)
        ]
    );
    // Attackers scored 1 + 0 + 0.5 + 0 of 4: 0.375, advantage -0.125.
    assert!((report.attackers_advantage.value + 0.125).abs() < 1e-12);
    let [low, high] = report.attackers_advantage.ci95;
    assert!(low < -0.125 && high > -0.125);
    // Agent "a" (slot 0) attacks in rotation 0 of both groups (a win, a draw) and defends in
    // rotation 1 of both (the defenders won both).
    let a = &report.agents[0];
    assert_eq!(a.agent, "a");
    assert_eq!(
        (
            a.as_attackers.wins,
            a.as_attackers.draws,
            a.as_attackers.losses
        ),
        (1, 1, 0)
    );
    assert_eq!(
        (
            a.as_defenders.wins,
            a.as_defenders.draws,
            a.as_defenders.losses
        ),
        (2, 0, 0)
    );
    let b = &report.agents[1];
    assert_eq!(
        (
            b.as_defenders.wins,
            b.as_defenders.draws,
            b.as_defenders.losses
        ),
        (0, 1, 1)
    );
    assert_eq!(
        (
            b.as_attackers.wins,
            b.as_attackers.draws,
            b.as_attackers.losses
        ),
        (0, 0, 2)
    );
    // Merging is order-independent.
    let mut reversed = other.clone();
    let mut first = HnefataflStats::default();
    first.add_group(&[captured, corner]);
    reversed.merge(&first);
    assert_eq!(reversed, stats);
}
