//! The computer levels: their tables, the threats the evaluation reads, what each level does
//! with an obvious capture, the time control, and the level order in play.

use super::*;
use super::{board, random_game};
use crate::agent::{Agent, AgentSetup, Clock, Context, NoClock, TimeControl};
use crate::game::{NoLog, seat_agent};
use crate::search::{Evaluator, SearchGame};
use crate::weights::{Param, check_table};

/// A level's agent with its default weights, except `changes` (name, value).
fn agent(level: usize, changes: &[(&str, f64)], time_control: TimeControl) -> Box<dyn Agent<Thud>> {
    let set = Thud::levels()[level]
        .weights
        .expect("every level has a table");
    let mut weights = set.defaults();
    for &(name, value) in changes {
        weights[set.index_of(name).expect("a parameter of the level")] = value;
    }
    AgentSetup {
        level: &Thud::levels()[level],
        weights,
        time_control,
        network: None,
    }
    .agent()
}

fn choose(agent: &mut dyn Agent<Thud>, game: &Thud, seed: u64, clock: &dyn Clock) -> Move {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let mut rng = RandomStream::tie_break(seed, 0);
    let mv = agent.choose(
        game,
        &moves,
        &mut Context {
            rng: &mut rng,
            clock,
        },
    );
    assert!(moves.contains(&mv), "a legal move");
    mv
}

fn round(b: Board) -> Thud {
    Thud::from_board(b, &ThudOptions::default())
}

#[test]
fn level_tables_are_consistent() {
    let levels = Thud::levels();
    assert_eq!(
        levels.iter().map(|l| l.name).collect::<Vec<_>>(),
        ["beginner", "easy", "balanced", "hard", "expert"]
    );
    for level in levels {
        check_table(level.weights.expect("a table")).unwrap();
    }
    assert_eq!(
        BeginnerWeights::SET.defaults(),
        BeginnerWeights::default().values()
    );
    assert_eq!(EvalWeights::SET.defaults(), EvalWeights::default().values());
    let eval = EvalWeights::SET.params.len();
    let easy = EASY_WEIGHTS.defaults();
    assert_eq!(
        easy[..],
        EvalWeights {
            capture_plies: 0.0,
            hurl_threat_later: 0.25,
            dwarf_material: 0.0,
            end_shape: 0.0,
            ..EvalWeights::default()
        }
        .values()[..]
    );
    for (table, depth, width, threats) in
        [(0, 2.0, 8.0, 1.0), (1, 3.0, 16.0, 0.0), (2, 6.0, 24.0, 0.0)]
    {
        let table = &SEARCH_SETS[table];
        // Balanced prices weaknesses lower when it plays the dwarfs, Hard pays nothing for a lone
        // dwarf, Expert hunts harder late in a round; the rest is shared.
        let (lower, higher): (&[&str], &[&str]) = match table.name {
            "thud-balanced" => (
                &[
                    "dwarfs_isolated",
                    "dwarfs_exposed",
                    "dwarfs_lone_troll",
                    "dwarfs_hunt",
                    "dwarfs_hunt_few",
                    "dwarfs_troll_threat_later",
                ],
                &[],
            ),
            "thud-hard" => (&["dwarfs_isolated"], &[]),
            "thud-expert" => (&[], &["dwarfs_hunt_few"]),
            _ => (&[], &[]),
        };
        for (p, shared) in table.params[..eval].iter().zip(EvalWeights::SET.params) {
            if lower.contains(&p.name) || higher.contains(&p.name) {
                assert_eq!(
                    Param {
                        default: shared.default,
                        ..*p
                    },
                    *shared,
                    "{}",
                    p.name
                );
                let below = lower.contains(&p.name);
                assert_eq!(p.default < shared.default, below, "{}", p.name);
                assert_eq!(p.default > shared.default, !below, "{}", p.name);
            } else {
                assert_eq!(p, shared, "{} {}", table.name, p.name);
            }
        }
        let (_, search) = crate::search::level_values(table, &[]);
        assert_eq!(
            (search.depth, search.width, search.threats),
            (depth, width, threats),
            "{}",
            table.name
        );
        // Every depth a weights file may ask for keeps the hash exact.
        for name in ["depth", "player_depth"] {
            let p = &table.params[table.index_of(name).unwrap()];
            assert!(p.max <= f64::from(HORIZON), "{name}");
        }
    }
}

