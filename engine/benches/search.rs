//! Searcher throughput (nodes per second) on the toy games: a pseudo-random tree with no
//! transpositions, and tic-tac-toe solved from the start (many transpositions).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::search::toy::{RandomTree, TicTacToe, ToyEval};
use engine::search::{Evaluator, Limits, SearchGame, Searcher};
use engine::{NoClock, RandomStream};

/// Nodes of one search, so that criterion reports nodes per second.
fn nodes<G: SearchGame>(pos: &G, eval: &impl Evaluator<G>, limits: &Limits, table: u8) -> u64 {
    let mut searcher = Searcher::new(table);
    searcher
        .search(
            pos,
            eval,
            limits,
            &NoClock,
            &mut RandomStream::from_seed(0, 0),
        )
        .nodes
}

fn bench_one<G: SearchGame>(c: &mut Criterion, name: &str, pos: &G, limits: Limits, table: u8)
where
    ToyEval: Evaluator<G>,
{
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(nodes(pos, &ToyEval, &limits, table)));
    let mut searcher = Searcher::new(table);
    group.bench_function(name, |b| {
        b.iter(|| {
            searcher.clear();
            searcher.search(
                pos,
                &ToyEval,
                &limits,
                &NoClock,
                &mut RandomStream::from_seed(0, 0),
            )
        });
    });
    group.finish();
}

fn searches(c: &mut Criterion) {
    let tree = RandomTree::new(42, 40);
    bench_one(c, "random_tree_depth_10", &tree, Limits::to_depth(10), 12);
    let narrow = Limits {
        width: Some(2),
        ..Limits::to_depth(14)
    };
    bench_one(c, "random_tree_width_2_depth_14", &tree, narrow, 12);
    bench_one(
        c,
        "tic_tac_toe_solve",
        &TicTacToe::start(),
        Limits::to_depth(9),
        12,
    );
    bench_one(
        c,
        "tic_tac_toe_solve_no_table",
        &TicTacToe::start(),
        Limits::to_depth(9),
        0,
    );
}

criterion_group!(benches, searches);
criterion_main!(benches);
