//! The searcher against an independent plain minimax and games with known values.

use core::cell::Cell;
use core::cmp::Reverse;

use super::toy::{LINES, RandomTree, Subtraction, TicTacToe, ToyEval};
use super::{Evaluator, Limits, MATE, SearchGame, SearchResult, Searcher};
use crate::agent::{Clock, NoClock};
use crate::random::RandomStream;

/// Table sizes under test: none, a tiny one (constant collisions and replacements), a roomy one.
const TABLES: [u8; 3] = [0, 4, 16];

/// Plain negamax with no pruning and no table, written independently of the searcher: the value
/// of `pos` searched `depth` plies deep, keeping at each node the `width` moves with the highest
/// order score (ties in generation order).
fn minimax<G: SearchGame, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
    ply: u32,
    width: Option<usize>,
) -> i32 {
    if let Some(score) = pos.terminal(ply) {
        return score;
    }
    if depth == 0 {
        return eval.evaluate(pos);
    }
    let mut moves = G::MoveList::default();
    pos.generate(&mut moves);
    if moves.is_empty() {
        return eval.evaluate(pos);
    }
    let mut ranked: Vec<(i32, usize)> = moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| (eval.order(pos, mv), i))
        .collect();
    ranked.sort_by_key(|&(order, i)| (Reverse(order), i));
    ranked.truncate(width.map_or(usize::MAX, |w| w.max(1)));
    ranked
        .iter()
        .map(|&(_, i)| -minimax(&pos.after(moves[i]), eval, depth - 1, ply + 1, width))
        .max()
        .expect("at least one move")
}

/// The root moves that minimax finds best, and their value.
fn best_moves<G: SearchGame, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
    width: Option<usize>,
) -> (Vec<G::Move>, i32) {
    let mut moves = G::MoveList::default();
    pos.generate(&mut moves);
    let mut ranked: Vec<(i32, usize)> = moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| (eval.order(pos, mv), i))
        .collect();
    ranked.sort_by_key(|&(order, i)| (Reverse(order), i));
    ranked.truncate(width.map_or(usize::MAX, |w| w.max(1)));
    let scored: Vec<(G::Move, i32)> = ranked
        .iter()
        .map(|&(_, i)| {
            let mv = moves[i];
            (mv, -minimax(&pos.after(mv), eval, depth - 1, 1, width))
        })
        .collect();
    let best = scored.iter().map(|&(_, s)| s).max().unwrap();
    let moves = scored
        .iter()
        .filter(|&&(_, s)| s == best)
        .map(|&(m, _)| m)
        .collect();
    (moves, best)
}

fn run<G: SearchGame, E: Evaluator<G>>(
    table: u8,
    pos: &G,
    eval: &E,
    limits: Limits,
    seed: u64,
) -> SearchResult<G::Move> {
    let mut searcher = Searcher::new(table);
    let mut rng = RandomStream::from_seed(seed, 0);
    searcher.search(pos, eval, &limits, &NoClock, &mut rng)
}

/// Asserts that the searcher, under `limits` and with every table size, gives the value that
/// minimax gives `pos` at `depth` and one of minimax's best moves; `what` names the case.
fn assert_matches_minimax<G: SearchGame, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
    limits: Limits,
    seed: u64,
    what: &str,
) {
    let (best, value) = best_moves(pos, eval, depth, None);
    for table in TABLES {
        let r = run(table, pos, eval, limits, seed);
        assert_eq!(r.score, value, "{what}, table {table}");
        assert!(best.contains(&r.best), "{what}, table {table}");
    }
}

fn legal<G: SearchGame>(pos: &G, mv: G::Move) -> bool {
    let mut moves = G::MoveList::default();
    pos.generate(&mut moves);
    moves.contains(&mv)
}

/// Random tic-tac-toe positions with a move to make, `plies` random moves from the start.
fn random_tic_tac_toe(seed: u64, plies: u32) -> Option<TicTacToe> {
    let mut rng = RandomStream::from_seed(seed, 1);
    let mut pos = TicTacToe::start();
    let mut moves = <TicTacToe as SearchGame>::MoveList::default();
    for _ in 0..plies {
        pos.generate(&mut moves);
        if moves.is_empty() {
            return None;
        }
        pos = pos.after(moves[rng.below(moves.len() as u32) as usize]);
    }
    pos.generate(&mut moves);
    (!moves.is_empty()).then_some(pos)
}

