//! The one game-agnostic rules trait, and the small types every game shares.
//!
//! Chance lives inside the game: `new` and `play` draw from the dice stream they are handed and
//! advance to the next *decision*, so a state is always waiting for the seat `to_move()` to pick
//! one of its legal moves (turns without a choice, such as a Ludo roll no pawn can use, are passed
//! inside the rules). The same agent trait and runner therefore serve board and dice games.

use core::fmt;
use core::ops::Deref;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::agent::{Agent, AgentSetup};
use crate::error::{OptionError, ParseError, PlayError, UnknownLevel, quote};
use crate::nnue::{Network, NetworkError};
use crate::random::RandomStream;
use crate::weights::WeightSet;

/// The most seats any game has (Trente-douze is played by up to 8).
pub const MAX_SEATS: usize = 8;

/// A set of seats as a bit mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SeatSet(pub u8);

impl SeatSet {
    /// The set holding only `seat`.
    #[must_use]
    pub const fn single(seat: usize) -> Self {
        Self(1 << seat)
    }

    #[must_use]
    pub const fn contains(self, seat: usize) -> bool {
        self.0 & (1 << seat) != 0
    }

    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn insert(&mut self, seat: usize) {
        self.0 |= 1 << seat;
    }

    /// The seats in increasing order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..MAX_SEATS).filter(move |&s| self.contains(s))
    }
}

/// How one seat fared in a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatResult {
    Win,
    Draw,
    Loss,
    /// The game counted as played but decided nothing (e.g. a safety cap was reached).
    NoResult,
}

/// Why a game ended under its own rules: each game's `#[repr(u8)]` enum `Reason`.
///
/// The reason is typed inside the game (its rules match on it, and a misspelt reason does not
/// compile), and generic code (the tallies, `games.csv`, records) reaches it through this trait:
/// the counters index it with [`EndReason::index`] and the files carry [`EndReason::name`], so
/// the serialised forms never depend on the enum's Rust spelling. This is the shape of
/// shakmaty's `Position::Outcome`: one associated type per rules, one generic vocabulary.
pub trait EndReason: Copy + Eq + fmt::Debug + Send + Sync + 'static {
    /// Every reason, in the order of its `u8` discriminant: the order of the tallies and of
    /// `koom` output.
    const ALL: &'static [Self];

    /// The reason as `games.csv`, records and summaries write it.
    fn name(self) -> &'static str;

    /// Whether a game that ended for this reason was cut off by a safety cap (a timeout)
    /// rather than decided by the rules.
    fn is_timeout(self) -> bool {
        false
    }

    /// The reason's place in [`EndReason::ALL`].
    fn index(self) -> usize {
        Self::ALL
            .iter()
            .position(|&r| r == self)
            .expect("EndReason::ALL lists every reason")
    }
}

/// Why a game ended: a reason of the game's rules, or a forfeit the runner declared (the same
/// [`Forfeit::ALL`] for every game, so no game lists them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending<R> {
    Rules(R),
    Forfeit(Forfeit),
}

impl<R: EndReason> Ending<R> {
    /// How many endings a game has: its rules' reasons, then the forfeits.
    pub const COUNT: usize = R::ALL.len() + Forfeit::ALL.len();

    /// The ending's place among the [`Ending::COUNT`]: the rules' reasons first, in their
    /// order, then the forfeits in [`Forfeit::ALL`]'s.
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            Self::Rules(r) => r.index(),
            Self::Forfeit(f) => R::ALL.len() + f as usize,
        }
    }

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Rules(r) => r.name(),
            Self::Forfeit(f) => f.name(),
        }
    }

    /// Whether the game was cut off by a safety cap (see [`EndReason::is_timeout`]).
    #[must_use]
    pub fn is_timeout(self) -> bool {
        matches!(self, Self::Rules(r) if r.is_timeout())
    }

    /// The names of every ending, in [`Ending::index`] order.
    pub fn names() -> impl Iterator<Item = &'static str> {
        R::ALL
            .iter()
            .map(|r| r.name())
            .chain(Forfeit::ALL.iter().map(|f| f.name()))
    }
}

/// The end of a game; `R` is the game's [`Game::Reason`].
///
/// A single winner wins and everyone else loses; several winners share a draw and the others
/// lose; no winner at all is a draw for every seat, unless the game ended with no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome<R> {
    pub winners: SeatSet,
    pub no_result: bool,
    pub reason: Ending<R>,
}

impl<R: EndReason> Outcome<R> {
    #[must_use]
    pub const fn win(seat: usize, reason: R) -> Self {
        Self {
            winners: SeatSet::single(seat),
            no_result: false,
            reason: Ending::Rules(reason),
        }
    }

