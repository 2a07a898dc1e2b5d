//! The computer levels and their evaluation.

use super::notation::random_game;
use super::*;
use crate::search::{SearchGame, SearchParams};

// ---------------------------------------------------------------- computer levels

fn agent(
    level: usize,
    time_control: crate::agent::TimeControl,
) -> Box<dyn crate::agent::Agent<Hnefatafl>> {
    crate::agent::AgentSetup {
        time_control,
        ..Hnefatafl::levels()[level].setup()
    }
    .agent()
}

fn choose_with(
    agent: &mut dyn crate::agent::Agent<Hnefatafl>,
    g: &Hnefatafl,
    clock: &dyn crate::agent::Clock,
) -> String {
    let mut moves = MoveList::new();
    g.legal_moves(&mut moves);
    let mut rng = RandomStream::tie_break(7, g.to_move());
    let mv = agent.choose(
        g,
        &moves,
        &mut crate::agent::Context {
            rng: &mut rng,
            clock,
        },
    );
    g.format_move(mv)
}

fn choose(level: usize, g: &Hnefatafl) -> String {
    let mut a = agent(level, crate::agent::TimeControl::Batch);
    choose_with(a.as_mut(), g, &crate::agent::NoClock)
}

#[test]
fn weight_tables_are_consistent() {
    use crate::weights::check_table;
    let levels = Hnefatafl::levels();
    assert_eq!(
        levels.iter().map(|l| l.name).collect::<Vec<_>>(),
        ["easy", "normal", "hard", "expert"]
    );
    check_table(&EvalWeights::SET).unwrap();
    check_table(&SearchParams::SET).unwrap();
    let eval = EvalWeights::SET.params.len();
    let mut depths = Vec::new();
    for level in levels {
        let set = level.weights.unwrap();
        check_table(set).unwrap();
        assert_eq!(&set.params[..eval], EvalWeights::SET.params);
        assert_eq!(set.params.len(), eval + SearchParams::SET.params.len());
        let search = SearchParams::from_values(&set.defaults()[eval..]);
        depths.push((search.depth, search.nodes));
    }
    assert!(
        depths
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1),
        "each level searches deeper, on a larger budget: {depths:?}"
    );
}

#[test]
fn every_level_takes_an_open_corner() {
    // The king on a5 sees both a1 and a11.
    let g = game("/11/11/2t4T3/11/11/11/K10/11/11/11/11/ d");
    for level in 0..4 {
        assert!(
            ["a5-a1", "a5-a11"].contains(&choose(level, &g).as_str()),
            "level {level}"
        );
    }
}

#[test]
fn every_level_blocks_a_single_escape_route() {
    // The king on c1 sees a1 across b1 (e1 shuts the other way): only b7-b1 saves the attackers.
    let g = game("/11/11/7t3/11/1t9/11/9T1/11/11/11/2K1t6/ a");
    for level in 0..4 {
        assert_eq!(choose(level, &g), "b7-b1", "level {level}");
    }
}

#[test]
fn agents_reproduce_and_forget_between_games() {
    let mut a = agent(2, crate::agent::TimeControl::Batch);
    let play = |a: &mut Box<dyn crate::agent::Agent<Hnefatafl>>| {
        a.new_game();
        let mut g = game(START);
        let mut line = Vec::new();
        for _ in 0..6 {
            let mv = choose_with(a.as_mut(), &g, &crate::agent::NoClock);
            g.apply(g.parse_move(&mv).unwrap());
            line.push(mv);
        }
        line
    };
    let first = play(&mut a);
    assert_eq!(play(&mut a), first, "new_game resets the searcher");
}

/// A clock that advances 40 ms each time it is read.
#[derive(Debug, Default)]
struct Racing(core::cell::Cell<u64>);

impl crate::agent::Clock for Racing {
    fn now_ms(&self) -> u64 {
        self.0.set(self.0.get() + 40);
        self.0.get()
    }
}