#[test]
fn subtraction_game_values_match_the_closed_form() {
    for table in TABLES {
        let top = if table == 0 { 12 } else { 30 };
        for pile in 1..=top {
            let pos = Subtraction { pile };
            let r = run(table, &pos, &ToyEval, Limits::to_depth(pile), 1);
            let expected = if pile % 4 == 0 {
                -(MATE - (2 * (pile / 4)) as i32)
            } else {
                MATE - (1 + 2 * (pile / 4)) as i32
            };
            assert_eq!(r.score, expected, "pile {pile}, table {table}");
            if pile % 4 != 0 {
                assert_eq!(r.best, pile % 4, "pile {pile}, table {table}");
            }
        }
    }
}

#[test]
fn tic_tac_toe_start_is_a_draw() {
    for table in TABLES {
        let r = run(table, &TicTacToe::start(), &ToyEval, Limits::to_depth(9), 3);
        assert_eq!((r.score, r.depth), (0, 9), "table {table}");
    }
}

#[test]
fn tic_tac_toe_matches_minimax_at_full_depth() {
    let mut checked = 0;
    for seed in 0..60 {
        let Some(pos) = random_tic_tac_toe(seed, 2 + (seed % 5) as u32) else {
            continue;
        };
        let what = format!("seed {seed}, {pos:?}");
        assert_matches_minimax(&pos, &ToyEval, 9, Limits::to_depth(9), seed, &what);
        checked += 1;
    }
    assert!(checked > 40);
}

#[test]
fn random_trees_match_minimax_at_every_depth() {
    for seed in 0..120 {
        let height = 3 + (seed % 4) as u32;
        let pos = RandomTree::new(seed, height);
        for depth in 1..=height + 1 {
            let what = format!("seed {seed} depth {depth}");
            assert_matches_minimax(&pos, &ToyEval, depth, Limits::to_depth(depth), seed, &what);
        }
    }
}

#[test]
fn width_matches_minimax_over_the_best_ordered_moves() {
    for seed in 0..80 {
        let pos = RandomTree::new(1000 + seed, 6);
        for width in 1..=3 {
            let limits = Limits {
                width: Some(width),
                ..Limits::to_depth(5)
            };
            let (best, value) = best_moves(&pos, &ToyEval, 5, Some(width));
            for table in TABLES {
                let r = run(table, &pos, &ToyEval, limits, seed);
                assert_eq!(r.score, value, "seed {seed} width {width} table {table}");
                assert!(best.contains(&r.best), "seed {seed} width {width}");
            }
        }
    }
}

/// Prefers taking many counters: wrong from 5, where only taking 1 wins.
struct Greedy;

impl Evaluator<Subtraction> for Greedy {
    fn evaluate(&self, _: &Subtraction) -> i32 {
        0
    }

    fn order(&self, _: &Subtraction, mv: u32) -> i32 {
        mv as i32
    }
}

#[test]
fn width_one_follows_the_best_ordered_move() {
    let pos = Subtraction { pile: 5 };
    let full = run(16, &pos, &Greedy, Limits::to_depth(5), 0);
    assert_eq!((full.best, full.score), (1, MATE - 3));
    // Width 1: take 3, the opponent greedily takes the last 2, and we have lost at ply 2.
    let narrow = Limits {
        width: Some(1),
        ..Limits::to_depth(5)
    };
    for table in TABLES {
        let r = run(table, &pos, &Greedy, narrow, 0);
        assert_eq!((r.best, r.score), (3, 2 - MATE), "table {table}");
    }
    // Width 2 sees takes 3 and 2: both lose, taking 2 more slowly (5 -> 3 -> 0).
    let two = Limits {
        width: Some(2),
        ..narrow
    };
    let r = run(16, &pos, &Greedy, two, 0);
    assert_eq!(r.score, 2 - MATE);
}

#[test]
fn the_faster_win_is_preferred() {
    // X wins at once on cell 2, or in three plies with the fork on cell 3.
    let pos = TicTacToe::parse("XX. .OO ...").unwrap();
    assert_eq!(-minimax(&pos.after(3), &ToyEval, 8, 1, None), MATE - 3);
    for table in TABLES {
        let r = run(table, &pos, &ToyEval, Limits::to_depth(9), 5);
        assert_eq!((r.best, r.score), (2, MATE - 1), "table {table}");
    }
}

