//! Every clause of `docs/rules/thud.md` on hand-made positions, the round end, notation and hashing;
//! the computer levels in `agents`. The helpers here are shared with it.

mod agents;

use super::*;
use crate::agent::pick;
use crate::game::{EndReason, Ending, GameStats, NoLog, SeatResult};

const START: &str =
    "dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd d";

pub(super) fn sq(name: &str) -> Square {
    parse_square(name).unwrap()
}

/// A position from lists of square names.
pub(super) fn board(dwarfs: &str, trolls: &str, side: Side) -> Board {
    let mut b = Board::empty(side);
    for s in dwarfs.split_whitespace() {
        b.put(sq(s), Piece::Dwarf);
    }
    for s in trolls.split_whitespace() {
        b.put(sq(s), Piece::Troll);
    }
    b
}

fn texts(b: &Board, rule: TrollCapture) -> Vec<String> {
    let mut list = MoveList::new();
    generate(b, rule, &mut list);
    list.iter().map(|&m| format_move(m)).collect()
}

/// The legal moves from `from` to `to`, as text.
fn between(b: &Board, rule: TrollCapture, from: &str, to: &str) -> Vec<String> {
    let prefix = format!("{from}-{to}");
    texts(b, rule)
        .into_iter()
        .filter(|t| t == &prefix || t.starts_with(&format!("{prefix}x")))
        .collect()
}

fn legal(b: &Board, text: &str) -> bool {
    texts(b, TrollCapture::Choose).iter().any(|t| t == text)
}

fn game(b: Board) -> Thud {
    Thud::from_board(b, &ThudOptions::default())
}

#[test]
fn the_octagon_has_165_squares_and_the_start_its_armies() {
    assert_eq!(Square::all().count(), SQUARE_COUNT);
    for (rank, &width) in RANK_WIDTHS.iter().enumerate() {
        assert_eq!(
            (0..15).filter(|&f| Square::new(f, rank).is_some()).count(),
            width
        );
    }
    let b = Board::start();
    assert_eq!((b.dwarf_count(), b.troll_count()), (32, 8));
    for name in ["H1", "A8", "P8", "H15"] {
        assert_eq!(b.piece_at(sq(name)), None, "{name} stays empty");
    }
    assert_eq!(format_position(&b), START);
    assert_eq!(Square::STONE, sq("H8"));
    assert!(parse_square("A1").is_err(), "a cut corner");
    assert!(parse_square("I5").is_err(), "there is no file I");
}

#[test]
fn start_has_656_dwarf_moves_and_32_troll_steps() {
    let mut b = Board::start();
    assert_eq!(count(&b, TrollCapture::Choose), 656);
    b.set_side(Side::Trolls);
    assert_eq!(count(&b, TrollCapture::Choose), 32);
}

#[test]
fn a_dwarf_moves_like_a_queen_over_empty_squares_only() {
    let b = board("E5 E7", "", Side::Dwarfs);
    let moves = texts(&b, TrollCapture::Choose);
    assert!(moves.contains(&"E5-E6".to_owned()));
    assert!(!moves.contains(&"E5-E8".to_owned()), "no jumping over E7");
    assert!(
        moves.contains(&"E5-O5".to_owned()),
        "any distance, to the rank's end"
    );
    assert!(
        moves.contains(&"E5-D4".to_owned()),
        "diagonally to the octagon's edge"
    );
    assert!(
        !moves.contains(&"E5-C3".to_owned()),
        "C3 is in a cut corner"
    );
}

#[test]
fn a_lone_dwarf_hurls_onto_an_adjacent_troll_only() {
    let b = board("E5", "F5", Side::Dwarfs);
    assert!(legal(&b, "E5-F5"), "a line of one captures next door");
    let far = board("E5", "G5", Side::Dwarfs);
    assert!(legal(&far, "E5-F5"));
    assert!(
        !legal(&far, "E5-G5"),
        "a line of one cannot reach two squares"
    );
}