#[test]
fn zones_match_the_moves_they_summarise() {
    random_game(3, &ThudOptions::default(), |g, _| {
        let b = g.board();
        let zones = Zones::of(b);
        let mut moves = TakeAllMoveList::new();
        let mut sides = b.clone();
        for _ in 0..2 {
            generate(&sides, TrollCapture::All, &mut moves);
            match sides.side() {
                Side::Trolls => {
                    // Captures no hurl answers: none of the dwarfs' replies lands on the troll.
                    let unanswered = |m: &&Move| {
                        let mut replies = TakeAllMoveList::new();
                        generate(&sides.after(**m), TrollCapture::All, &mut replies);
                        !replies.iter().any(|r| r.to == m.to)
                    };
                    let safe = || moves.iter().filter(|m| m.captures != 0).filter(unanswered);
                    let best = safe().map(|m| m.captures.count_ones()).max().unwrap_or(0);
                    assert_eq!(zones.troll_best, best);
                    let mut taken = SquareSet::default();
                    for mv in safe() {
                        for s in mv.captured_squares() {
                            taken.insert_cell(s.cell());
                        }
                    }
                    assert_eq!(zones.dwarf_danger.and(b.dwarfs()), taken);
                    let safe_steps = moves
                        .iter()
                        .filter(|m| (0..8).any(|i| m.from.neighbour(i) == Some(m.to)))
                        .filter(|m| !zones.troll_danger.contains(m.to))
                        .count();
                    assert_eq!(zones.troll_safe_steps as usize, safe_steps);
                }
                Side::Dwarfs => {
                    let mut hurled = SquareSet::default();
                    for mv in moves
                        .iter()
                        .filter(|m| b.piece_at(m.to) == Some(Piece::Troll))
                    {
                        hurled.insert_cell(mv.to.cell());
                    }
                    assert_eq!(zones.troll_danger.and(b.trolls()), hurled);
                }
            }
            sides.set_side(sides.side().other());
        }
    });
}

#[test]
fn a_capture_that_breaks_the_line_covering_its_square_is_a_threat() {
    // The trolls E8 and E9 may shove E8 two squares, to E6 beside E5, their only capture. With
    // E4 behind E5, the line E5-E4 reaches E6 now, but once E5 is taken E4 alone reaches E5
    // only; with E3 too, E4-E3 still reaches E6 and the capture is answered.
    for (dwarfs, answered) in [("E4 E5", false), ("E3 E4 E5", true)] {
        let b = board(dwarfs, "E8 E9", Side::Trolls);
        assert!(Zones::of(&b).troll_danger.contains(sq("E6")), "{dwarfs}");
        let zones = Zones::of(&b);
        assert_eq!(zones.troll_best, u32::from(!answered), "{dwarfs}");
        assert_eq!(zones.dwarf_danger.contains(sq("E5")), !answered, "{dwarfs}");
    }
}

#[test]
fn the_trolls_search_sparing_a_dwarf_that_shields_another_troll() {
    // A10-D10 can hurl D10 four squares, to H10, but F10 stands in the way. The troll G12
    // stepping to F11 takes F10 and E12 (opening that hurl onto H10) or spares F10 and takes E12
    // alone; no other capture opens a hurl, so that is the one sparing move searched, and only
    // under the "choose" rule.
    let b = board("A10 B10 C10 D10 F10 E12", "G12 H10", Side::Trolls);
    for (rule, expected) in [
        (TrollCapture::Choose, vec!["G12-F11xE12"]),
        (TrollCapture::All, vec![]),
    ] {
        let options = ThudOptions {
            troll_capture: rule,
            ..ThudOptions::default()
        };
        let node = Node::new(&Thud::from_board(b.clone(), &options));
        let mut moves = TakeAllMoveList::new();
        node.generate(&mut moves);
        let sparing: Vec<String> = moves
            .iter()
            .filter(|m| m.captures != 0 && m.captures != b.dwarf_mask(m.to.cell()))
            .map(|&m| format_move(m))
            .collect();
        assert_eq!(sparing, expected, "{rule:?}");
        assert!(moves.iter().any(|m| format_move(*m) == "G12-F11xF10xE12"));
    }
}

