//! Trente-douze games per second (four agents of one level, as the batch runner plays them), the
//! one-off cost of solving Hard's keep table, and four-Hard games side by side with the naive
//! reference simulator of `reference/trente_douze.rs` on the same seeds (the issue-53 target:
//! the engine at least 5 times as fast).

mod common;
#[path = "reference/trente_douze.rs"]
mod reference;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::games::trente_douze::{HardWeights, Policy, TrenteDouze};

fn games_per_second(c: &mut Criterion) {
    common::games_per_second::<TrenteDouze>(c, "trente_douze_game_4p", 4);
}

fn solve_keep_table(c: &mut Criterion) {
    c.bench_function("trente_douze_hard_table_solve", |b| {
        b.iter(|| Policy::new(1.0, 1.0).values().start);
    });
}

/// Games each side plays per measured iteration.
const GAMES: u64 = 200;

fn against_reference(c: &mut Criterion) {
    let seeds = common::seeds(GAMES);
    let mut group = c.benchmark_group("trente_douze_4_hard_vs_reference");
    group.throughput(Throughput::Elements(GAMES));
    group.sample_size(20);
    let mut engine = common::level_games::<TrenteDouze>("hard", 4);
    group.bench_function("engine", |b| b.iter(|| engine(&seeds)));
    let hard = reference::Hard::new(HardWeights::default());
    group.bench_function("reference", |b| {
        b.iter(|| {
            seeds
                .iter()
                .map(|&seed| u64::from(reference::play(seed, 4, &hard, |_, _| {}).moves))
                .sum::<u64>()
        });
    });
    group.finish();
}

criterion_group!(
    benches,
    games_per_second,
    solve_keep_table,
    against_reference
);
criterion_main!(benches);