#[test]
fn ties_are_drawn_from_the_stream_and_a_single_best_draws_nothing() {
    // From 8 every take loses in 4 plies: three tied moves.
    let pos = Subtraction { pile: 8 };
    let mut seen = [false; 4];
    for seed in 0..40 {
        let r = run(16, &pos, &ToyEval, Limits::to_depth(8), seed);
        assert_eq!(r.score, 4 - MATE);
        seen[r.best as usize] = true;
    }
    assert_eq!(seen, [false, true, true, true]);
    // From 7 only taking 3 wins: the stream is left untouched.
    let mut searcher = Searcher::new(16);
    let mut rng = RandomStream::from_seed(9, 0);
    let r = searcher.search(
        &Subtraction { pile: 7 },
        &ToyEval,
        &Limits::to_depth(8),
        &NoClock,
        &mut rng,
    );
    assert_eq!(r.best, 3);
    assert_eq!(rng.next_u64(), RandomStream::from_seed(9, 0).next_u64());
}

#[test]
fn same_inputs_give_the_same_result() {
    let limits = Limits {
        width: Some(3),
        ..Limits::to_depth(7)
    };
    let mut reused = Searcher::new(10);
    for seed in 0..20 {
        let pos = RandomTree::new(seed, 9);
        let a = run(10, &pos, &ToyEval, limits, seed);
        let b = run(10, &pos, &ToyEval, limits, seed);
        assert_eq!(a, b);
        // A searcher reused across games reproduces them once cleared.
        reused.clear();
        let c = reused.search(
            &pos,
            &ToyEval,
            &limits,
            &NoClock,
            &mut RandomStream::from_seed(seed, 0),
        );
        assert_eq!(a, c);
    }
}

#[test]
fn the_node_budget_is_respected() {
    let pos = RandomTree::new(42, 14);
    let full = run(12, &pos, &ToyEval, Limits::to_depth(12), 0);
    assert!(
        full.nodes > 20_000,
        "the full search takes {} nodes",
        full.nodes
    );
    let mut last_depth = 0;
    for budget in [0, 1, 10, 100, 1_000, 5_000, 20_000] {
        let limits = Limits {
            nodes: Some(budget),
            ..Limits::to_depth(12)
        };
        let r = run(12, &pos, &ToyEval, limits, 0);
        // The node that exceeds the budget is counted, then the search stops.
        assert!(r.nodes <= budget + 1, "budget {budget}: {} nodes", r.nodes);
        assert!(legal(&pos, r.best));
        assert!(r.depth >= last_depth && r.depth < 12, "budget {budget}");
        last_depth = r.depth;
    }
    assert!(last_depth >= 3, "20,000 nodes reach depth {last_depth}");
    // No iteration completed: the best-ordered move.
    let r = run(
        12,
        &pos,
        &ToyEval,
        Limits {
            nodes: Some(0),
            ..Limits::to_depth(12)
        },
        0,
    );
    let mut moves = <RandomTree as SearchGame>::MoveList::default();
    pos.generate(&mut moves);
    let ordered = moves
        .iter()
        .copied()
        .max_by_key(|&m| (ToyEval.order(&pos, m), Reverse(m)));
    assert_eq!((Some(r.best), r.score, r.depth), (ordered, 0, 0));
    // A budget the full search fits in changes nothing.
    let roomy = Limits {
        nodes: Some(full.nodes),
        ..Limits::to_depth(12)
    };
    assert_eq!(run(12, &pos, &ToyEval, roomy, 0), full);
}

