//! Whole games with every level, the play log, the agents' choices and the statistics.

use std::collections::BTreeSet;

use super::*;
use crate::game::GameStats;

// ---- whole games -----------------------------------------------------------------------------

#[test]
fn random_games_with_2_to_8_players_end_and_keep_the_rules() {
    for seats in 2..=8 {
        for seed in 0..12 {
            let levels = [seed as usize % 3, 2, 1];
            let game = run_game(seats, &levels, seed * 31 + seats as u64);
            let outcome = game.outcome().unwrap();
            assert!(!outcome.winners.is_empty());
            let rounds = (0..3).map(|r| game.round_winner_set(r)).collect::<Vec<_>>();
            for (r, winners) in rounds.iter().enumerate() {
                let scores = game.round_scores(r);
                assert_eq!(*winners, round_winners(&scores, seats));
                assert!(scores[..seats].iter().filter(|&&s| s >= 0).count() <= 1);
            }
            let dealt: u32 = game.record().seats.iter().map(|r| r.dealt.sum).sum();
            let captured: u32 = game.counters().captures.iter().sum();
            assert_eq!(dealt, captured);
            let turns: u32 = game.record().seats.iter().map(|r| r.turns).sum();
            let per_round: u32 = game
                .record()
                .turns_per_round
                .iter()
                .map(|&t| u32::from(t))
                .sum();
            assert_eq!(turns, per_round);
            for r in &game.record().seats[..seats] {
                assert_eq!(r.turns, r.misses + r.exacts + r.attacks);
                assert!(r.deaths <= 3 && r.vengeances <= r.deaths);
            }
            assert!(game.counters().rolls >= turns);
        }
    }
}

#[test]
fn games_are_reproducible_and_round_1_is_started_by_the_dice() {
    let a = run_game(5, &[0, 1, 2], 77);
    let b = run_game(5, &[0, 1, 2], 77);
    assert_eq!(a, b);
    let firsts: BTreeSet<u8> = (0..60)
        .map(|seed| {
            let mut dice = RandomStream::dice(seed);
            TrenteDouze::new(&TrenteDouzeOptions::default(), 5, &mut dice, &mut NoLog)
                .first_players()[0]
        })
        .collect();
    assert_eq!(firsts.len(), 5, "every seat starts some game");
}

#[test]
fn rounds_2_and_3_are_started_by_the_first_player_to_die() {
    for seed in 0..40 {
        let mut dice = RandomStream::dice(seed);
        let mut game = TrenteDouze::new(&TrenteDouzeOptions::default(), 4, &mut dice, &mut NoLog);
        let mut rng = RandomStream::tie_break(seed, 0);
        let mut moves = <TrenteDouze as Rules>::MoveList::default();
        let mut first_dead = [None; 3];
        while game.outcome().is_none() {
            let round = game.round();
            game.legal_moves(&mut moves);
            let mv = moves[crate::agent::pick(moves.len(), &mut rng)];
            let before: Vec<bool> = (0..4).map(|s| game.is_alive(s)).collect();
            game.play(mv, &mut dice, &mut NoLog);
            if game.round() == round && game.outcome().is_none() {
                // At most one player dies per move (an attack or a miss hits one player).
                if first_dead[round].is_none() {
                    first_dead[round] =
                        (0..4u8).find(|&s| before[s as usize] && !game.is_alive(s as usize));
                }
            } else if first_dead[round].is_none() {
                // The round ended on this move: its deaths are in its final scores.
                let scores = game.round_scores(round);
                first_dead[round] =
                    (0..4u8).find(|&s| before[s as usize] && scores[s as usize] < 0);
            }
        }
        let firsts = game.first_players();
        assert_eq!(Some(firsts[1]), first_dead[0], "seed {seed}");
        assert_eq!(Some(firsts[2]), first_dead[1], "seed {seed}");
    }
}

#[test]
fn the_play_log_narrates_rolls_choices_thresholds_and_damage() {
    let mut log = String::new();
    run_logged_game(3, &[2], 3, &mut log);
    for needle in [
        "round 1 (",
        " rolls ",
        "sets aside",
        "first die",
        "the sum must be",
        "damage throw",
        " hits seat ",
        "round 3 over",
        "game over",
    ] {
        assert!(log.contains(needle), "the log lacks `{needle}`:\n{log}");
    }
}

// ---- agents ----------------------------------------------------------------------------------

#[test]
fn normal_commits_from_the_first_roll_and_keeps_the_best_face() {
    let keep = |d: &str, t| Move::Keep {
        dice: hand(d),
        threshold: t,
    };
    // More 1s and 2s than 5s and 6s: small, every 1.
    assert_eq!(
        choose(1, &first_roll("112356")),
        keep("11", Some(Threshold::Small))
    );
    // Otherwise big: every 6, or the highest die.
    assert_eq!(
        choose(1, &first_roll("125566")),
        keep("66", Some(Threshold::Big))
    );
    assert_eq!(
        choose(1, &first_roll("233445")),
        keep("5", Some(Threshold::Big))
    );
    assert_eq!(
        choose(1, &first_roll("333333")),
        keep("3", Some(Threshold::Small))
    );
    let later = position("seats=2 round=1 scores=30,30 turn=0 threshold=small kept=1 roll=22346");
    assert_eq!(choose(1, &later), keep("2", None));
    // Victim: the leader.
    let r3 = position(
        "seats=4 round=3 scores=30,-2,12,25 past=30,-1,-1,-1/-1,30,-1,-1 turn=0 first-dead=1 \
         threshold=big kept=666666",
    );
    assert_eq!(choose(1, &r3), Move::Victim(3));
}