#[test]
fn hurls_of_two_and_three_dwarfs() {
    let two = board("D5 E5", "G5", Side::Dwarfs);
    assert!(legal(&two, "E5-G5"));
    let short = board("D5 E5", "H5", Side::Dwarfs);
    assert!(
        !legal(&short, "E5-H5"),
        "two dwarfs reach two squares, not three"
    );
    let three = board("C5 D5 E5", "H5", Side::Dwarfs);
    assert!(legal(&three, "E5-H5"));
    // Diagonal: C3 D4 E5 throw E5 to H8? The stone is there; use the other diagonal.
    let diagonal = board("C7 D6 E5", "H2", Side::Dwarfs);
    assert!(
        legal(&diagonal, "E5-H2"),
        "a diagonal line of three reaches three squares"
    );
    // Only the front dwarf of the line is thrown: D5 is blocked by E5.
    assert!(!legal(&three, "D5-H5"));
    let mut g = game(three);
    let mv = g.parse_move("e5-h5").unwrap();
    g.play(mv, &mut RandomStream::dice(0), &mut NoLog);
    assert_eq!(g.board().piece_at(sq("H5")), Some(Piece::Dwarf));
    assert_eq!(g.board().piece_at(sq("E5")), None);
    assert_eq!(g.board().troll_count(), 0);
    assert_eq!(g.counters().captures, [1, 0, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn a_hurl_blocked_by_a_piece_or_out_of_reach_is_illegal() {
    let blocked = board("C5 D5 E5 G5", "H5", Side::Dwarfs);
    assert!(!legal(&blocked, "E5-H5"), "G5 stands in the way");
    let blocked_by_troll = board("C5 D5 E5", "G5 H5", Side::Dwarfs);
    assert!(!legal(&blocked_by_troll, "E5-H5"));
    assert!(
        legal(&blocked_by_troll, "E5-G5"),
        "the nearer troll is in reach"
    );
    let g = game(blocked);
    let err = g.parse_move("E5-H5").unwrap_err().to_string();
    assert!(err.contains("blocked on G5"), "{err}");
    let g = game(board("D5 E5", "H5", Side::Dwarfs));
    let err = g.parse_move("E5-H5").unwrap_err().to_string();
    assert!(err.contains("needs a line of 3 dwarfs; 2 stand"), "{err}");
    let err = g.parse_move("E5-E5").unwrap_err().to_string();
    assert!(err.contains("not on a straight line"), "{err}");
}

#[test]
fn the_stone_blocks_dwarfs_and_trolls() {
    // A dwarf line aimed through the stone at a troll beyond it.
    let b = board("E8 F8 G8", "J8", Side::Dwarfs);
    assert!(!legal(&b, "G8-J8"));
    assert!(between(&b, TrollCapture::Choose, "G8", "H8").is_empty());
    let g = game(b);
    let err = g.parse_move("G8-J8").unwrap_err().to_string();
    assert!(err.contains("blocked on H8"), "{err}");
    // A troll line shoving through the stone, with a dwarf waiting beyond it.
    let t = board("K9", "E8 F8 G8", Side::Trolls);
    assert!(between(&t, TrollCapture::Choose, "G8", "J8").is_empty());
    assert!(between(&t, TrollCapture::Choose, "G8", "H8").is_empty());
}

#[test]
fn a_troll_step_next_to_three_dwarfs_is_eight_moves() {
    // F6 steps to F5, whose neighbours E4, F4, G4 hold dwarfs.
    let b = board("E4 F4 G4", "F6", Side::Trolls);
    let moves = between(&b, TrollCapture::Choose, "F6", "F5");
    assert_eq!(
        moves,
        [
            "F6-F5",
            "F6-F5xE4",
            "F6-F5xF4",
            "F6-F5xE4xF4",
            "F6-F5xG4",
            "F6-F5xE4xG4",
            "F6-F5xF4xG4",
            "F6-F5xE4xF4xG4"
        ]
    );
    assert_eq!(
        between(&b, TrollCapture::All, "F6", "F5"),
        ["F6-F5xE4xF4xG4"]
    );
    let mut g = game(b);
    let mv = g.parse_move("f6-f5xg4xe4").unwrap();
    g.play(mv, &mut RandomStream::dice(0), &mut NoLog);
    assert_eq!(g.board().dwarf_count(), 1);
    assert_eq!(g.board().piece_at(sq("F4")), Some(Piece::Dwarf));
    assert_eq!(g.counters().captures[1], 2);
}

#[test]
fn shoves_by_one_two_and_three_trolls() {
    // One troll: a "shove" of one square is the step, listed once.
    let one = board("H4", "F5", Side::Trolls);
    assert_eq!(
        between(&one, TrollCapture::Choose, "F5", "G5"),
        ["F5-G5", "F5-G5xH4"]
    );
    // Two trolls in line (E5 F5) push F5 two squares to H5, next to the dwarfs at J4 and J6.
    let two = board("J4 J6", "E5 F5", Side::Trolls);
    assert_eq!(
        between(&two, TrollCapture::Choose, "F5", "H5"),
        ["F5-H5xJ4", "F5-H5xJ6", "F5-H5xJ4xJ6"],
        "a shove landing next to 2 dwarfs gives 3 moves"
    );
    assert_eq!(
        between(&two, TrollCapture::All, "F5", "H5"),
        ["F5-H5xJ4xJ6"]
    );
    assert!(
        between(&two, TrollCapture::Choose, "F5", "J5").is_empty(),
        "two trolls reach two squares"
    );
    // Three trolls (D5 E5 F5) push F5 three squares to J5.
    let three = board("K6", "D5 E5 F5", Side::Trolls);
    assert_eq!(
        between(&three, TrollCapture::Choose, "F5", "J5"),
        ["F5-J5xK6"]
    );
    assert!(
        between(&three, TrollCapture::Choose, "F5", "H5").is_empty(),
        "H5 is next to no dwarf"
    );
    let g = game(three);
    let err = g.parse_move("F5-J5").unwrap_err().to_string();
    assert!(err.contains("must capture at least one"), "{err}");
    let err = g.parse_move("F5-K5xK6").unwrap_err().to_string();
    assert!(err.contains("needs a line of 4 trolls; 3 stand"), "{err}");
}

#[test]
fn a_shove_without_an_adjacent_dwarf_is_illegal() {
    let b = board("A6", "E5 F5", Side::Trolls);
    assert!(between(&b, TrollCapture::Choose, "F5", "H5").is_empty());
    let err = game(b).parse_move("F5-H5").unwrap_err().to_string();
    assert!(
        err.contains("must end next to a dwarf; H5 has none"),
        "{err}"
    );
    // A shove may not pass over a piece either.
    let over = board("J6 G4", "E5 F5 G5", Side::Trolls);
    assert!(between(&over, TrollCapture::Choose, "F5", "H5").is_empty());
}

#[test]
fn troll_captures_are_checked_when_parsed() {
    let g = game(board("E4 F4 G4 A6", "F6", Side::Trolls));
    assert!(
        g.parse_move("F6-F5xA6")
            .unwrap_err()
            .to_string()
            .contains("not next to F5")
    );
    assert!(
        g.parse_move("F6-F5xE5")
            .unwrap_err()
            .to_string()
            .contains("no dwarf on E5")
    );
    assert!(
        g.parse_move("F6-F5xE4xE4")
            .unwrap_err()
            .to_string()
            .contains("captured twice")
    );
    assert!(
        g.parse_move("F6-F4")
            .unwrap_err()
            .to_string()
            .contains("holds a dwarf")
    );
    assert!(
        g.parse_move("E4-E5")
            .unwrap_err()
            .to_string()
            .contains("holds no troll")
    );
    assert!(
        g.parse_move("F6F5")
            .unwrap_err()
            .to_string()
            .contains("no `-`")
    );
    assert!(
        g.parse_move("F6-Q5")
            .unwrap_err()
            .to_string()
            .contains("`Q` is not a file")
    );
    let all = Thud::from_board(
        board("E4 F4 G4", "F6", Side::Trolls),
        &ThudOptions {
            troll_capture: TrollCapture::All,
            ..ThudOptions::default()
        },
    );
    let err = all.parse_move("F6-F5xE4").unwrap_err().to_string();
    assert!(err.contains("F6-F5xE4xF4xG4"), "{err}");
    assert!(
        all.parse_move("F6-F5xG4xF4xE4").is_ok(),
        "captures in any order"
    );
}

#[test]
fn rounds_end_on_the_no_capture_window() {
    let options = ThudOptions {
        no_capture_plies: 2,
        ..ThudOptions::default()
    };
    let mut g = Thud::new(&options, 2, &mut RandomStream::dice(0), &mut NoLog);
    for text in ["F1-F2", "G7-G6"] {
        assert!(g.outcome().is_none());
        let mv = g.parse_move(text).unwrap();
        g.play(mv, &mut RandomStream::dice(0), &mut NoLog);
    }
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.reason.name(), "no capture window");
    assert_eq!(outcome.result_of(0), SeatResult::Draw, "32 points each");
    assert_eq!(g.points().unwrap()[..2], [32, 32]);
    assert!(
        g.parse_move("F2-F3")
            .unwrap_err()
            .to_string()
            .contains("round is over")
    );
}

#[test]
fn a_capture_reopens_the_window_and_the_ply_cap_is_a_timeout() {
    let options = ThudOptions {
        no_capture_plies: 2,
        ply_cap: 3,
        troll_capture: TrollCapture::Choose,
    };
    // Dwarfs E5 and K10; troll F7. 1. E5-E6 (quiet), 2. F7-F6xE6? No: capture at ply 2.
    let b = board("E5 K10 A9", "F7", Side::Dwarfs);
    let mut g = Thud::from_board(b, &options);
    let mut dice = RandomStream::dice(0);
    for text in ["E5-E6", "F7-F6xE6", "K10-K11"] {
        assert!(g.outcome().is_none(), "before {text}");
        let mv = g.parse_move(text).unwrap();
        g.play(mv, &mut dice, &mut NoLog);
    }
    assert_eq!(g.quiet_plies(), 1);
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.reason.name(), "ply cap");
    assert!(outcome.reason.is_timeout());
    assert!(
        Reason::ALL
            .iter()
            .filter(|r| r.is_timeout())
            .eq([&Reason::PlyCap])
    );
    assert_eq!(g.points().unwrap()[..2], [2, 4]);
    assert_eq!(outcome.sole_winner(), Some(1), "trolls lead 4 to 2");
}

#[test]
fn rounds_end_when_a_side_is_wiped_out_or_stuck() {
    let mut dice = RandomStream::dice(0);
    let mut g = game(board("E5", "F5", Side::Dwarfs));
    g.play(g.parse_move("E5-F5").unwrap(), &mut dice, &mut NoLog);
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.reason.name(), "trolls eliminated");
    assert_eq!(outcome.sole_winner(), Some(0));
    let mut g = game(board("E5", "F7", Side::Trolls));
    g.play(g.parse_move("F7-F6xE5").unwrap(), &mut dice, &mut NoLog);
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.reason.name(), "dwarfs eliminated");
    assert_eq!(g.points().unwrap()[..2], [0, 4]);
    // F1's troll is boxed in by E2 F2 G2 G1 and the cut corner: trolls have no move.
    let g = game(board("E2 F2 G2 G1 A9", "F1", Side::Trolls));
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.reason.name(), "no legal move");
    assert_eq!(outcome.sole_winner(), Some(0), "5 dwarfs beat 1 troll");
}