#[test]
fn player_time_control_reads_the_clock() {
    let mut expert = agent(3, crate::agent::TimeControl::Player);
    let clock = Racing::default();
    let g = game(START);
    let mv = choose_with(expert.as_mut(), &g, &clock);
    assert!(g.parse_move(&mv).is_ok());
    assert!(clock.0.get() > 0, "the searcher looked at the clock");
}

#[test]
fn the_player_time_budget_binds_on_an_injected_clock() {
    use super::super::agents::{ROWS, SETS, searching_agent};
    let setup = crate::agent::AgentSetup {
        level: &Hnefatafl::levels()[3],
        weights: Vec::new(),
        time_control: crate::agent::TimeControl::Player,
        network: None,
    };
    let mut expert = searching_agent(&ROWS[3], &SETS[3], &setup);
    let limits = *expert.limits(0);
    assert_eq!(
        (limits.depth, limits.time_ms, limits.nodes),
        (12, Some(1800), None)
    );
    let clock = Racing::default();
    let mut rng = RandomStream::tie_break(7, 0);
    let r = expert.search(
        &game(START),
        &mut crate::agent::Context {
            rng: &mut rng,
            clock: &clock,
        },
    );
    // The clock advances 40 ms a read and is read every 1,024 nodes: the search stops at the
    // first read past 1.8 s, long before twelve plies.
    assert!(r.depth < 12, "depth {}", r.depth);
    assert!(
        (1800..=1800 + 2 * 40).contains(&r.elapsed_ms),
        "{} ms",
        r.elapsed_ms
    );
    assert!(r.nodes <= (1800 / 40 + 2) * 1024, "{} nodes", r.nodes);
    assert_eq!(r.pv.first(), Some(&r.best));
}

#[test]
fn normal_beats_easy() {
    // Four seeds, sides swapped, at the default cap (a short one leaves most games drawn).
    let options = HnefataflOptions::default();
    let mut agents = [
        agent(0, crate::agent::TimeControl::Batch),
        agent(1, crate::agent::TimeControl::Batch),
    ];
    let mut points = [0.0; 2];
    for seed in 0..4 {
        for rotation in 0..2 {
            let agent_of = |seat| crate::game::seat_agent(seat, rotation, 2);
            let end = crate::selfplay::SeededGame {
                options: &options,
                seats: 2,
                seed,
                clock: &crate::agent::NoClock,
                adjudication: Default::default(),
            }
            .play(&mut agents, agent_of, &mut NoLog, |_: &Hnefatafl| {});
            let outcome = end.outcome().unwrap();
            for seat in 0..2 {
                points[agent_of(seat)] += match outcome.result_of(seat) {
                    SeatResult::Win => 1.0,
                    SeatResult::Draw => 0.5,
                    _ => 0.0,
                };
            }
        }
    }
    assert!(
        points[1] > points[0] + 1.0,
        "easy {} normal {}",
        points[0],
        points[1]
    );
}

#[test]
fn the_evaluation_is_signed_for_the_side_to_move() {
    let weights = EvalWeights {
        tempo: 0.0,
        ..EvalWeights::default()
    };
    let eval = Evaluation::new(weights);
    let attackers = game(START);
    let defenders = game(&START.replace(" a", " d"));
    let score = eval.for_side_to_move(&attackers);
    assert_ne!(score, 0);
    assert_eq!(eval.for_side_to_move(&defenders), -score);
    // An open corner with the defenders to move is as good as won for them.
    let open = game("/11/11/2t4T3/11/11/11/K10/11/11/11/11/ d");
    assert!(eval.for_side_to_move(&open) > 4000);
}

/// The `free_defenders` term of `text`: the defenders (king included) not yet encircled.
fn free_defenders(text: &str) -> f64 {
    let index = EvalWeights::SET.index_of("free_defenders").unwrap();
    -features(&game(text))[index]
}

