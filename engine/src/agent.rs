//! The one agent trait every computer level implements, and what an agent is given.

use crate::game::Level;
use crate::game::rules::Rules;
use crate::nnue::Network;
use crate::random::RandomStream;

/// Wall-clock time, injected by the caller so that the engine itself reads no clock (it must
/// build for wasm32, and batch runs must not depend on timing).
pub trait Clock {
    /// Milliseconds since an arbitrary fixed origin.
    fn now_ms(&self) -> u64;
}

/// The clock of reproducible batch runs: time never passes, so only depth and node budgets bind.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoClock;

impl Clock for NoClock {
    fn now_ms(&self) -> u64 {
        0
    }
}

/// Which budgets a searching agent obeys; `batch` or `player` in configs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeControl {
    /// Deterministic depth / node budgets: results reproduce exactly.
    #[default]
    Batch,
    /// The limits players meet in the app (per-move time caps).
    Player,
}

impl core::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::Batch => "batch",
            Self::Player => "player",
        })
    }
}

/// How to build one agent: a level of the game, its weights (in the order of the level's
/// weight-set table; empty for a level without one), the time control, and a learned
/// evaluation for its search.
pub struct AgentSetup<G: Rules> {
    pub level: &'static Level<G>,
    pub weights: Vec<f64>,
    pub time_control: TimeControl,
    /// A network (checked for the level with [`Level::accepts_network`]) that a searching level
    /// of a board game evaluates its leaves with, in place of its hand-made terms and of the
    /// network its level names, if any; `None`: the level's own evaluation. Shared, so that
    /// the agents of a batch run hold one copy.
    pub network: Option<std::sync::Arc<Network>>,
}

impl<G: Rules> AgentSetup<G> {
    /// An agent of this setup, built by its level.
    #[must_use]
    pub fn agent(&self) -> Box<dyn Agent<G>> {
        self.level.agent(self)
    }
}

// By hand: a derive would ask the game itself to be `Debug` and `PartialEq`.
impl<G: Rules> Clone for AgentSetup<G> {
    fn clone(&self) -> Self {
        Self {
            level: self.level,
            weights: self.weights.clone(),
            time_control: self.time_control,
            network: self.network.clone(),
        }
    }
}

impl<G: Rules> PartialEq for AgentSetup<G> {
    fn eq(&self, other: &Self) -> bool {
        self.level == other.level
            && self.weights == other.weights
            && self.time_control == other.time_control
            && self.network == other.network
    }
}

impl<G: Rules> core::fmt::Debug for AgentSetup<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AgentSetup")
            .field("level", &self.level.name)
            .field("weights", &self.weights)
            .field("time_control", &self.time_control)
            .field("network", &self.network)
            .finish()
    }
}

/// What an agent may use while choosing.
#[derive(Debug)]
pub struct Context<'a> {
    /// The seat's own tie-break stream: never the dice.
    pub rng: &'a mut RandomStream,
    pub clock: &'a dyn Clock,
}

impl core::fmt::Debug for dyn Clock + '_ {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Clock")
    }
}

/// What a level thinks of a position: the `hint` of the original apps, and what `koom analyse` and
/// the engine protocol's `info` line show.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<M> {
    /// The move the level plays.
    pub best: M,
    /// Its value in the level's own units (a searcher's evaluation from the mover's side, a
    /// dice level's move score); `None` for a level that does not score moves.
    pub score: Option<f64>,
    /// The principal variation, `best` first (just `best` when the level does not look ahead).
    pub pv: Vec<M>,
    /// The last completed search depth in plies (0 for a level that does not search).
    pub depth: u32,
    /// Nodes searched (0 for a level that does not search).
    pub nodes: u64,
    /// Every legal move with the level's value for it, for the levels that value each move
    /// (Ludo, Trente-douze); empty otherwise.
    pub values: Vec<(M, f64)>,
}

impl<M: Copy + PartialEq> Analysis<M> {
    /// The analysis of a level that only names its move.
    #[must_use]
    pub fn of_move(best: M) -> Self {
        Self {
            best,
            score: None,
            pv: vec![best],
            depth: 0,
            nodes: 0,
            values: Vec::new(),
        }
    }

    /// The analysis of a level that scores each of `moves` by `score` and plays `best`.
    #[must_use]
    pub fn of_scores(best: M, moves: &[M], mut score: impl FnMut(M) -> f64) -> Self {
        let values: Vec<(M, f64)> = moves.iter().map(|&m| (m, score(m))).collect();
        Self {
            score: values.iter().find(|v| v.0 == best).map(|v| v.1),
            values,
            ..Self::of_move(best)
        }
    }
}