#[test]
fn options_reject_zero_and_negative_caps() {
    assert!(Thud::check_options(&ThudOptions::default()).is_ok());
    for bad in [
        ThudOptions {
            ply_cap: 0,
            ..ThudOptions::default()
        },
        ThudOptions {
            no_capture_plies: -3,
            ..ThudOptions::default()
        },
    ] {
        let err = Thud::check_options(&bad).unwrap_err().to_string();
        assert!(
            !err.contains('\n') && err.contains("must be a whole number of plies"),
            "{err}"
        );
    }
    assert!(
        Thud::from_position(
            START,
            &ThudOptions {
                ply_cap: 0,
                ..ThudOptions::default()
            }
        )
        .is_err()
    );
}

#[test]
fn positions_round_trip_and_bad_ones_are_explained() {
    for text in [
        START,
        "5/7/9/11/13/14d/10T4/4dd1R1T5/15/d14/13/11/9/7/5 t",
        "5/7/9/11/13/5ddddd5/4d1TTT1d4/4d1TRT1d4/4d1TTT1d4/5ddddd5/13/11/9/7/5 d",
    ] {
        let b = parse_position(text).unwrap();
        assert_eq!(format_position(&b), text);
        assert_eq!(
            Thud::from_position(text, &ThudOptions::default())
                .unwrap()
                .position()
                .unwrap(),
            text
        );
    }
    let lower = START.replace('T', "t").replace('R', "r");
    assert_eq!(
        format_position(&parse_position(&lower).unwrap()),
        START,
        "either case is read"
    );
    let cases = [
        ("dd1dd d", "1 ranks, expected 15"),
        (&START.replace(" d", " x"), "side to move: `x`"),
        // 2^64 + 1 wraps to 1 in a usize: it must be refused, not read as a run of 1.
        (
            &START.replacen("dd1dd", "dd18446744073709551617dd", 1),
            "rank 15, character 3: `18446744073709551617` is not a run of empty squares",
        ),
        (
            &START.replacen("d5d", "d6d", 1),
            "rank 14 lists at least 8 squares",
        ),
        (&START.replacen("d5d", "d4d", 1), "rank 14 lists 6 squares"),
        (
            &START.replacen("d7d", "d7q", 1),
            "rank 13, character 3: `q` is not a piece",
        ),
        (&START.replacen("6TRT6", "6T1T6", 1), "covers H8"),
        (
            &START.replacen("6TRT6", "6TTT6", 1),
            "on H8, where the stone",
        ),
        (
            &START.replacen("6TRT6", "R5T1T6", 1),
            "stands on H8, not on A8",
        ),
        (&START.replacen("d13d", "d013d", 1), "no leading zero"),
        (START.trim_end_matches(" d"), "1 space-separated fields"),
        (&START.replacen("6TRT6", "TTTTT1TRT6", 1), "13 trolls"),
    ];
    for (text, expected) in cases {
        let err = parse_position(text).unwrap_err().to_string();
        assert!(
            err.contains(expected) && !err.contains('\n'),
            "{text}: {err}"
        );
    }
}

