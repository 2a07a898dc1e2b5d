//! What the command line says of a game and how its tools size their work: option docs for
//! `koom list`, the workload of `koom bench`, and what `--games N` counts.

use super::rules::Rules;

/// One rule option as `koom list --game G` shows it (the default comes from `Options::default`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionDoc {
    pub name: &'static str,
    /// The values accepted, in words (`1 to 1000000`, `"choose" or "all"`).
    pub accepted: &'static str,
    pub doc: &'static str,
}

/// The command-line hints of one game; every item has a default, so a game only states those
/// that differ.
pub trait Hints: Rules {
    /// The rule options, described for `koom list --game G`, in the order of `Options`' fields.
    const OPTIONS: &'static [OptionDoc] = &[];

    /// The perft depth `koom bench` measures move generation at (0: no perft, e.g. dice games
    /// whose tree is all chance).
    const BENCH_PERFT_DEPTH: u32 = 0;

    /// The rule options `koom bench` plays its self-play workload under, as a TOML table's
    /// body (`ply_cap = 60`): a cap that keeps the costliest levels' games short enough for the
    /// bench to represent every level in a minute. Empty: the defaults.
    const BENCH_OPTIONS: &'static str = "";

    /// Whether `--games N` counts seed groups (matches of rounds with the sides swapped, as in
    /// Thud) rather than single games.
    const GAMES_COUNT_GROUPS: bool = false;
}
