//! Ludo's tests: the rules clause by clause, the computer levels, and random games. The helpers
//! below are shared by the submodules.

mod agents;
mod rules;

use super::*;
use crate::agent::pick;
use crate::game::NoLog;

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
