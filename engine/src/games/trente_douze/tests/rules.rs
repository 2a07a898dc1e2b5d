//! Hands, legal moves and notation, the worked examples, attacks and vengeance, winners.

use std::collections::BTreeSet;

use super::*;
use crate::game::SeatResult;
use crate::games::trente_douze::hand::OFFSET;

// ---- hands -----------------------------------------------------------------------------------

#[test]
fn hands_count_sum_and_split() {
    let h = hand("116456");
    assert_eq!((h.len(), h.sum(), h.count(1), h.count(6)), (6, 23, 2, 2));
    assert_eq!(h.to_string(), "1 1 4 5 6 6");
    assert!(hand("16").is_within(h) && !hand("22").is_within(h));
    assert_eq!(h.minus(hand("16")), hand("1456"));
    assert_eq!(hand("14").plus(hand("6")), hand("146"));
    assert!(hand("33").has_class(Threshold::Small) && !hand("33").has_class(Threshold::Big));
    assert!(hand("4").has_class(Threshold::Big) && !hand("4").has_class(Threshold::Small));
    assert_eq!(Hand::repeat(6, 3), hand("666"));
    assert_eq!(Hand::EMPTY.to_string(), "-");
    assert_eq!((h.lowest(), h.highest()), (Some(1), Some(6)));
    assert_eq!(
        (hand("33").lowest(), hand("45").highest()),
        (Some(3), Some(5))
    );
    assert_eq!((Hand::EMPTY.lowest(), Hand::EMPTY.highest()), (None, None));
}

/// The naive reading: every non-empty set of positions of the dice, as a sorted list of faces.
fn naive_parts(dice: &[u8]) -> BTreeSet<Vec<u8>> {
    (1u32..1 << dice.len())
        .map(|mask| {
            let mut part: Vec<u8> = (0..dice.len())
                .filter(|&i| mask & (1 << i) != 0)
                .map(|i| dice[i])
                .collect();
            part.sort_unstable();
            part
        })
        .collect()
}

#[test]
fn parts_are_the_distinct_sub_multisets_and_hand_indices_are_a_bijection() {
    let mut seen = BTreeSet::new();
    for k in 0..=6 {
        for roll in all_rolls(k) {
            let h = Hand::of(&roll);
            let mut parts = Vec::new();
            h.for_each_part(|p| parts.push(p.faces().collect::<Vec<u8>>()));
            let unique: BTreeSet<Vec<u8>> = parts.iter().cloned().collect();
            assert_eq!(unique.len(), parts.len(), "each part once: {roll:?}");
            assert_eq!(unique, naive_parts(&roll), "{roll:?}");
            assert!(seen.insert(h.index()), "index collision at {roll:?}");
        }
    }
    assert_eq!(seen.len(), 924);
    for k in 0..=6 {
        for (i, h) in Hand::all_of_size(k).into_iter().enumerate() {
            assert_eq!((h.len(), h.index()), (k, OFFSET[usize::from(k)] + i));
        }
    }
    assert_eq!(*seen.last().unwrap(), 923);
}

// ---- legal moves and notation ----------------------------------------------------------------

#[test]
fn first_roll_moves_match_a_naive_generator_and_the_worst_case_is_112() {
    let mut most = 0;
    for roll in all_rolls(6) {
        let text: String = roll.iter().map(|f| char::from(b'0' + f)).collect();
        let game = first_roll(&text);
        let moves = legal(&game);
        // Naive: each set of positions, and each position in it as the first die.
        let roll = &roll;
        let naive: BTreeSet<(Vec<u8>, Threshold)> = (1u32..64)
            .flat_map(|mask| {
                let part: Vec<usize> = (0..6).filter(|&i| mask & (1 << i) != 0).collect();
                let mut faces: Vec<u8> = part.iter().map(|&i| roll[i]).collect();
                faces.sort_unstable();
                part.into_iter()
                    .map(move |i| (faces.clone(), Threshold::of_face(roll[i])))
            })
            .collect();
        let ours: BTreeSet<(Vec<u8>, Threshold)> = moves
            .iter()
            .map(|mv| match *mv {
                Move::Keep {
                    dice,
                    threshold: Some(t),
                } => (dice.faces().collect(), t),
                other => panic!("unexpected first move {other:?}"),
            })
            .collect();
        assert_eq!(ours.len(), moves.len(), "no duplicates for {text}");
        assert_eq!(ours, naive, "{text}");
        most = most.max(moves.len());
    }
    assert_eq!(most, MAX_MOVES);
    assert_eq!(legal(&first_roll("123456")).len(), 112);
}