    #[must_use]
    pub const fn draw(reason: R) -> Self {
        Self {
            winners: SeatSet(0),
            no_result: false,
            reason: Ending::Rules(reason),
        }
    }

    #[must_use]
    pub const fn no_result(reason: R) -> Self {
        Self {
            winners: SeatSet(0),
            no_result: true,
            reason: Ending::Rules(reason),
        }
    }

    #[must_use]
    pub fn result_of(&self, seat: usize) -> SeatResult {
        if self.no_result {
            SeatResult::NoResult
        } else if self.winners.is_empty() {
            SeatResult::Draw
        } else if !self.winners.contains(seat) {
            SeatResult::Loss
        } else if self.winners.len() == 1 {
            SeatResult::Win
        } else {
            SeatResult::Draw
        }
    }

    /// A game of `seats` seats lost by `seat` for `why`: every other seat shares the win.
    #[must_use]
    pub fn forfeit(seat: usize, seats: usize, why: Forfeit) -> Self {
        let mut winners = SeatSet::default();
        (0..seats)
            .filter(|&s| s != seat)
            .for_each(|s| winners.insert(s));
        Self {
            winners,
            no_result: false,
            reason: Ending::Forfeit(why),
        }
    }

    /// The single winning seat, if there is one.
    #[must_use]
    pub fn sole_winner(&self) -> Option<usize> {
        (!self.no_result && self.winners.len() == 1)
            .then(|| self.winners.0.trailing_zeros() as usize)
    }
}

/// Why an external program (a `cmd:` agent) lost a game without the rules deciding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Forfeit {
    /// The program exited or closed its output.
    Crashed,
    /// No move within its time limit and the margin.
    TimedOut,
    /// A move that does not parse or is not legal in the position.
    IllegalMove,
    /// A line that is not protocol, or an `error` answer.
    Garbage,
    /// The program gave the game up (HTP's `play ROLE resigns`): a loss, not a failure.
    Resigned,
}

impl Forfeit {
    /// Every forfeit, in discriminant order.
    /// `Resigned` came last: files written before it hold one count fewer
    /// ([`pad_old_endings`]).
    pub const ALL: [Self; 5] = [
        Self::Crashed,
        Self::TimedOut,
        Self::IllegalMove,
        Self::Garbage,
        Self::Resigned,
    ];

    /// The forfeit as `games.csv` and records write it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Crashed => "forfeit: program crashed",
            Self::TimedOut => "forfeit: no move in time",
            Self::IllegalMove => "forfeit: illegal move",
            Self::Garbage => "forfeit: unreadable reply",
            Self::Resigned => "forfeit: resigned",
        }
    }

    /// Whether the program failed (crashed, was late, or broke the protocol), as opposed to
    /// losing a game it played out: failures are counted per engine and restart the program.
    #[must_use]
    pub const fn is_failure(self) -> bool {
        !matches!(self, Self::Resigned)
    }
}

/// Ending counts as read from a file, for a game of `count` endings: a file written before
/// [`Forfeit::Resigned`] was added holds exactly one count fewer, and gets a zero for it (the
/// forfeits come last, and `Resigned` last of them). Any other length is left as it is, for
/// the reader to reject.
pub fn pad_old_endings(counts: &mut Vec<u64>, count: usize) {
    if counts.len() + 1 == count {
        counts.push(0);
    }
}

/// Deserialises a fixed-size array of ending counts, accepting the length before
/// [`Forfeit::Resigned`] (see [`pad_old_endings`]); for `#[serde(deserialize_with)]`.
pub fn deserialize_endings<'de, D, const N: usize>(deserializer: D) -> Result<[u64; N], D::Error>
where
    D: serde::Deserializer<'de>,
{
    let mut counts = <Vec<u64> as serde::Deserialize>::deserialize(deserializer)?;
    pad_old_endings(&mut counts, N);
    let len = counts.len();
    counts
        .try_into()
        .map_err(|_| serde::de::Error::invalid_length(len, &format!("{N} ending counts").as_str()))
}

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

/// A computer level of a game: its name, what it does, and its tunable weight set if it has one.
#[derive(Clone, Copy, Debug)]
pub struct Level {
    pub name: &'static str,
    pub summary: &'static str,
    pub weights: Option<&'static WeightSet>,
    /// The file name of the learned evaluation the level searches with by default, if any
    /// (`koom list` and `--help` show it).
    pub network: Option<&'static str>,
}

