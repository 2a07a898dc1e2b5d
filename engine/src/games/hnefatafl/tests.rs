//! Every clause of `rules/hnefatafl.md` on hand-made positions in OpenTafl notation (`t`
//! attacker, `T` defender, `K` king, ranks 11 down to 1), then notation, hashing and random
//! games.

use super::*;
use crate::agent::pick;
use crate::game::{NoLog, SeatResult};

fn game(text: &str) -> Hnefatafl {
    Hnefatafl::from_position(text, &HnefataflOptions::default())
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays `text` (which must be legal) and returns the names of the captured soldiers.
fn play(game: &mut Hnefatafl, text: &str) -> Vec<String> {
    let mv = game
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let capture = game.apply(mv);
    board::squares(capture.soldiers).map(square_name).collect()
}

/// The destinations of the piece on `from`, sorted.
fn targets(game: &Hnefatafl, from: &str) -> Vec<String> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let mut names: Vec<String> = moves
        .iter()
        .filter(|mv| square_name(mv.from) == from)
        .map(|mv| square_name(mv.to))
        .collect();
    names.sort();
    names
}

/// The winner and the reason, once the game is over.
fn result(game: &Hnefatafl) -> Option<(Option<usize>, &'static str)> {
    game.outcome()
        .map(|o| (o.sole_winner(), Hnefatafl::REASONS[usize::from(o.reason)]))
}

const ATTACKERS: Option<usize> = Some(0);
const DEFENDERS: Option<usize> = Some(1);

fn piece(game: &Hnefatafl, square: &str) -> Option<Piece> {
    game.board()
        .piece_at(notation::parse_square(square).unwrap())
}

// ---------------------------------------------------------------- movement

#[test]
fn pieces_move_like_rooks_up_to_the_first_piece() {
    // Attacker c3 on an open board: 10 squares along rank 3 and 10 along file c.
    let open = game("/11/11/7K3/11/11/11/11/11/2t8/11/11/ a");
    assert_eq!(targets(&open, "c3").len(), 20);
    // A defender on c7 stops it at c6.
    let blocked = game("/11/11/7K3/11/2T8/11/11/11/2t8/11/11/ a");
    let t = targets(&blocked, "c3");
    assert_eq!(t.len(), 15);
    assert!(t.contains(&"c6".to_owned()) && !t.contains(&"c7".to_owned()));
}

#[test]
fn only_the_king_stops_on_a_corner() {
    let soldier = game("/11/11/7K3/11/11/11/t10/11/11/11/11/ a");
    let t = targets(&soldier, "a5");
    assert_eq!(t.len(), 18);
    assert!(!t.contains(&"a1".to_owned()) && !t.contains(&"a11".to_owned()));
    let king = game("/11/11/2t4T3/11/11/11/K10/11/11/11/11/ d");
    let t = targets(&king, "a5");
    assert_eq!(t.len(), 20);
    assert!(t.contains(&"a1".to_owned()) && t.contains(&"a11".to_owned()));
    let err = soldier.parse_move("a5-a1").unwrap_err();
    assert!(err.contains("only the king may stop on a1"), "{err}");
}

#[test]
fn the_empty_throne_is_passed_but_not_stopped_on() {
    let empty = game("/11/11/7K3/11/11/11/11/11/5t5/11/11/ a");
    let t = targets(&empty, "f3");
    assert_eq!(t.len(), 19, "f4 f5 f7..f11 f1 f2 and rank 3");
    assert!(t.contains(&"f11".to_owned()) && !t.contains(&"f6".to_owned()));
    let occupied = game("/11/11/11/11/11/5K5/11/11/5t5/11/11/ a");
    assert_eq!(
        targets(&occupied, "f3").len(),
        14,
        "the king on the throne blocks"
    );
    let king = game("/11/11/7T3/11/11/11/11/11/5K5/11/11/ d");
    let t = targets(&king, "f3");
    assert_eq!(t.len(), 20);
    assert!(
        t.contains(&"f6".to_owned()),
        "the king may stop on the throne"
    );
}