/// Budgets a caller imposes on the next moves (the engine protocol's `go depth|nodes|movetime`);
/// `None` keeps the level's own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub time_ms: Option<u64>,
}

/// A computer player.
pub trait Agent<G: Rules>: Send {
    /// Called before each game, so that an agent reused across games (to keep its allocations)
    /// starts every game in the same state and results stay reproducible.
    fn new_game(&mut self) {}

    /// Picks one of `moves` (the non-empty legal moves of `game`).
    fn choose(&mut self, game: &G, moves: &[G::Move], ctx: &mut Context<'_>) -> G::Move;

    /// Chooses as [`Agent::choose`] does (same move, same draws, same state afterwards) and says
    /// why. The default only names the move; levels that score or search override it.
    fn analyse(&mut self, game: &G, moves: &[G::Move], ctx: &mut Context<'_>) -> Analysis<G::Move> {
        Analysis::of_move(self.choose(game, moves, ctx))
    }

    /// Whether the move just chosen forfeits the game instead (an external program that crashed,
    /// hung or answered nonsense; its `choose` then returned some legal move). Asked once after
    /// every `choose`; koom's own levels never forfeit.
    fn forfeit(&mut self) -> Option<crate::game::outcome::Forfeit> {
        None
    }

    /// Sets the budgets of the moves that follow; levels that do not search ignore it.
    fn set_budget(&mut self, budget: Budget) {
        let _ = budget;
    }
}

/// Picks uniformly among `count` candidates with a single draw, and draws nothing when there is
/// only one (so a forced choice never shifts the stream).
pub fn pick(count: usize, rng: &mut RandomStream) -> usize {
    if count > 1 {
        rng.below(count as u32) as usize
    } else {
        0
    }
}

/// The move with the highest score; exact ties are broken by one draw ([`pick`]) among the tied
/// moves in their given order. Every move is scored once, into a stack buffer of `CAP` scores
/// (the caller's bound on the number of moves).
pub fn best_move<M: Copy, S: PartialOrd + Copy, const CAP: usize>(
    moves: &[M],
    mut score: impl FnMut(M) -> S,
    rng: &mut RandomStream,
) -> M {
    let mut scores: arrayvec::ArrayVec<S, CAP> = arrayvec::ArrayVec::new();
    let (mut best, mut count) = (0, 0);
    for (i, &mv) in moves.iter().enumerate() {
        let s = score(mv);
        if i == 0 || s > scores[best] {
            (best, count) = (i, 1);
        } else if s == scores[best] {
            count += 1;
        }
        scores.push(s);
    }
    if count > 1 {
        let top = scores[best];
        let chosen = pick(count, rng);
        best = scores
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s == top)
            .nth(chosen)
            .map_or(best, |(i, _)| i);
    }
    moves[best]
}

/// What the mover's search said of the move it played: the one per-move score that game records
/// keep and that adjudication reads, so that both see the same numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveScore {
    /// The searched value of the position from the mover's side, in the searcher's own integer
    /// units (its evaluation scale; mate-like scores as the searcher reports them).
    pub score: i32,
    /// The last completed search depth in plies (at least 1).
    pub depth: u32,
}

impl MoveScore {
    /// The score of a move that was searched; `None` for a level that does not search (dice
    /// levels, Thud's Easy), a forced move played without searching, or an outside program.
    #[must_use]
    pub fn of<M>(analysis: &Analysis<M>) -> Option<Self> {
        let score = analysis.score.filter(|_| analysis.depth > 0)?;
        Some(Self {
            // A searched score is the searcher's `i32`, which the analysis carries exactly.
            score: score as i32,
            depth: analysis.depth,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_move_breaks_exact_ties_with_one_draw_and_draws_nothing_otherwise() {
        let moves = [10, 20, 30, 40];
        let mut rng = RandomStream::from_seed(3, 3);
        let untouched = rng.clone().next_u32();
        assert_eq!(
            best_move::<_, _, 4>(&moves, |m| -(m - 30i32).abs(), &mut rng),
            30
        );
        assert_eq!(
            rng.next_u32(),
            untouched,
            "a single best move draws nothing"
        );
        let tied: std::collections::BTreeSet<i32> = (0..50)
            .map(|seed| {
                best_move::<_, _, 4>(
                    &moves,
                    |m| i32::from(m >= 20),
                    &mut RandomStream::from_seed(seed, 1),
                )
            })
            .collect();
        assert_eq!(
            tied.into_iter().collect::<Vec<_>>(),
            vec![20, 30, 40],
            "every tied move, nothing else"
        );
    }
}