#[test]
fn the_window_and_cap_enter_the_hash_only_near_the_end() {
    // A window and a cap longer than the horizon, so that a position can be far from both.
    let options = ThudOptions {
        no_capture_plies: 200,
        ..ThudOptions::default()
    };
    let near = |quiet: u32, plies: u32| {
        let mut g = Thud::new(&options, 2, &mut RandomStream::dice(0), &mut NoLog);
        g.quiet = quiet;
        g.counters.moves = plies;
        Node::new(&g).hash()
    };
    assert_eq!(near(0, 0), near(5, 100), "far from both ends: one entry");
    assert_ne!(
        near(135, 0),
        near(136, 0),
        "65 and 64 plies left in the window differ"
    );
    assert_ne!(near(0, 436), near(0, 437));
    assert_eq!(
        near(0, 0),
        Node::new(&Thud::new(
            &options,
            2,
            &mut RandomStream::dice(0),
            &mut NoLog
        ))
        .hash()
    );
}

/// The capture search run within a window (what the searcher's quiescence stage asks) returns
/// the full search's score inside the window and a fail-soft bound on the side it falls outside,
/// in positions of a random game; some bounds differ from the exact score (the window prunes).
#[test]
fn the_evaluation_within_a_window_is_exact_inside_and_a_bound_outside() {
    let eval = Evaluation::new(&EvalWeights::default());
    let (mut checked, mut pruned) = (0, 0);
    random_game(5, &ThudOptions::default(), |g, _| {
        let node = Node::new(g);
        let exact = eval.evaluate(&node);
        for (alpha, beta) in [
            (exact - 1, exact + 1),
            (exact - 300, exact - 100),
            (exact + 50, exact + 51),
        ] {
            let within = eval.evaluate_within(&node, alpha, beta);
            pruned += usize::from(within != exact);
            if exact <= alpha {
                assert!(
                    (exact..=alpha).contains(&within),
                    "{exact} in {alpha}..{beta}: {within}"
                );
            } else if exact >= beta {
                assert!(
                    (beta..=exact).contains(&within),
                    "{exact} in {alpha}..{beta}: {within}"
                );
            } else {
                assert_eq!(within, exact);
            }
        }
        checked += 1;
    });
    assert!(
        checked > 20 && pruned > 0,
        "{checked} positions, {pruned} bounds"
    );
}

#[test]
fn a_round_out_of_plies_scores_its_points_and_the_leaders_standing_terms() {
    let options = ThudOptions {
        no_capture_plies: 1,
        ..ThudOptions::default()
    };
    let eval = |end_shape| {
        Evaluation::new(&EvalWeights {
            end_shape,
            ..EvalWeights::default()
        })
    };
    let ended = |dwarfs| {
        let g = Thud::from_board(board(dwarfs, "K10", Side::Dwarfs), &options);
        let node = Node::new(&g);
        assert_eq!(node.terminal(0), None);
        let quiet = node.after(g.parse_move("A9-A10").unwrap());
        // Left to the evaluation, with no move to search.
        assert_eq!(quiet.terminal(1), None);
        let mut moves = TakeAllMoveList::new();
        quiet.generate(&mut moves);
        assert!(moves.is_empty());
        quiet
    };
    // The trolls lead, 3 points to 4: the points alone, seen from the trolls to move.
    let behind = ended("E5 F2 A9");
    assert_eq!(eval(1.0).evaluate(&behind), POINT);
    // The dwarfs lead, 5 to 4: with `end_shape` 1 the standing terms count too. Dwarf material
    // 5 x 0.3, the pair A6-A7 0.16 (0.075 from each end, rounded to whole units), three dwarfs
    // alone -0.9, the troll alone 0.3: 1.06 points.
    let ahead = ended("E5 F2 A9 A7 A6");
    assert_eq!(eval(0.0).evaluate(&ahead), -POINT);
    assert_eq!(eval(1.0).evaluate(&ahead), -(POINT + 106));
}

