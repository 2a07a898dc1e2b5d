//! A generic game-tree searcher for two-player, zero-sum, perfect-information games (Thud,
//! Copenhagen Hnefatafl): negamax alpha-beta with iterative deepening, principal variation search,
//! an aspiration window at the root, a transposition table, move ordering (table move, evaluator
//! hints, killer moves, history), a selection of the most promising moves per node whose width is
//! a level parameter, and at the horizon a quiescence stage over the game's tactical moves and an
//! extension of positions where the side to move faces a threat, searched over the moves that
//! answer it (all three off unless a game opts in).
//!
//! A game plugs in through [`SearchGame`] (rules seen by the searcher) and [`Evaluator`] (what a
//! level thinks of a position); a level is then an evaluator plus [`Limits`]. The board games
//! declare their levels as rows ([`LevelRow`]) of the shared [`SearchParams`] table, and play
//! them with the one [`SearchingAgent`], which keeps the game's positions so that a search scores
//! a cycle as a draw with the level's contempt. Budgets bind on
//! depth, nodes or time, and time is read through the injected [`Clock`](crate::agent::Clock), so
//! that with [`NoClock`](crate::agent::NoClock) and no node budget a search is a pure function of
//! its inputs (and of the table's contents, which [`Searcher::clear`] resets between games).

mod agent;
mod alphabeta;
mod level;
mod ordering;
mod tt;

/// Test support for the searcher's tests and benchmarks, not part of the engine's API: public
/// only because the benchmarks are a separate crate, and hidden from the documentation.
#[doc(hidden)]
pub mod toy;

#[cfg(test)]
mod tests;

pub use agent::{SearchRoot, SearchingAgent};
pub use alphabeta::Searcher;
pub use level::{
    EmbeddedNetwork, LevelRow, SEARCH_LEN, SearchParams, level_list, level_network, level_table,
    level_tables, level_values, weight_sets,
};

/// The rules of a game as the searcher sees them.
pub trait SearchGame: Clone {
    type Move: Copy + Eq + core::fmt::Debug;
    type MoveList: crate::game::MoveBuffer<Self::Move>;
    /// Legal moves of the side to move (the list is cleared first); at most 65,536 of them.
    fn generate(&self, out: &mut Self::MoveList);
    /// Copy-make: the position after `mv`.
    fn after(&self, mv: Self::Move) -> Self;
    /// Zobrist hash of the position including the side to move.
    ///
    /// The transposition table trusts it: two positions with one hash share their entries, so
    /// anything that changes the value of a position (side to move, counters that end the game)
    /// must be in it.
    fn hash(&self) -> u64;
    /// `Some(score)` from the side to move's point of view when the game is over here (`ply` =
    /// distance from the root, so that faster wins score higher: use `MATE - ply` style scores).
    ///
    /// A position where the side to move has no legal move must be terminal here; if it is not,
    /// the searcher scores it with [`Evaluator::evaluate`].
    fn terminal(&self, ply: u32) -> Option<i32>;

    /// Whether the side to move faces a threat it must answer now (in Hnefatafl, a king with a
    /// free line to a corner). Such a position met at the horizon is searched one ply more, so
    /// that the threat counts one ply earlier than a plain horizon would see it. The default:
    /// never.
    fn forcing(&self) -> bool {
        false
    }

    /// The moves of a [`Self::forcing`] position that may still answer its threat (the list is
    /// cleared first); the searcher asks for them instead of [`Self::generate`] at such a node
    /// (only in the extra ply at the horizon unless [`Self::ONLY_ANSWERS`]), but never at the
    /// root, and only where [`Self::terminal`] is `None`. Under [`Self::ONLY_ANSWERS`] every
    /// legal move left out must lose to the other side's next move, so a node left without a
    /// move scores as lost two plies on; otherwise the list must never be empty. In Hnefatafl, a king who sees a corner leaves the attackers a few
    /// blocking moves out of a hundred; searching the others only to find the king in the corner
    /// cost most of a search's nodes wherever he had free lines. The default: every legal move.
    fn answers(&self, out: &mut Self::MoveList) {
        self.generate(out);
    }