#[test]
fn a_search_deepens_past_its_depth_only_while_an_eighth_of_its_budget_is_unused() {
    let pos = RandomTree::new(42, 14);
    let depth = |d: u32| run(12, &pos, &ToyEval, Limits::to_depth(d), 0);
    let (three, four, five) = (depth(3), depth(4), depth(5));
    let deepening = |nodes: u64, deepen: u32| {
        let limits = Limits {
            deepen,
            nodes: Some(nodes),
            ..Limits::to_depth(3)
        };
        run(12, &pos, &ToyEval, limits, 0)
    };
    // Room for everything: two more plies are exactly the five-ply search.
    let roomy = deepening(8 * five.nodes, 2);
    assert_eq!(
        (roomy.depth, roomy.best, roomy.score),
        (5, five.best, five.score)
    );
    // Depth 4 starts only while depth 3's nodes are at most an eighth of the budget.
    assert_eq!(deepening(8 * three.nodes, 2).depth, 4);
    assert_eq!(deepening(8 * three.nodes - 1, 2).depth, 3);
    // After depth 4, depth 5 starts only if depth 4's nodes leave seven eighths unused.
    let at_four = deepening(8 * four.nodes - 1, 2);
    assert_eq!(at_four.depth, 4, "{at_four:?}");
    // Without a node budget, or without `deepen`, the depth binds as before.
    let unbounded = Limits {
        deepen: 2,
        ..Limits::to_depth(3)
    };
    assert_eq!(run(12, &pos, &ToyEval, unbounded, 0), three);
    assert_eq!(deepening(8 * five.nodes, 0).depth, 3);
}

/// A clock that advances one millisecond each time it is read.
struct Ticking(Cell<u64>);

impl Clock for Ticking {
    fn now_ms(&self) -> u64 {
        let now = self.0.get();
        self.0.set(now + 1);
        now
    }
}

#[test]
fn a_time_budget_stops_the_search() {
    let pos = RandomTree::new(7, 40);
    let clock = Ticking(Cell::new(1000));
    let limits = Limits {
        time_ms: Some(3),
        ..Limits::to_depth(40)
    };
    let mut rng = RandomStream::from_seed(0, 0);
    let r = Searcher::new(12).search(&pos, &ToyEval, &limits, &clock, &mut rng);
    // Read at the start, then every 1,024 nodes or completed iteration: the third read after the
    // start is the deadline; one more read at the end measures the time taken.
    assert!(r.nodes <= 3 * 1024, "{} nodes", r.nodes);
    assert!(r.depth < 40 && legal(&pos, r.best));
    assert!(clock.0.get() <= 1005);
    assert_eq!(r.elapsed_ms, clock.0.get() - 1 - 1000);
    assert!(r.elapsed_ms >= 3);
    // Without the clock advancing, the same search goes deeper.
    let frozen = Searcher::new(12).search(
        &pos,
        &ToyEval,
        &Limits {
            nodes: Some(100_000),
            ..limits
        },
        &NoClock,
        &mut rng,
    );
    assert!(frozen.depth > r.depth);
}

#[test]
fn an_interrupted_iteration_returns_the_last_completed_one_or_a_proved_improvement() {
    let mut improvements = 0;
    for seed in 0..6 {
        let pos = RandomTree::new(500 + seed, 12);
        let full = run(12, &pos, &ToyEval, Limits::to_depth(7), seed);
        for budget in (1..full.nodes).step_by(7) {
            let limits = Limits {
                nodes: Some(budget),
                ..Limits::to_depth(7)
            };
            let r = run(12, &pos, &ToyEval, limits, seed);
            let completed = run(12, &pos, &ToyEval, Limits::to_depth(r.depth), seed);
            if r.depth == 0 || (r.best, r.score) == (completed.best, completed.score) {
                continue;
            }
            // A move the interrupted iteration (depth + 1) proved better than the previous best:
            // its score is its exact value at that depth.
            let value = -minimax(&pos.after(r.best), &ToyEval, r.depth, 1, None);
            assert_eq!(r.score, value, "seed {seed}, budget {budget}");
            let (best_before, _) = best_moves(&pos, &ToyEval, r.depth, None);
            let before = best_before
                .iter()
                .map(|&mv| -minimax(&pos.after(mv), &ToyEval, r.depth, 1, None))
                .min()
                .unwrap();
            assert!(r.score > before, "seed {seed}, budget {budget}");
            improvements += 1;
        }
    }
    assert!(
        improvements > 0,
        "no interrupted iteration improved the move"
    );
}

/// A game with a cycle: from square 0 or 1 the side to move may shuffle to the other square or
/// step to square 2; from there on the only move steps one square further. A stands better (+50)
/// on squares 0 and 1, and only slightly (+5) beyond.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shuffle {
    square: u8,
    a_to_move: bool,
}

