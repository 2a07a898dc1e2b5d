//! What the benchmarks of several games share.

use criterion::{Criterion, Throughput};
use engine::selfplay::SeededGame;
use engine::{AgentSetup, Game, NoClock, NoLog, TimeControl};

/// Whole games per second at each level of `G`, `seats` agents of that level playing each
/// other from successive seeds, as the batch runner plays them.
pub fn games_per_second<G: Game>(c: &mut Criterion, group_name: &str, seats: usize) {
    let mut group = c.benchmark_group(group_name);
    group.throughput(Throughput::Elements(1));
    let options = G::Options::default();
    for (level, info) in G::levels().iter().enumerate() {
        let setup = AgentSetup {
            level,
            weights: info.weights.map(|w| w.defaults()).unwrap_or_default(),
            time_control: TimeControl::Batch,
            network: None,
        };
        let mut agents: Vec<_> = (0..seats).map(|_| G::new_agent(&setup)).collect();
        let mut seed = 0;
        group.bench_function(info.name, |b| {
            b.iter(|| {
                seed += 1;
                let game = SeededGame {
                    options: &options,
                    seats,
                    seed,
                    clock: &NoClock,
                };
                game.play(&mut agents, |seat| seat, &mut NoLog, |_: &G| {})
                    .counters()
                    .moves
            });
        });
    }
    group.finish();
}
