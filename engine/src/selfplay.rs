//! One seeded game between agents, from the first decision to the end: the loop shared by the
//! batch runner, `koom play` and the benchmarks.

use arrayvec::ArrayVec;

use crate::adjudicate::{Adjudication, Adjudicator, Verdict};
use crate::agent::{Agent, Clock, Context};
use crate::game::{Adjudicated, Game, Log, MAX_SEATS, Outcome};
use crate::random::RandomStream;

pub use crate::agent::MoveScore;

/// What fixes a game before anyone moves: the rules, the number of seats and the seed (from
/// which the dice stream and each seat's tie-break stream derive), the clock agents read, and
/// whether the runner may end the game early on the players' scores.
#[derive(Debug)]
pub struct SeededGame<'a, G: Game> {
    pub options: &'a G::Options,
    pub seats: usize,
    pub seed: u64,
    pub clock: &'a dyn Clock,
    /// Off ([`Adjudication::default`]) everywhere but experiments that ask for it.
    pub adjudication: Adjudication,
}

/// The outcome the runner declares on `verdict` in `game`: a resignation's winner wins; a draw
/// is a draw, except in a game scored on points, whose points as they stand decide.
fn adjudicated<G: Game>(game: &G, verdict: Verdict) -> Outcome<G::Reason> {
    match (verdict, game.points()) {
        (Verdict::Resign { winner }, _) => Outcome::adjudicated(Some(winner), Adjudicated::Resign),
        (Verdict::Draw, None) => Outcome::adjudicated(None, Adjudicated::Draw),
        (Verdict::Draw, Some(points)) => {
            let winner = match points[0].cmp(&points[1]) {
                core::cmp::Ordering::Greater => Some(0),
                core::cmp::Ordering::Less => Some(1),
                core::cmp::Ordering::Equal => None,
            };
            Outcome::adjudicated(winner, Adjudicated::Margin)
        }
    }
}

impl<G: Game> SeededGame<'_, G> {
    /// Plays the game to its end, seat `s` played by `agents[agent_of(s)]`; `observe` sees every
    /// position, the first one included.
    pub fn play(
        &self,
        agents: &mut [Box<dyn Agent<G>>],
        agent_of: impl Fn(usize) -> usize,
        log: &mut impl Log,
        observe: impl FnMut(&G),
    ) -> G {
        self.play_noting(agents, agent_of, log, observe, |_, _| {})
    }

    /// [`SeededGame::play`] that also hands each move, with the position it is played in, to
    /// `on_move` (game records).
    pub fn play_noting(
        &self,
        agents: &mut [Box<dyn Agent<G>>],
        agent_of: impl Fn(usize) -> usize,
        log: &mut impl Log,
        observe: impl FnMut(&G),
        mut on_move: impl FnMut(&G, G::Move),
    ) -> G {
        let seating = (agents, agent_of);
        self.play_scoring(None, false, seating, log, observe, |g, mv, _| {
            on_move(g, mv)
        })
    }

    /// [`SeededGame::play_noting`] from `start` (an opening) instead of the initial position.
    pub fn play_from(
        &self,
        start: &G,
        agents: &mut [Box<dyn Agent<G>>],
        agent_of: impl Fn(usize) -> usize,
        log: &mut impl Log,
        observe: impl FnMut(&G),
        mut on_move: impl FnMut(&G, G::Move),
    ) -> G {
        let seating = (agents, agent_of);
        self.play_scoring(Some(start), false, seating, log, observe, |g, mv, _| {
            on_move(g, mv);
        })
    }

    /// The loop behind every `play*` method, from `start` (an opening; `None`: the initial
    /// position) with seat `s` played by `agents[agent_of(s)]`. With `scores`, each agent is
    /// asked for [`Agent::analyse`] instead of [`Agent::choose`] (the same move, draws and state
    /// by contract) and `on_move` gets the mover's [`MoveScore`]; without, it gets `None` and the
    /// game is exactly the unscored one. With [`SeededGame::adjudication`] on, agents are asked
    /// for their analysis too, and the game ends as soon as the [`Adjudicator`] reading those
    /// scores gives its verdict. From `start`, the dice stream begins where the seed begins it,
    /// as no chance was drawn to reach `start` in this game.
    pub fn play_scoring(
        &self,
        start: Option<&G>,
        scores: bool,
        (agents, agent_of): (&mut [Box<dyn Agent<G>>], impl Fn(usize) -> usize),
        log: &mut impl Log,
        mut observe: impl FnMut(&G),
        mut on_move: impl FnMut(&G, G::Move, Option<MoveScore>),
    ) -> G {
        let mut dice = RandomStream::dice(self.seed);
        let mut game = match start {
            Some(start) => start.clone(),
            None => G::new(self.options, self.seats, &mut dice, log),
        };
        let mut tie_breaks: ArrayVec<RandomStream, MAX_SEATS> = (0..self.seats)
            .map(|s| RandomStream::tie_break(self.seed, s))
            .collect();
        agents.iter_mut().for_each(|a| a.new_game());
        observe(&game);
        let adjudicate = self.adjudication.is_on();
        let mut adjudicator = Adjudicator::new(self.adjudication, game.points().is_some());
        let mut moves = G::MoveList::default();
        while game.outcome().is_none() {
            game.legal_moves(&mut moves);
            let seat = game.to_move();
            let ctx = &mut Context {
                rng: &mut tie_breaks[seat],
                clock: self.clock,
            };
            let agent = &mut agents[agent_of(seat)];
            let (mv, score) = if scores || adjudicate {
                let analysis = agent.analyse(&game, &moves, ctx);
                (analysis.best, MoveScore::of(&analysis))
            } else {
                (agent.choose(&game, &moves, ctx), None)
            };
            if let Some(why) = agent.forfeit() {
                log.line(format_args!("seat {seat} forfeits: {why:?}"));
                game.end(Outcome::forfeit(seat, self.seats, why));
                observe(&game);
                break;
            }
            on_move(&game, mv, score.filter(|_| scores));
            let captures_before = captures(&game);
            game.play(mv, &mut dice, log);
            if adjudicate && game.outcome().is_none() {
                let captured = captures(&game) != captures_before;
                let plies = game.counters().moves;
                if let Some(verdict) = adjudicator.update(seat, plies, score, captured) {
                    let outcome = adjudicated(&game, verdict);
                    log.line(format_args!("{}", outcome.reason.name()));
                    game.end(outcome);
                }
            }
            observe(&game);
        }
        game
    }
}

/// Every seat's captures so far, summed: a change means the move just played captured.
fn captures<G: Game>(game: &G) -> u64 {
    game.counters().captures.iter().map(|&c| u64::from(c)).sum()
}
