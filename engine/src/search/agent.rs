//! The one searching agent of the board games: a level's evaluation, its budgets and contempt,
//! a searcher kept across games, and the game's history of positions.

use super::{Evaluator, LevelRow, Limits, SearchGame, SearchParams, SearchResult, Searcher};
use crate::agent::{Agent, Analysis, Budget, Context, TimeControl};
use crate::game::Game;

/// A game that the generic searcher can play: how a position becomes a search node.
pub trait SearchRoot: Game {
    /// The position as the searcher sees it (its moves are the game's).
    type Node: SearchGame<Move = Self::Move> + Send;
    /// The search node of this position.
    fn node(&self) -> Self::Node;

    /// The contempt of a search from this position, given the level's: what a cycle costs the
    /// side to move here. The default: the level's, whichever side that is.
    fn contempt(&self, level: i32) -> i32 {
        level
    }
}

/// A searching level: alpha-beta ([`Searcher`]) with the level's evaluation, budgets and
/// contempt.
///
/// It keeps the hashes of every position of the current game (those it moved from and those its
/// moves made, which together are all of them) and hands them to each search, so that a line
/// returning to a position already seen scores as a draw with the level's contempt (as the game
/// adjusts it for the side to move: [`SearchRoot::contempt`]): the side
/// that stands better then avoids the cycle, where a rule-less game would otherwise shuffle to
/// its ply cap. [`Agent::new_game`] forgets them and the searcher's tables, so that batch
/// results reproduce.
pub struct SearchingAgent<G: SearchRoot, E, N: SearchGame = <G as SearchRoot>::Node> {
    searcher: Searcher<N>,
    eval: E,
    /// The search node of a position: the game's own ([`SearchRoot::node`]), or one that
    /// carries more for the evaluation (a network's accumulator).
    root: fn(&G, &E) -> N,
    /// The level's own limits for the first seat and for the others
    /// ([`SearchParams::seat_limits`]), and those in force (a caller's [`Budget`] over them).
    base: [Limits; 2],
    limits: [Limits; 2],
    contempt: i32,
    /// Hashes of the game's positions so far, in the order they occurred.
    history: Vec<u64>,
}

impl<G: SearchRoot, E: Evaluator<G::Node>> SearchingAgent<G, E> {
    /// The level `row` with `eval` and `search` (the level's values, perhaps from a weights file)
    /// under `time_control`.
    #[must_use]
    pub fn new(row: &LevelRow, eval: E, search: &SearchParams, time_control: TimeControl) -> Self {
        Self::with_root(row, eval, search, time_control, |game, _| game.node())
    }
}

impl<G: SearchRoot, N: SearchGame<Move = G::Move>, E: Evaluator<N>> SearchingAgent<G, E, N> {
    /// [`Self::new`] searching nodes of type `N`, built from a position by `root` with the
    /// level's evaluation at hand.
    #[must_use]
    pub fn with_root(
        row: &LevelRow,
        eval: E,
        search: &SearchParams,
        time_control: TimeControl,
        root: fn(&G, &E) -> N,
    ) -> Self {
        let limits = [0, 1].map(|seat| search.seat_limits(time_control, seat));
        Self {
            searcher: Searcher::new(row.table_bits),
            eval,
            root,
            base: limits,
            limits,
            contempt: search.contempt(),
            history: Vec::new(),
        }
    }

    /// The budgets this level searches under when it plays `seat`.
    #[must_use]
    pub fn limits(&self, seat: usize) -> &Limits {
        &self.limits[usize::from(seat != 0)]
    }

    /// A full search of `game` from this level's point of view, with the game's history so far
    /// (for [`Agent::analyse`] and the tests: best move, score, principal variation, depth,
    /// nodes).
    pub fn search(&mut self, game: &G, ctx: &mut Context<'_>) -> SearchResult<G::Move> {
        self.searcher
            .set_game(&self.history, game.contempt(self.contempt));
        let limits = *self.limits(game.to_move());
        self.searcher.search(
            &(self.root)(game, &self.eval),
            &self.eval,
            &limits,
            ctx.clock,
            ctx.rng,
        )
    }

    /// Records `hash` as a position of the current game.
    fn remember(&mut self, hash: u64) {
        if self.history.last() != Some(&hash) {
            self.history.push(hash);
        }
    }
}

impl<G, E, N> Agent<G> for SearchingAgent<G, E, N>
where
    G: SearchRoot,
    N: SearchGame<Move = G::Move> + Send,
    E: Evaluator<N> + Send,
{
    fn new_game(&mut self) {
        self.searcher.clear();
        self.history.clear();
    }

    fn choose(&mut self, game: &G, moves: &[G::Move], ctx: &mut Context<'_>) -> G::Move {
        Agent::analyse(self, game, moves, ctx).best
    }

    /// A forced move is played without searching.
    fn analyse(&mut self, game: &G, moves: &[G::Move], ctx: &mut Context<'_>) -> Analysis<G::Move> {
        let node = (self.root)(game, &self.eval);
        let analysis = if let [only] = moves {
            Analysis::of_move(*only)
        } else {
            Analysis::from(self.search(game, ctx))
        };
        self.remember(node.hash());
        self.remember(node.after(analysis.best).hash());
        analysis
    }

    fn set_budget(&mut self, budget: Budget) {
        self.limits = self.base.map(|limits| limits.with_budget(budget));
    }
}

impl<G: SearchRoot, E, N: SearchGame> core::fmt::Debug for SearchingAgent<G, E, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SearchingAgent")
            .field("limits", &self.limits)
            .field("contempt", &self.contempt)
            .field("history", &self.history.len())
            .finish_non_exhaustive()
    }
}

impl<M: Copy + PartialEq> From<SearchResult<M>> for Analysis<M> {
    fn from(result: SearchResult<M>) -> Self {
        Self {
            score: Some(f64::from(result.score)),
            depth: result.depth,
            nodes: result.nodes,
            pv: result.pv.to_vec(),
            ..Self::of_move(result.best)
        }
    }
}
