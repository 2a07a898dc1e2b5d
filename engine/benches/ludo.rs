//! Ludo games per second at each level (four agents of the same level).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::games::ludo::Ludo;
use engine::{AgentSetup, Context, Game, NoClock, NoLog, RandomStream, TimeControl};

fn play_one(agents: &mut [Box<dyn engine::Agent<Ludo>>], seed: u64) -> u32 {
    let mut dice = RandomStream::dice(seed);
    let mut rng = RandomStream::tie_break(seed, 0);
    let mut game = Ludo::new(&Default::default(), 4, &mut dice, &mut NoLog);
    let mut moves = <Ludo as Game>::MoveList::default();
    while game.outcome().is_none() {
        game.legal_moves(&mut moves);
        let seat = game.to_move();
        let mv = agents[seat].choose(
            &game,
            &moves,
            &mut Context {
                rng: &mut rng,
                clock: &NoClock,
            },
        );
        game.play(mv, &mut dice, &mut NoLog);
    }
    game.counters().moves
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