#[test]
fn later_rolls_and_victims_have_the_expected_moves() {
    let game = position("seats=3 round=1 scores=30,30,30 turn=0 threshold=big kept=6 roll=11235");
    let moves = legal(&game);
    assert_eq!(moves.len(), 3 * 2 * 2 * 2 - 1, "two 1s, a 2, a 3 and a 5");
    assert!(moves.iter().all(|m| matches!(
        m,
        Move::Keep {
            threshold: None,
            ..
        }
    )));
    // Round 3: the living others; a vengeance: anyone but the avenger.
    let r3 = position(
        "seats=4 round=3 scores=30,-2,30,30 past=30,-1,-1,-1/-1,30,-1,-1 turn=0 first-dead=1 \
         threshold=big kept=666666",
    );
    assert_eq!(r3.pending_attack(), Some(6));
    assert_eq!(
        legal(&r3),
        vec![Move::Victim(2), Move::Victim(3)],
        "dead seat 1 is no target"
    );
    let venge = position(
        "seats=4 round=1 scores=30,-2,-3,30 turn=0 mover=1 first-dead=2 threshold=small \
         kept=111111",
    );
    assert!(venge.in_vengeance());
    assert_eq!(
        legal(&venge),
        vec![Move::Victim(0), Move::Victim(2), Move::Victim(3)]
    );
}

#[test]
fn moves_format_and_parse_back() {
    let game = first_roll("123456");
    for mv in legal(&game) {
        assert_eq!(game.parse_move(&game.format_move(mv)), Ok(mv));
    }
    assert_eq!(
        game.format_move(Move::Keep {
            dice: hand("46"),
            threshold: Some(Threshold::Big)
        }),
        "keep 4 6 big"
    );
    // Lenient forms: digits run together, commas, the class inferred when the dice allow one.
    let keep = |d: &str, t| Move::Keep {
        dice: hand(d),
        threshold: t,
    };
    assert_eq!(game.parse_move("56"), Ok(keep("56", Some(Threshold::Big))));
    assert_eq!(
        game.parse_move("KEEP 1,6 small"),
        Ok(keep("16", Some(Threshold::Small)))
    );
    for (bad, says) in [
        ("keep 1 6", "add `small` or `big`"),
        ("keep 7", "`7` is not a die face"),
        ("keep 6 6", "not all in the roll"),
        ("keep", "at least one die"),
        ("keep 1 big", "no die of 1 is big"),
        ("keep 1 small small", "once"),
    ] {
        let err = game.parse_move(bad).unwrap_err().to_string();
        assert!(err.contains(says), "{bad}: {err}");
        assert!(!err.contains('\n'));
    }
    let later = position("seats=2 round=1 scores=30,30 turn=0 threshold=big kept=6 roll=11235");
    assert_eq!(later.parse_move("keep 1 1"), Ok(keep("11", None)));
    assert_eq!(later.parse_move("5 big"), Ok(keep("5", None)));
    assert!(
        later
            .parse_move("5 small")
            .unwrap_err()
            .to_string()
            .contains("already big")
    );
    let venge = position(
        "seats=3 round=1 scores=30,-2,30 turn=0 mover=1 first-dead=1 threshold=small kept=111111",
    );
    assert_eq!(venge.parse_move("victim 2"), Ok(Move::Victim(2)));
    assert_eq!(venge.parse_move("0"), Ok(Move::Victim(0)));
    assert!(
        venge
            .parse_move("victim 1")
            .unwrap_err()
            .to_string()
            .contains("one of seats 0,2")
    );
}

