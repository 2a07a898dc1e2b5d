//! The search levels of the board games: one table of search parameters that every searching
//! level of every game carries after its evaluation weights, and the rows a game fills in to
//! declare its levels.
//!
//! A level's [`WeightSet`] is `evaluation weights ++ SearchParams`, with the level's own search
//! defaults, so that a weights file or `koom tune` can move the budgets and the contempt as well
//! as the evaluation. A game declares its searching levels as [`LevelRow`]s and builds their
//! tables with [`level_table`] in a `static`; [`SearchingAgent`](super::SearchingAgent) plays
//! them.

use super::Limits;
use std::sync::Arc;

use crate::agent::{AgentSetup, TimeControl};
use crate::game::{BuildSearcher, Level};
use crate::nnue::{Features, Network, NetworkError};
use crate::weights::{Param, WeightSet, override_defaults};

crate::weight_set! {
    /// One searching level's budgets and its view of cycles. Batch runs bind `depth`, `width`
    /// and `nodes`, so that results reproduce whatever the machine; `--time-control player`
    /// binds `player_depth`, `width` and `time_ms` instead.
    pub struct SearchParams = "search" {
        /// Deepest iteration of a batch search, in plies.
        depth: 3.0, 1.0..=32.0, 1.0;
        /// Further plies a batch search may deepen past `depth` while it has used at most an
        /// eighth of `nodes` (an emptied board); 0 for none.
        deepen: 0.0, 0.0..=16.0, 1.0;
        /// Moves searched at each node, the most promising first; 0 searches them all.
        width: 0.0, 0.0..=400.0, 1.0;
        /// Node budget of a batch search (`depth` may stop it sooner). A budget of zero is
        /// refused: it would leave no move to play.
        nodes: 1_000_000.0, 1.0..=50_000_000.0, 1000.0;
        /// Deepest iteration under player time control, in plies.
        player_depth: 8.0, 1.0..=64.0, 1.0;
        /// Time per move under player time control, in milliseconds (`player_depth` may stop
        /// it sooner). Zero is refused, as for `nodes`.
        time_ms: 1000.0, 1.0..=600_000.0, 50.0;
        /// What a cycle (a position repeating one already seen in the game) costs the side to
        /// move at the root, in evaluation units: it scores as a draw at minus this for that
        /// side and plus this for the other.
        contempt: 0.0, -10_000.0..=10_000.0, 5.0;
        /// Late move reductions: plies cut from the search of late quiet moves (re-searched at
        /// full depth when they beat the best so far); 0 for none. The budget they save goes
        /// into depth.
        reduction: 0.0, 0.0..=3.0, 1.0;
        /// Futility margin, in evaluation units per ply above the horizon: quiet moves of a
        /// node within two plies of the horizon whose static score plus the margin cannot
        /// reach alpha are skipped; 0 for none.
        futility: 0.0, 0.0..=10_000.0, 5.0;
        /// 1: a position whose side to move faces a threat (the game says which,
        /// `SearchGame::forcing`) is searched over the moves that may answer it, and one ply
        /// more where the horizon meets it; 0: like any other position.
        threats: 1.0, 0.0..=1.0, 1.0;
        /// Plies a batch search adds to `depth` when the level plays the first seat, for a game
        /// whose sides need different depths: Thud's dwarfs lose dwarfs to troll shoves set up
        /// over quiet moves, which a search as shallow as the trolls' own does not see. 0 for
        /// none; under player time control both sides deepen until their time is up.
        first_seat_plies: 0.0, 0.0..=8.0, 1.0;
    }
}

/// The number of search parameters after a level's evaluation weights.
pub const SEARCH_LEN: usize = SearchParams::SET.params.len();

impl SearchParams {
    /// The values in table order (a `const` twin of `values`, which the tests hold equal).
    #[must_use]
    pub const fn to_array(&self) -> [f64; SEARCH_LEN] {
        [
            self.depth,
            self.deepen,
            self.width,
            self.nodes,
            self.player_depth,
            self.time_ms,
            self.contempt,
            self.reduction,
            self.futility,
            self.threats,
            self.first_seat_plies,
        ]
    }