/// Shuffling between squares 0 and 1.
const SHUFFLE: u8 = 0;
/// Stepping to square 2 (or on from there).
const STEP: u8 = 1;

impl SearchGame for Shuffle {
    type Move = u8;
    type MoveList = arrayvec::ArrayVec<u8, 2>;

    fn generate(&self, out: &mut Self::MoveList) {
        out.clear();
        if self.square < 2 {
            out.push(SHUFFLE);
        }
        out.push(STEP);
    }

    fn after(&self, mv: u8) -> Self {
        let square = match (mv, self.square) {
            (SHUFFLE, s) => 1 - s,
            (_, s) => s.max(1) + 1,
        };
        Self {
            square,
            a_to_move: !self.a_to_move,
        }
    }

    fn hash(&self) -> u64 {
        crate::random::splitmix64(u64::from(self.square) * 2 + u64::from(self.a_to_move))
    }

    fn terminal(&self, _: u32) -> Option<i32> {
        None
    }
}

/// The position's worth for A, from the side to move's point of view.
struct ShuffleEval;

impl Evaluator<Shuffle> for ShuffleEval {
    fn evaluate(&self, pos: &Shuffle) -> i32 {
        let for_a = if pos.square < 2 { 50 } else { 5 };
        if pos.a_to_move { for_a } else { -for_a }
    }

    fn order(&self, _: &Shuffle, _: u8) -> i32 {
        0
    }
}

/// The move `side` chooses on square 0 at `depth`, the game having passed square 1 with the
/// other side to move (`None`: cycles not scored).
fn shuffle_choice(a_to_move: bool, depth: u32, contempt: Option<i32>) -> (u8, i32) {
    let pos = Shuffle {
        square: 0,
        a_to_move,
    };
    let mut searcher = Searcher::new(8);
    if let Some(c) = contempt {
        let before = Shuffle {
            square: 1,
            a_to_move: !a_to_move,
        };
        searcher.set_game(&[before.hash()], c);
    }
    let mut rng = RandomStream::from_seed(1, 0);
    let r = searcher.search(
        &pos,
        &ShuffleEval,
        &Limits::to_depth(depth),
        &NoClock,
        &mut rng,
    );
    (r.best, r.score)
}

#[test]
fn a_cycle_scores_as_a_draw_that_the_better_side_avoids() {
    // Blind to cycles, A shuffles back to the square where it stands +50.
    assert_eq!(shuffle_choice(true, 1, None), (SHUFFLE, 50));
    // Seeing it as a draw, A (better) steps out of it and B (worse) shuffles into it.
    assert_eq!(shuffle_choice(true, 1, Some(0)), (STEP, 5));
    assert_eq!(shuffle_choice(false, 1, Some(0)), (SHUFFLE, 0));
    // A contempt of 10 makes B prefer -5 to a draw; a contempt of -10 makes A prefer the draw.
    assert_eq!(shuffle_choice(false, 1, Some(10)), (STEP, -5));
    assert_eq!(shuffle_choice(true, 1, Some(-10)), (SHUFFLE, 10));
    // Deeper, B's reply may close a cycle on the search path: A still steps out.
    assert_eq!(shuffle_choice(true, 4, Some(0)), (STEP, 5));
    // With no game history, B's shuffle back to the root closes a cycle on the path: worth a
    // draw to B, so A's shuffle is worth 0, not the +50 of the root's square.
    let root = Shuffle {
        square: 0,
        a_to_move: true,
    };
    let after_shuffle = root.after(SHUFFLE);
    let mut searcher = Searcher::new(8);
    searcher.set_game(&[], 0);
    let mut rng = RandomStream::from_seed(1, 0);
    let r = searcher.search(
        &after_shuffle,
        &ShuffleEval,
        &Limits::to_depth(1),
        &NoClock,
        &mut rng,
    );
    assert_eq!(
        (r.best, r.score),
        (STEP, -5),
        "no cycle from square 1 alone"
    );
    searcher.set_game(&[root.hash()], 0);
    let r = searcher.search(
        &after_shuffle,
        &ShuffleEval,
        &Limits::to_depth(1),
        &NoClock,
        &mut rng,
    );
    assert_eq!((r.best, r.score), (SHUFFLE, 0));
}