#[test]
fn positions_round_trip_and_bad_ones_say_what_is_wrong() {
    for text in [
        "seats=3 round=1 scores=30,30,30 turn=0 mover=0 roll=123456",
        "seats=4 round=2 scores=30,12,-3,30 past=5,-3,-1,-2 turn=1 mover=1 first-dead=2 \
         threshold=big kept=66 roll=1345",
        "seats=4 round=3 scores=30,-2,30,30 past=30,-1,-1,-1/-1,30,-1,-1 turn=0 mover=0 \
         first-dead=1 threshold=big kept=666666",
        "seats=2 past=30,-1/-3,5/2,-1",
    ] {
        let game = position(text);
        assert_eq!(game.position().unwrap(), text);
        assert!(!game.render().is_empty());
    }
    let over = position("seats=2 past=30,-1/-3,5/2,-1");
    assert_eq!(over.outcome().unwrap().sole_winner(), Some(0));
    for (bad, says) in [
        ("seats=9 round=1", "seats: must be 2 to 8"),
        (
            "seats=2 round=1 scores=30 turn=0 roll=123456",
            "has 1 scores",
        ),
        (
            "seats=2 round=1 scores=30,31 turn=0 roll=123456",
            "`31` is not a score",
        ),
        (
            "seats=2 round=2 scores=30,30 turn=0 roll=123456",
            "earlier round",
        ),
        (
            "seats=2 round=1 scores=30,30 turn=0 roll=12345",
            "must make six dice",
        ),
        (
            "seats=2 round=1 scores=30,30 turn=0 roll=123457",
            "`7` is not accepted",
        ),
        (
            "seats=2 round=1 scores=30,30 turn=2 roll=123456",
            "turn: `2` is not a seat",
        ),
        (
            "seats=2 round=1 scores=30,-1 turn=0 roll=123456",
            "first-dead",
        ),
        (
            "seats=2 round=1 scores=30,30 turn=0 kept=1 roll=12345",
            "threshold=small",
        ),
        (
            "seats=2 round=1 scores=30,30 turn=0 threshold=big kept=1 roll=12345",
            "no kept die",
        ),
        (
            "seats=2 round=1 scores=30,30 turn=0 threshold=big kept=666666",
            "victim",
        ),
        ("seats=2 colour=red", "unknown key `colour`"),
        ("seats=2 round", "not key=value"),
        ("seats=2 seats=2", "given twice"),
    ] {
        let err = TrenteDouze::from_position(bad, &TrenteDouzeOptions::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains(says), "{bad}: {err}");
    }
}

// ---- the source's worked examples ------------------------------------------------------------

/// Seat 0 of a round-3 game sets aside `order` one die at a time (each roll shows the die to
/// keep among fillers), and the result is returned with the game.
fn set_aside_in_order(order: [u8; 6]) -> TrenteDouze {
    let filler = |i: usize| -> Vec<u8> { vec![if order[i] == 3 { 2 } else { 3 }; 5 - i] };
    let first: String = std::iter::once(order[0])
        .chain(filler(0))
        .map(|f| char::from(b'0' + f))
        .collect();
    let mut game = position(&format!(
        "seats=2 round=3 scores=30,30 past=30,-1/-1,30 turn=0 roll={first}"
    ));
    let mut script: Vec<u8> = (1..6)
        .flat_map(|i| std::iter::once(order[i]).chain(filler(i)))
        .collect();
    // A turn that does not attack passes the dice: seat 1's first throw.
    script.extend([2; 6]);
    let mut dice = Script::new(&script);
    let class = Threshold::of_face(order[0]).name();
    play(&mut game, &format!("keep {} {class}", order[0]), &mut dice);
    for &face in &order[1..] {
        assert_eq!(game.mover(), 0);
        play(&mut game, &format!("keep {face}"), &mut dice);
    }
    assert!(
        dice.next == script.len() - 6 || dice.next == script.len(),
        "all the turn's dice were thrown"
    );
    game
}

#[test]
fn the_five_worked_turns() {
    // 4, 5, 6, 6, 5, 4: big, 30: nothing lost.
    let g = set_aside_in_order([4, 5, 6, 6, 5, 4]);
    assert_eq!(turn_result(Threshold::Big, 30), TurnResult::Exact);
    assert_eq!((g.score(0), g.mover()), (30, 1));
    assert_eq!(g.record().seats[0].exacts, 1);
    // 6, 3, 3, 2, 5, 6: big, 25: loses 5.
    let g = set_aside_in_order([6, 3, 3, 2, 5, 6]);
    assert_eq!(turn_result(Threshold::Big, 25), TurnResult::Loss(5));
    assert_eq!((g.score(0), g.mover()), (25, 1));
    // 1, 2, 2, 1, 3, 1: small, 10: attacks at level 2.
    let g = set_aside_in_order([1, 2, 2, 1, 3, 1]);
    assert_eq!(turn_result(Threshold::Small, 10), TurnResult::Attack(2));
    assert_eq!((g.pending_attack(), g.mover()), (Some(2), 0));
    // 6, 5, 6, 6, 4, 6: big, 33: attacks at level 3.
    let g = set_aside_in_order([6, 5, 6, 6, 4, 6]);
    assert_eq!(turn_result(Threshold::Big, 33), TurnResult::Attack(3));
    assert_eq!(g.pending_attack(), Some(3));
    assert_eq!(g.threshold(), Some(Threshold::Big));
    // 1, 5, 4, 3, 5, 4: small, 22: loses 10.
    let g = set_aside_in_order([1, 5, 4, 3, 5, 4]);
    assert_eq!(turn_result(Threshold::Small, 22), TurnResult::Loss(10));
    assert_eq!(g.score(0), 20);
}

