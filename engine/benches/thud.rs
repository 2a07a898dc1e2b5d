//! Thud: perft throughput (leaves per second) and, per computer level, the time to choose a move
//! (and the searchers' nodes per second) over a fixed set of middle-game positions.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::Players;
use engine::Rules;
use engine::games::thud::{
    Board, EvalWeights, Evaluation, MoveList, Node, Thud, ThudOptions, TrollCapture,
    parse_position, perft,
};
use engine::search::{Searcher, level_values};
use engine::{Context, Level, NoClock, NoLog, RandomStream, TimeControl};

/// A middle-game position with pieces in contact on both sides (from the perft fixtures).
const MIDGAME: &str =
    "5/3d3/3d5/3d2T4/2d3T6/3d5T5/3d8d2/7R3d3/3T2TTT1d4/13d1/1ddd2T6/7d3/6d2/1d5/5 d";

fn perft_throughput(c: &mut Criterion) {
    let mut group = c.benchmark_group("thud_perft");
    let start = Board::start();
    let midgame = parse_position(MIDGAME).expect("a valid position");
    for (name, board, depth) in [("start", &start, 3), ("midgame", &midgame, 3)] {
        let leaves = perft(board, TrollCapture::Choose, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("{name}_depth{depth}"), |b| {
            b.iter(|| perft(board, TrollCapture::Choose, depth));
        });
    }
    // Issue 53's yardstick: perft(4) from the start (589,900,928 leaves), on one thread here
    // (`koom perft --threads 2` splits the root's moves over two).
    group.sample_size(10);
    group.throughput(Throughput::Elements(589_900_928));
    group.bench_function("start_depth4", |b| {
        b.iter(|| perft(&start, TrollCapture::Choose, 4));
    });
    group.finish();
}

/// Positions every 12 plies of a seeded Hard-against-Hard round: the levels are timed on the
/// positions they meet in play.
fn positions() -> Vec<Thud> {
    let setup = Level::<Thud>::named("hard")
        .unwrap_or_else(|e| panic!("{e}"))
        .setup();
    let mut agents = [setup.agent(), setup.agent()];
    let mut out = Vec::new();
    for seed in 0..2 {
        let mut dice = RandomStream::dice(seed);
        let mut rng = RandomStream::tie_break(seed, 0);
        let mut game = Thud::new(&ThudOptions::default(), 2, &mut dice, &mut NoLog);
        let mut moves = MoveList::new();
        while game.outcome().is_none() {
            if game.counters().moves % 12 == 6 {
                out.push(game.clone());
            }
            game.legal_moves(&mut moves);
            let seat = game.to_move();
            let ctx = &mut Context {
                rng: &mut rng,
                clock: &NoClock,
            };
            let mv = agents[seat].choose(&game, &moves, ctx);
            game.play(mv, &mut dice, &mut NoLog);
        }
    }
    out
}

fn level_moves(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("thud_level_move");
    group.sample_size(10);
    for info in Thud::levels() {
        let mut agent = info.setup().agent();
        let mut moves = MoveList::new();
        let mut rng = RandomStream::from_seed(1, 1);
        // One element per move chosen: the report's time per element is the time per move.
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(info.name, |b| {
            b.iter(|| {
                for game in &positions {
                    agent.new_game();
                    game.legal_moves(&mut moves);
                    let ctx = &mut Context {
                        rng: &mut rng,
                        clock: &NoClock,
                    };
                    agent.choose(game, &moves, ctx);
                }
            });
        });
    }
    group.finish();
}

/// The searching levels' nodes per second, on the same positions and budgets.
fn search_nodes(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("thud_search_nodes");
    group.sample_size(10);
    for (level, info) in Thud::levels().iter().enumerate().skip(2) {
        let set = info.weights.expect("a searching level has weights");
        let (values, search) = level_values(set, &[]);
        let eval = Evaluation::new(&EvalWeights::from_values(&values));
        let limits = search.limits(TimeControl::Batch);
        let mut searcher = Searcher::new(if level == 4 { 17 } else { 15 });
        let mut run = || {
            let mut rng = RandomStream::from_seed(1, 1);
            positions
                .iter()
                .map(|game| {
                    searcher.clear();
                    searcher
                        .search(&Node::new(game), &eval, &limits, &NoClock, &mut rng)
                        .nodes
                })
                .sum::<u64>()
        };
        group.throughput(Throughput::Elements(run()));
        group.bench_function(info.name, |b| b.iter(&mut run));
    }
    group.finish();
}

criterion_group!(benches, perft_throughput, level_moves, search_nodes);
criterion_main!(benches);
