//! Every clause of `docs/rules/trente-douze.md` and the source's worked examples (`rules`), the exact
//! damage law and the turn DP (`dp`), whole games, agents and statistics (`games`); below, the
//! helpers they share.

mod dp;
mod games;
mod rules;

use super::*;
use crate::agent::{AgentSetup, Context, NoClock, TimeControl};
use crate::game::NoLog;

/// Dice read from a script, so a test can play out an exact sequence of throws.
struct Script {
    dice: Vec<u8>,
    next: usize,
}

impl Script {
    fn new(dice: &[u8]) -> Self {
        Self {
            dice: dice.to_vec(),
            next: 0,
        }
    }

    fn assert_used_up(&self) {
        assert_eq!(self.next, self.dice.len(), "scripted dice left unused");
    }
}

impl Dice for Script {
    fn d6(&mut self) -> u8 {
        let d = *self
            .dice
            .get(self.next)
            .expect("the script ran out of dice");
        self.next += 1;
        d
    }
}

fn position(text: &str) -> TrenteDouze {
    TrenteDouze::from_position(text, &TrenteDouzeOptions::default()).unwrap()
}

/// Plays `mv` (in notation) with dice from `script`.
fn play(game: &mut TrenteDouze, mv: &str, script: &mut Script) {
    let mv = game.parse_move(mv).unwrap();
    assert!(game.is_legal(mv));
    game.play_with(mv, script, &mut NoLog);
}

fn hand(text: &str) -> Hand {
    Hand::of(&text.bytes().map(|b| b - b'0').collect::<Vec<_>>())
}

/// Every roll of `k` dice as a sorted face list.
fn all_rolls(k: usize) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = vec![vec![]];
    for _ in 0..k {
        out = out
            .iter()
            .flat_map(|r| {
                let low = r.last().copied().unwrap_or(1);
                (low..=6).map(move |f| {
                    let mut r = r.clone();
                    r.push(f);
                    r
                })
            })
            .collect();
    }
    out
}

fn first_roll(roll: &str) -> TrenteDouze {
    position(&format!(
        "seats=3 round=1 scores=30,30,30 turn=0 roll={roll}"
    ))
}

fn legal(game: &TrenteDouze) -> Vec<Move> {
    let mut moves = <TrenteDouze as Rules>::MoveList::default();
    game.legal_moves(&mut moves);
    moves.to_vec()
}

fn run_game(seats: usize, levels: &[usize], seed: u64) -> TrenteDouze {
    run_logged_game(seats, levels, seed, &mut NoLog)
}

/// A game between agents of `levels` (seat `s` plays `levels[s % len]`), checking that every
/// decision has legal moves and every choice is one of them.
fn run_logged_game(seats: usize, levels: &[usize], seed: u64, log: &mut impl Log) -> TrenteDouze {
    let mut dice = RandomStream::dice(seed);
    let mut game = TrenteDouze::new(&TrenteDouzeOptions::default(), seats, &mut dice, log);
    let mut agents: Vec<_> = (0..seats)
        .map(|s| {
            TrenteDouze::levels()[levels[s % levels.len()]]
                .setup()
                .agent()
        })
        .collect();
    let mut rngs: Vec<_> = (0..seats)
        .map(|s| RandomStream::tie_break(seed, s))
        .collect();
    let mut moves = <TrenteDouze as Rules>::MoveList::default();
    let mut decisions = 0;
    while game.outcome().is_none() {
        game.legal_moves(&mut moves);
        assert!(!moves.is_empty());
        let seat = game.to_move();
        let mv = agents[seat].choose(
            &game,
            &moves,
            &mut Context {
                rng: &mut rngs[seat],
                clock: &NoClock,
            },
        );
        assert!(moves.contains(&mv), "{mv:?} is not legal");
        game.play(mv, &mut dice, log);
        decisions += 1;
        assert!(decisions < 100_000, "the game does not end");
    }
    assert_eq!(game.counters().moves, decisions);
    game
}

fn choose(level: usize, game: &TrenteDouze) -> Move {
    let weights = TrenteDouze::levels()[level]
        .weights
        .map(|w| w.defaults())
        .unwrap_or_default();
    choose_with(level, weights, game)
}

fn choose_with(level: usize, weights: Vec<f64>, game: &TrenteDouze) -> Move {
    let mut agent = AgentSetup {
        level: &TrenteDouze::levels()[level],
        weights,
        time_control: TimeControl::Batch,
        network: None,
    }
    .agent();
    let mut rng = RandomStream::tie_break(1, 0);
    agent.choose(
        game,
        &legal(game),
        &mut Context {
            rng: &mut rng,
            clock: &NoClock,
        },
    )
}
