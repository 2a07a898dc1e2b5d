use engine::games::hnefatafl::Hnefatafl;
use engine::games::trente_douze::TrenteDouze;

use super::*;
use engine::Notation;
use engine::Rules;

/// The initial Copenhagen position with the attackers to move, as `koom legal` writes it.
const START: &str = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ a";

fn suite(text: &str, order: Order, seed: u64) -> Result<Suite<Hnefatafl>, String> {
    Suite::<Hnefatafl>::parse(text, "s.txt", order, seed, &Default::default(), 2)
        .map_err(|e| e.to_string())
}

#[test]
fn lines_give_moves_positions_or_both_and_comments_are_skipped() {
    let text = format!(
        "# a suite\n\nmoves: d1-b1, e5-e2\n  position: {START}\nposition: {START} moves: d1-b1\n"
    );
    let s = suite(&text, Order::Sequential, 1).unwrap();
    assert_eq!((s.info.lines, s.info.openings), (5, 3));
    assert_eq!(s.info.hash, format!("{:016x}", fnv1a64(text.as_bytes())));
    let o = s.openings();
    assert_eq!((o[0].line, o[1].line, o[2].line), (3, 4, 5));
    assert_eq!((o[0].start.as_deref(), o[0].moves.len()), (None, 2));
    assert_eq!((o[1].start.as_deref(), o[1].moves.len()), (Some(START), 0));
    assert_eq!(o[2].moves, ["d1-b1"]);
    // Two plies from the start: the attackers to move again; the position after one: defenders.
    assert_eq!(o[0].position.to_move(), 0);
    assert_eq!(o[2].position.to_move(), 1);
    assert_eq!(o[2].position.position(), {
        let mut g = Hnefatafl::from_position(START, &Default::default()).unwrap();
        let mv = g.parse_move("d1-b1").unwrap();
        g.play(mv, &mut RandomStream::dice(0), &mut NoLog);
        g.position()
    });
}

#[test]
fn bad_lines_name_the_file_and_line() {
    let err = |text: &str| suite(text, Order::Sequential, 1).unwrap_err();
    assert_eq!(
        err("# x\nd1-b1\n"),
        "s.txt:2: `d1-b1` is not an opening: write `moves: M1, M2, ...` or `position: TEXT [moves: M1, ...]` (`#` starts a comment line)"
    );
    assert!(err("moves: d1-b1, d1-d2\n").starts_with("s.txt:1: move 2 `d1-d2` is illegal"));
    assert!(err("moves:  \n").starts_with("s.txt:1: `moves:` lists no move"));
    // Empty moves were skipped: a cut or edited list would have replayed another opening.
    for cut in [
        "moves: d1-b1,,e5-e2",
        "moves: ,d1-b1",
        "moves: d1-b1,",
        "moves:  ,",
    ] {
        assert!(err(cut).contains("is empty (a comma too many)"), "{cut}");
    }
    let nothing = format!("position: {START} moves:");
    assert!(
        err(&nothing).starts_with("s.txt:1: `moves:` lists no move"),
        "{}",
        err(&nothing)
    );
    assert!(err("\nposition: /11/ a\n").starts_with("s.txt:2: bad hnefatafl position"));
    // The king on a corner: the defenders have already won.
    let over =
        "position: /K2ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TT1TT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ a";
    assert_eq!(
        err(over),
        "s.txt:1: the game is over after this opening (corner); an opening must leave a move to play"
    );
    assert_eq!(
        err("# only\n\n"),
        "openings s.txt: no opening in it (only comments and blank lines)"
    );
    let three = "position: seats=3 round=1 scores=30,30,30 turn=1 mover=1 roll=222445";
    let wrong =
        Suite::<TrenteDouze>::parse(three, "t.txt", Order::Sequential, 1, &Default::default(), 2);
    assert_eq!(
        wrong.unwrap_err().to_string(),
        "t.txt:1: the position has 3 seats, the agents 2"
    );
    assert!(
        Suite::<TrenteDouze>::parse(three, "t.txt", Order::Sequential, 1, &Default::default(), 3)
            .is_ok()
    );
}

#[test]
fn groups_cycle_through_the_suite_in_file_order_or_a_seeded_shuffle() {
    let text: String = [
        "d1-b1", "d1-c1", "d1-d2", "d1-d3", "d1-d4", "e1-e2", "e1-e3", "d1-d5",
    ]
    .iter()
    .map(|m| format!("moves: {m}\n"))
    .collect();
    let sequential = suite(&text, Order::Sequential, 1).unwrap();
    let picks = |s: &Suite<Hnefatafl>| (0..16).map(|g| s.index_of(g)).collect::<Vec<_>>();
    assert_eq!(
        picks(&sequential),
        [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7]
    );
    let random = suite(&text, Order::Random, 1).unwrap();
    let order = picks(&random);
    let mut first: Vec<u64> = order[..8].to_vec();
    assert_ne!(first, [0, 1, 2, 3, 4, 5, 6, 7], "shuffled");
    assert_eq!(order[..8], order[8..], "then taken in turn");
    first.sort_unstable();
    assert_eq!(first, [0, 1, 2, 3, 4, 5, 6, 7], "a permutation");
    assert_eq!(
        picks(&suite(&text, Order::Random, 1).unwrap()),
        order,
        "seeded"
    );
    assert_ne!(picks(&suite(&text, Order::Random, 2).unwrap()), order);
    assert_eq!(
        random.for_group(9).moves,
        [[
            "d1-b1", "d1-c1", "d1-d2", "d1-d3", "d1-d4", "e1-e2", "e1-e3", "d1-d5"
        ][order[1] as usize]]
    );
}