#[test]
fn the_threshold_is_the_class_the_player_names_for_the_first_die() {
    // 1 and 6 set aside together: the player says which was first.
    for (class, threshold) in [("small", Threshold::Small), ("big", Threshold::Big)] {
        let mut game = first_roll("162222");
        play(
            &mut game,
            &format!("keep 1 6 {class}"),
            &mut Script::new(&[2; 4]),
        );
        assert_eq!(game.threshold(), Some(threshold));
        assert_eq!(game.kept(), hand("16"));
    }
    assert_eq!(turn_result(Threshold::Small, 12), TurnResult::Exact);
    assert_eq!(turn_result(Threshold::Small, 6), TurnResult::Attack(6));
    assert_eq!(turn_result(Threshold::Big, 36), TurnResult::Attack(6));
    assert_eq!(turn_result(Threshold::Small, 36), TurnResult::Loss(24));
    assert_eq!(turn_result(Threshold::Big, 6), TurnResult::Loss(24));
}

fn damage(level: u8, throws: &[u8]) -> u32 {
    let mut dice = Script::new(throws);
    let kept = attack_dice(level, &mut dice, |_, _| {});
    dice.assert_used_up();
    u32::from(level) * kept
}

#[test]
fn the_three_worked_attacks() {
    // At 2s with no 2 on the first throw: no damage.
    assert_eq!(damage(2, &[1, 3, 4, 5, 6, 6]), 0);
    // At 4s: two 4s, then none among the four rerolled: 8.
    assert_eq!(damage(4, &[4, 4, 1, 2, 3, 5, 1, 2, 3, 5]), 8);
    // At 1s: four 1s, then the two rerolled are 1s (a full hand), six thrown again: three 1s,
    // the three rerolled show none: 9.
    assert_eq!(
        damage(1, &[1, 1, 1, 1, 2, 3, 1, 1, 1, 1, 1, 2, 3, 4, 2, 3, 4]),
        9
    );
}

#[test]
fn attacks_skip_dead_players() {
    // Seat 1 is dead: seat 0's attack in round 1 passes it and hits seat 2.
    let mut game = position(
        "seats=4 round=1 scores=30,-1,30,30 turn=0 first-dead=1 threshold=big kept=66666 roll=6",
    );
    let mut script = hits(6, 1);
    script.extend([1; 6]);
    let mut dice = Script::new(&script);
    play(&mut game, "keep 6", &mut dice);
    dice.assert_used_up();
    assert_eq!((game.score(1), game.score(2)), (-1, 24));
    assert_eq!(game.mover(), 2, "the dice skip the dead too");
    // Seat 3 is dead: seat 0's attack in round 2 goes back to seat 2.
    let mut game = position(
        "seats=4 round=2 scores=30,30,30,-1 past=30,-1,-1,-1 turn=0 first-dead=3 threshold=big \
         kept=66666 roll=6",
    );
    let mut dice = Script::new(&script);
    play(&mut game, "keep 6", &mut dice);
    assert_eq!((game.score(1), game.score(2), game.score(3)), (30, 24, -1));
}

// ---- attacks, deaths and vengeance -----------------------------------------------------------

/// Throws of an attack at `level` that keep exactly `hits` dice (fewer than six): one throw
/// with that many hits, then none.
fn hits(level: u8, hits: usize) -> Vec<u8> {
    let miss = level % 6 + 1;
    let mut throws = vec![level; hits];
    throws.resize(6, miss);
    throws.extend(vec![miss; 6 - hits]);
    throws
}

#[test]
fn attacks_take_level_times_dice_kept() {
    // Round 1, seat 0 beats big by 6: the next player, seat 1, loses 6 × 2.
    let mut game =
        position("seats=3 round=1 scores=30,30,30 turn=0 threshold=big kept=66666 roll=6");
    let mut script = hits(6, 2);
    script.extend([1; 6]);
    let mut dice = Script::new(&script);
    play(&mut game, "keep 6", &mut dice);
    dice.assert_used_up();
    assert_eq!((game.score(1), game.score(2)), (18, 30));
    assert_eq!(game.counters().captures[0], 12);
    assert_eq!(game.mover(), 1, "the dice pass to the next player");
    // Round 2 hits the previous player: seat 2.
    let mut game = position(
        "seats=3 round=2 scores=30,30,30 past=30,-1,-1 turn=0 threshold=big kept=66666 roll=6",
    );
    let mut dice = Script::new(&script);
    play(&mut game, "keep 6", &mut dice);
    assert_eq!((game.score(1), game.score(2)), (30, 18));
}

