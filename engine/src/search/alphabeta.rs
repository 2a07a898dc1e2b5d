//! Iterative-deepening negamax alpha-beta with principal variation search, a triangular table
//! of principal variations, and cycles scored as draws with a contempt.

use super::ordering::{self, Hints, History, Killers};
use super::tt::{Bound, Table};
use super::{
    DEEPEN_SHARE, Evaluator, FUTILITY_DEPTH, LATE_MOVE, Limits, MATE, MATE_BOUND, MAX_DEPTH, Pv,
    QUIESCENCE_PLIES, REDUCTION_DEPTH, SearchGame, SearchResult,
};
use crate::agent::{Clock, pick};
use crate::game::MoveBuffer;
use crate::random::RandomStream;

/// Above every score.
const INF: i32 = MATE + 1;
/// The clock is read once every this many nodes (a power of two).
const CHECK_EVERY: u64 = 1024;
/// Ordering keys reserved up front: the sum of the searched moves along one path. Only a game
/// that exceeds it makes the scratch grow (once; it is never shrunk).
const RESERVED_KEYS: usize = 1 << 15;
/// Root moves whose scores are reserved up front (the same caveat applies).
const RESERVED_ROOT_MOVES: usize = 1 << 12;
/// A root move whose score is only bounded: it is not among the best.
const NOT_EXACT: i32 = i32::MIN;
/// The deepest ply a node can sit at: room for every iteration's depth plus the plies that
/// the quiescence stage and extensions may add below it.
const MAX_PLY: usize = (MAX_DEPTH + QUIESCENCE_PLIES) as usize + 1;
/// Half the width of the first aspiration window around the previous iteration's score.
const ASPIRATION: i32 = 50;

/// What one search call needs at every node.
struct Ctx<'a, E> {
    eval: &'a E,
    clock: &'a dyn Clock,
    width: Option<usize>,
    reduction: u32,
    futility: i32,
    threats: bool,
}

/// How one iteration at the root ended.
enum Iteration<M> {
    Completed {
        best: M,
        score: i32,
    },
    /// Out of budget. `improved` is a move that this iteration proved strictly better than its
    /// first move (the previous iteration's best), with its exact score.
    Aborted {
        improved: Option<(M, i32)>,
    },
}

/// A reusable searcher: its tables are allocated once, in [`Searcher::new`], and reused by every
/// search, so that searching allocates nothing.
///
/// The transposition table outlives a search (the next move's search starts from what this one
/// learnt), so a searcher serves one evaluator and one width: [`Searcher::clear`] it before
/// changing either, and between games.
pub struct Searcher<G: SearchGame> {
    table: Table<G::Move>,
    killers: Killers<G::Move>,
    history: History,
    /// Sort keys of the moves of the nodes on the current path, one frame after another.
    keys: Vec<i64>,
    /// Per root move (by generation index): its exact score in the running iteration, or
    /// [`NOT_EXACT`] when the search only proved it worse than the best.
    root_scores: Vec<i32>,
    /// The same for the last completed iteration.
    completed_scores: Vec<i32>,
    /// Per root move (by generation index): its [`Evaluator::root_order`] score.
    root_order: Vec<i32>,
    /// `pv[ply]`: the best line found below the node at `ply` on the current path (triangular
    /// principal-variation table).
    pv: Vec<Pv<G::Move>>,
    /// `path[ply]`: the hash of the node at `ply` on the current path.
    path: Vec<u64>,
    /// The hashes of the positions of the game before the root, sorted (see
    /// [`Searcher::set_game`]).
    seen: Vec<u64>,
    /// The draw score of a cycle for the root's side, negated: `None` scores no cycle at all.
    contempt: Option<i32>,
    nodes: u64,
    node_limit: u64,
    /// Clock reading at which the search stops.
    deadline: Option<u64>,
    /// Set when a budget ran out: every node then returns at once and the iteration is void.
    aborted: bool,
    /// The running iteration's deepest ply for quiescence and threat extensions.
    horizon_limit: u32,
}

impl<G: SearchGame> core::fmt::Debug for Searcher<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Searcher")
            .field("nodes", &self.nodes)
            .field("aborted", &self.aborted)
            .finish_non_exhaustive()
    }
}

