//! One-off timings of the Hnefatafl computer levels (`cargo test --release -p engine --test
//! hnefatafl_levels -- --ignored --nocapture`): milliseconds per move over the first plies of
//! seeded games between two agents of the same level, at the batch budgets. Timing targets live
//! in the benchmarks; this prints the per-move median and the spread the benchmarks average out.

use std::time::Instant;

use engine::games::hnefatafl::{Hnefatafl, MoveList, START};
use engine::{AgentSetup, Context, Game, NoClock, RandomStream, TimeControl};

#[test]
#[ignore = "timing; run in release"]
fn milliseconds_per_move_by_level() {
    for (level, info) in Hnefatafl::levels().iter().enumerate() {
        let setup = AgentSetup {
            level,
            weights: info.weights.map(|w| w.defaults()).unwrap_or_default(),
            time_control: TimeControl::Batch,
        };
        let mut agents = [Hnefatafl::new_agent(&setup), Hnefatafl::new_agent(&setup)];
        let mut times = Vec::new();
        for seed in 0..4 {
            agents.iter_mut().for_each(|a| a.new_game());
            let mut game = Hnefatafl::from_position(START, &Default::default()).unwrap();
            let mut rngs = [
                RandomStream::tie_break(seed, 0),
                RandomStream::tie_break(seed, 1),
            ];
            let mut moves = MoveList::new();
            while game.outcome().is_none() && game.plies() < 80 {
                game.legal_moves(&mut moves);
                let seat = game.to_move();
                let clock = Instant::now();
                let mv = agents[seat].choose(
                    &game,
                    &moves,
                    &mut Context {
                        rng: &mut rngs[seat],
                        clock: &NoClock,
                    },
                );
                times.push(clock.elapsed().as_secs_f64() * 1e3);
                game.apply(mv);
            }
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
        println!(
            "{:>6}: {} moves, median {:.2} ms, p90 {:.2} ms, max {:.2} ms",
            info.name,
            times.len(),
            at(0.5),
            at(0.9),
            at(1.0)
        );
    }
}
