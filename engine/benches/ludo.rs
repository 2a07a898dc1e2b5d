//! Ludo games per second at each level (four agents of the same level).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::games::ludo::Ludo;
use engine::selfplay::SeededGame;
use engine::{AgentSetup, Game, NoClock, NoLog, TimeControl};

fn play_one(agents: &mut [Box<dyn engine::Agent<Ludo>>], seed: u64) -> u32 {
    let options = Default::default();
    let game = SeededGame {
        options: &options,
        seats: agents.len(),
        seed,
        clock: &NoClock,
    };
    game.play(agents, |seat| seat, &mut NoLog, |_: &Ludo| {})
        .counters()
        .moves
}

fn games_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("ludo_game");
    group.throughput(Throughput::Elements(1));
    for (level, info) in Ludo::levels().iter().enumerate() {
        let setup = AgentSetup {
            level,
            weights: info.weights.map(|w| w.defaults()).unwrap_or_default(),
            time_control: TimeControl::Batch,
        };
        let mut agents: Vec<_> = (0..4).map(|_| Ludo::new_agent(&setup)).collect();
        let mut seed = 0;
        group.bench_function(info.name, |b| {
            b.iter(|| {
                seed += 1;
                play_one(&mut agents, seed)
            });
        });
    }
    group.finish();
}

criterion_group!(benches, games_per_second);
criterion_main!(benches);
