//! Computer levels (placeholder until the generic searcher lands).

use super::{Hnefatafl, Move};
use crate::agent::{Agent, AgentSetup, Context, pick};
use crate::game::Level;

pub(super) const LEVELS: &[Level] = &[Level {
    name: "random",
    summary: "uniformly random legal move",
    weights: None,
}];

pub(super) fn new_agent(_setup: &AgentSetup) -> Box<dyn Agent<Hnefatafl>> {
    Box::new(Random)
}

#[derive(Clone, Copy, Debug)]
struct Random;

impl Agent<Hnefatafl> for Random {
    fn choose(&mut self, _: &Hnefatafl, moves: &[Move], ctx: &mut Context<'_>) -> Move {
        moves[pick(moves.len(), ctx.rng)]
    }
}