impl<G: SearchGame> Searcher<G> {
    /// A searcher with a transposition table of `2^tt_log2_entries` entries (0: no table).
    #[must_use]
    pub fn new(tt_log2_entries: u8) -> Self {
        Self {
            table: Table::new(tt_log2_entries),
            killers: Killers::new(MAX_PLY + 1),
            history: History::new(G::HISTORY_SLOTS),
            keys: vec![0; RESERVED_KEYS],
            root_scores: Vec::with_capacity(RESERVED_ROOT_MOVES),
            completed_scores: Vec::with_capacity(RESERVED_ROOT_MOVES),
            root_order: Vec::with_capacity(RESERVED_ROOT_MOVES),
            pv: vec![Pv::new(); MAX_PLY + 1],
            path: vec![0; MAX_PLY + 1],
            seen: Vec::new(),
            contempt: None,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
            horizon_limit: 0,
        }
    }

    /// Forget everything, the game's positions included (called between games so batch results
    /// reproduce). The contempt stays.
    pub fn clear(&mut self) {
        self.table.clear();
        self.killers.clear();
        self.history.clear();
        self.seen.clear();
    }

    /// Makes the following searches score cycles: a position that repeats one of `seen` (the
    /// hashes of the game's positions before the root) or one earlier on the search path scores
    /// as a draw, `-contempt` for the side to move at the root and `+contempt` for the other.
    /// With a positive contempt the root's side avoids cycles unless it stands worse than
    /// `-contempt`; at 0, whichever side stands better avoids them.
    ///
    /// The rules need not have a repetition draw: this is how a level keeps a game from
    /// shuffling to its cap. (The transposition table keeps such path-dependent scores like
    /// any other, as engines commonly accept.)
    pub fn set_game(&mut self, seen: &[u64], contempt: i32) {
        self.seen.clear();
        self.seen.extend_from_slice(seen);
        self.seen.sort_unstable();
        self.contempt = Some(contempt);
    }