#[test]
fn the_diagram_shows_the_octagon() {
    let text = render(&Board::start());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "15            d d . d d");
    assert_eq!(lines[7], " 8  . . . . . . T R T . . . . . .");
    assert_eq!(lines[15], "    A B C D E F G H J K L M N O P");
    assert_eq!(lines[16], "dwarfs to move");
}

/// Plays a random game (captures preferred half the time), checking invariants at every ply.
pub(super) fn random_game(
    seed: u64,
    options: &ThudOptions,
    mut check: impl FnMut(&Thud, &MoveList),
) -> Thud {
    let mut dice = RandomStream::dice(seed);
    let mut rng = RandomStream::from_seed(seed, 1);
    let mut g = Thud::new(options, 2, &mut dice, &mut NoLog);
    let mut list = MoveList::new();
    while g.outcome().is_none() {
        g.legal_moves(&mut list);
        assert!(!list.is_empty());
        check(&g, &list);
        let captures: Vec<Move> = list
            .iter()
            .copied()
            .filter(|m| m.captures != 0 || g.board().piece_at(m.to).is_some())
            .collect();
        let mv = if !captures.is_empty() && rng.below(2) == 0 {
            captures[pick(captures.len(), &mut rng)]
        } else {
            list[pick(list.len(), &mut rng)]
        };
        g.play(mv, &mut dice, &mut NoLog);
    }
    g
}