#[test]
fn every_level_takes_a_free_troll_and_trolls_take_the_most_dwarfs() {
    let dwarfs = round(board("E5 A9 P9 K15", "F5 K10", Side::Dwarfs));
    let trolls = round(board("E4 F4 G4 A9", "F6 K12", Side::Trolls));
    let best = trolls.parse_move("F6-F5xE4xF4xG4").unwrap();
    for level in 0..5 {
        let mut a = agent(
            level,
            &[("capture_chance", 1.0)][..usize::from(level == 0)],
            TimeControl::Batch,
        );
        assert_eq!(
            choose(a.as_mut(), &dwarfs, 1, &NoClock),
            dwarfs.parse_move("E5-F5").unwrap(),
            "level {level}"
        );
        let mv = choose(a.as_mut(), &trolls, 1, &NoClock);
        if level == 0 {
            assert!(mv.captures != 0, "Beginner captures something");
        } else {
            assert_eq!(mv, best, "level {level}");
        }
    }
}

/// The searching levels: Balanced, Hard and Expert.
const SEARCHING: [usize; 3] = [2, 3, 4];

#[test]
fn searching_levels_find_a_long_hurl_that_takes_a_troll() {
    // E3-E4-E5 is a line of three: its front dwarf may be hurled three squares, onto E8.
    let g = round(board("E3 E4 E5 L5 L6 M6", "E8 K12 L12", Side::Dwarfs));
    let hurl = g.parse_move("E5-E8").unwrap();
    for level in SEARCHING {
        let mut a = agent(level, &[], TimeControl::Batch);
        assert_eq!(choose(a.as_mut(), &g, 1, &NoClock), hurl, "level {level}");
    }
}

#[test]
fn searching_levels_find_a_shove_that_takes_three_dwarfs() {
    // F6 with F7 and F8 behind may be shoved three squares, to F3 beside E2, F2 and G2; a step
    // takes at most one dwarf anywhere.
    let g = round(board("E2 F2 G2 M10", "F6 F7 F8", Side::Trolls));
    let shove = g.parse_move("F6-F3xE2xF2xG2").unwrap();
    for level in SEARCHING {
        let mut a = agent(level, &[], TimeControl::Batch);
        assert_eq!(choose(a.as_mut(), &g, 1, &NoClock), shove, "level {level}");
    }
}

/// Whether the trolls to move in `b` can take a dwarf without losing a troll to the reply.
fn troll_wins_a_dwarf(b: &Board) -> bool {
    let mut moves = TakeAllMoveList::new();
    generate(b, TrollCapture::All, &mut moves);
    moves.iter().filter(|m| m.captures != 0).any(|&m| {
        let next = b.after(m);
        let mut replies = TakeAllMoveList::new();
        generate(&next, TrollCapture::All, &mut replies);
        next.troll_count() > 0
            && !replies
                .iter()
                .any(|r| next.piece_at(r.to) == Some(Piece::Troll))
    })
}

#[test]
fn searching_levels_move_or_cover_a_dwarf_in_a_trolls_reach() {
    // The troll on F7 steps beside F5, which stands alone; H12 is too far to help or threaten.
    let g = round(board("F5 L5 M5 N5 L6 M6 N6", "F7 H12", Side::Dwarfs));
    assert!(troll_wins_a_dwarf(
        &g.board().after(g.parse_move("L5-L4").unwrap())
    ));
    for level in SEARCHING {
        let mut a = agent(level, &[], TimeControl::Batch);
        let mv = choose(a.as_mut(), &g, 1, &NoClock);
        assert!(
            !troll_wins_a_dwarf(&g.board().after(mv)),
            "level {level} played {}",
            format_move(mv)
        );
    }
}