    /// Iterative deepening alpha-beta from `pos` (which must have a legal move).
    ///
    /// Iterations run at depths `1..=limits.depth` and stop early once a win or loss within the
    /// horizon is proved (deeper iterations cannot change it). The result is that of the last
    /// completed iteration, except that when a budget interrupts an iteration after it proved a
    /// move strictly better than the previous best (which that iteration searches first), that
    /// move and its score are returned, with `depth` still that of the last completed iteration.
    /// With no completed iteration the best-ordered move is returned with score 0 and depth 0.
    ///
    /// Ties: root moves after the first are searched against `best - 1` rather than `best`, so
    /// that a move worth exactly the best score fails high and is re-searched to its exact score.
    /// Every root move of the last completed iteration whose exact score equals the best is a
    /// candidate; one is chosen, in generation order, by [`pick`]: a single draw from `rng`, none
    /// when there is only one. (A result taken from an interrupted iteration draws nothing.)
    ///
    /// # Panics
    /// When `pos` has no legal move.
    pub fn search(
        &mut self,
        pos: &G,
        eval: &impl Evaluator<G>,
        limits: &Limits,
        clock: &dyn Clock,
        rng: &mut RandomStream,
    ) -> SearchResult<G::Move> {
        self.table.new_search();
        self.killers.clear();
        self.history.age();
        self.nodes = 0;
        self.aborted = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        let start = clock.now_ms();
        self.deadline = limits.time_ms.map(|t| start.saturating_add(t));
        self.path[0] = pos.hash();
        let ctx = Ctx {
            eval,
            clock,
            width: limits.width,
            reduction: limits.reduction,
            futility: limits.futility,
            threats: limits.threats,
        };
        let mut moves = G::MoveList::default();
        pos.generate(&mut moves);
        assert!(
            !moves.is_empty(),
            "search from a position without a legal move"
        );

        self.root_order.clear();
        self.root_order
            .extend(moves.iter().map(|&mv| eval.root_order(pos, mv)));
        let table_move = self.table.probe(pos.hash(), 0).and_then(|e| e.mv);
        let count = self.prepare(&ctx, pos, &moves, table_move, 0, 0);
        let fallback = moves[ordering::next(&mut self.keys[..count], 0)];
        let mut result = SearchResult {
            best: fallback,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Pv::new(),
            elapsed_ms: 0,
        };
        let mut completed = false;
        // Deepening past the depth needs a node budget to measure the room left by.
        let deepen = if limits.nodes.is_some() {
            limits.deepen
        } else {
            0
        };
        let deepest = limits.depth.saturating_add(deepen).min(MAX_DEPTH);
        for depth in 1..=deepest {
            let (used, of) = DEEPEN_SHARE;
            if depth > limits.depth && self.nodes * of > self.node_limit * used {
                break;
            }
            let guess = (result.depth > 0).then_some(result.score);
            match self.root(&ctx, pos, &moves, depth, result.best, guess) {
                Iteration::Completed { best, score } => {
                    result.best = best;
                    result.score = score;
                    result.depth = depth;
                    result.pv.clone_from(&self.pv[0]);
                    completed = true;
                    core::mem::swap(&mut self.root_scores, &mut self.completed_scores);
                    let decided = score.abs() > MATE_BOUND && MATE - score.abs() <= depth as i32;
                    let late = self.deadline.is_some_and(|d| clock.now_ms() >= d);
                    if decided || late {
                        break;
                    }
                }
                Iteration::Aborted { improved } => {
                    if let Some((best, score)) = improved {
                        result.best = best;
                        result.score = score;
                        result.pv.clone_from(&self.pv[0]);
                        completed = false;
                    }
                    break;
                }
            }
        }
        if completed {
            let tied = |&(_, &s): &(usize, &i32)| s == result.score;
            let count = self
                .completed_scores
                .iter()
                .enumerate()
                .filter(tied)
                .count();
            let chosen = pick(count, rng);
            let (index, _) = self
                .completed_scores
                .iter()
                .enumerate()
                .filter(tied)
                .nth(chosen)
                .expect("the best move is among the tied");
            result.best = moves[index];
        }
        if result.pv.first() != Some(&result.best) {
            result.pv.clear();
            result.pv.push(result.best);
        }
        result.nodes = self.nodes;
        result.elapsed_ms = clock.now_ms().saturating_sub(start);
        result
    }

    /// Whether the node at `ply` with `hash` closes a cycle: it repeats a position of the game
    /// or one earlier on the path with the same side to move (the hash includes it).
    fn repeats(&self, hash: u64, ply: usize) -> bool {
        G::CYCLES_DRAW
            && self.contempt.is_some()
            && (self.path[..ply]
                .iter()
                .rev()
                .skip(1)
                .step_by(2)
                .any(|&h| h == hash)
                || self.seen.binary_search(&hash).is_ok())
    }

    /// The score of a cycle for the side to move at `ply`.
    fn draw_score(&self, ply: usize) -> i32 {
        let contempt = self.contempt.unwrap_or(0);
        if ply.is_multiple_of(2) {
            -contempt
        } else {
            contempt
        }
    }