/// The index in [`Game::levels`] of the level called `name` (any case, spaces around ignored):
/// the one lookup behind `--agents`, a tuning config's `level` and the browser's level menu.
pub fn level_index<G: Game>(name: &str) -> Result<usize, UnknownLevel> {
    let levels = G::levels();
    let name = name.trim();
    levels
        .iter()
        .position(|l| l.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| UnknownLevel {
            game: G::NAME,
            name: quote(name),
            accepted: levels.iter().map(|l| l.name).collect(),
        })
}

/// The agent slot playing `seat` in rotation `rotation` of a seed group: every agent meets the
/// same dice in every seat, and with two seats rotation 1 is the side swap.
#[must_use]
pub const fn seat_agent(seat: usize, rotation: usize, seats: usize) -> usize {
    (seat + rotation) % seats
}

/// Statistics particular to one game, accumulated as counts so that merging is exact and
/// order-independent (results must not depend on the thread count). Serialisable so that shards
/// and checkpoints can carry them.
pub trait GameStats<G>: Default + Clone + fmt::Debug + Send + Serialize + DeserializeOwned {
    /// What `summary.json` shows under `game_specific` (figures and intervals computed from the
    /// counts). "Summary" is what a run writes; "report" is only what the `reports` crate draws
    /// from summaries.
    type Summary: Serialize;

    /// Adds the finished games of one seed group: game `r` is rotation `r`, where seat `s` is
    /// played by agent slot [`seat_agent`]`(s, r, seats)`.
    fn add_group(&mut self, games: &[G]);

    fn merge(&mut self, other: &Self);

    /// `agents[slot]` names each agent slot.
    fn summary(&self, agents: &[String]) -> Self::Summary;
}

/// For games whose statistics are all generic.
#[derive(Clone, Copy, Debug, Default, Serialize, serde::Deserialize)]
pub struct NoGameStats;

impl<G> GameStats<G> for NoGameStats {
    type Summary = ();
    fn add_group(&mut self, _: &[G]) {}
    fn merge(&mut self, _: &Self) {}
    fn summary(&self, _: &[String]) {}
}

/// One rule option as `koom list --game G` shows it (the default comes from `Options::default`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionDoc {
    pub name: &'static str,
    /// The values accepted, in words (`1 to 1000000`, `"choose" or "all"`).
    pub accepted: &'static str,
    pub doc: &'static str,
}