#[test]
fn beginner_captures_at_its_rate() {
    let dwarfs = round(board("E5 A9 P9 K15", "F5 K10", Side::Dwarfs));
    let capture = dwarfs.parse_move("E5-F5").unwrap();
    let rate = |chance: f64| {
        let mut a = agent(0, &[("capture_chance", chance)], TimeControl::Batch);
        (0..200)
            .filter(|&seed| choose(a.as_mut(), &dwarfs, seed, &NoClock) == capture)
            .count()
    };
    assert_eq!(rate(0.0), 0, "never, with a quiet move at hand");
    assert_eq!(rate(1.0), 200);
    let half = rate(0.5);
    assert!((70..=130).contains(&half), "about half the time: {half}");
}

/// A clock that moves 50 ms on every reading.
#[derive(Debug, Default)]
struct Racing(core::cell::Cell<u64>);

impl Clock for Racing {
    fn now_ms(&self) -> u64 {
        self.0.set(self.0.get() + 50);
        self.0.get()
    }
}

#[test]
fn the_player_time_control_stops_searches_on_the_clock() {
    let start = Thud::new(
        &ThudOptions::default(),
        2,
        &mut RandomStream::dice(0),
        &mut NoLog,
    );
    for level in [3, 4] {
        let clock = Racing::default();
        let mut a = agent(level, &[], TimeControl::Player);
        choose(a.as_mut(), &start, 1, &clock);
        // Hard has 700 ms (14 readings), Expert 1,800 ms (36): a few readings past the deadline.
        let limit = if level == 3 { 700 } else { 1800 };
        // The time binds, not the depth: the search runs to its deadline and stops soon after.
        assert!(
            (limit..=limit + 200).contains(&clock.0.get()),
            "level {level}: stopped at {} ms",
            clock.0.get()
        );
    }
}

/// Plays the two rounds of seed group `seed` between `levels[0]` and `levels[1]` (default
/// weights, batch budgets) through the `Game` and `Agent` traits, as the runner does, and returns
/// each one's total points.
fn play_match(levels: [usize; 2], seed: u64) -> [i32; 2] {
    let mut agents = levels.map(|level| agent(level, &[], TimeControl::Batch));
    let mut totals = [0; 2];
    for rotation in 0..2 {
        let mut dice = RandomStream::dice(seed);
        let mut streams = [0, 1].map(|seat| RandomStream::tie_break(seed, seat));
        agents.iter_mut().for_each(|a| a.new_game());
        let mut g = Thud::new(&ThudOptions::default(), 2, &mut dice, &mut NoLog);
        let mut list = MoveList::new();
        while g.outcome().is_none() {
            g.legal_moves(&mut list);
            let seat = g.to_move();
            let ctx = &mut Context {
                rng: &mut streams[seat],
                clock: &NoClock,
            };
            let mv = agents[seat_agent(seat, rotation, 2)].choose(&g, &list, ctx);
            assert!(list.contains(&mv), "agents choose legal moves");
            g.play(mv, &mut dice, &mut NoLog);
        }
        let points = g.points().unwrap();
        for seat in 0..2 {
            totals[seat_agent(seat, rotation, 2)] += points[seat];
        }
    }
    totals
}

#[test]
fn levels_are_ordered_beginner_easy_balanced() {
    for (weak, strong) in [(0, 1), (1, 2)] {
        let wins = (0..3)
            .filter(|&seed| {
                let [a, b] = play_match([strong, weak], seed);
                a > b
            })
            .count();
        let names = (Thud::levels()[strong].name, Thud::levels()[weak].name);
        assert_eq!(
            wins, 3,
            "{} should win every match against {}",
            names.0, names.1
        );
    }
}

#[test]
fn matches_reproduce_and_mirror() {
    assert_eq!(play_match([2, 1], 5), play_match([2, 1], 5));
    let [a, b] = play_match([2, 2], 1);
    assert_eq!(
        a, b,
        "a level against itself on one seed mirrors its rounds"
    );
}

