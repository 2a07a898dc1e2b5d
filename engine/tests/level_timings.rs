//! One-off timings of the board games' computer levels (`cargo test --release -p engine --test
//! level_timings -- --ignored --nocapture --test-threads 1`): milliseconds per move over the
//! first 80 plies of seeded games between two agents of the same level, at the batch budgets.
//! Timing targets live in the benchmarks; this prints the per-move median and spread they
//! average out. One generic routine serves every game, so the figures are comparable.

use std::time::Instant;

use engine::games::hnefatafl::{Hnefatafl, HnefataflOptions};
use engine::games::thud::{Thud, ThudOptions};
use engine::selfplay::SeededGame;
use engine::{Game, NoClock, NoLog};

#[test]
#[ignore = "timing; run in release"]
fn hnefatafl_milliseconds_per_move_by_level() {
    print_timings::<Hnefatafl>(&HnefataflOptions { ply_cap: 80 });
}

#[test]
#[ignore = "timing; run in release"]
fn thud_milliseconds_per_move_by_level() {
    print_timings::<Thud>(&ThudOptions {
        ply_cap: 80,
        ..ThudOptions::default()
    });
}

/// Prints each level's median, 90th percentile and slowest move over four seeded games
/// against itself, cut at `options`' ply cap.
fn print_timings<G: Game>(options: &G::Options) {
    for level in G::levels() {
        let setup = level.setup();
        let mut agents = [setup.agent(), setup.agent()];
        let mut times = Vec::new();
        for seed in 0..4 {
            let game = SeededGame {
                options,
                seats: 2,
                seed,
                clock: &NoClock,
                adjudication: Default::default(),
            };
            // The time between two positions is one agent's choice and the move; the first
            // position comes before any choice.
            let mut last = Instant::now();
            let mut game_times = Vec::new();
            game.play(
                &mut agents,
                |seat| seat,
                &mut NoLog,
                |_: &G| {
                    game_times.push(last.elapsed().as_secs_f64() * 1e3);
                    last = Instant::now();
                },
            );
            times.extend(game_times.into_iter().skip(1));
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
        println!(
            "{} {:>8}: {} moves, median {:.2} ms, p90 {:.2} ms, max {:.2} ms",
            G::NAME,
            level.name,
            times.len(),
            at(0.5),
            at(0.9),
            at(1.0)
        );
    }
}
