//! Ludo games per second at each level (four agents of the same level).

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use engine::games::ludo::Ludo;

fn games_per_second(c: &mut Criterion) {
    common::games_per_second::<Ludo>(c, "ludo_game", 4);
}

criterion_group!(benches, games_per_second);
criterion_main!(benches);
