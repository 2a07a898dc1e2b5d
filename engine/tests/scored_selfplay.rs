//! The game loop asked for scores ([`SeededGame::play_scoring`] with `scores`) plays exactly the
//! game it plays without: `Agent::analyse` promises `choose`'s move, draws and state, and game
//! records and adjudication rely on that promise for every level of every game.

use engine::games::hnefatafl::{Hnefatafl, HnefataflOptions};
use engine::games::ludo::{Ludo, LudoOptions};
use engine::games::thud::{Thud, ThudOptions};
use engine::games::trente_douze::TrenteDouze;
use engine::selfplay::{MoveScore, SeededGame};
use engine::{Agent, Game, NoClock, NoLog};

/// Each level of `G` at seat 0 against the next level up at the other seats, over a few seeds:
/// the moves with scores asked for must be the moves without. Returns every score seen.
fn scored_moves_match<G: Game>(options: &G::Options, seats: usize) -> Vec<(usize, MoveScore)> {
    let levels = G::levels();
    let agent = |level: usize| -> Box<dyn Agent<G>> { levels[level].setup().agent() };
    let mut seen = Vec::new();
    for level in 0..levels.len() {
        for seed in 0..2 {
            let play = |scores: bool| {
                let mut agents = vec![agent(level), agent((level + 1) % levels.len())];
                let mut moves = Vec::new();
                let game = SeededGame {
                    options,
                    seats,
                    seed,
                    clock: &NoClock,
                    adjudication: Default::default(),
                };
                let end = game.play_scoring(
                    None,
                    scores,
                    (&mut agents, |seat: usize| usize::from(seat != 0)),
                    &mut NoLog,
                    |_: &G| {},
                    |g: &G, mv, score| moves.push((g.to_move(), g.format_move(mv), score)),
                );
                (moves, end.outcome().map(|o| o.reason.name().to_string()))
            };
            let (plain, plain_end) = play(false);
            let (scored, scored_end) = play(true);
            let name = levels[level].name;
            assert!(
                plain.iter().all(|m| m.2.is_none()),
                "{name}: scores unasked"
            );
            let moves = |list: &[(usize, String, Option<MoveScore>)]| {
                list.iter().map(|m| m.1.clone()).collect::<Vec<_>>()
            };
            assert_eq!(
                moves(&plain),
                moves(&scored),
                "{} {name} seed {seed}",
                G::NAME
            );
            assert_eq!(plain_end, scored_end, "{} {name} seed {seed}", G::NAME);
            seen.extend(scored.iter().filter_map(|m| Some((m.0, m.2?))));
        }
    }
    seen
}

#[test]
fn thud_scored_games_are_the_unscored_games_and_searchers_give_scores() {
    let options = ThudOptions {
        ply_cap: 24,
        ..ThudOptions::default()
    };
    assert_searchers_give_scores(&scored_moves_match::<Thud>(&options, 2), "Thud");
}

#[test]
fn hnefatafl_scored_games_are_the_unscored_games_and_searchers_give_scores() {
    let options = HnefataflOptions { ply_cap: 24 };
    assert_searchers_give_scores(&scored_moves_match::<Hnefatafl>(&options, 2), "Hnefatafl");
}

/// A board game's searching levels give a score on some moves, each searched at least a ply
/// deep, and not all of them 0 (the search's values, not a placeholder).
fn assert_searchers_give_scores<M>(seen: &[(M, MoveScore)], game: &str) {
    assert!(!seen.is_empty(), "{game}'s searching levels report scores");
    assert!(seen.iter().all(|(_, s)| s.depth >= 1), "{game}: depth");
    assert!(
        seen.iter().any(|(_, s)| s.score != 0),
        "{game}: scores are the search's"
    );
}

#[test]
fn dice_games_scored_games_are_the_unscored_games_without_searched_scores() {
    let ludo = scored_moves_match::<Ludo>(&LudoOptions::default(), 4);
    let trente = scored_moves_match::<TrenteDouze>(&Default::default(), 2);
    assert!(
        ludo.is_empty() && trente.is_empty(),
        "dice levels value moves but do not search: no searched score"
    );
}
