//! Every clause of `docs/rules/ludo.md` on hand-made positions.

use super::*;
use crate::game::SeatResult;

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
    game.play(Move(0), &mut dice_starting_with(&[1]), &mut NoLog);
    assert_eq!(game.progress(1), [Y, Y, 20, Y]);
    assert_eq!(game.progress(0)[0], 16);
    assert_eq!(game.counters().captures[0], 2);
}

#[test]
fn pawns_of_different_colours_share_a_safe_square() {
    // Square 21 is seat 1's star (its progress 8); seat 0 lands there from 17 with a 4.
    let mut game = Ludo::from_parts([[17, Y, Y, Y], [8, Y, Y, Y], [Y; 4], [Y; 4]], 0, 4, 0);
    game.play(Move(0), &mut dice_starting_with(&[1]), &mut NoLog);
    assert_eq!(game.progress(1)[0], 8);
    assert_eq!(game.progress(0)[0], 21);
    assert_eq!(game.counters().captures[0], 0);
}

#[test]
fn own_pawns_stack_on_any_square() {
    let mut game = Ludo::from_parts([[10, 14, Y, Y], [Y; 4], [Y; 4], [Y; 4]], 0, 4, 0);
    game.play(Move(0), &mut dice_starting_with(&[1]), &mut NoLog);
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
    game.play(Move(0), &mut dice_starting_with(&[2]), &mut NoLog);
    assert_eq!((game.to_move(), game.roll()), (0, 2), "a six rolls again");
    game.play(Move(0), &mut dice_starting_with(&[2]), &mut NoLog);
    assert_eq!(game.to_move(), 1, "after a non-six the turn passes");
    // A capture with a 3 passes the turn.
    let mut game = Ludo::from_parts(
        [[13, Y, Y, Y], [3, Y, Y, Y], [30, Y, Y, Y], [Y; 4]],
        0,
        3,
        0,
    );
    game.play(Move(0), &mut dice_starting_with(&[2]), &mut NoLog);
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
    game.play(Move(0), &mut dice, &mut NoLog);
    assert_eq!((game.to_move(), game.roll()), (0, 6));
    game.play(Move(0), &mut dice, &mut NoLog);
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
    game.play(Move(3), &mut dice_starting_with(&[1]), &mut NoLog);
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
    assert_eq!(outcome.reason.name(), "roll cap");
    assert!(Ludo::check_options(&LudoOptions { roll_cap: 0 }).is_err());
}