#[test]
fn the_principal_variation_is_the_best_line() {
    // From 6 the winner takes 2, then every reply is answered to a multiple of 4.
    let pos = Subtraction { pile: 6 };
    let r = run(16, &pos, &ToyEval, Limits::to_depth(6), 0);
    assert_eq!(r.score, MATE - 3);
    assert_eq!(r.pv.first(), Some(&2));
    assert_eq!(r.pv.len(), 3, "{:?}", r.pv);
    assert_eq!(r.pv.iter().sum::<u32>(), 6, "the line empties the pile");
    assert_eq!(r.pv[1] + r.pv[2], 4);
}

#[test]
fn reductions_change_no_value_when_the_depth_leaves_room_for_them() {
    // A reduced move is searched `r` plies shallower each time, so a depth of the game's length
    // plus `r` plies per ply still reaches every terminal position: the values are exact.
    for reduction in 1..=2 {
        let mut checked = 0;
        for seed in 0..40 {
            let Some(pos) = random_tic_tac_toe(seed, 1 + (seed % 4) as u32) else {
                continue;
            };
            let limits = Limits {
                reduction,
                ..Limits::to_depth(9 * (1 + reduction))
            };
            let what = format!("tic-tac-toe seed {seed}, reduction {reduction}");
            assert_matches_minimax(&pos, &ToyEval, 9, limits, seed, &what);
            checked += 1;
        }
        assert!(checked > 30);
        for seed in 0..40 {
            let height = 3 + (seed % 3) as u32;
            let pos = RandomTree::new(500 + seed, height);
            let limits = Limits {
                reduction,
                ..Limits::to_depth(height * (1 + reduction))
            };
            let what = format!("random tree seed {seed}, reduction {reduction}");
            assert_matches_minimax(&pos, &ToyEval, height, limits, seed, &what);
        }
    }
}

#[test]
fn reductions_save_nodes_at_a_fixed_depth() {
    let pos = RandomTree::new(42, 14);
    let full = run(12, &pos, &ToyEval, Limits::to_depth(10), 0);
    let reduced = run(
        12,
        &pos,
        &ToyEval,
        Limits {
            reduction: 1,
            ..Limits::to_depth(10)
        },
        0,
    );
    assert!(
        reduced.nodes * 10 < full.nodes * 9,
        "{} nodes reduced, {} in full",
        reduced.nodes,
        full.nodes
    );
}

#[test]
fn futility_prunes_only_within_its_margin() {
    // The random tree's evaluation lies in -300..=300 and its leaves in -500..=500: a margin of
    // 801 a ply can never bring a static score to alpha, so nothing may change, node counts
    // included. A margin of 50 prunes.
    let (mut plain_nodes, mut pruned_nodes) = (0, 0);
    for seed in 0..60 {
        let pos = RandomTree::new(900 + seed, 7);
        for depth in 1..=7 {
            let plain = run(16, &pos, &ToyEval, Limits::to_depth(depth), seed);
            let wide = Limits {
                futility: 801,
                ..Limits::to_depth(depth)
            };
            assert_eq!(run(16, &pos, &ToyEval, wide, seed), plain, "seed {seed}");
            let narrow = Limits {
                futility: 50,
                ..Limits::to_depth(depth)
            };
            let pruned = run(16, &pos, &ToyEval, narrow, seed);
            assert!(legal(&pos, pruned.best));
            plain_nodes += plain.nodes;
            pruned_nodes += pruned.nodes;
        }
    }
    assert!(
        pruned_nodes * 10 < plain_nodes * 9,
        "{pruned_nodes} nodes pruned, {plain_nodes} plain"
    );
}

/// Tic-tac-toe where a side facing two marks of the other's with the third cell empty must
/// answer: the searcher sees only the moves that win at once or fill such a cell (everywhere,
/// or with `ONLY` false only in the extra ply at the horizon).
#[derive(Clone, Copy, Debug)]
struct Threatened<const ONLY: bool = true>(TicTacToe);

impl<const ONLY: bool> Threatened<ONLY> {
    /// The empty cells that would complete a line of `player`'s.
    fn completions(&self, player: u8) -> Vec<u8> {
        let cells = self.0.cells;
        LINES
            .iter()
            .filter(|line| line.iter().filter(|&&c| cells[c] == player).count() == 2)
            .filter_map(|line| line.iter().find(|&&c| cells[c] == 0))
            .map(|&c| c as u8)
            .collect()
    }
}

