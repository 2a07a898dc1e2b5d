//! Movement, captures, the shield wall, the king and the end of the game.

use super::*;

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
    let err = soldier.parse_move("a5-a1").unwrap_err().to_string();
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
    assert_eq!(
        (outcome.sole_winner(), outcome.reason),
        (None, Ending::Rules(Reason::Cap))
    );
    assert_eq!(outcome.result_of(0), SeatResult::Draw);
    assert!(outcome.reason.is_timeout());
    assert!(!Reason::NoMove.is_timeout());
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
