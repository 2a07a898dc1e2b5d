//! Ludo games per second at each level (four agents of the same level), and four-Hard games
//! side by side with the naive reference simulator of `reference/ludo.rs` on the same seeds (the
//! issue-53 target: the engine at least 3 times as fast).

mod common;
#[path = "reference/ludo.rs"]
mod reference;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::games::ludo::{HardWeights, Ludo, LudoOptions};

fn games_per_second(c: &mut Criterion) {
    common::games_per_second::<Ludo>(c, "ludo_game", 4);
}

/// Games each side plays per measured iteration.
const GAMES: u64 = 200;

fn against_reference(c: &mut Criterion) {
    let seeds = common::seeds(GAMES);
    let mut group = c.benchmark_group("ludo_4_hard_vs_reference");
    group.throughput(Throughput::Elements(GAMES));
    group.sample_size(20);
    let mut engine = common::level_games::<Ludo>("hard", 4);
    group.bench_function("engine", |b| b.iter(|| engine(&seeds)));
    let (cap, weights) = (LudoOptions::default().roll_cap, HardWeights::default());
    group.bench_function("reference", |b| {
        b.iter(|| {
            seeds
                .iter()
                .map(|&seed| u64::from(reference::play(seed, cap, &weights, |_, _| {}).moves))
                .sum::<u64>()
        });
    });
    group.finish();
}

criterion_group!(benches, games_per_second, against_reference);
criterion_main!(benches);