// ---------------------------------------------------------------- custodial captures

#[test]
fn a_sandwich_captures() {
    let mut g = game("/11/11/7K3/11/11/11/4Tt5/11/11/11/3t7/ a");
    assert_eq!(play(&mut g, "d1-d5"), ["e5"]);
    assert_eq!(piece(&g, "e5"), None);
    assert_eq!(g.counters().captures[0], 1);
}

#[test]
fn corners_are_hostile_to_both_sides() {
    // Attackers take a defender against a1, along the rank and along the file.
    let mut g = game("/11/11/7K3/11/11/11/2t8/11/11/11/1T9/ a");
    assert_eq!(play(&mut g, "c5-c1"), ["b1"]);
    let mut g = game("/11/11/7K3/11/11/11/t10/11/11/T10/11/ a");
    assert_eq!(play(&mut g, "a5-a3"), ["a2"]);
    // Defenders take an attacker against a1.
    let mut g = game("/11/11/7K3/11/11/11/2T8/11/11/11/1t9/ d");
    assert_eq!(play(&mut g, "c5-c1"), ["b1"]);
    let mut g = game("/11/11/7K3/11/11/11/T10/11/11/t10/11/ d");
    assert_eq!(play(&mut g, "a5-a3"), ["a2"]);
}

#[test]
fn the_throne_is_hostile_to_defenders_only_while_empty() {
    let mut empty = game("/11/11/7K3/11/11/11/5T5/3t7/11/11/11/ a");
    assert_eq!(play(&mut empty, "d4-f4"), ["f5"]);
    let mut occupied = game("/11/11/11/11/11/5K5/5T5/3t7/11/11/11/ a");
    assert!(play(&mut occupied, "d4-f4").is_empty());
    assert_eq!(piece(&occupied, "f5"), Some(Piece::Defender));
}

#[test]
fn the_throne_is_always_hostile_to_attackers() {
    let mut empty = game("/11/11/7K3/11/11/11/5t5/3T7/11/11/11/ d");
    assert_eq!(play(&mut empty, "d4-f4"), ["f5"]);
    let mut occupied = game("/11/11/11/11/11/5K5/5t5/3T7/11/11/11/ d");
    assert_eq!(play(&mut occupied, "d4-f4"), ["f5"]);
}

#[test]
fn a_soldier_moving_into_a_sandwich_survives() {
    let mut defender = game("/11/11/4T2K3/11/11/11/3t1t5/11/11/11/11/ d");
    assert!(play(&mut defender, "e9-e5").is_empty());
    assert_eq!(piece(&defender, "e5"), Some(Piece::Defender));
    let mut attacker = game("/11/11/4t2K3/11/11/11/3T1T5/11/11/11/11/ a");
    assert!(play(&mut attacker, "e9-e5").is_empty());
    assert_eq!(piece(&attacker, "e5"), Some(Piece::Attacker));
}

#[test]
fn one_move_captures_several_soldiers() {
    let mut g = game("/11/11/4t2K3/11/11/11/2tT1Tt4/4T6/4t6/11/11/ a");
    assert_eq!(play(&mut g, "e9-e5"), ["e4", "d5", "f5"]);
    assert_eq!(g.counters().captures[0], 3);
}

#[test]
fn the_king_captures_as_hammer_and_as_anvil() {
    let mut hammer = game("/11/11/2K4T3/11/11/11/2t8/2T8/11/11/11/ d");
    assert_eq!(play(&mut hammer, "c9-c6"), ["c5"]);
    let mut anvil = game("/11/11/11/11/11/7T3/2t8/2K8/11/11/11/ d");
    assert_eq!(play(&mut anvil, "h6-c6"), ["c5"]);
}

#[test]
fn two_attackers_do_not_capture_the_king() {
    let mut g = game("/11/11/5t5/11/11/11/3tK6/11/11/11/11/ a");
    play(&mut g, "f9-f5");
    assert_eq!(result(&g), None);
    assert_eq!(piece(&g, "e5"), Some(Piece::King));
}

// ---------------------------------------------------------------- shield wall