#[test]
fn a_threatened_dwarf_forces_an_answer_and_its_answers_are_the_ones_that_can_help() {
    // The troll on F7 can step to E6, F6 or G6 beside F5, which stands alone: the dwarfs face a
    // capture. The block on L5..N6 is out of every troll's reach.
    let b = board("F5 L5 M5 N5 L6 M6 N6", "F7 H12", Side::Dwarfs);
    let node = Node::new(&round(b.clone()));
    assert!(node.forcing());
    let (mut all, mut answers) = (TakeAllMoveList::new(), TakeAllMoveList::new());
    node.generate(&mut all);
    node.answers(&mut answers);
    let landings = ["E6", "F6", "G6"].map(sq);
    for mv in &all {
        let answer = mv.from == sq("F5") || landings.contains(&mv.to);
        assert_eq!(answers.contains(mv), answer, "{}", format_move(*mv));
    }
    // The trolls to move face no such extension, nor do the dwarfs once F5 has left.
    let mut trolls = b;
    trolls.set_side(Side::Trolls);
    assert!(!Node::new(&round(trolls)).forcing());
    let safe = board("B5 L5 M5 N5 L6 M6 N6", "F7 H12", Side::Dwarfs);
    assert!(!Node::new(&round(safe)).forcing());
}

/// The evaluation of a searching level (its row in [`SEARCH_SETS`]) at its defaults.
fn level_eval(row: usize) -> Evaluation {
    let (eval, _) = crate::search::level_values(&SEARCH_SETS[row], &[]);
    Evaluation::new(&EvalWeights::from_values(&eval))
}

/// One board, trolls to move after the dwarfs' A9-A10, as a search rooted at the dwarfs and as
/// one rooted at the trolls sees it: their scores differ only in the terms a level prices by the
/// side it plays.
fn seen_by_each_side(b: Board) -> (Node, Node) {
    let as_dwarfs = Node::new(&round(b.clone())).after(round(b).parse_move("A9-A10").unwrap());
    let as_trolls = Node::new(&round(as_dwarfs.board().clone()));
    assert_eq!(as_dwarfs.root_side(), Side::Dwarfs);
    assert_eq!(as_trolls.root_side(), Side::Trolls);
    (as_dwarfs, as_trolls)
}

#[test]
fn balanced_and_hard_price_weaknesses_their_own_way_when_they_play_the_dwarfs() {
    let balanced = level_eval(0);
    // A9 stands alone; the trolls on F7 and H12 stand alone, out of every dwarf's reach.
    let (as_dwarfs, as_trolls) =
        seen_by_each_side(board("L5 M5 N5 L6 M6 N6 A9", "F7 H12", Side::Dwarfs));
    // Playing the dwarfs: a lone dwarf costs 0.05 (not 0.3), a lone troll gains nothing (not
    // 0.3 each): 25 more for A10, 60 less for the two trolls.
    assert_eq!(
        balanced.dwarf_score(&as_dwarfs) - balanced.dwarf_score(&as_trolls),
        25 - 60
    );
    // Playing the dwarfs, Hard pays nothing for the lone dwarf (not 0.3) and prices the trolls
    // like its trolls do: 30 more.
    let hard = level_eval(1);
    assert_eq!(
        hard.dwarf_score(&as_dwarfs) - hard.dwarf_score(&as_trolls),
        30
    );
    // Expert weighs them alike whichever side it plays (its own term is for hunters of a lone
    // troll, and none stands within two squares of one).
    let expert = level_eval(2);
    assert_eq!(
        expert.dwarf_score(&as_dwarfs),
        expert.dwarf_score(&as_trolls)
    );
}

#[test]
fn expert_closes_on_a_lone_troll_harder_once_few_trolls_stand() {
    let expert = level_eval(2);
    // The troll on F7 stands alone with D5 and H9 two squares from it; the other trolls stand
    // in pairs out of every dwarf's reach.
    let gap = |trolls: &str| {
        let (as_dwarfs, as_trolls) = seen_by_each_side(board("D5 H9 A9", trolls, Side::Dwarfs));
        expert.dwarf_score(&as_dwarfs) - expert.dwarf_score(&as_trolls)
    };
    // Five trolls: each hunter counts 0.4 to Expert's dwarfs and the shared 0.05 to its trolls.
    assert_eq!(gap("F7 L12 M12 L3 M3"), 2 * (40 - 5));
    // Six: the shared price on both sides.
    assert_eq!(gap("F7 L12 M12 N12 L3 M3"), 0);
}
