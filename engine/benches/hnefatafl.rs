//! Copenhagen Hnefatafl: perft nodes per second (bulk counting at the last ply) and the time
//! each computer level takes per move at its batch budget.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::Notation;
use engine::Players;
use engine::Rules;
use engine::games::hnefatafl::{Hnefatafl, MoveList, START};
use engine::{Context, Level, NoClock, RandomStream};

fn perft(c: &mut Criterion) {
    let start = Hnefatafl::from_position(START, &Default::default()).unwrap();
    let mut group = c.benchmark_group("hnefatafl_perft");
    group.sample_size(10);
    for depth in [3, 4] {
        group.throughput(Throughput::Elements(start.perft(depth)));
        group.bench_function(format!("start_depth_{depth}"), |b| {
            b.iter(|| start.perft(depth));
        });
    }
    group.finish();
}

/// Positions every 8 plies of a seeded game between two Normal agents, from ply 8 on.
fn positions() -> Vec<Hnefatafl> {
    let normal = Level::<Hnefatafl>::named("normal").unwrap_or_else(|e| panic!("{e}"));
    let mut agent = normal.setup().agent();
    let mut game = Hnefatafl::from_position(START, &Default::default()).unwrap();
    let mut rng = RandomStream::tie_break(1, 0);
    let mut moves = MoveList::new();
    let mut out = Vec::new();
    while game.outcome().is_none() && out.len() < 8 {
        game.legal_moves(&mut moves);
        let mv = agent.choose(
            &game,
            &moves,
            &mut Context {
                rng: &mut rng,
                clock: &NoClock,
            },
        );
        game.apply(mv);
        if game.plies() % 8 == 0 && game.outcome().is_none() {
            out.push(game);
        }
    }
    out
}

fn per_move(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("hnefatafl_move");
    group.sample_size(10);
    group.throughput(Throughput::Elements(positions.len() as u64));
    for info in Hnefatafl::levels() {
        let mut agent = info.setup().agent();
        let mut moves = MoveList::new();
        group.bench_function(info.name, |b| {
            b.iter(|| {
                for game in &positions {
                    agent.new_game();
                    game.legal_moves(&mut moves);
                    agent.choose(
                        game,
                        &moves,
                        &mut Context {
                            rng: &mut RandomStream::tie_break(0, 0),
                            clock: &NoClock,
                        },
                    );
                }
            });
        });
    }
    group.finish();
}

criterion_group!(benches, perft, per_move);
criterion_main!(benches);