    /// `pv[ply]` becomes `mv` followed by the line below it.
    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (above, below) = self.pv.split_at_mut(ply + 1);
        let line = &mut above[ply];
        line.clear();
        line.push(mv);
        let room = line.remaining_capacity();
        line.extend(below[0].iter().copied().take(room));
    }

    /// Counts a node and checks the budgets; true when the search must stop.
    fn out_of_budget<E>(&mut self, ctx: &Ctx<'_, E>) -> bool {
        self.nodes += 1;
        if self.nodes > self.node_limit
            || (self.nodes.is_multiple_of(CHECK_EVERY)
                && self.deadline.is_some_and(|d| ctx.clock.now_ms() >= d))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Writes the sort keys of `moves` at `keys[base..]`, `first` first, and returns how many
    /// are searched. At the root (`ply` 0) the moves are ordered by their root order scores.
    fn prepare<E: Evaluator<G>>(
        &mut self,
        ctx: &Ctx<'_, E>,
        pos: &G,
        moves: &[G::Move],
        first: Option<G::Move>,
        ply: u32,
        base: usize,
    ) -> usize {
        let end = base + moves.len();
        if self.keys.len() < end {
            self.keys.resize(end, 0);
        }
        let hints = Hints {
            first,
            killers: self.killers.at(ply),
            history: &self.history,
        };
        let root = &self.root_order;
        let order = |i: usize, mv| {
            if ply == 0 {
                root[i]
            } else {
                ctx.eval.order(pos, mv)
            }
        };
        ordering::prepare(
            &mut self.keys[base..end],
            pos,
            moves,
            order,
            ctx.width,
            &hints,
        )
    }

    /// Writes the sort keys of the tactical `moves` of a quiescence node at `keys[base..]`: all
    /// of them, by order score (the level's width does not apply beyond the horizon).
    fn prepare_quiescence<E: Evaluator<G>>(
        &mut self,
        ctx: &Ctx<'_, E>,
        pos: &G,
        moves: &[G::Move],
        ply: u32,
        base: usize,
    ) -> usize {
        let full = Ctx {
            width: None,
            ..*ctx
        };
        self.prepare(&full, pos, moves, None, ply, base)
    }

    /// One iteration at the root, `first` searched first: inside an aspiration window around
    /// `guess` (the previous iteration's score, if any), re-searched with a full window when its
    /// score falls outside.
    fn root<E: Evaluator<G>>(
        &mut self,
        ctx: &Ctx<'_, E>,
        pos: &G,
        moves: &[G::Move],
        depth: u32,
        first: G::Move,
        guess: Option<i32>,
    ) -> Iteration<G::Move> {
        self.horizon_limit = (depth + QUIESCENCE_PLIES).min(MAX_PLY as u32 - 1);
        if self.out_of_budget(ctx) {
            return Iteration::Aborted { improved: None };
        }
        let count = self.prepare(ctx, pos, moves, Some(first), 0, 0);
        self.pv[0].clear();
        self.root_scores.clear();
        self.root_scores.resize(moves.len(), NOT_EXACT);
        let mut best: Option<(G::Move, i32)> = None;
        let mut improved = false;
        for i in 0..count {
            let index = ordering::next(&mut self.keys[..count], i);
            let mv = moves[index];
            let child = pos.after(mv);
            let score = match best {
                None => self.aspirated(ctx, &child, depth, guess, count),
                Some((_, b)) => {
                    // A null window just below the best: moves worth exactly `b` fail high.
                    let s = -self.negamax(ctx, &child, depth - 1, 1, -b, 1 - b, count);
                    if s >= b && !self.aborted {
                        -self.negamax(ctx, &child, depth - 1, 1, -INF, 1 - b, count)
                    } else {
                        s
                    }
                }
            };
            if self.aborted {
                return Iteration::Aborted {
                    improved: best.filter(|_| improved),
                };
            }
            match best {
                Some((_, b)) if score < b => {}
                Some((_, b)) if score == b => self.root_scores[index] = score,
                _ => {
                    improved = best.is_some();
                    best = Some((mv, score));
                    self.root_scores[index] = score;
                    self.update_pv(0, mv);
                }
            }
        }
        let (best, score) = best.expect("the root has a legal move");
        let hash = pos.hash();
        self.table
            .store(hash, 0, depth, score, Bound::Exact, Some(best));
        Iteration::Completed { best, score }
    }

    /// The score of the root's first move `child`, searched in a window around `guess`
    /// (mate scores excepted), then with a full window when it falls outside.
    fn aspirated<E: Evaluator<G>>(
        &mut self,
        ctx: &Ctx<'_, E>,
        child: &G,
        depth: u32,
        guess: Option<i32>,
        base: usize,
    ) -> i32 {
        if let Some(g) = guess.filter(|g| g.abs() < MATE_BOUND) {
            let (alpha, beta) = (g - ASPIRATION, g + ASPIRATION);
            let s = -self.negamax(ctx, child, depth - 1, 1, -beta, -alpha, base);
            if (s > alpha && s < beta) || self.aborted {
                return s;
            }
        }
        -self.negamax(ctx, child, depth - 1, 1, -INF, INF, base)
    }

    /// The quiescence stage at the horizon: the static evaluation as a floor (the side to move
    /// may stand pat), raised by the tactical moves ([`Evaluator::tactical`]) searched on to the
    /// iteration's horizon limit, best-ordered first (a win on the spot then cuts off before the
    /// other tactical moves open their own lines: unordered, a Hnefatafl king with free lines
    /// made this stage grow to millions of nodes). Fail-soft like [`Self::negamax`].
    #[allow(clippy::too_many_arguments)]
    fn quiesce<E: Evaluator<G>>(
        &mut self,
        ctx: &Ctx<'_, E>,
        pos: &G,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        base: usize,
    ) -> i32 {
        let stand = ctx.eval.evaluate_within(pos, alpha, beta);
        if stand >= beta || ply >= self.horizon_limit {
            return stand;
        }
        let mut all = G::MoveList::default();
        pos.generate(&mut all);
        let mut moves = G::MoveList::default();
        for &mv in all.iter().filter(|&&mv| ctx.eval.tactical(pos, mv)) {
            moves.push(mv);
        }
        let count = self.prepare_quiescence(ctx, pos, &moves, ply, base);
        let child_base = base + count;
        let mut best = stand;
        alpha = alpha.max(stand);
        for i in 0..count {
            let mv = moves[ordering::next(&mut self.keys[base..child_base], i)];
            let score = -self.negamax(ctx, &pos.after(mv), 0, ply + 1, -beta, -alpha, child_base);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                    self.update_pv(ply as usize, mv);
                }
            }
        }
        best
    }

    /// Fail-soft negamax: the value of `pos` searched `depth` plies deep, exact when it lies
    /// strictly between `alpha` and `beta`, a bound on the side it fell otherwise. Returns 0
    /// (to be ignored) once the search is aborted. The node's move keys live at `keys[base..]`.
    #[allow(clippy::too_many_arguments)]
    fn negamax<E: Evaluator<G>>(
        &mut self,
        ctx: &Ctx<'_, E>,
        pos: &G,
        mut depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        base: usize,
    ) -> i32 {
        self.pv[ply as usize].clear();
        if self.out_of_budget(ctx) {
            return 0;
        }
        if let Some(score) = pos.terminal(ply) {
            return score;
        }
        let hash = pos.hash();
        if self.repeats(hash, ply as usize) {
            return self.draw_score(ply as usize);
        }
        self.path[ply as usize] = hash;
        let extension = depth == 0;
        if extension {
            if ply >= self.horizon_limit || !(ctx.threats && pos.forcing()) {
                return self.quiesce(ctx, pos, ply, alpha, beta, base);
            }
            depth = 1; // a threat at the horizon: every answer is searched
        }
        let entry = self.table.probe(hash, ply);
        if let Some(e) = entry.filter(|e| u32::from(e.depth) >= depth) {
            let cutoff = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
                Bound::Empty => false,
            };
            if cutoff {
                return e.score;
            }
        }
        // Asked only now, so that a table cutoff does not pay for it.
        let forcing = ctx.threats && pos.forcing();
        let mut moves = G::MoveList::default();
        if forcing && (extension || G::ONLY_ANSWERS) {
            pos.answers(&mut moves);
            if moves.is_empty() {
                return -(MATE - (ply as i32 + 2)); // the threat carried out: lost in two plies
            }
        } else {
            pos.generate(&mut moves);
            if moves.is_empty() {
                return ctx.eval.evaluate(pos);
            }
        }
        let mut node = Node {
            alpha,
            beta,
            best: -INF,
            best_move: None,
        };
        // The table move is searched before the others are even scored: when it cuts off, as it
        // mostly does, the node never calls `Evaluator::order`. (The width selection always
        // keeps it, so this changes no result.)
        let table_move = entry.and_then(|e| e.mv).filter(|mv| moves.contains(mv));
        let mut cutoff = false;
        if let Some(mv) = table_move {
            let score = self.child(ctx, &pos.after(mv), depth, ply, &node, true, 0, base);
            if self.aborted {
                return 0;
            }
            cutoff = self.add(ctx, pos, depth, ply, &mut node, mv, score);
        }
        if !cutoff {
            let count = self.prepare(ctx, pos, &moves, table_move, ply, base);
            let child_base = base + count;
            let searched = usize::from(table_move.is_some());
            let reducible = ctx.reduction > 0 && depth >= REDUCTION_DEPTH && !forcing;
            // Not near a mate score: a quiet move may mate faster than the line that set alpha.
            let futile = (ctx.futility > 0
                && depth <= FUTILITY_DEPTH
                && !forcing
                && alpha.abs() < MATE_BOUND)
                .then(|| ctx.eval.evaluate(pos) + ctx.futility * depth as i32)
                .filter(|&bound| bound <= alpha);
            for i in 0..count {
                let mv = moves[ordering::next(&mut self.keys[base..child_base], i)];
                if i < searched {
                    continue; // the table move, sorted first and already searched
                }
                let quiet = ordering::quiet(self.keys[base + i]);
                if let Some(bound) = futile.filter(|_| quiet) {
                    node.best = node.best.max(bound);
                    continue;
                }
                let first = node.best_move.is_none();
                let late = reducible && i >= LATE_MOVE && quiet;
                let reduction = if late { ctx.reduction } else { 0 };
                let child = pos.after(mv);
                let score =
                    self.child(ctx, &child, depth, ply, &node, first, reduction, child_base);
                if self.aborted {
                    return 0;
                }
                if self.add(ctx, pos, depth, ply, &mut node, mv, score) {
                    break;
                }
            }
        }
        let bound = if node.best >= beta {
            Bound::Lower
        } else if node.best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let mv = node.best_move.filter(|_| bound != Bound::Upper);
        self.table.store(hash, ply, depth, node.best, bound, mv);
        node.best
    }

    /// The score of `child` (a child of a node at `depth` and `ply`) for the node's side: a full
    /// window for the first move, else a null window at `alpha`, re-searched when it lands
    /// strictly inside the node's window (principal variation search). A late quiet move
    /// (`reduction` > 0) is first searched that many plies shallower (never below one ply), and
    /// searched as above only when that beats alpha after all.
    #[allow(clippy::too_many_arguments)]
    fn child<E: Evaluator<G>>(
        &mut self,
        ctx: &Ctx<'_, E>,
        child: &G,
        depth: u32,
        ply: u32,
        node: &Node<G::Move>,
        first: bool,
        reduction: u32,
        base: usize,
    ) -> i32 {
        let (d, p, alpha, beta) = (depth - 1, ply + 1, node.alpha, node.beta);
        if first {
            return -self.negamax(ctx, child, d, p, -beta, -alpha, base);
        }
        if reduction > 0 {
            let shallow = d.saturating_sub(reduction).max(1);
            let s = -self.negamax(ctx, child, shallow, p, -alpha - 1, -alpha, base);
            if s <= alpha || self.aborted {
                return s;
            }
        }
        let s = -self.negamax(ctx, child, d, p, -alpha - 1, -alpha, base);
        if s > alpha && s < beta && !self.aborted {
            -self.negamax(ctx, child, d, p, -beta, -alpha, base)
        } else {
            s
        }
    }

    /// Accounts for `mv` scoring `score` at `node`; true on a beta cutoff, after recording a
    /// quiet cutoff move as a killer and in the history.
    #[allow(clippy::too_many_arguments)]
    fn add<E: Evaluator<G>>(
        &mut self,
        ctx: &Ctx<'_, E>,
        pos: &G,
        depth: u32,
        ply: u32,
        node: &mut Node<G::Move>,
        mv: G::Move,
        score: i32,
    ) -> bool {
        if score <= node.best {
            return false;
        }
        node.best = score;
        node.best_move = Some(mv);
        if score <= node.alpha {
            return false;
        }
        node.alpha = score;
        if score < node.beta {
            self.update_pv(ply as usize, mv);
            return false;
        }
        if ctx.eval.order(pos, mv) <= 0 {
            self.killers.record(ply, mv);
            if G::HISTORY_SLOTS > 0 {
                self.history.record(pos.history_slot(mv), depth);
            }
        }
        true
    }
}

/// The running state of one node.
struct Node<M> {
    /// Raised as moves beat it.
    alpha: i32,
    beta: i32,
    best: i32,
    best_move: Option<M>,
}