#[test]
fn incremental_hash_and_counts_match_a_full_recompute_and_unplay_restores() {
    let options = ThudOptions {
        no_capture_plies: 60,
        ..ThudOptions::default()
    };
    for seed in 0..6 {
        let end = random_game(seed, &options, |g, list| {
            assert_eq!(g.board().hash(), g.board().full_hash());
            assert!(g.board().counts_are_consistent());
            // Perft's make/unmake restores the position exactly.
            let mut b = g.board().clone();
            for &mv in list.iter().step_by(list.len().div_ceil(16)) {
                let hurl = b.piece_at(mv.to) == Some(Piece::Troll);
                b.play(mv);
                b.unplay(mv, hurl);
                assert_eq!(&b, g.board());
            }
        });
        assert_eq!(end.board().hash(), end.board().full_hash());
    }
}

#[test]
fn moves_and_positions_round_trip_along_random_games() {
    for seed in 10..14 {
        random_game(seed, &ThudOptions::default(), |g, list| {
            // Parsing regenerates the moves: a dozen per ply, spread over the list, is plenty.
            for &mv in list.iter().step_by(list.len().div_ceil(12)) {
                assert_eq!(g.parse_move(&g.format_move(mv)), Ok(mv));
                assert_eq!(g.parse_move(&g.format_move(mv).to_lowercase()), Ok(mv));
            }
            let text = g.position().unwrap();
            let again = parse_position(&text).unwrap();
            assert_eq!(&again, g.board());
            assert_eq!(format_position(&again), text);
        });
    }
}

#[test]
fn random_rounds_always_end_within_the_caps() {
    for (seed, rule) in (20..60).zip(
        [TrollCapture::Choose, TrollCapture::All]
            .into_iter()
            .cycle(),
    ) {
        let options = ThudOptions {
            troll_capture: rule,
            ..ThudOptions::default()
        };
        let g = random_game(seed, &options, |_, _| {});
        let outcome = g.outcome().unwrap();
        assert!(g.counters().moves <= 500);
        let [dwarfs, trolls] = g.side_points();
        assert_eq!(outcome.sole_winner().is_none(), dwarfs == trolls);
        assert_eq!(
            g.counters().captures[0] + g.board().troll_count(),
            8,
            "every troll lost is a dwarf capture"
        );
        assert_eq!(g.counters().captures[1] + g.board().dwarf_count(), 32);
    }
}

