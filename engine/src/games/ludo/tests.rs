//! Every clause of `rules/ludo.md` on hand-made positions.

use super::*;
use crate::agent::{Context, NoClock, TimeControl, pick};
use crate::game::{NoLog, SeatResult};

/// A dice stream whose first rolls are `prefix` (found by scanning seeds), so turn sequencing can
/// be tested on the real stream type.
fn dice_starting_with(prefix: &[u8]) -> RandomStream {
    (0..100_000u64)
        .map(RandomStream::dice)
        .find(|d| {
            let mut d = d.clone();
            prefix.iter().all(|&r| d.d6() == r)
        })
        .expect("some seed starts with this prefix")
}

const Y: i8 = YARD;

fn choose(level: usize, game: &Ludo, weights: Vec<f64>) -> LudoMove {
    let mut agent = Ludo::new_agent(&AgentSetup {
        level,
        weights,
        time_control: TimeControl::Batch,
    });
    let mut moves = ArrayVec::new();
    game.legal_moves(&mut moves);
    let mut rng = RandomStream::tie_break(1, 0);
    agent.choose(
        game,
        &moves,
        &mut Context {
            rng: &mut rng,
            clock: &NoClock,
        },
    )
}

fn hard(game: &Ludo) -> LudoMove {
    choose(2, game, HardWeights::SET.defaults())
}

fn normal(game: &Ludo) -> LudoMove {
    choose(1, game, Vec::new())
}

#[test]
fn geometry_matches_the_rules() {
    assert_eq!(track_square(0, 0), 0);
    assert_eq!(track_square(1, 0), 13);
    assert_eq!(track_square(3, 50), (39 + 50) % 52);
    let safe: Vec<u8> = (0..52).filter(|&q| is_safe(q)).collect();
    assert_eq!(safe, vec![0, 8, 13, 21, 26, 34, 39, 47]);
    assert_eq!(
        board::progress_of(12, 1),
        None,
        "square 12 is never on seat 1's track"
    );
    assert_eq!(board::progress_of(12, 0), Some(12));
}

#[test]
fn landing_on_a_stack_sends_all_of_it_home() {
    // Seat 1 has two pawns on square 16 (its progress 3); seat 0 moves 10 -> 16 with a 6.
    let mut game = Ludo::from_parts([[10, Y, Y, Y], [3, 3, 20, Y], [Y; 4], [Y; 4]], 0, 6, 1);
    game.play(LudoMove(0), &mut dice_starting_with(&[1]), &mut NoLog);
    assert_eq!(game.progress(1), [Y, Y, 20, Y]);
    assert_eq!(game.progress(0)[0], 16);
    assert_eq!(game.counters().captures[0], 2);
}

#[test]
fn pawns_of_different_colours_share_a_safe_square() {
    // Square 21 is seat 1's star (its progress 8); seat 0 lands there from 17 with a 4.
    let mut game = Ludo::from_parts([[17, Y, Y, Y], [8, Y, Y, Y], [Y; 4], [Y; 4]], 0, 4, 0);
    game.play(LudoMove(0), &mut dice_starting_with(&[1]), &mut NoLog);
    assert_eq!(game.progress(1)[0], 8);
    assert_eq!(game.progress(0)[0], 21);
    assert_eq!(game.counters().captures[0], 0);
}

#[test]
fn own_pawns_stack_on_any_square() {
    let mut game = Ludo::from_parts([[10, 14, Y, Y], [Y; 4], [Y; 4], [Y; 4]], 0, 4, 0);
    game.play(LudoMove(0), &mut dice_starting_with(&[1]), &mut NoLog);
    assert_eq!(game.progress(0)[..2], [14, 14]);
}

#[test]
fn finishing_needs_the_exact_count() {
    let over = Ludo::from_parts([[55, Y, Y, Y], [Y; 4], [Y; 4], [Y; 4]], 0, 3, 0);
    assert_eq!(over.destination(0), None, "55 + 3 overshoots 57");
    let exact = Ludo::from_parts([[55, Y, Y, Y], [Y; 4], [Y; 4], [Y; 4]], 0, 2, 0);
    assert_eq!(exact.destination(0), Some(FINISH));
    let done = Ludo::from_parts([[FINISH, Y, Y, Y], [Y; 4], [Y; 4], [Y; 4]], 0, 1, 0);
    assert_eq!(done.destination(0), None, "a finished pawn never moves");
    let yard = Ludo::from_parts([[Y; 4]; 4], 0, 5, 0);
    assert_eq!(yard.destination(0), None, "only a 6 leaves the yard");
}