    /// Whether [`Self::answers`] are the only moves worth searching wherever a forcing position
    /// is met (Hnefatafl: every other move loses to the king's next move). False: they alone
    /// are searched in the extra ply at the horizon, and every move above it (Thud: a dwarf
    /// under threat may be worth leaving for a stronger move). The default: true.
    const ONLY_ANSWERS: bool = true;

    /// Whether a position repeating an earlier one scores as a draw with the level's contempt
    /// ([`Searcher::set_game`]); false where a repetition changes nothing, as in Thud, whose
    /// quiet cycles only run down the window that ends the round on its current points.
    const CYCLES_DRAW: bool = true;

    /// The number of history-heuristic slots; 0 (the default) turns the heuristic off.
    const HISTORY_SLOTS: usize = 0;
    /// The history slot of `mv`, in `0..HISTORY_SLOTS`: moves sharing a slot share their record
    /// of cutoffs (e.g. `from * SQUARES + to`). Only called when `HISTORY_SLOTS > 0`.
    fn history_slot(&self, mv: Self::Move) -> usize {
        let _ = mv;
        0
    }
}

/// What a level thinks of positions and moves.
pub trait Evaluator<G: SearchGame> {
    /// Static evaluation from the side to move's point of view, strictly inside
    /// `-(MATE - 1000)..MATE - 1000` (scores beyond are reserved for wins found by search).
    fn evaluate(&self, pos: &G) -> i32;

    /// [`Self::evaluate`] where only scores inside `alpha..beta` matter: a score at or beyond
    /// either end may be a bound on that side (fail-soft), as the quiescence stage asks it. An
    /// evaluator that searches (Thud resolves captures inside its evaluation) prunes with the
    /// window; the default evaluates exactly.
    fn evaluate_within(&self, pos: &G, alpha: i32, beta: i32) -> i32 {
        let _ = (alpha, beta);
        self.evaluate(pos)
    }
    /// Cheap move-ordering score, higher is more promising (captures, threats...). Also what the
    /// "selection of promising moves" keeps.
    ///
    /// Scores above zero mark tactical moves (captures, threats), which are tried before the
    /// killer moves; quiet moves should score zero or less. Never recorded as killers either.
    fn order(&self, pos: &G, mv: G::Move) -> i32;

    /// The order score of a move at the root, which a search scores once and where the width
    /// selection decides what the level will consider playing at all, so a closer look pays
    /// (in Thud, the position after the move, evaluated with its captures resolved: hundreds of
    /// dwarf moves score alike by [`Self::order`]'s cheap hints). The default: [`Self::order`].
    fn root_order(&self, pos: &G, mv: G::Move) -> i32 {
        self.order(pos, mv)
    }

    /// Whether `mv` is tactical enough to be searched beyond the horizon (a capture, a move that
    /// opens a threat): the quiescence stage searches these alone, against the static
    /// evaluation as a floor. The default: no move, so that the horizon is plain.
    fn tactical(&self, pos: &G, mv: G::Move) -> bool {
        let _ = (pos, mv);
        false
    }
}

/// The score of a win at the root; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 1_000_000; // scores above MATE - 1000 are wins found by search

/// Scores beyond this magnitude are wins or losses whose distance depends on the ply.
pub(crate) const MATE_BOUND: i32 = MATE - 1000;

/// The deepest iteration a search runs (deeper limits are clamped to it).
pub const MAX_DEPTH: u32 = 128;

/// Plies the quiescence stage and the threat extensions may add below an iteration's depth.
pub const QUIESCENCE_PLIES: u32 = 6;