#[test]
fn a_shield_wall_is_captured_by_a_flanking_move() {
    let mut g = game("/11/11/7K3/11/11/11/1t9/11/11/2tt7/2TTt6/ a");
    assert_eq!(play(&mut g, "b5-b1"), ["c1", "d1"]);
    // And the defenders capture an attackers' wall the same way.
    let mut g = game("/11/11/7K3/11/11/11/1T9/11/11/2TT7/2ttT6/ d");
    assert_eq!(play(&mut g, "b5-b1"), ["c1", "d1"]);
}

#[test]
fn a_corner_closes_one_end_of_a_shield_wall() {
    let mut g = game("/11/11/7K3/11/11/11/3t7/11/11/1tt8/1TT8/ a");
    assert_eq!(play(&mut g, "d5-d1"), ["b1", "c1"]);
}

#[test]
fn the_king_takes_part_in_a_shield_wall_capture() {
    // In the front line.
    let mut front = game("/11/11/11/11/11/11/1T9/11/11/2KT7/2ttT6/ d");
    assert_eq!(play(&mut front, "b5-b1"), ["c1", "d1"]);
    // As the closing piece.
    let mut closing = game("/11/11/11/11/11/11/1K9/11/11/2TT7/2ttT6/ d");
    assert_eq!(play(&mut closing, "b5-b1"), ["c1", "d1"]);
}

#[test]
fn the_king_inside_a_captured_wall_survives() {
    let mut g = game("/11/11/11/11/11/11/2t8/11/11/3ttt5/3TKTt4/ a");
    assert_eq!(play(&mut g, "c5-c1"), ["d1", "f1"]);
    assert_eq!(piece(&g, "e1"), Some(Piece::King));
    assert_eq!(result(&g), None);
}

#[test]
fn completing_the_front_line_does_not_capture_a_wall() {
    let mut g = game("/11/11/7K3/11/11/11/3t7/11/11/2t8/1tTTt6/ a");
    assert!(play(&mut g, "d5-d2").is_empty());
    assert_eq!(piece(&g, "c1"), Some(Piece::Defender));
    assert_eq!(piece(&g, "d1"), Some(Piece::Defender));
}

#[test]
fn a_wall_with_a_gap_in_front_is_not_captured() {
    let mut g = game("/11/11/7K3/11/11/11/1t9/11/11/2t8/2TTt6/ a");
    assert!(play(&mut g, "b5-b1").is_empty());
}

// ---------------------------------------------------------------- the king

#[test]
fn four_attackers_capture_the_king() {
    let mut g = game("/11/11/4t6/3tKt5/2t8/11/11/11/11/11/11/ a");
    play(&mut g, "c7-e7");
    assert_eq!(result(&g), Some((ATTACKERS, "king captured")));
    assert_eq!(g.counters().captures[0], 1, "the king counts as a capture");
}

#[test]
fn three_attackers_and_the_throne_capture_the_king_beside_it() {
    let mut g = game("/11/11/11/2t8/4tKt4/11/11/11/11/11/11/ a");
    play(&mut g, "c8-f8");
    assert_eq!(result(&g), Some((ATTACKERS, "king captured")));
}

#[test]
fn the_king_on_the_throne_needs_four_attackers() {
    let mut four = game("/11/11/11/11/2t8/4tKt4/5t5/11/11/11/11/ a");
    play(&mut four, "c7-f7");
    assert_eq!(result(&four), Some((ATTACKERS, "king captured")));
    let mut three = game("/11/11/11/11/2t8/4tKt4/11/11/11/11/11/ a");
    play(&mut three, "c7-f7");
    assert_eq!(result(&three), None);
}

#[test]
fn the_king_is_never_captured_on_the_edge() {
    let mut g = game("/11/11/7T3/11/11/t10/K1t8/t10/11/11/11/ a");
    play(&mut g, "c5-b5");
    assert_eq!(result(&g), None);
}

// ---------------------------------------------------------------- end of the game