#[test]
fn a_six_that_cannot_be_used_still_grants_a_roll() {
    let mut game = Ludo::from_parts(
        [[FINISH, FINISH, FINISH, 56], [20, Y, Y, Y], [Y; 4], [Y; 4]],
        0,
        0,
        0,
    );
    game.advance(&mut dice_starting_with(&[6, 1]), &mut NoLog);
    assert_eq!(
        (game.to_move(), game.roll(), game.counters().rolls),
        (0, 1, 2)
    );
    // Without the six the turn passes.
    let mut game = Ludo::from_parts(
        [[FINISH, FINISH, FINISH, 56], [20, Y, Y, Y], [Y; 4], [Y; 4]],
        0,
        0,
        0,
    );
    game.advance(&mut dice_starting_with(&[5]), &mut NoLog);
    assert_eq!(game.to_move(), 1);
}

#[test]
fn a_used_six_grants_a_roll_and_a_capture_does_not() {
    let mut game = Ludo::from_parts(
        [[10, Y, Y, Y], [20, Y, Y, Y], [30, Y, Y, Y], [Y; 4]],
        0,
        6,
        1,
    );
    game.play(LudoMove(0), &mut dice_starting_with(&[2]), &mut NoLog);
    assert_eq!((game.to_move(), game.roll()), (0, 2), "a six rolls again");
    game.play(LudoMove(0), &mut dice_starting_with(&[2]), &mut NoLog);
    assert_eq!(game.to_move(), 1, "after a non-six the turn passes");
    // A capture with a 3 passes the turn.
    let mut game = Ludo::from_parts(
        [[13, Y, Y, Y], [3, Y, Y, Y], [30, Y, Y, Y], [Y; 4]],
        0,
        3,
        0,
    );
    game.play(LudoMove(0), &mut dice_starting_with(&[2]), &mut NoLog);
    assert_eq!(game.counters().captures[0], 1);
    assert_eq!(
        game.to_move(),
        2,
        "seat 1 has only yard pawns and a 2: passes to seat 2"
    );
}

#[test]
fn the_third_six_is_void_but_earlier_moves_stand() {
    let mut game = Ludo::from_parts([[0, Y, Y, Y], [20, Y, Y, Y], [Y; 4], [Y; 4]], 0, 6, 1);
    let mut dice = dice_starting_with(&[6, 6, 2]);
    game.play(LudoMove(0), &mut dice, &mut NoLog);
    assert_eq!((game.to_move(), game.roll()), (0, 6));
    game.play(LudoMove(0), &mut dice, &mut NoLog);
    assert_eq!(game.progress(0)[0], 12, "both sixes moved the pawn");
    assert_eq!(
        (game.to_move(), game.roll()),
        (1, 2),
        "third six void, seat 1 rolled a 2"
    );
    assert_eq!(game.counters().rolls, 3);
}

#[test]
fn the_game_ends_when_one_seat_is_home() {
    let mut game = Ludo::from_parts(
        [[FINISH, FINISH, FINISH, 56], [20, Y, Y, Y], [Y; 4], [Y; 4]],
        0,
        1,
        0,
    );
    game.play(LudoMove(3), &mut dice_starting_with(&[1]), &mut NoLog);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.result_of(0), SeatResult::Win);
    assert_eq!(outcome.result_of(1), SeatResult::Loss);
    assert_eq!(
        game.counters().rolls,
        0,
        "no roll after the winning move, even on a six"
    );
}

#[test]
fn the_roll_cap_gives_no_result() {
    assert_eq!(LudoOptions::default().roll_cap, 10_000);
    let game = Ludo::new(
        &LudoOptions { roll_cap: 1 },
        4,
        &mut dice_starting_with(&[3]),
        &mut NoLog,
    );
    let outcome = game.outcome().unwrap();
    assert!(outcome.no_result);
    assert_eq!(outcome.result_of(0), SeatResult::NoResult);
    assert_eq!(Ludo::REASONS[usize::from(outcome.reason)], "roll cap");
    assert!(Ludo::check_options(&LudoOptions { roll_cap: 0 }).is_err());
}

#[test]
fn normal_follows_its_strict_order() {
    // Roll 6, seat 0: pawn 0 captures on 16, pawn 1 finishes from 51, pawn 2 leaves the yard,
    // pawn 3 lands on the star at 8.
    let opp = [3, Y, Y, Y];
    let all = Ludo::from_parts([[10, 51, Y, 2], opp, [Y; 4], [Y; 4]], 0, 6, 1);
    assert_eq!(normal(&all), LudoMove(0), "capture first");
    let no_capture = Ludo::from_parts([[10, 51, Y, 2], [Y; 4], [Y; 4], [Y; 4]], 0, 6, 1);
    assert_eq!(normal(&no_capture), LudoMove(1), "then the finish");
    let no_finish = Ludo::from_parts([[10, 40, Y, 2], [Y; 4], [Y; 4], [Y; 4]], 0, 6, 1);
    assert_eq!(normal(&no_finish), LudoMove(2), "then leaving the yard");
    let no_yard = Ludo::from_parts([[10, 40, 20, 2], [Y; 4], [Y; 4], [Y; 4]], 0, 6, 1);
    assert_eq!(normal(&no_yard), LudoMove(3), "then a safe square");
    // Two captures: the bigger one wins.
    let two = Ludo::from_parts(
        [[10, 30, Y, Y], [3, Y, Y, Y], [10, 10, Y, Y], [Y; 4]],
        0,
        6,
        1,
    );
    assert_eq!(
        normal(&two),
        LudoMove(1),
        "30 -> 36 sends seat 2's two pawns home"
    );
}

