//! One seeded game between agents, from the first decision to the end: the loop shared by the
//! batch runner, `koom play` and the benchmarks.

use arrayvec::ArrayVec;

use crate::agent::{Agent, Clock, Context};
use crate::game::{Game, Log, MAX_SEATS, Outcome};
use crate::random::RandomStream;

/// What fixes a game before anyone moves: the rules, the number of seats and the seed (from
/// which the dice stream and each seat's tie-break stream derive), and the clock agents read.
#[derive(Debug)]
pub struct SeededGame<'a, G: Game> {
    pub options: &'a G::Options,
    pub seats: usize,
    pub seed: u64,
    pub clock: &'a dyn Clock,
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
        on_move: impl FnMut(&G, G::Move),
    ) -> G {
        let mut dice = RandomStream::dice(self.seed);
        let game = G::new(self.options, self.seats, &mut dice, log);
        self.play_on((game, dice), agents, agent_of, log, observe, on_move)
    }

    /// [`SeededGame::play_noting`] from `start` (an opening) instead of the initial position:
    /// the dice stream begins where the seed begins it, as no chance was drawn to reach `start`
    /// in this game.
    pub fn play_from(
        &self,
        start: &G,
        agents: &mut [Box<dyn Agent<G>>],
        agent_of: impl Fn(usize) -> usize,
        log: &mut impl Log,
        observe: impl FnMut(&G),
        on_move: impl FnMut(&G, G::Move),
    ) -> G {
        let dice = RandomStream::dice(self.seed);
        self.play_on(
            (start.clone(), dice),
            agents,
            agent_of,
            log,
            observe,
            on_move,
        )
    }

    /// The game loop from `game` with the dice stream as it stands.
    fn play_on(
        &self,
        (mut game, mut dice): (G, RandomStream),
        agents: &mut [Box<dyn Agent<G>>],
        agent_of: impl Fn(usize) -> usize,
        log: &mut impl Log,
        mut observe: impl FnMut(&G),
        mut on_move: impl FnMut(&G, G::Move),
    ) -> G {
        let mut tie_breaks: ArrayVec<RandomStream, MAX_SEATS> = (0..self.seats)
            .map(|s| RandomStream::tie_break(self.seed, s))
            .collect();
        agents.iter_mut().for_each(|a| a.new_game());
        observe(&game);
        let mut moves = G::MoveList::default();
        while game.outcome().is_none() {
            game.legal_moves(&mut moves);
            let seat = game.to_move();
            let ctx = &mut Context {
                rng: &mut tie_breaks[seat],
                clock: self.clock,
            };
            let agent = &mut agents[agent_of(seat)];
            let mv = agent.choose(&game, &moves, ctx);
            if let Some(why) = agent.forfeit() {
                log.line(format_args!("seat {seat} forfeits: {why:?}"));
                game.end(Outcome::forfeit(seat, self.seats, why));
                observe(&game);
                break;
            }
            on_move(&game, mv);
            game.play(mv, &mut dice, log);
            observe(&game);
        }
        game
    }
}
