//! Adjudication in the game loop: a game adjudicated on its players' scores is the same game as
//! without, cut short where both scores gave their verdict, and it ends with the verdict's own
//! ending and winner.

use engine::Rules;
use engine::adjudicate::{Adjudication, Draw, Resign};
use engine::game::Adjudicated;
use engine::games::hnefatafl::Hnefatafl;
use engine::games::thud::Thud;
use engine::selfplay::{MoveScore, SeededGame};
use engine::{Agent, Ending, Game, Level, NoClock, NoLog, Outcome};

/// A game's moves in notation, each with the mover's score.
type Moves = Vec<(String, Option<MoveScore>)>;

/// One game of `level` against itself on seed 3 under `adjudication`: its moves (with scores) and
/// its end.
fn play<G: Game>(level: &str, adjudication: Adjudication) -> (Moves, G, Outcome<G::Reason>) {
    let setup = Level::<G>::named(level).unwrap().setup();
    let mut agents: Vec<Box<dyn Agent<G>>> = (0..2).map(|_| setup.agent()).collect();
    let mut moves = Vec::new();
    let end = SeededGame::<G> {
        options: &G::Options::default(),
        seats: 2,
        seed: 3,
        clock: &NoClock,
        adjudication,
    }
    .play_scoring(
        None,
        true,
        (&mut agents, |seat: usize| seat),
        &mut NoLog,
        |_: &G| {},
        |g: &G, mv, score| moves.push((g.format_move(mv), score)),
    );
    let outcome = end.outcome().unwrap();
    (moves, end, outcome)
}

/// The adjudicated game's moves are the first moves of the game played out.
fn assert_cut_short<G: Game>(cut: &[(String, Option<MoveScore>)], level: &str) {
    let (full, _, outcome) = play::<G>(level, Adjudication::default());
    assert!(!matches!(outcome.reason, Ending::Adjudicated(_)));
    assert!(
        cut.len() < full.len(),
        "{} {} < {}",
        G::NAME,
        cut.len(),
        full.len()
    );
    assert_eq!(cut, &full[..cut.len()]);
}

#[test]
fn hnefatafl_resigns_where_both_searches_condemn_one_side() {
    let rules = Adjudication {
        resign: Some(Resign {
            movecount: 3,
            score: 900,
        }),
        draw: None,
    };
    let (moves, _, outcome) = play::<Hnefatafl>("normal", rules);
    assert_eq!(outcome.reason, Ending::Adjudicated(Adjudicated::Resign));
    let winner = outcome.sole_winner().unwrap();
    // The last six plies: each mover's score named the same winner by at least 900.
    let last = &moves[moves.len() - 6..];
    for (ply, (_, score)) in (moves.len() - 6..).zip(last) {
        let mover = ply % 2;
        let score = score.unwrap().score;
        let for_winner = if mover == winner { score } else { -score };
        assert!(for_winner >= 900, "ply {ply}: {score}");
    }
    assert_cut_short::<Hnefatafl>(&moves, "normal");
}

#[test]
fn thud_takes_the_rounds_margin_once_both_scores_hold_still() {
    let rules = Adjudication {
        resign: None,
        draw: Some(Draw {
            movenumber: 10,
            movecount: 3,
            score: 150,
        }),
    };
    let (moves, end, outcome) = play::<Thud>("balanced", rules);
    assert_eq!(outcome.reason, Ending::Adjudicated(Adjudicated::Margin));
    assert!(moves.len() >= 10);
    let points = end.points().unwrap();
    let by_points = match points[0].cmp(&points[1]) {
        core::cmp::Ordering::Greater => Some(0),
        core::cmp::Ordering::Less => Some(1),
        core::cmp::Ordering::Equal => None,
    };
    assert_eq!(outcome.sole_winner(), by_points, "points {points:?}");
    assert_cut_short::<Thud>(&moves, "balanced");
}