#[test]
fn hard_risk_matches_a_hand_computation() {
    // Square 20: seat 1 (progress 7) threatens it with faces 4 and 2, seat 2 (progress 46) with
    // face 1, seat 3 not at all: risk = 1 - (4/6)(5/6)(6/6) = 4/9.
    let game = Ludo::from_parts(
        [[14, Y, Y, Y], [3, 5, Y, Y], [45, Y, Y, Y], [Y; 4]],
        0,
        6,
        1,
    );
    assert_eq!(risk_numerator(&game, 0, 20), 4 * 5 * 6);
    // Two seats with one face each: 11/36, not 12/36.
    let game = Ludo::from_parts(
        [[14, Y, Y, Y], [6, Y, Y, Y], [45, Y, Y, Y], [Y; 4]],
        0,
        6,
        1,
    );
    assert_eq!(216 - risk_numerator(&game, 0, 20), 66, "66/216 = 11/36");
}

/// The naive reading of the rule: for each opponent and each face, does some pawn land exactly
/// on `square`?
fn naive_risk_numerator(game: &Ludo, mover: usize, square: u8) -> u32 {
    (0..SEATS)
        .filter(|&s| s != mover)
        .map(|s| {
            let faces = (1..=6)
                .filter(|&f| {
                    game.progress(s).iter().any(|&p| {
                        (0..=LAST_TRACK).contains(&p)
                            && p + f <= LAST_TRACK
                            && track_square(s, p + f) == square
                    })
                })
                .count() as u32;
            6 - faces
        })
        .product()
}

#[test]
fn risk_bitmask_equals_naive_scan_on_random_positions() {
    let mut rng = RandomStream::from_seed(9, 9);
    for _ in 0..2000 {
        let mut progress = [[Y; 4]; 4];
        for seat in &mut progress {
            for p in seat.iter_mut() {
                *p = rng.below(52) as i8 - 1;
            }
        }
        let game = Ludo::from_parts(progress, 0, 1, 0);
        for square in 0..52 {
            assert_eq!(
                risk_numerator(&game, 0, square),
                naive_risk_numerator(&game, 0, square)
            );
        }
    }
}

#[test]
fn hard_avoids_risk_that_normal_ignores() {
    // Roll 3: pawn 0 goes 14 -> 17 (seat 1 at progress 1 and 3 threatens square 17 = its
    // progress 4), pawn 1 goes 30 -> 33 (nobody behind). Both are plain progress.
    let game = Ludo::from_parts([[14, 30, Y, Y], [1, 3, Y, Y], [Y; 4], [Y; 4]], 0, 3, 0);
    assert_eq!(hard(&game), LudoMove(1));
    // With the risk weighted at zero, the two moves tie and the tie-break decides; both occur.
    let picks: std::collections::BTreeSet<u8> = (0..40)
        .map(|seed| {
            let mut agent = Ludo::new_agent(&AgentSetup {
                level: 1,
                weights: vec![],
                time_control: TimeControl::Batch,
            });
            let mut rng = RandomStream::tie_break(seed, 0);
            agent
                .choose(
                    &game,
                    &[LudoMove(0), LudoMove(1)],
                    &mut Context {
                        rng: &mut rng,
                        clock: &NoClock,
                    },
                )
                .0
        })
        .collect();
    assert_eq!(picks.len(), 2);
}

#[test]
fn weight_table_is_consistent() {
    crate::weights::check_table(&HardWeights::SET).unwrap();
    assert_eq!(HardWeights::SET.defaults(), HardWeights::default().values());
    assert_eq!(HardWeights::default().risk_weight, 1.0);
}

#[test]
fn random_games_end_and_conserve_pawns() {
    for seed in 0..200 {
        let mut dice = RandomStream::dice(seed);
        let mut game = Ludo::new(&LudoOptions::default(), 4, &mut dice, &mut NoLog);
        let mut rng = RandomStream::tie_break(seed, 0);
        let mut moves = ArrayVec::new();
        while game.outcome().is_none() {
            game.legal_moves(&mut moves);
            assert!(!moves.is_empty());
            let mv = moves[pick(moves.len(), &mut rng)];
            game.play(mv, &mut dice, &mut NoLog);
            for seat in 0..4 {
                let fresh = Ludo::from_parts(
                    [
                        game.progress(0),
                        game.progress(1),
                        game.progress(2),
                        game.progress(3),
                    ],
                    0,
                    1,
                    0,
                );
                assert_eq!(fresh.occupancy(seat), game.occupancy(seat));
            }
        }
        assert!(game.outcome().unwrap().sole_winner().is_some());
    }
}