#[test]
fn the_king_escapes_to_a_corner() {
    let mut g = game("/11/11/2t8/11/11/11/K10/11/11/11/11/ d");
    play(&mut g, "a5-a1");
    assert_eq!(result(&g), Some((DEFENDERS, "corner")));
    assert_eq!(g.outcome().unwrap().result_of(0), SeatResult::Loss);
}

#[test]
fn an_exit_fort_wins() {
    // King a6, wall a5 a7 b5 b7 c5 and the closing c6: every wall piece has, on each axis, a
    // neighbour off the board, inside the fort or in the wall.
    let mut g = game("/11/11/4t6/11/TT9/K6T3/TTT8/11/4t6/11/11/ d");
    assert_eq!(result(&g), None);
    play(&mut g, "h6-c6");
    assert_eq!(result(&g), Some((DEFENDERS, "fort")));
}

#[test]
fn a_fort_with_a_capturable_wall_piece_does_not_count() {
    // Without c5, attackers on c5 and c7 would take c6 and open the fort.
    let mut g = game("/11/11/4t6/11/TT9/K6T3/TT9/11/4t6/11/11/ d");
    play(&mut g, "h6-c6");
    assert_eq!(result(&g), None);
}

/// A ring of attackers around the throne with the gap at g8, which the attacker on g11 closes.
const RING: &str = "/6t4/11/11/4tt5/3t3t3/3t1K1t3/3tT2t3/4ttt4/11/11/11/ a";

#[test]
fn closing_a_ring_encircles_the_defenders() {
    let mut g = game(RING);
    assert_eq!(result(&g), None);
    play(&mut g, "g11-g8");
    assert_eq!(result(&g), Some((ATTACKERS, "encirclement")));
}

#[test]
fn two_separate_rings_encircle_too() {
    // A second ring around the defender on c9.
    let mut g = game("/6t4/2t8/1tTt7/2t1tt5/3t3t3/3t1K1t3/3tT2t3/4ttt4/11/11/11/ a");
    play(&mut g, "g11-g8");
    assert_eq!(result(&g), Some((ATTACKERS, "encirclement")));
}

#[test]
fn a_defender_on_the_edge_breaks_the_encirclement() {
    let mut g = game("/6t4/11/11/4tt5/3t3t3/3t1K1t3/3tT2t3/4ttt4/T10/11/11/ a");
    play(&mut g, "g11-g8");
    assert_eq!(result(&g), None);
}

#[test]
fn a_side_without_a_legal_move_loses() {
    // The king on c1 is walled in (and safe on the edge): the defenders cannot move.
    let mut g = game("/11/11/11/11/11/11/2t8/11/11/11/1tKt7/ a");
    play(&mut g, "c5-c2");
    assert_eq!(result(&g), Some((ATTACKERS, "no move")));
    // The attackers' last soldier on a2 is shut in by a1, a3 and b2.
    let mut g = game("/11/11/7K3/11/11/11/1T9/11/T10/t10/11/ d");
    play(&mut g, "b5-b2");
    assert_eq!(result(&g), Some((DEFENDERS, "no move")));
    let mut moves = MoveList::new();
    g.legal_moves(&mut moves);
    assert!(moves.is_empty(), "a finished game has no legal moves");
}

#[test]
fn the_ply_cap_is_a_draw() {
    let mut g = Hnefatafl::from_position(START, &HnefataflOptions { ply_cap: 1 }).unwrap();
    play(&mut g, "d1-d3");
    let outcome = g.outcome().unwrap();
    assert_eq!((outcome.sole_winner(), outcome.reason), (None, REASON_CAP));
    assert_eq!(outcome.result_of(0), SeatResult::Draw);
    assert!(Hnefatafl::check_options(&HnefataflOptions { ply_cap: 0 }).is_err());
    assert_eq!(HnefataflOptions::default().ply_cap, 1000);
}

#[test]
fn a_position_that_is_already_decided_is_read_as_over() {
    let corner = game("/11/11/2t8/11/11/11/11/11/11/11/K10/ a");
    assert_eq!(result(&corner), Some((DEFENDERS, "corner")));
    let stuck = game("/11/11/11/11/11/11/11/11/11/2t8/1tKt7/ d");
    assert_eq!(result(&stuck), Some((ATTACKERS, "no move")));
}