#[test]
fn free_defenders_counts_the_pieces_not_yet_encircled() {
    assert_eq!(free_defenders(START), 13.0);
    // The king and a soldier sealed by six attackers, one soldier roaming at j2 (the shape in
    // which Expert self-play shuffled for hundreds of plies): only the roamer is free.
    let sealed = "/11/11/11/5t5/4tTt4/4tKt4/5t5/11/11/9T1/11/ a";
    assert_eq!(free_defenders(sealed), 1.0);
}

/// The `roamer_net` term of `text`: with the king shut off from every corner, how far short of
/// 40 squares the free defender soldiers can move to safely.
fn roamer_net(text: &str) -> f64 {
    let index = EvalWeights::SET.index_of("roamer_net").unwrap();
    features(&game(text))[index]
}

#[test]
fn roamer_net_counts_the_squares_a_free_soldier_cannot_reach_safely() {
    // The king sealed in a ring; the soldier at j2 reaches all of rank 2 and file j (20
    // squares), none of them beside an attacker or a corner that an attacker could close.
    let sealed = "/11/11/11/5t5/4tTt4/4tKt4/5t5/11/11/9T1/11/ a";
    assert_eq!(roamer_net(sealed), 40.0 - 20.0);
    // An attacker at e3 reaches a3 and k3 along rank 3, so a soldier stopping on a2 or k2 would
    // be taken against the corner. E2 stays safe: e3 could close e1 only by passing through it.
    let e3 = "/11/11/11/5t5/4tTt4/4tKt4/5t5/11/4t6/9T1/11/ a";
    assert_eq!(roamer_net(e3), 40.0 - 18.0);
    // The sealed soldier beside the king does not count: with the roamer gone, nothing is free.
    assert_eq!(
        roamer_net("/11/11/11/5t5/4tTt4/4tKt4/5t5/11/11/11/11/ a"),
        40.0
    );
    // While the king can reach a corner the term is zero, whatever the soldiers can reach.
    assert_eq!(roamer_net(START), 0.0);
    assert_eq!(
        roamer_net("/11/11/11/11/4tTt4/4tK5/5t5/11/11/9T1/11/ a"),
        0.0
    );
}

#[test]
fn roamer_net_counts_once_an_edge_king_is_shut_off_from_the_corners() {
    // The king on f11 between attackers at e11 and g11, with f10 taken too: on the edge he
    // cannot be captured, and he reaches no corner. The roamer at j2 reaches rank 2 and file j
    // (20 squares), but g11 reaches i11, so j11 (beside the corner k11) is a trap: 19 safe.
    assert_eq!(
        roamer_net("/4tKt4/5t5/11/11/11/11/11/11/11/9T1/11/ a"),
        40.0 - 19.0
    );
    // Without g11 the king walks to k11: the term waits.
    assert_eq!(roamer_net("/4tK5/5t5/11/11/11/11/11/11/11/9T1/11/ a"), 0.0);
}

#[test]
fn roamer_net_counts_once_a_soldier_that_cannot_move_walls_the_king_off_a_corner() {
    // The king on c11 with a soldier on b11 beside the corner a11; attackers on b10, c10 and
    // d11. Neither the king nor b11 can move, so the king never reaches a11, although a11 is
    // free of attackers. The roamer at j2 reaches rank 2 and file j (20 squares); d11 reaches
    // i11, so j11 (beside k11) is a trap: 19 safe.
    assert_eq!(
        roamer_net("/1TKt7/1tt8/11/11/11/11/11/11/11/9T1/11/ a"),
        40.0 - 19.0
    );
    // Without b10, the soldier on b11 can step aside and open a11: the term waits.
    assert_eq!(roamer_net("/1TKt7/2t8/11/11/11/11/11/11/11/9T1/11/ a"), 0.0);
    // A soldier on b10 instead of the attacker: b11 is boxed in by his own side only, and b10
    // can move to make room, so nothing is frozen.
    assert_eq!(
        roamer_net("/1TKt7/1Tt8/11/11/11/11/11/11/11/9T1/11/ a"),
        0.0
    );
}

