//! How a game ends, in one vocabulary for every game: the seats that won, the game's own reason,
//! or a verdict of the runner (a forfeit, an adjudication), with the names files carry.

use core::fmt;

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

/// Why a game ended: a reason of the game's rules, a forfeit the runner declared, or the
/// runner's adjudication on the players' scores (the same [`Forfeit::ALL`] and
/// [`Adjudicated::ALL`] for every game, so no game lists them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending<R> {
    Rules(R),
    Forfeit(Forfeit),
    Adjudicated(Adjudicated),
}

impl<R: EndReason> Ending<R> {
    /// How many endings a game has: its rules' reasons, the forfeits, then the adjudications.
    pub const COUNT: usize = R::ALL.len() + Forfeit::ALL.len() + Adjudicated::ALL.len();

    /// The ending's place among the [`Ending::COUNT`]: the rules' reasons first, in their
    /// order, then the forfeits in [`Forfeit::ALL`]'s, then [`Adjudicated::ALL`]'s (added last,
    /// so that older files only lack the tail: see [`pad_old_endings`]).
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            Self::Rules(r) => r.index(),
            Self::Forfeit(f) => R::ALL.len() + f as usize,
            Self::Adjudicated(a) => R::ALL.len() + Forfeit::ALL.len() + a as usize,
        }
    }

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Rules(r) => r.name(),
            Self::Forfeit(f) => f.name(),
            Self::Adjudicated(a) => a.name(),
        }
    }

    /// Whether the runner, not the moves, ended the game (a forfeit or an adjudication), for a
    /// reason as files write it: replaying such a game's moves does not reach its end.
    #[must_use]
    pub fn is_verdict_name(name: &str) -> bool {
        Forfeit::ALL
            .iter()
            .map(|f| f.name())
            .chain(Adjudicated::ALL.iter().map(|a| a.name()))
            .any(|n| n == name)
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
            .chain(Adjudicated::ALL.iter().map(|a| a.name()))
    }
}

/// The end of a game; `R` is the game's [`Rules::Reason`](super::Rules::Reason).
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

    /// A game the runner adjudicated: `winner` wins, or with `None` every seat draws.
    #[must_use]
    pub const fn adjudicated(winner: Option<usize>, how: Adjudicated) -> Self {
        Self {
            winners: match winner {
                Some(seat) => SeatSet::single(seat),
                None => SeatSet(0),
            },
            no_result: false,
            reason: Ending::Adjudicated(how),
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

/// How an adjudicated game ended: counted as its own ending, after the rules' and the forfeits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Adjudicated {
    /// Both sides' scores condemned one side ([`Resign`](crate::adjudicate::Resign)).
    Resign,
    /// Both sides' scores stayed near zero ([`Draw`](crate::adjudicate::Draw)).
    Draw,
    /// A game scored on points ended with its points as they stood, the scores stable
    /// ([`Draw`](crate::adjudicate::Draw) in a points game).
    Margin,
}

impl Adjudicated {
    /// Every adjudicated ending, in discriminant order.
    pub const ALL: [Self; 3] = [Self::Resign, Self::Draw, Self::Margin];

    /// The ending as `games.csv`, records and summaries write it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Resign => "adjudicated: resign",
            Self::Draw => "adjudicated: draw",
            Self::Margin => "adjudicated: margin",
        }
    }
}

/// Endings added after the first files were written, all at the end of [`Ending::index`]'s
/// order: [`Forfeit::Resigned`], then [`Adjudicated::ALL`].
const LATE_ENDINGS: usize = 1 + Adjudicated::ALL.len();

/// Ending counts as read from a file, for a game of `count` endings: a file written before
/// [`Forfeit::Resigned`] or the adjudications were added holds one to `LATE_ENDINGS` counts
/// fewer, and gets zeros for them (they come last). Any other length is left as it is, for the
/// reader to reject.
pub fn pad_old_endings(counts: &mut Vec<u64>, count: usize) {
    if counts.len() < count && counts.len() + LATE_ENDINGS >= count {
        counts.resize(count, 0);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hnefatafl::Reason;

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
                "adjudicated: resign",
                "adjudicated: draw",
                "adjudicated: margin",
            ]
        );
        assert_eq!(Ending::<Reason>::COUNT, 14);
        let resigned = Outcome::<Reason>::adjudicated(Some(1), Adjudicated::Resign);
        assert_eq!(
            (resigned.reason.index(), resigned.sole_winner()),
            (11, Some(1))
        );
        assert!(Ending::<Reason>::is_verdict_name("adjudicated: draw"));
        assert!(!Ending::<Reason>::is_verdict_name("corner"));
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