// ---------------------------------------------------------------- notation

#[test]
fn the_start_position_reads_and_writes_back() {
    let g = game(START);
    assert_eq!(g.position().unwrap(), START);
    assert_eq!(g.board().attackers.count_ones(), 24);
    assert_eq!(g.board().defenders.count_ones(), 12);
    assert_eq!(square_name(g.board().king), "f6");
    assert_eq!(g.side_to_move(), Side::Attackers);
    let mut moves = MoveList::new();
    g.legal_moves(&mut moves);
    assert_eq!(moves.len(), 116);
}

#[test]
fn bad_positions_get_one_clear_line() {
    let cases = [
        ("/11/11/11/ a", "has 3 ranks"),
        (
            "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
            "side to move",
        ),
        (
            "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ x",
            "`x`",
        ),
        (
            "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3tttxt3/ a",
            "unexpected `x`",
        ),
        (
            "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt4/ a",
            "rank 1",
        ),
        (
            "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3tttt3/ a",
            "only 10",
        ),
        (
            "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TT1TT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ a",
            "no king",
        ),
        (
            "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TKT3t/t4T4t/11/5t5/3ttttt3/ a",
            "2 kings (f6, f5)",
        ),
        (
            "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a",
            "begin and end",
        ),
        ("/t10/11/11/11/11/5K5/11/11/11/11/11/ a", "restricted"),
        (
            "/11/11/11/11/11/5K5/11/11/11/11/10000000000000000000000000000000t/ a",
            "more than 11",
        ),
        (
            "/1ttttttttt1/1ttttttttt1/1ttttttttt1/11/11/5K5/11/11/11/11/11/ a",
            "27 attackers",
        ),
    ];
    for (text, expected) in cases {
        let err = Hnefatafl::from_position(text, &HnefataflOptions::default()).unwrap_err();
        assert!(err.contains(expected), "{text}: `{err}` lacks `{expected}`");
        assert!(!err.contains('\n'));
    }
}

#[test]
fn illegal_moves_say_why() {
    let g = game(START);
    let cases = [
        ("d1", "is not a move"),
        ("z1-d3", "`z1` is not a square"),
        ("d1-d12", "`d12` is not a square"),
        ("c1-c3", "no piece on c1"),
        ("f4-f2", "defenders"),
        ("d1-e2", "rank or a file"),
        ("d1-d1", "leave its square"),
        ("f2-f4", "blocked at f4"),
        ("a4-a3xb3", "captures nothing"),
    ];
    for (text, expected) in cases {
        let err = g.parse_move(text).unwrap_err();
        assert!(err.contains(expected), "{text}: `{err}` lacks `{expected}`");
    }
    assert_eq!(
        g.parse_move(" D1-D3 ").map(|m| g.format_move(m)),
        Ok("d1-d3".into())
    );
    // A written capture list is checked against the move.
    let g = game("/11/11/7K3/11/11/11/4Tt5/11/11/11/3t7/ a");
    assert!(g.parse_move("d1-d5xe5").is_ok());
    assert!(
        g.parse_move("d1-d5xe4")
            .unwrap_err()
            .contains("captures e5")
    );
}

/// Plays a random game from the start, calling `each` after every move.
fn random_game(seed: u64, mut each: impl FnMut(&Hnefatafl)) -> Hnefatafl {
    let mut g = game(START);
    let mut rng = RandomStream::from_seed(seed, 3);
    let mut moves = MoveList::new();
    while g.outcome().is_none() {
        g.legal_moves(&mut moves);
        assert!(!moves.is_empty(), "a live position has a legal move");
        let mv = moves[pick(moves.len(), &mut rng)];
        g.play(mv, &mut RandomStream::dice(0), &mut NoLog);
        each(&g);
    }
    g
}

