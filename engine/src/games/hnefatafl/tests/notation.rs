//! Notation, hashing, random games and narration.

use super::*;

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
        let err = Hnefatafl::from_position(text, &HnefataflOptions::default())
            .unwrap_err()
            .to_string();
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
        let err = g.parse_move(text).unwrap_err().to_string();
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
            .to_string()
            .contains("captures e5")
    );
    // Two captures, in koom's style and in the published records' style.
    let g = game("/11/11/7K3/11/3t7/3T7/4Tt5/11/11/11/3t7/ a");
    let both = g.parse_move("d1-d5xd6/e5").unwrap();
    assert_eq!(g.parse_move("d1-d5xe5xd6"), Ok(both));
    assert_eq!(g.parse_move("d1-d5xd6xe5"), Ok(both));
    assert!(g.parse_move("d1-d5xe5").is_err(), "one capture left out");
    // Written in the published records' style, each capture after its own `x`.
    assert_eq!(g.format_move(both), "d1-d5xe5xd6");
    assert_eq!(g.parse_move(&g.format_move(both)), Ok(both));
}

/// Plays a random game from the start, calling `each` after every move.
pub(super) fn random_game(seed: u64, mut each: impl FnMut(&Hnefatafl)) -> Hnefatafl {
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
    moved.apply(Move {
        from: Square::at(3, 0),
        to: Square::at(3, 2),
    });
    assert_ne!(g.hash(), moved.hash());
}

#[test]
fn random_games_end_within_the_cap() {
    let mut reasons = [0; Reason::ALL.len()];
    for seed in 0..200 {
        let g = random_game(seed, |_| {});
        let outcome = g.outcome().unwrap();
        assert!(g.plies() <= HnefataflOptions::default().ply_cap);
        reasons[outcome.reason.index()] += 1;
        let attackers = g.board().attackers.count_ones();
        let defenders = g.board().defenders.count_ones();
        assert_eq!(24 - attackers, g.counters().captures[1]);
        let king = u32::from(outcome.reason == Ending::Rules(Reason::KingCaptured));
        assert_eq!(12 - defenders + king, g.counters().captures[0]);
    }
    assert!(reasons[Reason::KingCaptured.index()] + reasons[Reason::Corner.index()] > 0);
}

#[test]
fn render_shows_the_board() {
    let text = game(START).render();
    assert!(text.contains("11  # . . t t t t t . . # 11"), "{text}");
    assert!(text.contains(" 6  t t . T T K T T . t t 6"), "{text}");
    assert!(text.ends_with("attackers to move, ply 0\n"));
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
