//! The naive reference simulators of `benches/reference/` play exactly the engine's games from the
//! same seeds: the same moves, the same winners and the same dice consumed. That is what makes
//! them a fair yardstick for the engine's speed (`benches/ludo.rs`, `benches/trente_douze.rs`):
//! both sides of the comparison do the same work.

#[path = "../benches/reference/ludo.rs"]
mod ludo_reference;
#[path = "../benches/reference/trente_douze.rs"]
mod trente_douze_reference;

use engine::games::ludo::{self, Ludo, LudoOptions};
use engine::games::trente_douze::{self, Move, Threshold, TrenteDouze, TrenteDouzeOptions};
use engine::selfplay::SeededGame;
use engine::{Agent, Game, Level, NoClock, NoLog, Rules, game_seed};

/// Seeds of the games compared, as the batch runner derives them from a master seed.
const GAMES: u64 = 300;

fn hard_agents<G: Game>(seats: usize) -> Vec<Box<dyn Agent<G>>> {
    let setup = Level::<G>::named("hard").expect("a hard level").setup();
    (0..seats).map(|_| setup.agent()).collect()
}

/// The engine's game of `seed` between `seats` Hard players: every move with its mover, and the
/// final position.
fn engine_game<G: Game>(
    options: &G::Options,
    seats: usize,
    seed: u64,
) -> (Vec<(usize, G::Move)>, G) {
    let mut agents = hard_agents::<G>(seats);
    let mut moves = Vec::new();
    let game = SeededGame {
        options,
        seats,
        seed,
        clock: &NoClock,
        adjudication: Default::default(),
    };
    let end = game.play_noting(
        &mut agents,
        |seat| seat,
        &mut NoLog,
        |_: &G| {},
        |g: &G, mv| moves.push((g.to_move(), mv)),
    );
    (moves, end)
}

#[test]
fn ludo_reference_plays_the_engines_games() {
    let options = LudoOptions::default();
    let weights = ludo::HardWeights::default();
    let mut with_captures = 0;
    for i in 0..GAMES {
        let seed = game_seed(1, i);
        let (moves, end) = engine_game::<Ludo>(&options, 4, seed);
        let mut reference_moves = Vec::new();
        let played = ludo_reference::play(seed, options.roll_cap, &weights, |seat, pawn| {
            reference_moves.push((seat, pawn));
        });
        let engine_moves: Vec<(usize, usize)> = moves
            .iter()
            .map(|&(seat, mv)| (seat, usize::from(mv.0)))
            .collect();
        assert_eq!(reference_moves, engine_moves, "seed {seed}: moves");
        let outcome = end.outcome().expect("the game is over");
        assert_eq!(played.winner, outcome.sole_winner(), "seed {seed}: winner");
        let counters = end.counters();
        assert_eq!(played.rolls, counters.rolls, "seed {seed}: rolls");
        assert_eq!(played.moves, counters.moves, "seed {seed}: moves");
        assert_eq!(
            played.captures,
            counters.captures[..4],
            "seed {seed}: captures"
        );
        with_captures += u32::from(played.captures.iter().sum::<u32>() > 0);
    }
    assert!(
        with_captures > 0,
        "the seeds must include games with captures"
    );
}

/// An engine move as the reference names its decisions.
fn decision(mv: Move) -> trente_douze_reference::Decision {
    match mv {
        Move::Keep { dice, threshold } => trente_douze_reference::Decision::Keep {
            faces: dice.faces().collect(),
            big: threshold.map(|t| t == Threshold::Big),
        },
        Move::Victim(seat) => trente_douze_reference::Decision::Victim(usize::from(seat)),
    }
}

#[test]
fn trente_douze_reference_plays_the_engines_games() {
    let options = TrenteDouzeOptions::default();
    let hard = trente_douze_reference::Hard::new(trente_douze::HardWeights::default());
    let mut victims_chosen = 0;
    for seats in [2, 4, 8] {
        for i in 0..GAMES {
            let seed = game_seed(seats as u64, i);
            let (moves, end) = engine_game::<TrenteDouze>(&options, seats, seed);
            let mut reference_moves = Vec::new();
            let played = trente_douze_reference::play(seed, seats, &hard, |seat, d| {
                reference_moves.push((seat, d));
            });
            let engine_moves: Vec<_> = moves.iter().map(|&(s, mv)| (s, decision(mv))).collect();
            assert_eq!(
                reference_moves, engine_moves,
                "{seats} seats, seed {seed}: moves"
            );
            let outcome = end.outcome().expect("the game is over");
            let winners: Vec<usize> = outcome.winners.iter().collect();
            assert_eq!(
                played.winners, winners,
                "{seats} seats, seed {seed}: winners"
            );
            for (round, scores) in played.round_scores.iter().enumerate() {
                let engine_scores: Vec<i32> = end.round_scores(round)[..seats]
                    .iter()
                    .map(|&s| i32::from(s))
                    .collect();
                assert_eq!(*scores, engine_scores, "seed {seed}: round {round}");
            }
            let counters = end.counters();
            assert_eq!(played.rolls, counters.rolls, "seed {seed}: rolls");
            assert_eq!(played.moves, counters.moves, "seed {seed}: moves");
            victims_chosen += moves
                .iter()
                .filter(|(_, mv)| matches!(mv, Move::Victim(_)))
                .count();
        }
    }
    assert!(victims_chosen > 0, "the seeds must include chosen victims");
}
