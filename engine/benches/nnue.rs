//! Network evaluations per second on positions of random Thud and Hnefatafl games: a full
//! recomputation of the first layer from the position's inputs, against an accumulator
//! copied from the parent position and moved by the inputs the move changed (what a
//! copy-make search node would carry). Both read the child's inputs from its board, walking
//! the games' positions in order.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::Rules;
use engine::games::hnefatafl::Hnefatafl;
use engine::games::hnefatafl::{EvalWeights, Evaluation as HEvaluation, Move as HMove, Side};
use engine::games::thud::Thud;
use engine::nnue::{Accumulator, ActiveFeatures, Features, FloatNetwork, MAX_ACTIVE, Network};
use engine::nnue::{NetEvaluation, NetNode};
use engine::search::{Evaluator, Limits, SearchRoot, Searcher};
use engine::{Agent, AgentSetup, Budget, Context, Level, NoClock, NoLog, RandomStream};
use std::sync::Arc;

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
    quantise::<G>(&float_network::<G>(hidden))
}

fn quantise<G: Features>(float: &FloatNetwork) -> Network {
    Network::quantise(float, G::NAME, G::FEATURE_SET, "{}").expect("fits")
}

/// [`network`] in float form.
fn float_network<G: Features>(hidden: usize) -> FloatNetwork {
    let wave = |n: usize, k: f32| (0..n).map(|i| ((i as f32) * k).sin() * 0.1).collect();
    FloatNetwork {
        inputs: G::INPUTS,
        hidden,
        w1: wave(G::INPUTS * hidden, 0.37),
        b1: wave(hidden, 0.11),
        w2: wave(hidden, 0.73),
        b2: 0.0,
        scale: 100.0,
        base_weight: 0.0,
    }
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
        let first = features(&games[0]);
        let mut start = Accumulator::default();
        net.refresh(&first, &mut start);
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
        // The parent's inputs and accumulator are the last position's, still in cache, as a
        // search node's parent is; the child's accumulator is a copy moved by the change.
        group.bench_function(format!("incremental_h{hidden}"), |b| {
            b.iter(|| {
                let (mut before, mut parent) = (first.clone(), start.clone());
                let mut sum = 0i64;
                for g in &games[1..] {
                    let after = features(g);
                    let mut acc = parent.clone();
                    net.update_between(&mut acc, &before, &after);
                    sum += i64::from(net.output(&acc));
                    (before, parent) = (after, acc);
                }
                sum
            });
        });
        group.finish();
    }
}

/// The 40th position of a seeded random game of `G`, and its legal moves: where the search
/// benchmarks start, past the opening's quiet moves.
fn fortieth_position<G: Rules>() -> (G, G::MoveList) {
    let mut dice = RandomStream::dice(7);
    let mut rng = RandomStream::from_seed(7, 5);
    let mut game = G::new(&Default::default(), 2, &mut dice, &mut NoLog);
    let mut moves = G::MoveList::default();
    for _ in 0..40 {
        game.legal_moves(&mut moves);
        let mv = moves[rng.below(moves.len() as u32) as usize];
        game.play(mv, &mut dice, &mut NoLog);
    }
    game.legal_moves(&mut moves);
    (game, moves)
}

/// An agent of `G`'s level `name` at its defaults, searching with `network` if one is given.
fn level_agent<G: Features>(name: &str, network: Option<Arc<Network>>) -> Box<dyn Agent<G>> {
    let level = Level::<G>::named(name).unwrap_or_else(|e| panic!("{e}"));
    AgentSetup {
        network,
        ..level.setup()
    }
    .agent()
}

/// The nodes `agent` searches for one move from `game`, started afresh so that every run does
/// the same work.
fn nodes_searched<G: Rules>(agent: &mut dyn Agent<G>, game: &G, moves: &[G::Move]) -> u64 {
    agent.new_game();
    let mut tie = RandomStream::tie_break(1, 0);
    let ctx = &mut Context {
        rng: &mut tie,
        clock: &NoClock,
    };
    agent.analyse(game, moves, ctx).nodes
}

/// Search nodes per second of level `level` to `depth` plies from the 40th position of a
/// random game, with its hand-made evaluation and with a network of 64 hidden units in its
/// place (the same search otherwise: the node counts differ only where the scores steer it).
fn bench_search<G: Features + SearchRoot>(c: &mut Criterion, name: &str, level: &str, depth: u32) {
    let (game, moves) = fortieth_position::<G>();
    let net = Arc::new(network::<G>(64));
    let mut group = c.benchmark_group(format!("nnue_search_{name}"));
    for (label, network) in [("hand", None), ("net_h64", Some(net))] {
        let mut agent = level_agent::<G>(level, network);
        agent.set_budget(Budget {
            depth: Some(depth),
            ..Budget::default()
        });
        let mut search = || nodes_searched(agent.as_mut(), &game, &moves);
        group.throughput(Throughput::Elements(search()));
        group.bench_function(format!("{label}_depth{depth}"), |b| b.iter(&mut search));
    }
    group.finish();
}