impl<const ONLY: bool> SearchGame for Threatened<ONLY> {
    type Move = u8;
    type MoveList = <TicTacToe as SearchGame>::MoveList;
    const ONLY_ANSWERS: bool = ONLY;

    fn generate(&self, out: &mut Self::MoveList) {
        self.0.generate(out);
    }

    fn after(&self, mv: u8) -> Self {
        Self(self.0.after(mv))
    }

    fn hash(&self) -> u64 {
        self.0.hash()
    }

    fn terminal(&self, ply: u32) -> Option<i32> {
        self.0.terminal(ply)
    }

    fn forcing(&self) -> bool {
        !self.completions(3 - self.0.to_move).is_empty()
    }

    fn answers(&self, out: &mut Self::MoveList) {
        self.0.generate(out);
        let mut keep = self.completions(self.0.to_move);
        keep.extend(self.completions(3 - self.0.to_move));
        out.retain(|mv| keep.contains(mv));
    }
}

impl<const ONLY: bool> Evaluator<Threatened<ONLY>> for ToyEval {
    fn evaluate(&self, _: &Threatened<ONLY>) -> i32 {
        0
    }

    fn order(&self, pos: &Threatened<ONLY>, mv: u8) -> i32 {
        self.order(&pos.0, mv)
    }
}

#[test]
fn answering_threats_only_changes_no_value_and_saves_nodes() {
    let (mut plain_nodes, mut answered_nodes, mut checked) = (0, 0, 0);
    for seed in 0..60 {
        let Some(pos) = random_tic_tac_toe(seed, 1 + (seed % 4) as u32) else {
            continue;
        };
        // Minimax generates every move (it never asks for answers), so it is the plain game's.
        let what = format!("tic-tac-toe seed {seed}");
        assert_matches_minimax(
            &Threatened::<true>(pos),
            &ToyEval,
            9,
            Limits::to_depth(9),
            seed,
            &what,
        );
        plain_nodes += run(16, &pos, &ToyEval, Limits::to_depth(9), seed).nodes;
        answered_nodes += run(
            16,
            &Threatened::<true>(pos),
            &ToyEval,
            Limits::to_depth(9),
            seed,
        )
        .nodes;
        checked += 1;
    }
    assert!(checked > 40);
    assert!(
        answered_nodes * 10 < plain_nodes * 9,
        "{answered_nodes} nodes answering threats only, {plain_nodes} plain"
    );
}

/// [`Threatened`] asking for its answers only in the extra ply at the horizon.
type AnsweredAtHorizon = Threatened<false>;

#[test]
fn threats_off_or_answered_only_at_the_horizon_keep_every_value() {
    let (mut everywhere, mut at_horizon_nodes, mut off_nodes, mut checked) = (0, 0, 0, 0);
    for seed in 0..60 {
        let Some(pos) = random_tic_tac_toe(seed, 1 + (seed % 4) as u32) else {
            continue;
        };
        let what = format!("tic-tac-toe seed {seed}");
        let off = Limits {
            threats: false,
            ..Limits::to_depth(9)
        };
        assert_matches_minimax(&Threatened::<true>(pos), &ToyEval, 9, off, seed, &what);
        let at_horizon: AnsweredAtHorizon = Threatened(pos);
        assert_matches_minimax(&at_horizon, &ToyEval, 9, Limits::to_depth(9), seed, &what);
        everywhere += run(
            16,
            &Threatened::<true>(pos),
            &ToyEval,
            Limits::to_depth(9),
            seed,
        )
        .nodes;
        at_horizon_nodes += run(16, &at_horizon, &ToyEval, Limits::to_depth(9), seed).nodes;
        off_nodes += run(16, &Threatened::<true>(pos), &ToyEval, off, seed).nodes;
        checked += 1;
    }
    assert!(checked > 40);
    // Answers everywhere prune the most; answers at the horizon alone search all moves above it.
    assert!(
        everywhere < at_horizon_nodes && everywhere < off_nodes,
        "{everywhere} answering everywhere, {at_horizon_nodes} at the horizon, {off_nodes} off"
    );
}
