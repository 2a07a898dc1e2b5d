//! Trente-douze games per second (four agents of one level, as the batch runner plays them) and
//! the one-off cost of solving Hard's keep table.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use engine::games::trente_douze::{Policy, TrenteDouze};

fn games_per_second(c: &mut Criterion) {
    common::games_per_second::<TrenteDouze>(c, "trente_douze_game_4p", 4);
}

fn solve_keep_table(c: &mut Criterion) {
    c.bench_function("trente_douze_hard_table_solve", |b| {
        b.iter(|| Policy::new(1.0, 1.0).values().start);
    });
}

criterion_group!(benches, games_per_second, solve_keep_table);
criterion_main!(benches);