    /// The budgets a search obeys under `time_control`. Every parameter is range-checked by its
    /// table, so the budgets are positive and the width is either all moves (0) or positive.
    #[must_use]
    pub fn limits(&self, time_control: TimeControl) -> Limits {
        let width = (self.width >= 1.0).then_some(self.width.round() as usize);
        let (depth, deepen, nodes, time_ms) = match time_control {
            TimeControl::Batch => (
                self.depth,
                self.deepen,
                Some(self.nodes.round() as u64),
                None,
            ),
            TimeControl::Player => (
                self.player_depth,
                0.0,
                None,
                Some(self.time_ms.round() as u64),
            ),
        };
        Limits {
            depth: depth.round() as u32,
            deepen: deepen.round() as u32,
            width,
            nodes,
            time_ms,
            reduction: self.reduction.round() as u32,
            futility: self.futility.round() as i32,
            threats: self.threats >= 0.5,
        }
    }

    /// The budgets of a search for `seat` (0: the first) under `time_control`: [`Self::limits`],
    /// `first_seat_plies` deeper for the first seat in batch play.
    #[must_use]
    pub fn seat_limits(&self, time_control: TimeControl, seat: usize) -> Limits {
        let mut limits = self.limits(time_control);
        if seat == 0 && time_control == TimeControl::Batch {
            limits.depth += self.first_seat_plies.round() as u32;
        }
        limits
    }

    /// The contempt in the evaluation's integer units.
    #[must_use]
    pub fn contempt(&self) -> i32 {
        self.contempt.round() as i32
    }
}

/// One searching level of a game, as the game's level table declares it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelRow {
    /// The level's name (`--agents hard`).
    pub name: &'static str,
    /// One line for `koom list`.
    pub summary: &'static str,
    /// log2 of the transposition table's entries.
    pub table_bits: u8,
    /// The level's defaults for the search parameters.
    pub search: SearchParams,
    /// The evaluation defaults this level has of its own, by name (the game's for the rest).
    pub eval_defaults: &'static [(&'static str, f64)],
    /// The learned evaluation this level searches with by default (an agent's own network
    /// replaces it); `None`: its hand-made terms.
    pub network: Option<EmbeddedNetwork>,
}

/// A network file built into the engine (`include_bytes!` of a file under `engine/nets/`), so
/// that the browser package and `koom` play the same level with the same network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmbeddedNetwork {
    /// The file's name, as `koom list` shows it.
    pub name: &'static str,
    pub bytes: &'static [u8],
}

impl EmbeddedNetwork {
    /// The network, read from its bytes.
    ///
    /// # Errors
    /// When the bytes are not a network file for `G` (the level tables' tests read every
    /// embedded network, so a level never meets one).
    pub fn read<G: crate::nnue::Features>(&self) -> Result<Network, NetworkError> {
        let net = Network::from_bytes(self.bytes)?;
        net.check_for::<G>()?;
        Ok(net)
    }
}

/// The network a searching level of `row` evaluates with under `setup`: the setup's own, else
/// the row's embedded one, else none (its hand-made terms).
///
/// # Panics
/// When the row's embedded network does not read for `G`, which the game's level tests rule
/// out.
#[must_use]
pub fn level_network<G: Features>(row: &LevelRow, setup: &AgentSetup<G>) -> Option<Arc<Network>> {
    setup.network.clone().or_else(|| {
        row.network.map(|embedded| {
            Arc::new(
                embedded
                    .read::<G>()
                    .expect("every embedded network reads (checked by the level tests)"),
            )
        })
    })
}

/// Reads every embedded network of a game's level rows, panicking with the level's name at the
/// first that does not read for `G`: each board game's level tests call it, so that
/// [`level_network`] never meets a bad one.
#[cfg(test)]
pub(crate) fn assert_embedded_networks_read<G: crate::nnue::Features>(rows: &[LevelRow]) {
    for row in rows {
        if let Some(net) = row.network {
            net.read::<G>()
                .unwrap_or_else(|e| panic!("{} of level {}: {e}", net.name, row.name));
        }
    }
}

/// A level's parameter table: the evaluation's `eval` parameters, then the search parameters
/// with `search` as their defaults. `N` must be `eval.len() + SEARCH_LEN` (checked when the
/// table is built, at compile time in a `static`).
///
/// # Panics
/// When `N` is not that length.
#[must_use]
pub const fn level_table<const N: usize>(eval: &[Param], search: &SearchParams) -> [Param; N] {
    assert!(
        N == eval.len() + SEARCH_LEN,
        "a level table holds the evaluation then the search parameters"
    );
    let defaults = search.to_array();
    let mut params = [SearchParams::SET.params[0]; N];
    let mut i = 0;
    while i < N {
        params[i] = if i < eval.len() {
            eval[i]
        } else {
            let j = i - eval.len();
            Param {
                default: defaults[j],
                ..SearchParams::SET.params[j]
            }
        };
        i += 1;
    }
    params
}

