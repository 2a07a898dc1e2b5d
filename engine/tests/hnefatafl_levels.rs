//! One-off timings of the Hnefatafl computer levels (`cargo test --release -p engine --test
//! hnefatafl_levels -- --ignored --nocapture`): milliseconds per move over the first 80 plies
//! of seeded games between two agents of the same level, at the batch budgets. Timing targets
//! live in the benchmarks; this prints the per-move median and spread they average out.

use std::time::Instant;

use engine::games::hnefatafl::{Hnefatafl, HnefataflOptions};
use engine::selfplay::SeededGame;
use engine::{AgentSetup, Game, NoClock, NoLog, TimeControl};

#[test]
#[ignore = "timing; run in release"]
fn milliseconds_per_move_by_level() {
    let options = HnefataflOptions { ply_cap: 80 };
    for (level, info) in Hnefatafl::levels().iter().enumerate() {
        let setup = AgentSetup {
            level,
            weights: info.weights.map(|w| w.defaults()).unwrap_or_default(),
            time_control: TimeControl::Batch,
        };
        let mut agents = [Hnefatafl::new_agent(&setup), Hnefatafl::new_agent(&setup)];
        let mut times = Vec::new();
        for seed in 0..4 {
            let game = SeededGame {
                options: &options,
                seats: 2,
                seed,
                clock: &NoClock,
            };
            // The time between two positions is one agent's choice and the move; the first
            // position comes before any choice.
            let mut last = Instant::now();
            let mut game_times = Vec::new();
            game.play(
                &mut agents,
                |seat| seat,
                &mut NoLog,
                |_: &Hnefatafl| {
                    game_times.push(last.elapsed().as_secs_f64() * 1e3);
                    last = Instant::now();
                },
            );
            times.extend(game_times.into_iter().skip(1));
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
