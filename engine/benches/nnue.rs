//! Network evaluations per second on positions of random Thud and Hnefatafl games: a full
//! recomputation of the first layer from the position's inputs, against an accumulator
//! copied from the parent position and moved by the inputs the move changed (what a
//! copy-make search node would carry). Both read the child's inputs from its board.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::games::hnefatafl::Hnefatafl;
use engine::games::thud::Thud;
use engine::nnue::{Accumulator, ActiveFeatures, Features, FloatNetwork, MAX_ACTIVE, Network};
use engine::search::SearchRoot;
use engine::{NoLog, RandomStream};

type Active = arrayvec::ArrayVec<u16, MAX_ACTIVE>;

/// The search nodes of consecutive positions of `games` random games of up to 200 plies.
fn positions<G: Features + SearchRoot>(games: u64) -> Vec<G::Node> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut dice = RandomStream::dice(seed);
        let mut rng = RandomStream::from_seed(seed, 5);
        let mut game = G::new(&Default::default(), 2, &mut dice, &mut NoLog);
        let mut moves = G::MoveList::default();
        for _ in 0..200 {
            out.push(game.node());
            if game.outcome().is_some() {
                break;
            }
            game.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len() as u32) as usize];
            game.play(mv, &mut dice, &mut NoLog);
        }
    }
    out
}

/// A network of `hidden` units with small fixed weights (their values do not change the
/// work done).
fn network<G: Features>(hidden: usize) -> Network {
    let wave = |n: usize, k: f32| (0..n).map(|i| ((i as f32) * k).sin() * 0.1).collect();
    let float = FloatNetwork {
        inputs: G::INPUTS,
        hidden,
        w1: wave(G::INPUTS * hidden, 0.37),
        b1: wave(hidden, 0.11),
        w2: wave(hidden, 0.73),
        b2: 0.0,
        scale: 100.0,
    };
    Network::quantise(&float, G::NAME, G::FEATURE_SET, "{}").expect("fits")
}

/// The node's inputs, on the stack as a search would hold them.
fn features(node: &impl ActiveFeatures) -> Active {
    let mut list = Active::new();
    node.active_features(&mut list);
    list
}

fn bench_game<G: Features + SearchRoot>(c: &mut Criterion, name: &str)
where
    G::Node: ActiveFeatures,
{
    let games = positions::<G>(20);
    for hidden in [32, 64, 256] {
        let net = network::<G>(hidden);
        // The parents: each position's inputs and accumulator, as its search node holds them.
        let parents: Vec<(Active, Accumulator)> = games
            .iter()
            .map(|g| {
                let active = features(g);
                let mut acc = Accumulator::default();
                net.refresh(&active, &mut acc);
                (active, acc)
            })
            .collect();
        let mut group = c.benchmark_group(format!("nnue_{name}"));
        group.throughput(Throughput::Elements(games.len() as u64 - 1));
        group.bench_function(format!("full_h{hidden}"), |b| {
            b.iter(|| {
                games[1..]
                    .iter()
                    .map(|g| i64::from(net.evaluate(&features(g))))
                    .sum::<i64>()
            });
        });
        group.bench_function(format!("incremental_h{hidden}"), |b| {
            b.iter(|| {
                games[1..]
                    .iter()
                    .zip(&parents)
                    .map(|(g, (before, parent))| {
                        let after = features(g);
                        let mut acc = parent.clone();
                        net.update_between(&mut acc, before, &after);
                        i64::from(net.output(&acc))
                    })
                    .sum::<i64>()
            });
        });
        group.finish();
    }
}

fn evaluations(c: &mut Criterion) {
    bench_game::<Thud>(c, "thud");
    bench_game::<Hnefatafl>(c, "hnefatafl");
}

criterion_group!(benches, evaluations);
criterion_main!(benches);