#[test]
fn hard_attackers_catch_the_last_free_soldier_of_a_fortress() {
    // Ply 150 of a Hard self-play game (seed 1, index 18): the king and three soldiers form a
    // block no capture can break, inside a ring of attackers, and one soldier roams at c1.
    // Before the `roamer_net` term, Hard never caught him and the game reached the 1,000-ply
    // cap; now the attackers net him and win.
    let fortress = game("/11/11/5t5/4tt5/2ttTTt2T1/2t1TKtt3/t3tt5/3tttt4/11/11/2t8/ a");
    assert_eq!(play_levels(2, 2, &fortress, 200), ATTACKERS);
}

#[test]
fn hard_attackers_catch_the_last_free_soldier_beside_an_edge_fort() {
    // Ply 200 of a Hard self-play game (seed 2, index 0): the king is walled in at h11 by
    // attackers at g11, i11 and h10, where no capture can reach him, and one soldier roams at
    // f4. While the term waited for the king to be sealed off from the edge, Hard took 173 and
    // 403 plies from here (seeds 2 and 1) and the game itself reached the 1,000-ply cap; with the
    // net counted once the king reaches no corner, the attackers take the soldier and win.
    let fort = game("/5ttKtt1/1t5t1t1/7t3/3t7/11/11/11/5Tt4/t9t/1t9/8t2/ a");
    assert_eq!(play_levels(2, 2, &fort, 80), ATTACKERS);
}

#[test]
fn expert_attackers_catch_the_last_free_soldier_beside_a_corner_fort() {
    // Ply 200 of an Expert self-play game (seed 2, index 94): the king on c11 and a soldier on
    // b11 hold each other in place beside the corner a11, walled by attackers on b10, c10 and
    // d11, and one soldier roams at f4. With the net waiting for a11 to be walled off by
    // attackers, Expert shuffled here to the 1,000-ply cap (seeds 1 and 2 both); counting the
    // frozen soldier as a wall, the attackers take the roamer and win.
    let fort = game("/1TKtt3t2/1ttt7/ttttt6/11/11/11/11/t4T5/11/11/2t5t2/ a");
    assert_eq!(play_levels(3, 3, &fort, 80), ATTACKERS);
}

#[test]
fn captures_are_ordered_first() {
    let eval = Evaluation::new(EvalWeights::default());
    let g = game("/11/11/7K3/11/11/11/4Tt5/11/11/11/3t7/ a");
    let mut moves = MoveList::new();
    g.legal_moves(&mut moves);
    let best = moves
        .iter()
        .max_by_key(|&&mv| eval.move_order(&g, mv))
        .unwrap();
    assert_eq!(g.format_move(*best), "d1-d5xe5");
    assert!(eval.move_order(&g, *best) >= 1000);
    assert!(
        moves
            .iter()
            .filter(|&&mv| eval.move_order(&g, mv) >= 1000)
            .count()
            == 1
    );
}

/// The names of the attackers' answers to the king's threat in `g`, sorted.
fn answers(g: &Hnefatafl) -> Vec<String> {
    let mut moves = MoveList::new();
    g.answers(&mut moves);
    let mut names: Vec<String> = moves.iter().map(|&mv| g.format_move(mv)).collect();
    names.sort();
    names
}

