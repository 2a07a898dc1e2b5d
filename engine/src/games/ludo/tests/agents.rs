//! The computer levels: Normal's strict order and Hard's risk term, against hand computations.

use super::*;
use crate::agent::{AgentSetup, Context, NoClock, TimeControl};

fn choose(level: usize, game: &Ludo, weights: Vec<f64>) -> Move {
    let mut agent = AgentSetup {
        level: &Ludo::levels()[level],
        weights,
        time_control: TimeControl::Batch,
        network: None,
    }
    .agent();
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

fn hard(game: &Ludo) -> Move {
    choose(2, game, HardWeights::SET.defaults())
}

fn normal(game: &Ludo) -> Move {
    choose(1, game, Vec::new())
}

#[test]
fn normal_follows_its_strict_order() {
    // Roll 6, seat 0: pawn 0 captures on 16, pawn 1 finishes from 51, pawn 2 leaves the yard,
    // pawn 3 lands on the star at 8.
    let opp = [3, Y, Y, Y];
    let all = Ludo::from_parts([[10, 51, Y, 2], opp, [Y; 4], [Y; 4]], 0, 6, 1);
    assert_eq!(normal(&all), Move(0), "capture first");
    let no_capture = Ludo::from_parts([[10, 51, Y, 2], [Y; 4], [Y; 4], [Y; 4]], 0, 6, 1);
    assert_eq!(normal(&no_capture), Move(1), "then the finish");
    let no_finish = Ludo::from_parts([[10, 40, Y, 2], [Y; 4], [Y; 4], [Y; 4]], 0, 6, 1);
    assert_eq!(normal(&no_finish), Move(2), "then leaving the yard");
    let no_yard = Ludo::from_parts([[10, 40, 20, 2], [Y; 4], [Y; 4], [Y; 4]], 0, 6, 1);
    assert_eq!(normal(&no_yard), Move(3), "then a safe square");
    // Two captures: the bigger one wins.
    let two = Ludo::from_parts(
        [[10, 30, Y, Y], [3, Y, Y, Y], [10, 10, Y, Y], [Y; 4]],
        0,
        6,
        1,
    );
    assert_eq!(
        normal(&two),
        Move(1),
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
    assert_eq!(hard(&game), Move(1));
    // With the risk weighted at zero, the two moves tie and the tie-break decides; both occur.
    let picks: std::collections::BTreeSet<u8> = (0..40)
        .map(|seed| {
            let mut agent = Ludo::levels()[1].setup().agent();
            let mut rng = RandomStream::tie_break(seed, 0);
            agent
                .choose(
                    &game,
                    &[Move(0), Move(1)],
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