#[test]
fn positions_and_moves_round_trip_over_random_games() {
    for seed in 0..20 {
        random_game(seed, |g| {
            let text = g.position().unwrap();
            let back = Hnefatafl::from_position(&text, &HnefataflOptions::default()).unwrap();
            assert_eq!(back.board(), g.board(), "{text}");
            assert_eq!(back.side_to_move(), g.side_to_move());
            assert_eq!(back.position().unwrap(), text);
            let mut moves = MoveList::new();
            g.legal_moves(&mut moves);
            for &mv in &moves {
                assert_eq!(g.parse_move(&g.format_move(mv)), Ok(mv));
            }
        });
    }
}

#[test]
fn the_incremental_hash_equals_a_full_recomputation() {
    for seed in 0..50 {
        random_game(seed, |g| assert_eq!(g.hash(), g.full_hash()));
    }
    let g = game(START);
    let mut moved = g;
    moved.apply(Move { from: 3, to: 25 });
    assert_ne!(g.hash(), moved.hash());
}

#[test]
fn random_games_end_within_the_cap() {
    let mut reasons = [0; 6];
    for seed in 0..200 {
        let g = random_game(seed, |_| {});
        let outcome = g.outcome().unwrap();
        assert!(g.plies() <= HnefataflOptions::default().ply_cap);
        reasons[usize::from(outcome.reason)] += 1;
        let attackers = g.board().attackers.count_ones();
        let defenders = g.board().defenders.count_ones();
        assert_eq!(24 - attackers, g.counters().captures[1]);
        let king = u32::from(outcome.reason == REASON_KING_CAPTURED);
        assert_eq!(12 - defenders + king, g.counters().captures[0]);
    }
    assert!(reasons[usize::from(REASON_KING_CAPTURED)] + reasons[usize::from(REASON_CORNER)] > 0);
}

#[test]
fn render_shows_the_board() {
    let text = game(START).render();
    assert!(text.contains("11  # . . t t t t t . . # 11"), "{text}");
    assert!(text.contains(" 6  t t . T T K T T . t t 6"), "{text}");
    assert!(text.ends_with("attackers to move, ply 0\n"));
}

// ---------------------------------------------------------------- computer levels