/// A round ended by the no-capture window with `dwarfs` and `trolls` left.
fn finished(dwarfs: usize, trolls: usize) -> Thud {
    let mut b = Board::empty(Side::Dwarfs);
    START_DWARFS[..dwarfs]
        .iter()
        .for_each(|&s| b.put(s, Piece::Dwarf));
    START_TROLLS[..trolls]
        .iter()
        .for_each(|&s| b.put(s, Piece::Troll));
    let options = ThudOptions {
        no_capture_plies: 1,
        ..ThudOptions::default()
    };
    let mut g = Thud::from_board(b, &options);
    g.play(
        g.parse_move("F1-F2").unwrap(),
        &mut RandomStream::dice(0),
        &mut NoLog,
    );
    assert_eq!(
        g.outcome().unwrap().reason,
        Ending::Rules(Reason::NoCapture)
    );
    g
}

#[test]
fn a_match_is_won_on_the_points_of_both_rounds() {
    // Round 0: agent 0 has the dwarfs (20 left), agent 1 the trolls (6 left: 24 points).
    // Round 1: agent 1 has the dwarfs (10), agent 0 the trolls (7: 28). Agent 0: 48, agent 1: 34.
    let group = [finished(20, 6), finished(10, 7)];
    assert_eq!(
        group[0].outcome().unwrap().sole_winner(),
        Some(1),
        "trolls win round 0"
    );
    let mut stats = ThudStats::default();
    stats.add_group(&group);
    let report = stats.summary(&["a".into(), "b".into()]);
    assert_eq!(report.rounds, 2);
    assert_eq!(report.matches, 1);
    assert_eq!(
        (report.agents[0].total_points, report.agents[1].total_points),
        (48, 34)
    );
    assert_eq!(
        (
            report.agents[0].matches.wins,
            report.agents[1].matches.losses
        ),
        (1, 1)
    );
    assert_eq!(
        report.dwarf_margin.value,
        ((20 - 24) + (10 - 28)) as f64 / 2.0
    );
    assert_eq!((report.dwarf_round_wins, report.troll_round_wins), (0, 2));
    assert_eq!(report.end_reasons[0].rounds, 2);
    // A drawn match: equal totals.
    let mut draw = ThudStats::default();
    draw.add_group(&[finished(12, 3), finished(12, 3)]);
    assert_eq!(draw.agents[0].record.draws, 1);
    assert_eq!(draw.round_draws, 2, "12 points a side in each round");
    // Merging is exact and order-independent.
    let mut ab = stats.clone();
    ab.merge(&draw);
    let mut ba = draw.clone();
    ba.merge(&stats);
    assert_eq!(ab, ba);
    assert_eq!(ab.matches, 2);
    // Means per round with intervals over matches. Dwarf points: 30 and 24 per match of two
    // rounds, mean 13.5; the cluster variance of the mean is G/(G−1)·Σ(y − m·n)²/(Σn)² =
    // 2·(3² + 3²)/4² = 2.25.
    let both = ab.summary(&["a".into(), "b".into()]);
    assert_eq!(both.dwarf_points.value, 13.5);
    let half = crate::sample::Z95 * 1.5;
    assert!((both.dwarf_points.ci95[1] - 13.5 - half).abs() < 1e-12);
    assert!((both.dwarf_points.ci95[0] - 13.5 + half).abs() < 1e-12);
    assert_eq!(both.troll_points.value, (24.0 + 28.0 + 12.0 + 12.0) / 4.0);
}

#[test]
fn set_shifts_and_the_two_step_neighbourhood_agree_with_square_arithmetic() {
    for a in Square::all() {
        let near: Vec<Square> = Square::all().filter(|b| a.distance(*b) <= 2).collect();
        assert_eq!(SquareSet::within_two(a).iter().collect::<Vec<_>>(), near, "{a}");
        let mut one = SquareSet::default();
        one.insert_cell(a.cell());
        for d in DIRS {
            // Cells past 255 are walls above the top rank: the shift drops them.
            let mut moved = SquareSet::default();
            let to = a.cell().wrapping_add_signed(d);
            if to < 256 {
                moved.insert_cell(to);
            }
            assert_eq!(one.shifted(d), moved, "{a} by {d}");
        }
    }
}