/// One move of Expert (`level`) at its batch budget from the 40th position of a random game:
/// with its hand-made evaluation, with a network of 64 units, and with the same network
/// reading the hand-made score (base weight 1). Issue 49's target: a median of at most 100 ms
/// on one core.
fn bench_expert_move<G: Features + SearchRoot>(c: &mut Criterion, name: &str, level: &str) {
    let (game, moves) = fortieth_position::<G>();
    let plain = network::<G>(64);
    let based = quantise::<G>(&FloatNetwork {
        base_weight: 1.0,
        ..float_network::<G>(64)
    });
    let mut group = c.benchmark_group(format!("nnue_expert_move_{name}"));
    group.sample_size(10);
    for (label, network) in [
        ("hand", None),
        ("net_h64", Some(Arc::new(plain))),
        ("net_h64_hand_input", Some(Arc::new(based))),
    ] {
        let mut agent = level_agent::<G>(level, network);
        let mut search = || nodes_searched(agent.as_mut(), &game, &moves);
        group.bench_function(label, |b| b.iter(&mut search));
    }
    group.finish();
}

fn expert_moves(c: &mut Criterion) {
    bench_expert_move::<Thud>(c, "thud", "expert");
    bench_expert_move::<Hnefatafl>(c, "hnefatafl", "expert");
}

fn evaluations(c: &mut Criterion) {
    bench_game::<Thud>(c, "thud");
    bench_game::<Hnefatafl>(c, "hnefatafl");
}

fn searches(c: &mut Criterion) {
    bench_search::<Thud>(c, "thud_hard", "hard", 3);
    bench_search::<Hnefatafl>(c, "hnefatafl_normal", "normal", 3);
}

criterion_group!(
    benches,
    evaluations,
    searches,
    incremental_search,
    expert_moves
);
criterion_main!(benches);

/// The network's score recomputed from the position's inputs at each leaf, the hand-made
/// evaluation's ordering: what [`NetNode`]'s accumulator is measured against.
struct FullEval(NetEvaluation<HEvaluation>);

impl Evaluator<Hnefatafl> for FullEval {
    fn evaluate(&self, pos: &Hnefatafl) -> i32 {
        let score = self.0.first_side_score(pos, || 0);
        match pos.side_to_move() {
            Side::Attackers => score,
            Side::Defenders => -score,
        }
    }
    fn order(&self, pos: &Hnefatafl, mv: HMove) -> i32 {
        self.0.hand.move_order(pos, mv)
    }
    fn tactical(&self, pos: &Hnefatafl, mv: HMove) -> bool {
        self.0.hand.tactical(pos, mv)
    }
}

/// A Hnefatafl search whose nodes carry the accumulator ([`NetNode`], what a network level
/// searches), against the same search recomputing the first layer at each leaf: the same
/// searcher and limits, asserted to visit the same nodes.
fn incremental_search(c: &mut Criterion) {
    let (game, _) = fortieth_position::<Hnefatafl>();
    let hand = || HEvaluation::new(EvalWeights::default());
    let limits = Limits::to_depth(3);
    let mut group = c.benchmark_group("nnue_search_hnefatafl_depth3");
    for hidden in [64, 256] {
        let net = Arc::new(network::<Hnefatafl>(hidden));
        let full = FullEval(NetEvaluation::new(hand(), net.clone()));
        let mut searcher = Searcher::<Hnefatafl>::new(16);
        let mut run_full = || {
            searcher.clear();
            let tie = &mut RandomStream::tie_break(1, 0);
            searcher.search(&game, &full, &limits, &NoClock, tie).nodes
        };
        let nodes = run_full();
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("full_h{hidden}"), |b| b.iter(&mut run_full));
        let inc = NetEvaluation::new(hand(), net);
        let root = inc.node(&game);
        let mut net_searcher = Searcher::<NetNode<Hnefatafl>>::new(16);
        let mut run_inc = || {
            net_searcher.clear();
            let tie = &mut RandomStream::tie_break(1, 0);
            net_searcher
                .search(&root, &inc, &limits, &NoClock, tie)
                .nodes
        };
        assert_eq!(run_inc(), nodes, "the same search, the same scores");
        group.bench_function(format!("incremental_h{hidden}"), |b| b.iter(&mut run_inc));
    }
    group.finish();
}