#[test]
fn a_kill_triggers_vengeance_out_of_turn() {
    // Seat 0 kills seat 1 (at 3): seat 1 takes its vengeance at once, then seat 1 being dead,
    // the dice pass from seat 0 to seat 2.
    let mut game =
        position("seats=3 round=1 scores=30,3,30 turn=0 threshold=big kept=66666 roll=6");
    let mut script = hits(6, 1);
    script.extend([1, 1, 1, 1, 1, 1]); // seat 1's vengeance throw
    let mut dice = Script::new(&script);
    play(&mut game, "keep 6", &mut dice);
    dice.assert_used_up();
    assert_eq!(game.score(1), -3);
    assert!(game.in_vengeance());
    assert_eq!(game.mover(), 1);
    assert_eq!(game.record().seats[1].vengeances, 1);
    assert_eq!(game.record().seats[1].deaths, 1);
    // The vengeance sets aside six 1s (small, sum 6): an attack at 6 on a victim of its choice.
    let mut dice = Script::new(&[]);
    play(&mut game, "keep 1 1 1 1 1 1", &mut dice);
    assert_eq!(game.pending_attack(), Some(6));
    let mut script = hits(6, 2);
    script.extend([2; 6]); // then seat 2's ordinary turn
    let mut dice = Script::new(&script);
    play(&mut game, "victim 0", &mut dice);
    dice.assert_used_up();
    assert_eq!(game.score(0), 18);
    assert_eq!(
        (game.mover(), game.in_vengeance()),
        (2, false),
        "back to the order"
    );
}

#[test]
fn a_self_kill_gives_no_vengeance() {
    // Seat 0 at 4 misses small by 10: dead, and the dice pass on without a vengeance.
    let mut game =
        position("seats=3 round=1 scores=4,30,30 turn=0 threshold=small kept=11234 roll=6");
    let mut dice = Script::new(&[3; 6]);
    play(&mut game, "keep 6", &mut dice);
    assert_eq!(game.score(0), 4 - (17 - 12));
    assert!(!game.is_alive(0));
    assert_eq!((game.mover(), game.in_vengeance()), (1, false));
    assert_eq!(game.record().seats[0].vengeances, 0);
    assert!(game.position().unwrap().contains("first-dead=0"));
}

#[test]
fn vengeance_chains_and_a_dead_victim_gives_nothing() {
    // Round 1, four players. Seat 0 kills seat 1; seat 1's vengeance kills seat 2; seat 2's
    // vengeance hits the already dead seat 1, which gives no further vengeance; the dice then
    // pass from seat 0 to seat 3.
    let mut game =
        position("seats=4 round=1 scores=30,3,2,30 turn=0 threshold=big kept=66666 roll=6");
    let mut script = hits(6, 1); // 6 damage to seat 1
    script.extend([1; 6]); // seat 1's vengeance throw
    let mut dice = Script::new(&script);
    play(&mut game, "keep 6", &mut dice);
    assert_eq!(game.mover(), 1);
    play(&mut game, "keep 111111", &mut Script::new(&[]));
    let mut script = hits(6, 1); // seat 1 hits seat 2 for 6
    script.extend([6; 6]); // seat 2's vengeance throw
    let mut dice = Script::new(&script);
    play(&mut game, "victim 2", &mut dice);
    dice.assert_used_up();
    assert_eq!((game.score(2), game.mover()), (-4, 2));
    assert!(game.in_vengeance());
    play(&mut game, "keep 666666 big", &mut Script::new(&[]));
    let mut script = hits(6, 3); // 18 more on dead seat 1
    script.extend([3; 6]); // seat 3's ordinary turn
    let mut dice = Script::new(&script);
    play(&mut game, "victim 1", &mut dice);
    dice.assert_used_up();
    assert_eq!(game.score(1), -3 - 18);
    assert_eq!(game.record().seats[1].vengeances, 1, "one vengeance only");
    assert_eq!(game.record().seats[1].deaths, 1);
    assert_eq!((game.mover(), game.in_vengeance()), (3, false));
    assert!(game.position().unwrap().contains("first-dead=1"));
}

