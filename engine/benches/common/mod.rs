//! What the benchmarks of several games share.

use criterion::{Criterion, Throughput};
use engine::selfplay::SeededGame;
use engine::{Game, Level, NoClock, NoLog};

/// Whole games per second at each level of `G`, `seats` agents of that level playing each
/// other from successive seeds, as the batch runner plays them.
pub fn games_per_second<G: Game>(c: &mut Criterion, group_name: &str, seats: usize) {
    let mut group = c.benchmark_group(group_name);
    group.throughput(Throughput::Elements(1));
    let options = G::Options::default();
    for level in G::levels() {
        let setup = level.setup();
        let mut agents: Vec<_> = (0..seats).map(|_| setup.agent()).collect();
        let mut seed = 0;
        group.bench_function(level.name, |b| {
            b.iter(|| {
                seed += 1;
                let game = SeededGame {
                    options: &options,
                    seats,
                    seed,
                    clock: &NoClock,
                    adjudication: Default::default(),
                };
                game.play(&mut agents, |seat| seat, &mut NoLog, |_: &G| {})
                    .counters()
                    .moves
            });
        });
    }
    group.finish();
}

/// The seeds of `games` games as the batch runner derives them from master seed 1.
pub fn seeds(games: u64) -> Vec<u64> {
    (0..games).map(|i| engine::game_seed(1, i)).collect()
}

/// A function that plays the games of `seeds` with `seats` agents of level `level_name` of `G`,
/// as the batch runner plays them (agents built once, reused), and returns their moves in all.
pub fn level_games<G: Game>(level_name: &str, seats: usize) -> impl FnMut(&[u64]) -> u64 {
    let options = G::Options::default();
    let setup = Level::<G>::named(level_name)
        .unwrap_or_else(|e| panic!("{e}"))
        .setup();
    let mut agents: Vec<_> = (0..seats).map(|_| setup.agent()).collect();
    move |seeds| {
        seeds
            .iter()
            .map(|&seed| {
                let game = SeededGame {
                    options: &options,
                    seats,
                    seed,
                    clock: &NoClock,
                    adjudication: Default::default(),
                };
                let end = game.play(&mut agents, |seat| seat, &mut NoLog, |_: &G| {});
                u64::from(end.counters().moves)
            })
            .sum()
    }
}