#[test]
fn only_moves_onto_the_kings_line_answer_a_corner_he_sees() {
    // The king on a5 sees a1 (a7 shuts a11 off); c2, c3 and d4 can reach his line, e9 cannot.
    let g = game("/11/11/4t6/11/t10/6T4/K10/3t7/2t8/2t8/11/ a");
    assert!(g.forcing());
    assert_eq!(answers(&g), ["c2-a2", "c3-a3", "d4-a4"]);
    // Nothing reaches the line: no answer.
    let lost = game("/11/11/4t6/11/t10/6T4/K10/11/11/11/11/ a");
    assert!(answers(&lost).is_empty());
    // In random games: every answer is legal, and every other move lets the king into a corner
    // at once (checked against the rules alone).
    let mut checked = 0;
    for seed in 0..60 {
        random_game(seed, |g| {
            if g.outcome().is_some() || !g.forcing() {
                return;
            }
            checked += 1;
            let (mut legal, mut kept) = (MoveList::new(), MoveList::new());
            g.legal_moves(&mut legal);
            g.answers(&mut kept);
            assert!(kept.iter().all(|mv| legal.contains(mv)));
            for &mv in legal.iter().filter(|mv| !kept.contains(mv)) {
                let after = g.after(mv);
                assert_eq!(after.outcome(), None, "{}", g.format_move(mv));
                let mut replies = MoveList::new();
                after.legal_moves(&mut replies);
                assert!(
                    replies.iter().any(|&reply| {
                        result(&after.after(reply)) == Some((DEFENDERS, "corner"))
                    }),
                    "after {} the king has no corner",
                    g.format_move(mv)
                );
            }
        });
    }
    assert!(
        checked >= 50,
        "{checked} positions with the king seeing a corner"
    );
}

// ---------------------------------------------------------------- forced escapes

/// Whether the defenders (to move) win within `n` king moves whatever the attackers reply: an
/// AND-OR search over the rules alone, independent of the searcher and the evaluation.
fn king_escapes_within(g: &Hnefatafl, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    let mut moves = MoveList::new();
    g.legal_moves(&mut moves);
    let king = g.board().king;
    moves.iter().filter(|mv| mv.from == king).any(|&mv| {
        let mut after = *g;
        after.apply(mv);
        if let Some(outcome) = after.outcome() {
            return outcome.sole_winner() == DEFENDERS;
        }
        if n == 1 {
            return false;
        }
        let mut replies = MoveList::new();
        after.legal_moves(&mut replies);
        replies.iter().all(|&reply| {
            let mut next = after;
            next.apply(reply);
            next.outcome().is_none() && king_escapes_within(&next, n - 1)
        })
    })
}

/// Positions with the defenders to move and a forced escape in exactly 1, 2 and 3 king moves
/// (found by random sampling with [`king_escapes_within`], which the test re-checks).
const ESCAPES: [(&str, u32); 5] = [
    ("/11/11/2t8/11/11/11/K10/11/t10/11/11/ d", 1),
    ("/11/11/7t3/11/t10/11/9K1/5t5/tt9/1t9/11/ d", 2),
    ("/8t2/2t2t5/7t3/11/11/2t1t6/5t5/6t3t/6K4/11/11/ d", 2),
    ("/1t4t4/11/11/11/6t4/11/t10/11/7K1t1/7t3/6t4/ d", 3),
    ("/11/t1t8/2t7t/3T1t5/6tT3/11/7K2t/2t8/1t1t7/5t5/9t1/ d", 3),
];

/// Plays `defenders` against Expert attackers from `g` for `moves` defender moves at most, and
/// returns the winner.
fn play_out(defenders: usize, g: &Hnefatafl, moves: u32) -> Option<usize> {
    play_levels(3, defenders, g, 2 * moves - 1)
}

/// Plays level `attackers` against level `defenders` from `g` for at most `plies` plies, and
/// returns the winner.
fn play_levels(attackers: usize, defenders: usize, g: &Hnefatafl, plies: u32) -> Option<usize> {
    let mut agents = [
        agent(attackers, crate::agent::TimeControl::Batch),
        agent(defenders, crate::agent::TimeControl::Batch),
    ];
    let mut g = *g;
    for _ in 0..plies {
        let side = g.to_move();
        let mv = choose_with(agents[side].as_mut(), &g, &crate::agent::NoClock);
        g.apply(g.parse_move(&mv).unwrap());
        if let Some(outcome) = g.outcome() {
            return outcome.sole_winner();
        }
    }
    None
}

