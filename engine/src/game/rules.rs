//! The rules of one game: positions, moves, whose turn it is, and how it ends. Everything else a
//! game offers (notation, computer levels, statistics, command-line hints) is a trait of its own
//! beside this one, so that code which only plays reads only this.
//!
//! Chance lives inside the game: `new` and `play` draw from the dice stream they are handed and
//! advance to the next *decision*, so a state is always waiting for the seat `to_move()` to pick
//! one of its legal moves (turns without a choice, such as a Ludo roll no pawn can use, are passed
//! inside the rules). The same agent trait and runner therefore serve board and dice games.

use core::fmt;
use core::ops::Deref;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::outcome::{EndReason, MAX_SEATS, Outcome};
use crate::error::{OptionError, PlayError};
use crate::random::RandomStream;

/// What every game counts while it is played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Moves chosen by the players (plies for board games).
    pub moves: u32,
    /// Chance events (die rolls); 0 for games without chance.
    pub rolls: u32,
    /// Pieces (or points, as the game defines) captured by each seat.
    pub captures: [u32; MAX_SEATS],
}

/// A sink for the human-readable narration of a game (`koom play`). The batch runner passes
/// [`NoLog`], which the compiler removes entirely.
pub trait Log {
    fn line(&mut self, text: fmt::Arguments<'_>);
}

/// Narration switched off.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoLog;

impl Log for NoLog {
    #[inline(always)]
    fn line(&mut self, _: fmt::Arguments<'_>) {}
}

impl Log for String {
    fn line(&mut self, text: fmt::Arguments<'_>) {
        use fmt::Write as _;
        // Writing into a String cannot fail.
        let _ = self.write_fmt(text);
        self.push('\n');
    }
}

/// A fixed-capacity move list: legal-move generation never allocates.
pub trait MoveBuffer<M>: Default + Deref<Target = [M]> {
    fn push(&mut self, mv: M);
    fn clear(&mut self);
}

impl<M, const N: usize> MoveBuffer<M> for arrayvec::ArrayVec<M, N> {
    #[inline]
    fn push(&mut self, mv: M) {
        arrayvec::ArrayVec::push(self, mv);
    }

    #[inline]
    fn clear(&mut self) {
        arrayvec::ArrayVec::clear(self);
    }
}

/// The agent slot playing `seat` in rotation `rotation` of a seed group: every agent meets the
/// same dice in every seat, and with two seats rotation 1 is the side swap.
#[must_use]
pub const fn seat_agent(seat: usize, rotation: usize, seats: usize) -> usize {
    (seat + rotation) % seats
}

/// The rules of one game.
pub trait Rules: Clone + Send + Sync + Sized + 'static {
    /// A move: small and `Copy`, each game asserts its size; hashable, so that a run can tell
    /// two games apart by their moves.
    type Move: Copy + Eq + std::hash::Hash + fmt::Debug + Send + Sync;
    /// Fixed-capacity list sized by the game's documented worst case.
    type MoveList: MoveBuffer<Self::Move>;
    /// Rule options an experiment may set (caps, variants), with the documented defaults.
    type Options: Clone
        + fmt::Debug
        + Default
        + PartialEq
        + Serialize
        + DeserializeOwned
        + Send
        + Sync;
    /// Why a game can end under the rules (forfeits are [`Ending::Forfeit`](super::Ending::Forfeit)).
    type Reason: EndReason;

    /// The name used on the command line and in configs.
    const NAME: &'static str;
    /// The numbers of seats the game accepts.
    const SEATS: (usize, usize);

    /// Whether chance is part of the rules: the moves from the start then do not fix the
    /// position, so tools exchange the position text (with its roll) instead.
    const HAS_DICE: bool = false;

    /// Checks options an experiment asks for; the error says which value is wrong and what is
    /// accepted.
    fn check_options(options: &Self::Options) -> Result<(), OptionError>;

    /// A new game for `seats` players, advanced to its first decision.
    fn new(
        options: &Self::Options,
        seats: usize,
        dice: &mut RandomStream,
        log: &mut impl Log,
    ) -> Self;

    /// The number of seats of this game (fixed by the game unless it takes several).
    fn seats(&self) -> usize {
        Self::SEATS.0
    }

    /// The seat that must choose now. Meaningless once [`Rules::outcome`] is `Some`.
    fn to_move(&self) -> usize;

    /// The legal moves of the seat to move (never empty before the game ends).
    fn legal_moves(&self, out: &mut Self::MoveList);

    /// Plays a legal move, then resolves chance until the next decision or the end.
    fn play(&mut self, mv: Self::Move, dice: &mut RandomStream, log: &mut impl Log);

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome<Self::Reason>>;

    /// Ends the game at once with `outcome`: the runner's verdict when an external program
    /// forfeits (see [`Outcome::forfeit`]).
    fn end(&mut self, outcome: Outcome<Self::Reason>);

    fn counters(&self) -> Counters;

    /// Each seat's points when a game is scored in points, and a match (the rounds of one seed,
    /// seats rotated) is won on the points summed over its rounds, as in Thud. `None` when a
    /// match is scored by adding up the games' results. A rule, not a statistic: adjudication
    /// and the browser package read it.
    fn points(&self) -> Option<[i32; MAX_SEATS]> {
        None
    }

    /// The number of leaf nodes `depth` plies below this position. This default copies the
    /// position at each node; board games override it with their fast generator.
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.outcome().is_some() {
            return u64::from(depth == 0);
        }
        let mut moves = Self::MoveList::default();
        self.legal_moves(&mut moves);
        let mut dice = RandomStream::dice(0);
        moves
            .iter()
            .map(|&mv| {
                let mut next = self.clone();
                next.play(mv, &mut dice, &mut NoLog);
                next.perft(depth - 1)
            })
            .sum()
    }

    /// Whether `mv` is one of the legal moves now (none is once the game is over). Games with
    /// a cheaper test than listing the moves override it.
    fn is_legal(&self, mv: Self::Move) -> bool {
        if self.outcome().is_some() {
            return false;
        }
        let mut moves = Self::MoveList::default();
        self.legal_moves(&mut moves);
        moves.contains(&mv)
    }

    /// [`Rules::play`] for a move that may be illegal (one from outside the engine: a page, a
    /// protocol, a record). The position is unchanged when the move is refused.
    fn try_play(
        &mut self,
        mv: Self::Move,
        dice: &mut RandomStream,
        log: &mut impl Log,
    ) -> Result<(), PlayError> {
        if let Some(outcome) = self.outcome() {
            return Err(PlayError::GameOver {
                reason: outcome.reason.name(),
            });
        }
        if !self.is_legal(mv) {
            return Err(PlayError::Illegal {
                mv: format!("{mv:?}"),
            });
        }
        self.play(mv, dice, log);
        Ok(())
    }
}
