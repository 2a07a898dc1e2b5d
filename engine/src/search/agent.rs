//! The one searching agent of the board games: a level's evaluation, its budgets and contempt,
//! a searcher kept across games, and the game's history of positions.

use super::{Evaluator, LevelRow, Limits, SearchGame, SearchParams, SearchResult, Searcher};
use crate::agent::{Agent, Context, TimeControl};
use crate::game::Game;

/// A game that the generic searcher can play: how a position becomes a search node.
pub trait SearchRoot: Game {
    /// The position as the searcher sees it (its moves are the game's).
    type Node: SearchGame<Move = Self::Move> + Send;
    /// The search node of this position.
    fn node(&self) -> Self::Node;
}

/// A searching level: alpha-beta ([`Searcher`]) with the level's evaluation, budgets and
/// contempt.
///
/// It keeps the hashes of every position of the current game (those it moved from and those its
/// moves made, which together are all of them) and hands them to each search, so that a line
/// returning to a position already seen scores as a draw with the level's contempt: the side
/// that stands better then avoids the cycle, where a rule-less game would otherwise shuffle to
/// its ply cap. [`Agent::new_game`] forgets them and the searcher's tables, so that batch
/// results reproduce.
pub struct SearchingAgent<G: SearchRoot, E> {
    searcher: Searcher<G::Node>,
    eval: E,
    limits: Limits,
    contempt: i32,
    /// Hashes of the game's positions so far, in the order they occurred.
    history: Vec<u64>,
}

impl<G: SearchRoot, E: Evaluator<G::Node>> SearchingAgent<G, E> {
    /// The level `row` with `eval` and `search` (the level's values, perhaps from a weights file)
    /// under `time_control`.
    #[must_use]
    pub fn new(row: &LevelRow, eval: E, search: &SearchParams, time_control: TimeControl) -> Self {
        Self {
            searcher: Searcher::new(row.table_bits),
            eval,
            limits: search.limits(time_control),
            contempt: search.contempt(),
            history: Vec::new(),
        }
    }

    /// The budgets this level searches under.
    #[must_use]
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// A full search of `game` from this level's point of view, with the game's history so far
    /// (for `koom analyse` and the tests: best move, score, principal variation, depth, nodes).
    pub fn analyse(&mut self, game: &G, ctx: &mut Context<'_>) -> SearchResult<G::Move> {
        self.searcher.set_game(&self.history, self.contempt);
        self.searcher
            .search(&game.node(), &self.eval, &self.limits, ctx.clock, ctx.rng)
    }

    /// Records `hash` as a position of the current game.
    fn remember(&mut self, hash: u64) {
        if self.history.last() != Some(&hash) {
            self.history.push(hash);
        }
    }
}

impl<G, E> Agent<G> for SearchingAgent<G, E>
where
    G: SearchRoot,
    G::Node: Send,
    E: Evaluator<G::Node> + Send,
{
    fn new_game(&mut self) {
        self.searcher.clear();
        self.history.clear();
    }

    /// A forced move is played without searching.
    fn choose(&mut self, game: &G, moves: &[G::Move], ctx: &mut Context<'_>) -> G::Move {
        let node = game.node();
        let mv = if let [only] = moves {
            *only
        } else {
            self.analyse(game, ctx).best
        };
        self.remember(node.hash());
        self.remember(node.after(mv).hash());
        mv
    }
}

impl<G: SearchRoot, E> core::fmt::Debug for SearchingAgent<G, E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SearchingAgent")
            .field("limits", &self.limits)
            .field("contempt", &self.contempt)
            .field("history", &self.history.len())
            .finish_non_exhaustive()
    }
}