#[test]
fn hard_and_expert_find_forced_escapes_in_one_two_and_three() {
    for (text, n) in ESCAPES {
        let g = game(text);
        assert!(king_escapes_within(&g, n), "{text}: escape in {n}");
        assert!(
            !king_escapes_within(&g, n - 1),
            "{text}: no escape in {}",
            n - 1
        );
        for level in [2, 3] {
            assert_eq!(play_out(level, &g, n), DEFENDERS, "level {level}, {text}");
        }
    }
}

#[test]
fn the_attackers_shut_a_route_that_would_open_a_forced_escape() {
    // With the defenders to move these are escapes in two; the attackers, to move, must play one
    // of the few moves after which no escape in two is left
    // (3 and 9 of the attackers' moves are safe there.)
    for text in [
        "/5t5/11/8t2/6ttt1t/1K3t3t1/11/t10/11/10t/7t3/1t5t1t1/ a",
        "/3t4t2/5t1t3/t10/11/5K5/11/4t4t1/4T3t2/3t5tt/11/11/ a",
    ] {
        let g = game(text);
        assert!(
            king_escapes_within(&game(&text.replace(" a", " d")), 2),
            "{text}"
        );
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        let safe = |mv| {
            let mut after = g;
            after.apply(mv);
            !king_escapes_within(&after, 2)
        };
        assert!(moves.iter().any(|&mv| safe(mv)), "{text}");
        for level in [2, 3] {
            let mv = choose(level, &g);
            assert!(
                safe(g.parse_move(&mv).unwrap()),
                "level {level} played {mv} in {text}"
            );
        }
    }
}

/// The best move of `level` for the defenders (to move in `g`), after the game's positions
/// `seen`, with a cycle costing the defenders `contempt`.
fn defenders_choice(level: usize, g: &Hnefatafl, seen: &[u64], contempt: i32) -> String {
    use crate::search::{Searcher, level_values};
    let set = Hnefatafl::levels()[level].weights.unwrap();
    let (eval, search) = level_values(set, &[]);
    let eval = Evaluation::new(EvalWeights::from_values(&eval));
    let mut searcher = Searcher::new(16);
    searcher.set_game(seen, contempt);
    let limits = search.limits(crate::agent::TimeControl::Batch);
    let mut rng = RandomStream::tie_break(7, g.to_move());
    let result = searcher.search(g, &eval, &limits, &crate::agent::NoClock, &mut rng);
    g.format_move(result.best)
}

#[test]
fn the_defenders_leave_a_perpetual_that_the_attackers_must_answer() {
    use crate::search::SearchRoot;
    // Plies 292-297 of a capped Normal-Normal game (seed 1, before this rule): the king steps
    // c2-c1 (threatening b1-a1 when b1 is empty), the attacker b2-b1 blocks, the king c1-c2
    // (threatening a2-a1), the attacker b1-b2 blocks, and so on to the cap. Far behind (three
    // defenders against eighteen attackers), the defenders preferred the cycle, scored at the
    // level's contempt, to every other move; the attackers had to answer each step.
    let mut g = game("/11/4t6/9t1/2t2t5/3t2Tt2t/2t3T1tt1/t6t3/3Tt1t4/5t5/2K2t5/1t3t5/ a");
    let mut seen = vec![g.hash()];
    for mv in ["b1-b2", "c2-c1", "b2-b1", "c1-c2", "b1-b2"] {
        play(&mut g, mv);
        seen.push(g.hash());
    }
    seen.pop(); // the root: the defenders to move, as after ply 293
    for level in 1..4 {
        let at_level_contempt = defenders_choice(level, &g, &seen, 300);
        assert_eq!(at_level_contempt, "c2-c1", "level {level} at contempt 300");
        let contempt = g.contempt(300);
        assert_eq!(contempt, node::DEFENDERS_CYCLE);
        let mv = defenders_choice(level, &g, &seen, contempt);
        assert_ne!(mv, "c2-c1", "level {level} repeated the cycle");
    }
    // The attackers' own cycles keep the level's contempt.
    play(&mut g, "c2-c1");
    assert_eq!(g.contempt(300), 300);
}