/// The rules of one game.
pub trait Game: Clone + Send + Sync + Sized + 'static {
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
    /// Statistics beyond the generic ones.
    type Stats: GameStats<Self>;
    /// Why a game can end under the rules (forfeits are [`Ending::Forfeit`]).
    type Reason: EndReason;

    /// The name used on the command line and in configs.
    const NAME: &'static str;
    /// The numbers of seats the game accepts.
    const SEATS: (usize, usize);
    /// The seat that moved first (Ludo: always 0; Trente-douze: round 1's starter, drawn from
    /// the dice), for the first-player advantage.
    fn first_player(&self) -> usize {
        0
    }

    /// The rule options, described for `koom list --game G`, in the order of `Options`' fields.
    const OPTIONS: &'static [OptionDoc] = &[];

    /// What "first player" means in this game, printed next to the first-player advantage so
    /// that a reader never has to guess which seat it is about.
    const FIRST_PLAYER: &'static str = "seat 0, who always moves first";

    /// How results name seat `seat`: the side it plays where seats are sides (dwarfs, trolls),
    /// else its place at the table.
    fn seat_name(seat: usize) -> String {
        if seat == 0 {
            "seat 0 (first to move)".to_owned()
        } else {
            format!("seat {seat}")
        }
    }

    /// The perft depth `koom bench` measures move generation at (0: no perft, e.g. dice games
    /// whose tree is all chance).
    const BENCH_PERFT_DEPTH: u32 = 0;

    /// Whether `--games N` counts seed groups (matches of rounds with the sides swapped, as in
    /// Thud) rather than single games.
    const GAMES_COUNT_GROUPS: bool = false;

    /// The computer levels, weakest first.
    fn levels() -> &'static [Level];

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

    /// The seat that must choose now. Meaningless once [`Game::outcome`] is `Some`.
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

    /// The move in the game's notation, in the current position.
    fn format_move(&self, mv: Self::Move) -> String;

    /// A text picture of the position for `koom play`.
    fn render(&self) -> String;

    /// Builds an agent of one level.
    fn new_agent(setup: &AgentSetup) -> Box<dyn Agent<Self>>;

    /// Whether level `level` (an index into [`Game::levels`]) can search with the learned
    /// evaluation `net` ([`AgentSetup::network`]): a searching level of a game with a feature
    /// set, and a network trained for that game and feature set. The default: no level can.
    ///
    /// # Errors
    /// Why not, as one line.
    fn accepts_network(level: usize, net: &Network) -> Result<(), NetworkError> {
        let _ = (level, net);
        Err(NetworkError::Mismatch(format!(
            "{} has no learned evaluation",
            Self::NAME
        )))
    }

    /// Each seat's points when a game is scored in points, and a match (the rounds of one seed,
    /// seats rotated) is won on the points summed over its rounds, as in Thud. `None` when a
    /// match is scored by adding up the games' results.
    fn points(&self) -> Option<[i32; MAX_SEATS]> {
        None
    }

    /// The terms of the computer levels' evaluation here, from seat 0's point of view, for games
    /// whose evaluation is linear in its weights: a level's static score is then the dot product
    /// of these terms with the first weights of its weight set, which lets `koom fit` fit those
    /// weights to game results (Texel's method). `None`, the default: no linear evaluation.
    fn evaluation_terms(&self) -> Option<Vec<f64>> {
        None
    }

    /// Reads a position in the game's text form (`koom perft`, `koom legal`).
    fn from_position(text: &str, options: &Self::Options) -> Result<Self, ParseError> {
        let _ = options;
        Err(ParseError::new("the game has no position notation")
            .reading(format!("{} position", Self::NAME), text))
    }

    /// The position in the game's text form, for games that have one.
    fn position(&self) -> Option<String> {
        None
    }

    /// Whether chance is part of the rules: the moves from the start then do not fix the
    /// position, so tools exchange the position text (with its roll) instead.
    const HAS_DICE: bool = false;

    /// Replaces the roll the seat to move chooses with (`koom analyse --roll`, the engine
    /// protocol's `dice`); the error says why the roll cannot stand here.
    fn set_roll(&mut self, text: &str) -> Result<(), String> {
        let _ = text;
        Err(format!("{} has no dice", Self::NAME))
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

    /// Reads a move in the game's notation, matched against the legal moves (case-insensitive).
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseError> {
        let mut moves = Self::MoveList::default();
        self.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|&m| self.format_move(m).eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| {
                ParseError::new("not a legal move here")
                    .reading(format!("{} move", Self::NAME), text)
            })
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

    /// [`Game::play`] for a move that may be illegal (one from outside the engine: a page, a
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

/// `line` (moves from `game`'s position) in the game's notation, each written in the position it
/// is played from; stops at the end of the game. The dice a move leads to do not change how it is
/// written, so a fixed dice stream serves (this is how `koom analyse`, the engine protocol and the
/// browser package write a principal variation).
#[must_use]
pub fn move_texts<G: Game>(game: &G, line: &[G::Move]) -> Vec<String> {
    let mut position = game.clone();
    let mut dice = RandomStream::dice(0);
    let mut out = Vec::with_capacity(line.len());
    for &mv in line {
        if position.outcome().is_some() {
            break;
        }
        out.push(position.format_move(mv));
        position.play(mv, &mut dice, &mut NoLog);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hnefatafl::Reason;

    #[test]
    fn levels_are_found_by_name_in_any_case() {
        use crate::games::thud::Thud;
        assert_eq!(level_index::<Thud>("beginner"), Ok(0));
        assert_eq!(level_index::<Thud>(" Expert "), Ok(4));
        let err = level_index::<Thud>("master\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown thud level `master` (accepted: beginner, easy, balanced, hard, expert)"
        );
    }

    /// `games.csv`, records and summaries carry these names in this order: the enum must not
    /// change them.
    #[test]
    fn endings_keep_their_names_and_order() {
        let names: Vec<&str> = Ending::<Reason>::names().collect();
        assert_eq!(
            names,
            [
                "corner",
                "fort",
                "king captured",
                "encirclement",
                "no move",
                "cap",
                "forfeit: program crashed",
                "forfeit: no move in time",
                "forfeit: illegal move",
                "forfeit: unreadable reply",
                "forfeit: resigned",
            ]
        );
        assert_eq!(Ending::<Reason>::COUNT, 11);
        let late = Outcome::<Reason>::forfeit(0, 2, Forfeit::TimedOut);
        assert_eq!((late.reason.index(), late.sole_winner()), (7, Some(1)));
        assert_eq!(late.reason.name(), names[7]);
        for (i, &r) in Reason::ALL.iter().enumerate() {
            assert_eq!((r.index(), r as usize), (i, i));
        }
        assert!(Ending::Rules(Reason::Cap).is_timeout());
        assert!(!Ending::<Reason>::Forfeit(Forfeit::TimedOut).is_timeout());
    }
}