fn agent(
    level: usize,
    time_control: crate::agent::TimeControl,
) -> Box<dyn crate::agent::Agent<Hnefatafl>> {
    Hnefatafl::new_agent(&crate::agent::AgentSetup {
        level,
        weights: Hnefatafl::levels()[level].weights.unwrap().defaults(),
        time_control,
    })
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
        depths.push(SearchParams::from_values(&set.defaults()[eval..]).depth);
    }
    assert_eq!(depths, [1.0, 2.0, 3.0, 4.0], "each level searches deeper");
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
fn normal_beats_easy() {
    // Three seeds, sides swapped, a short cap so that the test stays quick in debug builds.
    let options = HnefataflOptions { ply_cap: 120 };
    let mut points = [0.0; 2];
    for seed in 0..3 {
        for rotation in 0..2 {
            let mut agents = [
                agent(0, crate::agent::TimeControl::Batch),
                agent(1, crate::agent::TimeControl::Batch),
            ];
            let mut g = Hnefatafl::from_position(START, &options).unwrap();
            let mut rngs = [
                RandomStream::tie_break(seed, 0),
                RandomStream::tie_break(seed, 1),
            ];
            let mut moves = MoveList::new();
            while g.outcome().is_none() {
                g.legal_moves(&mut moves);
                let seat = g.to_move();
                let slot = crate::game::seat_agent(seat, rotation, 2);
                let mv = agents[slot].choose(
                    &g,
                    &moves,
                    &mut crate::agent::Context {
                        rng: &mut rngs[seat],
                        clock: &crate::agent::NoClock,
                    },
                );
                g.apply(mv);
            }
            let outcome = g.outcome().unwrap();
            for seat in 0..2 {
                points[crate::game::seat_agent(seat, rotation, 2)] += match outcome.result_of(seat)
                {
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

// ---------------------------------------------------------------- statistics

#[test]
fn statistics_count_what_happened() {
    use crate::game::GameStats;
    let mut corner = game("/11/11/2t4T3/11/11/11/K10/11/11/11/11/ d");
    play(&mut corner, "a5-a1");
    let mut captured = game("/11/11/4t6/3tKt5/2t8/11/11/11/11/11/11/ a");
    play(&mut captured, "c7-e7");
    let mut capped = Hnefatafl::from_position(START, &HnefataflOptions { ply_cap: 1 }).unwrap();
    play(&mut capped, "d1-d3");
    let mut stats = HnefataflStats::default();
    // Group 1: agent 0 attacks and wins; then, sides swapped, agent 1 defends... and wins.
    stats.add_group(&[captured, corner]);
    // Group 2: a draw, then the defenders (agent 0) win.
    let mut other = HnefataflStats::default();
    other.add_group(&[capped, corner]);
    stats.merge(&other);
    let report = stats.report(&["a".into(), "b".into()]);
    assert_eq!(report.games, 4);
    assert_eq!(
        (report.attacker_wins, report.defender_wins, report.draws),
        (1, 2, 1)
    );
    assert_eq!(report.timeouts, 1);
    assert_eq!((report.plies_min, report.plies_max), (1, 1));
    let endings: Vec<(&str, u64)> = report.endings.iter().map(|e| (e.reason, e.games)).collect();
    assert_eq!(
        endings,
        [
            ("corner", 2),
            ("fort", 0),
            ("king captured", 1),
            ("encirclement", 0),
            ("no move", 0),
            ("cap", 1)
        ]
    );
    // Attackers scored 1 + 0 + 0.5 + 0 of 4: 0.375, advantage -0.125.
    assert!((report.attackers_advantage + 0.125).abs() < 1e-12);
    let [low, high] = report.attackers_advantage_ci95;
    assert!(low < -0.125 && high > -0.125);
    // Agent "a" (slot 0) attacks in rotation 0 of both groups (a win, a draw) and defends in
    // rotation 1 of both (the defenders won both).
    let a = &report.agents[0];
    assert_eq!(a.agent, "a");
    assert_eq!(
        (
            a.as_attackers.wins,
            a.as_attackers.draws,
            a.as_attackers.losses
        ),
        (1, 1, 0)
    );
    assert_eq!(
        (
            a.as_defenders.wins,
            a.as_defenders.draws,
            a.as_defenders.losses
        ),
        (2, 0, 0)
    );
    let b = &report.agents[1];
    assert_eq!(
        (
            b.as_defenders.wins,
            b.as_defenders.draws,
            b.as_defenders.losses
        ),
        (0, 1, 1)
    );
    assert_eq!(
        (
            b.as_attackers.wins,
            b.as_attackers.draws,
            b.as_attackers.losses
        ),
        (0, 0, 2)
    );
    // Merging is order-independent.
    let mut reversed = other.clone();
    let mut first = HnefataflStats::default();
    first.add_group(&[captured, corner]);
    reversed.merge(&first);
    assert_eq!(reversed, stats);
}

#[test]
fn play_narrates_moves_captures_and_the_end() {
    let mut g = game("/11/11/7K3/11/11/11/4Tt5/11/11/11/3t7/ a");
    let mut log = String::new();
    g.play(
        g.parse_move("d1-d5").unwrap(),
        &mut RandomStream::dice(0),
        &mut log,
    );
    assert_eq!(log, "attackers d1-d5xe5\n");
    let mut g = game("/11/11/4t6/3tKt5/2t8/11/11/11/11/11/11/ a");
    let mut log = String::new();
    g.play(
        g.parse_move("c7-e7").unwrap(),
        &mut RandomStream::dice(0),
        &mut log,
    );
    assert_eq!(
        log,
        "attackers c7-e7 (king captured)\ngame over after 1 plies: attackers win (king captured)\n"
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
    assert_eq!(g.format_move(*best), "d1-d5");
    assert!(eval.move_order(&g, *best) >= 1000);
    assert!(
        moves
            .iter()
            .filter(|&&mv| eval.move_order(&g, mv) >= 1000)
            .count()
            == 1
    );
}
