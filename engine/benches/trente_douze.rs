//! Trente-douze games per second (four agents of one level, as the batch runner plays them) and
//! the one-off cost of solving Hard's keep table.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::games::trente_douze::{Policy, TrenteDouze};
use engine::selfplay::SeededGame;
use engine::{AgentSetup, Game, NoClock, NoLog, TimeControl};

fn play_one(agents: &mut [Box<dyn engine::Agent<TrenteDouze>>], seed: u64) -> u32 {
    let options = Default::default();
    let game = SeededGame {
        options: &options,
        seats: agents.len(),
        seed,
        clock: &NoClock,
    };
    game.play(agents, |seat| seat, &mut NoLog, |_: &TrenteDouze| {})
        .counters()
        .moves
}

fn games_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("trente_douze_game_4p");
    group.throughput(Throughput::Elements(1));
    for (level, info) in TrenteDouze::levels().iter().enumerate() {
        let setup = AgentSetup {
            level,
            weights: info.weights.map(|w| w.defaults()).unwrap_or_default(),
            time_control: TimeControl::Batch,
        };
        let mut agents: Vec<_> = (0..4).map(|_| TrenteDouze::new_agent(&setup)).collect();
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

fn solve_keep_table(c: &mut Criterion) {
    c.bench_function("trente_douze_hard_table_solve", |b| {
        b.iter(|| Policy::new(1.0, 1.0).values().start);
    });
}

criterion_group!(benches, games_per_second, solve_keep_table);
criterion_main!(benches);