#[test]
fn a_round_can_end_with_everyone_dead_and_the_least_negative_wins() {
    // Two players. Seat 0 (at 2) kills seat 1 (at 0); seat 1's vengeance kills seat 0; seat 0's
    // vengeance (it was alive when hit) hits seat 1 again. Nobody is alive: round 1 ends, won by
    // the least negative, and round 2 is started by the first to die, seat 1.
    let mut game = position("seats=2 round=1 scores=2,0 turn=0 threshold=big kept=66666 roll=6");
    let mut script = hits(6, 1);
    script.extend([1; 6]);
    let mut dice = Script::new(&script);
    play(&mut game, "keep 6", &mut dice);
    assert_eq!((game.score(1), game.mover()), (-6, 1));
    play(&mut game, "keep 111111 small", &mut Script::new(&[]));
    let mut script = hits(6, 1);
    script.extend([6; 6]);
    let mut dice = Script::new(&script);
    play(&mut game, "victim 0", &mut dice);
    assert_eq!((game.score(0), game.mover()), (-4, 0));
    play(&mut game, "keep 666666 big", &mut Script::new(&[]));
    let mut script = hits(6, 1);
    script.extend([5; 6]); // round 2's first throw
    let mut dice = Script::new(&script);
    play(&mut game, "victim 1", &mut dice);
    dice.assert_used_up();
    assert_eq!(game.round(), 1);
    assert_eq!(game.round_scores(0)[..2], [-4, -12]);
    assert_eq!(game.round_winner_set(0), SeatSet::single(0));
    assert_eq!(game.first_players()[1], 1);
    assert_eq!((game.mover(), game.score(0), game.score(1)), (1, 30, 30));
}

// ---- winners ---------------------------------------------------------------------------------

fn sheet(rows: [[i16; 3]; 3]) -> [[i16; MAX_SEATS]; ROUNDS] {
    let mut out = [[0; MAX_SEATS]; ROUNDS];
    for (r, row) in rows.iter().enumerate() {
        out[r][..3].copy_from_slice(row);
    }
    out
}

fn winners_of(rows: [[i16; 3]; 3]) -> (Vec<SeatSet>, SeatSet) {
    let scores = sheet(rows);
    let rounds = [0, 1, 2].map(|r| round_winners(&scores[r], 3));
    (rounds.to_vec(), game_winners(&scores, &rounds, 3))
}

#[test]
fn round_and_game_winners_on_score_sheets() {
    // Most rounds wins.
    let (rounds, game) = winners_of([[12, -1, -3], [-2, 5, -1], [-1, 20, -4]]);
    assert_eq!(rounds, vec![SeatSet(1), SeatSet(2), SeatSet(2)]);
    assert_eq!(game, SeatSet(2));
    // Everyone dead: the least negative wins the round.
    let (rounds, _) = winners_of([[-5, -2, -9], [0, -1, -1], [3, -1, -1]]);
    assert_eq!(rounds[0], SeatSet(2));
    // A tied round credits both; one round each: the sum of scores decides (seat 0: 8, seat 1: 4).
    let (rounds, game) = winners_of([[7, 7, -1], [-1, 0, -2], [2, -3, -6]]);
    assert_eq!(rounds, vec![SeatSet(0b011), SeatSet(0b010), SeatSet(0b001)]);
    assert_eq!(game, SeatSet(0b001), "two rounds each: sums 8 and 4");
}

#[test]
fn game_winner_ties_break_on_the_score_sum_then_draw() {
    // One round each: sums 10, 4, 2 -> seat 0.
    let (_, game) = winners_of([[10, -1, -2], [-1, 5, -1], [1, 0, 5]]);
    assert_eq!(game, SeatSet(0b001));
    // One round each and equal sums: a draw between all three.
    let (_, game) = winners_of([[5, -1, -1], [-1, 5, -1], [-1, -1, 5]]);
    assert_eq!(game, SeatSet(0b111));
    let outcome = Outcome {
        winners: game,
        no_result: false,
        reason: Ending::Rules(Reason::ThreeRounds),
    };
    assert_eq!(outcome.result_of(1), SeatResult::Draw);
    // Two rounds beat one round with a better sum.
    let (_, game) = winners_of([[1, -10, 30], [0, -1, -1], [2, -5, -30]]);
    assert_eq!(game, SeatSet(0b001));
}