/// The tables of a game's searching levels, one per row ([`level_table`] of `eval` with the
/// row's own evaluation defaults, and the row's search defaults). `L` must be
/// `eval.len() + SEARCH_LEN`.
///
/// # Panics
/// When a row's evaluation default names no parameter of `eval` (at compile time in a
/// `static`).
#[must_use]
pub const fn level_tables<const N: usize, const L: usize>(
    eval: &[Param],
    rows: &[LevelRow; N],
) -> [[Param; L]; N] {
    let mut tables = [[SearchParams::SET.params[0]; L]; N];
    let mut i = 0;
    while i < N {
        tables[i] = level_table(eval, &rows[i].search);
        // Only the evaluation's part of the table: the row's search defaults are in `search`.
        let (evaluation, _) = tables[i].split_at_mut(eval.len());
        override_defaults(evaluation, rows[i].eval_defaults);
        i += 1;
    }
    tables
}

/// One weight set per table, named by `names` in the same order.
#[must_use]
pub const fn weight_sets<const N: usize, const L: usize>(
    names: [&'static str; N],
    tables: &'static [[Param; L]; N],
) -> [WeightSet; N] {
    let mut sets = [WeightSet {
        name: "",
        params: &[],
    }; N];
    let mut i = 0;
    while i < N {
        sets[i] = WeightSet {
            name: names[i],
            params: &tables[i],
        };
        i += 1;
    }
    sets
}

/// A game's level list, weakest first: its own levels `first` (those that do not search), then
/// one level per searching row with its weight set from `sets`, each built by the game's
/// searching constructor `agent`. `N` must be `A + B`.
///
/// # Panics
/// When `N` is not `A + B`, or there is no row (at compile time in a `static`).
#[must_use]
pub const fn level_list<G: Features, const A: usize, const B: usize, const N: usize>(
    first: [Level<G>; A],
    rows: &'static [LevelRow; B],
    sets: &'static [WeightSet; B],
    agent: BuildSearcher<G>,
) -> [Level<G>; N] {
    assert!(
        N == A + B,
        "a level list holds the first levels then one per row"
    );
    // Every entry is overwritten below.
    let mut levels = [Level::searching(&rows[0], &sets[0], agent); N];
    let mut i = 0;
    while i < N {
        levels[i] = if i < A {
            first[i]
        } else {
            Level::searching(&rows[i - A], &sets[i - A], agent)
        };
        i += 1;
    }
    levels
}

/// Declares a game's searching levels, weakest first: a `const` array of [`LevelRow`]s built from
/// the rows given, and a `static` array of their weight sets, each named `<game>-<level>` and
/// holding [`level_table`] of the evaluation's parameters and the row's search defaults. The game
/// then lists its levels with [`level_list`].
///
/// A macro rather than a function because a set's name joins the game's and the level's names
/// (`concat!` takes literals only), and the tables must live in a `static` for the sets to point
/// at.
///
/// ```
/// use engine::search::SearchParams;
/// use engine::weights::Param;
///
/// const EVAL: &[Param] = &[Param {
///     name: "material", default: 1.0, min: 0.0, max: 2.0, step: 0.1, doc: "",
/// }];
/// const fn plies(depth: f64) -> SearchParams {
///     SearchParams { depth, deepen: 0.0, width: 0.0, nodes: 1e6, player_depth: depth, time_ms: 1e3, contempt: 0.0, reduction: 0.0, futility: 0.0, threats: 1.0, first_seat_plies: 0.0 }
/// }
/// engine::search_levels! {
///     game "demo", evaluation EVAL;
///     const ROWS;
///     static SETS;
///     "easy" {
///         summary: "one ply", table_bits: 10, search: plies(1.0), eval_defaults: &[],
///         network: None,
///     }
///     "hard" {
///         summary: "four plies", table_bits: 16, search: plies(4.0),
///         eval_defaults: &[("material", 1.5)], network: None,
///     }
/// }
/// assert_eq!(SETS[1].name, "demo-hard");
/// assert_eq!(ROWS[1].name, "hard");
/// assert_eq!(SETS[1].params.len(), 1 + engine::search::SEARCH_LEN);
/// assert_eq!((SETS[0].defaults()[0], SETS[1].defaults()[0]), (1.0, 1.5));
/// ```
#[macro_export]
macro_rules! search_levels {
    (
        game $game:literal, evaluation $eval:expr;
        $(#[$rows_meta:meta])*
        $rows_vis:vis const $rows:ident;
        $(#[$sets_meta:meta])*
        $sets_vis:vis static $sets:ident;
        $( $name:literal { $($row:tt)* } )+
    ) => {
        $(#[$rows_meta])*
        $rows_vis const $rows: [$crate::search::LevelRow; [$($name),+].len()] = [
            $( $crate::search::LevelRow { name: $name, $($row)* } ),+
        ];
        $(#[$sets_meta])*
        $sets_vis static $sets: [$crate::weights::WeightSet; [$($name),+].len()] = {
            static TABLES: [
                [$crate::weights::Param; $eval.len() + $crate::search::SEARCH_LEN];
                [$($name),+].len()
            ] = $crate::search::level_tables($eval, &$rows);
            $crate::search::weight_sets([$(concat!($game, "-", $name)),+], &TABLES)
        };
    };
}

/// A searching level's values split into its evaluation weights and its search parameters:
/// `given` (in `set`'s order, empty for the defaults) completed with the table's defaults where
/// it is short.
#[must_use]
pub fn level_values(set: &WeightSet, given: &[f64]) -> (Vec<f64>, SearchParams) {
    let mut values = set.completed(given);
    let search = values.split_off(values.len().saturating_sub(SEARCH_LEN));
    (values, SearchParams::from_values(&search))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights::check_table;

    const EVAL: &[Param] = &[Param {
        name: "material",
        default: 1.0,
        min: 0.0,
        max: 2.0,
        step: 0.1,
        doc: "",
    }];
    const HARD: SearchParams = SearchParams {
        depth: 4.0,
        deepen: 2.0,
        width: 0.0,
        nodes: 5000.0,
        player_depth: 9.0,
        time_ms: 700.0,
        contempt: 25.0,
        reduction: 1.0,
        futility: 40.0,
        threats: 1.0,
        first_seat_plies: 2.0,
    };
    static TABLE: [Param; 1 + SEARCH_LEN] = level_table(EVAL, &HARD);
    const SET: WeightSet = WeightSet {
        name: "demo-hard",
        params: &TABLE,
    };

    #[test]
    fn a_level_table_is_the_evaluation_then_the_search_with_the_level_defaults() {
        check_table(&SearchParams::SET).unwrap();
        check_table(&SET).unwrap();
        assert_eq!(HARD.to_array().to_vec(), HARD.values());
        assert_eq!(TABLE[0], EVAL[0]);
        assert_eq!(SET.defaults()[1..], HARD.values());
        let names: Vec<_> = TABLE[1..].iter().map(|p| p.name).collect();
        assert_eq!(
            names,
            [
                "depth",
                "deepen",
                "width",
                "nodes",
                "player_depth",
                "time_ms",
                "contempt",
                "reduction",
                "futility",
                "threats",
                "first_seat_plies"
            ]
        );
        let (eval, search) = level_values(&SET, &[1.5, 6.0]);
        assert_eq!(eval, [1.5]);
        assert_eq!(search, SearchParams { depth: 6.0, ..HARD });
    }

    #[test]
    fn budgets_follow_the_time_control() {
        let batch = HARD.limits(TimeControl::Batch);
        assert_eq!(
            batch,
            Limits {
                depth: 4,
                deepen: 2,
                width: None,
                nodes: Some(5000),
                time_ms: None,
                reduction: 1,
                futility: 40,
                threats: true
            }
        );
        let player = SearchParams {
            width: 12.0,
            ..HARD
        }
        .limits(TimeControl::Player);
        assert_eq!(
            player,
            Limits {
                depth: 9,
                deepen: 0,
                width: Some(12),
                nodes: None,
                time_ms: Some(700),
                reduction: 1,
                futility: 40,
                threats: true
            }
        );
        // The first seat searches `first_seat_plies` deeper in batch play only.
        assert_eq!(HARD.seat_limits(TimeControl::Batch, 0).depth, 6);
        assert_eq!(HARD.seat_limits(TimeControl::Batch, 1), batch);
        assert_eq!(
            HARD.seat_limits(TimeControl::Player, 0),
            HARD.limits(TimeControl::Player)
        );
        assert_eq!(HARD.contempt(), 25);
        // No budget may be zero: a weights file saying so is refused by the table's ranges.
        for name in ["nodes", "time_ms"] {
            let param = SearchParams::SET.params.iter().find(|p| p.name == name);
            assert!(param.unwrap().min >= 1.0, "{name}");
        }
    }
}