#[test]
fn hard_plays_its_table_and_aims_at_the_threat() {
    let policy = Policy::new(1.0, 1.0);
    let game = first_roll("123456");
    let (dice, t) = policy.keep(TurnState {
        threshold: None,
        sum: 0,
        roll: hand("123456"),
    });
    assert_eq!(
        choose(2, &game),
        Move::Keep {
            dice,
            threshold: Some(t)
        }
    );
    // A roll of six 6s: keeping all is worth 6·E[N]; Hard keeps them all.
    assert_eq!(
        choose(2, &first_roll("666666")),
        Move::Keep {
            dice: hand("666666"),
            threshold: Some(Threshold::Big)
        }
    );
    // Victims: seat 2 has won two rounds; seat 3 leads on points this round.
    let r3 = position(
        "seats=4 round=3 scores=30,-2,20,25 past=-1,-1,30,-1/-1,-1,30,-1 turn=0 first-dead=1 \
         threshold=big kept=666666",
    );
    assert_eq!(choose(2, &r3), Move::Victim(2));
    // By default the leader on points: seat 3 (at 6) over seat 2 (at 5). With a kill bonus of
    // 10, the likelier kill wins: at level 6 any hit kills seat 2, seat 3 needs two
    // (5 + 10·0.665 > 6 + 10·0.504).
    let r3 = position(
        "seats=4 round=3 scores=30,-2,5,6 past=30,-1,-1,-1/-1,30,-1,-1 turn=0 first-dead=1 \
         threshold=big kept=666666",
    );
    assert_eq!(choose(2, &r3), Move::Victim(3));
    let killer = HardWeights {
        victim_kill: 10.0,
        ..HardWeights::default()
    };
    assert_eq!(choose_with(2, killer.values(), &r3), Move::Victim(2));
    // A dead player is a poor target even with the best score among the dead.
    let venge = position(
        "seats=3 round=1 scores=1,-2,-9 turn=0 mover=1 first-dead=1 threshold=small kept=111111",
    );
    assert_eq!(choose(2, &venge), Move::Victim(0));
}

#[test]
fn weight_table_is_consistent() {
    crate::weights::check_table(&HardWeights::SET).unwrap();
    assert_eq!(HardWeights::SET.defaults(), HardWeights::default().values());
    assert_eq!(TrenteDouze::levels().len(), 3);
    assert!(TrenteDouze::check_options(&TrenteDouzeOptions::default()).is_ok());
}

// ---- statistics ------------------------------------------------------------------------------

fn group(seed: u64, seats: usize) -> Vec<TrenteDouze> {
    // Rotation r: seat s is played by slot seat_agent(s, r, n); slots are Easy, Normal, Hard...
    let slots = [0, 1, 2, 2, 1, 0, 2, 1];
    (0..seats)
        .map(|r| {
            let levels: Vec<usize> = (0..seats)
                .map(|s| slots[crate::game::seat_agent(s, r, seats)])
                .collect();
            run_game(seats, &levels, seed)
        })
        .collect()
}

#[test]
fn statistics_attribute_rotated_seats_and_merge_exactly() {
    let seats = 3;
    let (g1, g2) = (group(11, seats), group(12, seats));
    let mut a = TrenteDouzeStats::default();
    a.add_group(&g1);
    let mut b = TrenteDouzeStats::default();
    b.add_group(&g2);
    let mut both = TrenteDouzeStats::default();
    both.add_group(&g1);
    both.add_group(&g2);
    let mut merged = b.clone();
    merged.merge(&a);
    assert_eq!(merged, both);
    assert_eq!(both.first_player.games, 6);
    assert_eq!(both.first_player.fair, 6 * 840 / 3);
    let total_score: u64 = both.agents.iter().map(|a| a.game_score).sum();
    assert_eq!(total_score, 6 * 840, "a game's shares add up to one");
    // Slot 0 plays seat 0 in rotation 0, seat 2 in rotation 1, seat 1 in rotation 2.
    let slot0_turns: u64 = [(0, 0), (1, 2), (2, 1)]
        .iter()
        .map(|&(r, s)| u64::from(g1[r].record().seats[s].turns))
        .sum();
    assert_eq!(a.agents[0].turns, slot0_turns);
    let report = both.summary(&["easy".into(), "normal".into(), "hard".into()]);
    assert_eq!(report.agents.len(), 3);
    assert_eq!(report.agents[2].agent, "hard");
    assert!((report.first_player.fair_share - 1.0 / 3.0).abs() < 1e-12);
    let shares = &report.agents[1];
    let total = shares.miss_share.value + shares.exact_share.value + shares.attack_share.value;
    assert!((total - 1.0).abs() < 1e-12);
    assert_eq!(report.turns_per_round.len(), 3);
}

#[test]
fn a_new_game_starts_with_its_first_player_throwing_six() {
    let mut dice = Script::new(&[6, 5, 4, 3, 2, 1]);
    let game = TrenteDouze::with_first_player(3, 2, &mut dice, &mut NoLog);
    dice.assert_used_up();
    assert_eq!(
        (game.mover(), game.roll(), game.round()),
        (2, hand("123456"), 0)
    );
    assert_eq!(game.counters().rolls, 1);
    assert!((0..3).all(|s| game.score(s) == START_SCORE));
    assert_eq!(
        game.position().unwrap(),
        "seats=3 round=1 scores=30,30,30 turn=2 mover=2 roll=123456"
    );
}