/// A search's budgets. Depth always binds; the others bind when set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in plies (clamped to [`MAX_DEPTH`]). Depth 0 searches nothing and
    /// returns the best-ordered move.
    pub depth: u32,
    /// Further iterations past `depth`, each begun only while the search has used at most
    /// [`DEEPEN_SHARE`] of its node budget (none without one): where the tree is small (an
    /// emptied board, a lone king with few moves) the search looks further at the price of
    /// nodes it has to spare, and the node budget still binds, so results reproduce.
    pub deepen: u32,
    /// The number of moves searched at each node (the root included): the `width` with the
    /// highest [`Evaluator::order`] score, ties in generation order, with the table move always
    /// among them. `Some(0)` acts as `Some(1)`.
    pub width: Option<usize>,
    /// The search stops as soon as it has visited more nodes than this.
    pub nodes: Option<u64>,
    /// The search stops once this many milliseconds have passed on the clock (checked every
    /// 1,024 nodes and between iterations).
    pub time_ms: Option<u64>,
    /// Late move reductions: plies taken off the search of a quiet move that comes late in its
    /// node's order (see [`LATE_MOVE`]), re-searched at full depth when it beats alpha after
    /// all. 0 searches every move to the full depth.
    pub reduction: u32,
    /// Futility pruning: at a node this many plies or fewer above the horizon (see
    /// [`FUTILITY_DEPTH`]) whose static score plus `futility` times its depth stays at or below
    /// alpha, quiet moves are not searched (they are assumed to gain no more than the margin).
    /// 0 searches them.
    pub futility: i32,
    /// Whether positions whose side to move faces a threat ([`SearchGame::forcing`]) are
    /// searched over their answers, and one ply more at the horizon. Off, they are searched as
    /// any other position.
    pub threats: bool,
}

/// The share of its node budget a search may have used and still begin an iteration past its
/// depth ([`Limits::deepen`]): one iteration costs several times the one before, so an eighth
/// leaves the next one room to finish most of the time. At a quarter, Expert's Hnefatafl
/// endgames (nine openings from capped games, ply 100 to 140) took 2.5 times as long as
/// without deepening; at an eighth, 1.2 times.
pub const DEEPEN_SHARE: (u64, u64) = (1, 8);

/// The deepest remaining depth at which quiet moves may be pruned as futile.
pub const FUTILITY_DEPTH: u32 = 2;

/// Moves searched before the late-move reductions start: the table move, the tactical moves
/// and the killers come first anyway; only quiet moves this late in the order are reduced.
pub const LATE_MOVE: usize = 3;

/// The shallowest remaining depth at which late moves are reduced (a reduced move keeps at
/// least one ply of its own before the quiescence stage).
pub const REDUCTION_DEPTH: u32 = 3;

impl Limits {
    /// These limits with a caller's budget in place of the level's: a node or time budget
    /// without a depth lifts the depth limit, as a chess GUI's `go movetime` does.
    #[must_use]
    pub fn with_budget(self, budget: crate::agent::Budget) -> Self {
        let open = budget.nodes.is_some() || budget.time_ms.is_some();
        Self {
            depth: budget
                .depth
                .unwrap_or(if open { MAX_DEPTH } else { self.depth }),
            nodes: budget.nodes.or(if budget.time_ms.is_some() {
                None
            } else {
                self.nodes
            }),
            time_ms: budget.time_ms.or(if budget.nodes.is_some() {
                None
            } else {
                self.time_ms
            }),
            ..self
        }
    }

    /// A plain depth-limited search: full width, no node or time budget.
    #[must_use]
    pub const fn to_depth(depth: u32) -> Self {
        Self {
            depth,
            deepen: 0,
            width: None,
            nodes: None,
            time_ms: None,
            reduction: 0,
            futility: 0,
            threats: true,
        }
    }
}

/// The longest principal variation a search reports (deeper lines are cut).
pub const PV_LEN: usize = 64;

/// A principal variation: the best move, then the best reply, and so on; fixed capacity, so that
/// keeping one per ply allocates nothing while searching.
pub type Pv<M> = arrayvec::ArrayVec<M, PV_LEN>;

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play: always legal.
    pub best: M,
    /// Its score from the side to move's point of view (0 when no iteration completed).
    pub score: i32,
    /// The last completed iteration (0 when none completed).
    pub depth: u32,
    /// Nodes visited, every iteration included.
    pub nodes: u64,
    /// The expected line, starting with `best`: the principal variation of the iteration the
    /// result comes from, cut where a table hit or the horizon ended it. When the tie-break
    /// chose another move than that line's first, only `best` is known.
    pub pv: Pv<M>,
    /// Milliseconds the search took on the injected clock (0 under
    /// [`NoClock`](crate::agent::NoClock)).
    pub elapsed_ms: u64,
}
