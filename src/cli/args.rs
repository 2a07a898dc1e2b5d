//! The command line (clap derive).

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser as _};
use clap::{Args, Parser, Subcommand};
use engine::TimeControl;
use engine::adjudicate::{Adjudication, Draw, Resign};
use tuner::config::ExperimentFile;
use tuner::config::Format;
use tuner::openings::Order;

/// `--game`'s help: every registered game by name.
fn game_help() -> String {
    format!(
        "Game: {} (see `koom list`)",
        engine::game_names_where(|_| true)
    )
}

/// `--agents`' help: the forms of an agent, and which levels search with a built-in network.
fn agents_help() -> String {
    format!(
        "Agents, one per seat: levels, `level@weights.toml`, `level@net.knet` (a network file \
         for a searching Thud or Hnefatafl level), or external programs: `cmd:PROGRAM ARGS` \
         (koom's engine protocol), `htp:PROGRAM ARGS` (the Hnefatafl Text Protocol) or the name \
         of an `[engines.NAME]` table of the config. Networks: {}",
        engine::nnue::built_in_networks_in_words()
    )
}

/// `koom openings --game`'s help: the registered games with two seats.
fn two_seat_game_help() -> String {
    format!(
        "Game with two seats: {}",
        engine::game_names_where(|g| g.seats == (2, 2))
    )
}

/// `--time-control batch|player`, listed in `--help`.
fn time_control_parser() -> impl clap::builder::TypedValueParser<Value = TimeControl> {
    PossibleValuesParser::new(["batch", "player"]).map(|s| match s.as_str() {
        "player" => TimeControl::Player,
        _ => TimeControl::Batch,
    })
}

/// `--openings-order sequential|random`, listed in `--help`.
fn order_parser() -> impl clap::builder::TypedValueParser<Value = Order> {
    PossibleValuesParser::new(Order::NAMES).map(|s| match s.as_str() {
        "random" => Order::Random,
        _ => Order::Sequential,
    })
}

/// `--openings FILE` and `--openings-order`, on every command that plays an experiment.
#[derive(Debug, Args)]
pub struct OpeningArgs {
    /// Opening suite: one opening a line, `moves: M1, M2, ...` (from the initial position) or
    /// `position: TEXT [moves: M1, ...]`; `#` starts a comment line. Every seed group starts from
    /// one opening, all its rotations (side swaps) from the same one.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Which opening seed group G plays: `sequential` (opening G mod N, in file order) or
    /// `random` (the suite shuffled once by the seed, then taken in turn).
    #[arg(long, value_parser = order_parser())]
    pub openings_order: Option<Order>,
}

impl OpeningArgs {
    /// The flags as an experiment's fields (the rest unset).
    pub fn flags(&self) -> ExperimentFile {
        ExperimentFile {
            openings: self.openings.clone(),
            openings_order: self.openings_order,
            ..ExperimentFile::default()
        }
    }
}

/// `--resign` and `--draw`: adjudication on the players' search scores, as fastchess and
/// cutechess-cli write it (docs/commands.md, "Adjudication"); off unless given here or in the config.
#[derive(Debug, Args)]
pub struct AdjudicationArgs {
    /// Resign adjudication for searching levels, `movecount=N,score=S`: a game is lost once
    /// both players' scores agreed for N moves each that it is lost by at least S (in the
    /// searcher's units). Off by default.
    #[arg(long, value_name = "movecount=N,score=S", value_parser = resign_rule)]
    pub resign: Option<Resign>,
    /// Draw adjudication, `movenumber=M,movecount=N,score=S`: a draw once both players' scores
    /// stayed within ±S for N moves each with no capture, from ply M on. In Thud the round
    /// instead ends with its points as they stand, once the scores held within ±S of one value.
    /// Off by default.
    #[arg(
        long,
        value_name = "movenumber=M,movecount=N,score=S",
        value_parser = draw_rule
    )]
    pub draw: Option<Draw>,
}

impl AdjudicationArgs {
    /// The flags as an experiment's `adjudication` (unset when neither is given).
    pub fn flags(&self) -> Option<Adjudication> {
        (self.resign.is_some() || self.draw.is_some()).then_some(Adjudication {
            resign: self.resign,
            draw: self.draw,
        })
    }
}

/// An adjudication rule's `key=value` pairs, separated by commas or spaces, as the config's
/// table would hold them.
fn rule_table(text: &str) -> Result<toml::Value, String> {
    let mut table = toml::Table::new();
    for pair in text.split([',', ' ']).filter(|p| !p.trim().is_empty()) {
        let (key, value) = rule_option(pair)?;
        table.insert(key, value);
    }
    Ok(toml::Value::Table(table))
}

/// `--resign`, read as the config's `[adjudication.resign]` (unknown or missing keys named).
fn resign_rule(text: &str) -> Result<Resign, String> {
    rule_table(text)?
        .try_into()
        .map_err(|e: toml::de::Error| e.message().to_owned())
}

/// `--draw`, read as the config's `[adjudication.draw]`.
fn draw_rule(text: &str) -> Result<Draw, String> {
    rule_table(text)?
        .try_into()
        .map_err(|e: toml::de::Error| e.message().to_owned())
}

/// `--format round-robin|gauntlet`, listed in `--help`.
fn format_parser() -> impl clap::builder::TypedValueParser<Value = Format> {
    PossibleValuesParser::new(Format::NAMES).map(|s| match s.as_str() {
        "gauntlet" => Format::Gauntlet,
        _ => Format::RoundRobin,
    })
}

/// `--option key=value`: the value is read as TOML (`200`, `true`, `'text'`), else as a string.
fn rule_option(text: &str) -> Result<(String, toml::Value), String> {
    let (key, value) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not key=value"))?;
    let key = key.trim();
    if key.is_empty() {
        return Err(format!("`{text}` has no key"));
    }
    let value = value.trim();
    let parsed = toml::from_str::<toml::Table>(&format!("v = {value}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(value.to_owned()));
    Ok((key.to_owned(), parsed))
}

/// The config's `[options]` with each `--option` over it, key by key.
pub fn with_options(
    options: Option<toml::Table>,
    flags: &[(String, toml::Value)],
) -> Option<toml::Table> {
    if flags.is_empty() {
        return options;
    }
    let mut table = options.unwrap_or_default();
    for (key, value) in flags {
        table.insert(key.clone(), value.clone());
    }
    Some(table)
}

/// Self-play analysis and AI tuning for Thud, Copenhagen Hnefatafl, Ludo and Trente-douze.
#[derive(Debug, Parser)]
#[command(name = "koom", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play many seeded games between agents and report win rates, lengths and first-player
    /// advantage with 95% intervals. With no arguments: the built-in Ludo experiment.
    Run(RunArgs),
    /// Play one game and narrate every roll and move; with the seed and index of a batch game
    /// it replays exactly that game.
    Play(PlayArgs),
    /// List the games, their computer levels and weight sets (`--game G`: one game, with its
    /// rule options and their defaults).
    List(ListArgs),
    /// Print a level's weight set as a weights file (the defaults, or those of `hard@file.toml`),
    /// ready to edit and load as `level@file.toml`.
    Weights(WeightsArgs),
    /// A fixed, deterministic workload per game (self-play of each level, perft): prints speed
    /// and a signature (total moves, perft count) that changes only when behaviour changes.
    Bench(BenchArgs),
    /// Count the leaf nodes of the move tree to a depth (move-generator check; dice games roll
    /// from dice stream 0).
    Perft(PerftArgs),
    /// Apply moves to a position, then print the position and its legal moves (or, when the game
    /// is over, its result and why).
    Legal(LegalArgs),
    /// A level's move for one position (the apps' hint): its score, principal variation, depth,
    /// nodes and time; for dice games every legal move with the level's value for it.
    Analyse(AnalyseArgs),
    /// Run a level as an engine over standard input and output, speaking koom's engine protocol
    /// or, for Hnefatafl, the Hnefatafl Text Protocol (docs/engine-protocol.md), for tournament
    /// runners, `cmd:`/`htp:` agents and the hnefatafl-copenhagen tools.
    Engine(EngineArgs),
    /// Write report.html and report.md (with charts) for a result folder, or compare two runs
    /// (e.g. two rule variants) side by side.
    Report(ReportArgs),
    /// Combine the shards of a run (`koom run --shard K/N`) into its summary.
    Merge(MergeArgs),
    /// Regression gate: an SPRT of a candidate against a baseline. Exit 0 = H1 accepted (not
    /// weaker with `--preset nonreg`, gains with `--preset gain`), 1 = H0 accepted, 3 =
    /// inconclusive at --max-games, 2 = bad input.
    Gate(GateArgs),
    /// Play each adjacent pair of levels (every pair with --full) and fit a rating ladder; exit 1
    /// unless every level beats the one(s) below with its interval above an even score.
    Ladder(LadderArgs),
    /// Write an opening suite for `--openings`: short seeded random openings, each kept when a
    /// level playing itself from it scores near even (docs/commands.md: "Opening suites").
    Openings(OpeningsArgs),
    /// Play Hnefatafl games with a level on a hnefatafl-copenhagen server (TCP): log in, offer
    /// a game or join one, play it out. Exit 0 = every game played, 1 = network or server
    /// error, 2 = bad input.
    Connect(ConnectArgs),
    /// Tune a level's evaluation weights by SPSA (config in TOML, see configs/tune/), with a
    /// checkpoint after every iteration and a verification gate against the start at the end.
    Tune(TuneArgs),
    /// Fit a level's evaluation weights to the results of recorded games (Texel's method, for
    /// games whose evaluation is linear in its weights: Hnefatafl) and write them as a weights
    /// file; plays no game.
    Fit(FitArgs),
    /// Turn game records (`--records`, with or without `--records-scores`) into a position set
    /// for `koom train`: a seeded sample of each game's positions as network inputs, labelled
    /// with the game's result and each move's searched score (docs/learning.md).
    Positions(PositionsArgs),
    /// Train a network evaluation on position sets (config in TOML, see configs/train/) and
    /// write it as a network file, with train.json and loss.svg beside it (docs/learning.md).
    Train(TrainArgs),
}

/// fishtest's presets, in normalized Elo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Preset {
    /// [0, 2]: does the candidate gain strength?
    Gain,
    /// [-1.75, 0.25]: is the candidate not a regression?
    Nonreg,
}

/// Options shared by the strength commands.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// Config (TOML) for the game and its rule options; flags override it.
    pub config: Option<PathBuf>,
    #[arg(long, help = game_help())]
    pub game: Option<String>,
    /// Master seed (default 1): the same seed plays the same games.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (default: the CPUs koom may use: its affinity, the cgroup CPU quota, and
    /// at most SLURM_CPUS_PER_TASK). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// `batch` (deterministic budgets) or `player` (the app's time limits).
    #[arg(long, value_parser = time_control_parser())]
    pub time_control: Option<TimeControl>,
    /// A rule option, `key=value` (repeatable; see `koom list --game G`); over the config's.
    #[arg(long = "option", value_name = "KEY=VALUE", value_parser = rule_option)]
    pub options: Vec<(String, toml::Value)>,
    /// Output folder (default: koom-results/COMMAND-GAME).
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub openings: OpeningArgs,
    #[command(flatten)]
    pub adjudication: AdjudicationArgs,
    /// Print nothing but errors (the exit status gives the verdict).
    #[arg(long)]
    pub quiet: bool,
    /// Write every game as one line of FILE, match by match (see `koom run --records`).
    #[arg(long, value_name = "FILE")]
    pub records: Option<PathBuf>,
    /// Also write each move's searched score and depth in the records (see `koom run
    /// --records-scores`).
    #[arg(long)]
    pub records_scores: bool,
}

#[derive(Debug, Args)]
pub struct GateArgs {
    #[command(flatten)]
    pub common: MatchArgs,
    /// The agent under test: a level, `level@weights.toml` or `level@net.knet`.
    #[arg(long)]
    pub candidate: String,
    /// The reference agent: a level, `level@weights.toml`, or an external program (`cmd:`,
    /// `htp:` or an `[engines.NAME]` name, as for --agents).
    #[arg(long)]
    pub baseline: String,
    /// Bounds preset (default nonreg); --elo0/--elo1 override it.
    #[arg(long, value_enum)]
    pub preset: Option<Preset>,
    /// H0 bound (Elo of the candidate over the baseline).
    #[arg(long, allow_hyphen_values = true)]
    pub elo0: Option<f64>,
    /// H1 bound.
    #[arg(long, allow_hyphen_values = true)]
    pub elo1: Option<f64>,
    /// Bounds in logistic Elo instead of normalized Elo.
    #[arg(long)]
    pub logistic: bool,
    /// Probability of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Stop, inconclusive (exit 3), after this many games (in Thud, matches of two rounds with
    /// the sides swapped: the output says which).
    #[arg(long, default_value_t = 100_000)]
    pub max_games: u64,
    /// Seed groups (pairs, rotations) played between two checks of the SPRT (at least 1).
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch: u64,
}

#[derive(Debug, Args)]
pub struct LadderArgs {
    #[command(flatten)]
    pub common: MatchArgs,
    /// Levels, weakest first (default: the game's levels in order, or the config's `levels`).
    #[arg(long, value_delimiter = ',')]
    pub levels: Option<Vec<String>>,
    /// Games per pair (in Thud, matches of two rounds; default: the config's `games`, else
    /// 2000).
    #[arg(long)]
    pub games: Option<u64>,
    /// Play every pair of levels, not only adjacent ones: the ratings are fitted over all pairs,
    /// every pair must pass, and intransitive triples are flagged (a cycle of wins whose
    /// intervals lie above an even score, or a wider gap scoring significantly less than a
    /// narrower one; see docs/statistics.md).
    #[arg(long)]
    pub full: bool,
}

/// The experiment, as flags; each overrides the config file.
#[derive(Debug, Args)]
pub struct ExperimentArgs {
    /// Experiment config (TOML); flags override its values.
    pub config: Option<PathBuf>,
    #[arg(long, help = game_help())]
    pub game: Option<String>,
    #[arg(long, value_delimiter = ',', help = agents_help())]
    pub agents: Option<Vec<String>>,
    /// Master seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// `batch` (deterministic depth/node budgets) or `player` (the app's time limits).
    #[arg(long, value_parser = time_control_parser())]
    pub time_control: Option<TimeControl>,
    /// A rule option, `key=value` (repeatable; see `koom list --game G`); over the config's.
    #[arg(long = "option", value_name = "KEY=VALUE", value_parser = rule_option)]
    pub options: Vec<(String, toml::Value)>,
    /// Play a tournament: `round-robin` (every pair of agents) or `gauntlet` (the first agent
    /// against each other one), each pairing a match of --games games.
    #[arg(long, value_parser = format_parser())]
    pub format: Option<Format>,
    #[command(flatten)]
    pub openings: OpeningArgs,
    #[command(flatten)]
    pub adjudication: AdjudicationArgs,
}

impl ExperimentArgs {
    /// The config file (if any) overridden by `flags`.
    pub fn experiment(&self, flags: ExperimentFile) -> anyhow::Result<ExperimentFile> {
        let file = match &self.config {
            Some(path) => ExperimentFile::load(path)?,
            None => ExperimentFile::default(),
        };
        let own = ExperimentFile {
            game: self.game.clone(),
            agents: self.agents.clone(),
            seed: self.seed,
            time_control: self.time_control,
            format: self.format,
            adjudication: self.adjudication.flags(),
            ..self.openings.flags()
        };
        let merged = file.overridden_by(own.overridden_by(flags));
        Ok(ExperimentFile {
            options: with_options(merged.options.clone(), &self.options),
            ..merged
        })
    }
}

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub experiment: ExperimentArgs,
    /// Number of games (matches for games played in matches); rounded up to whole rotations.
    #[arg(long)]
    pub games: Option<u64>,
    /// Worker threads (default: the CPUs koom may use: its affinity, the cgroup CPU quota, and
    /// at most SLURM_CPUS_PER_TASK). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output folder (default: koom-results/GAME, or koom-results/GAME-shard-K-of-N with
    /// --shard). One koom process at a time may write a folder.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write games.csv, one row per game.
    #[arg(long)]
    pub games_csv: bool,
    /// Print nothing but errors: no progress bar, no table, no notes.
    #[arg(long)]
    pub quiet: bool,
    /// Play only share K of N of the seed groups (`K/N`, or `env/N` with K from
    /// SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX) and write `shard.json` for `koom merge`.
    #[arg(long)]
    pub shard: Option<String>,
    /// Continue from the checkpoint an interrupted run left in the output folder.
    #[arg(long)]
    pub resume: bool,
    /// Write every game as one line of FILE: index, seed group, rotation, seed, agents, result,
    /// reason, rules, start and the moves in notation (replay one with `koom legal --record
    /// LINE`). Written as FILE.partial until every game is in; --resume continues it, and a
    /// shard writes its own games (the shards' files, joined in shard order, are the run's).
    #[arg(long, value_name = "FILE")]
    pub records: Option<PathBuf>,
    /// Also write each move's searched score and depth in the records, as a last field
    /// (`SCORE@DEPTH`, or `-` for a move not searched; docs/learning.md): the same games, with
    /// what training and adjudication read.
    #[arg(long)]
    pub records_scores: bool,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// A folder holding a summary.json (koom run, koom merge).
    pub dir: PathBuf,
    /// A second folder to compare with the first.
    pub other: Option<PathBuf>,
    /// Where to write the report (default: DIR, or DIR/compare when comparing).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Folders holding the `shard.json` of every shard.
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// Output folder for the merged summary.
    #[arg(long)]
    pub out: PathBuf,
    /// Print nothing but errors.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub experiment: ExperimentArgs,
    /// Index of the game in a batch run with the same seed and agents.
    #[arg(long, default_value_t = 0)]
    pub index: u64,
    /// Play every rotation of the index's seed group (a whole match for two-player games).
    #[arg(long)]
    pub group: bool,
    /// Print the board after every move.
    #[arg(long)]
    pub boards: bool,
    /// Replay a line of a `--records` file (of the game given by --game), narrating
    /// every move, instead of playing a game.
    #[arg(long, conflicts_with_all = ["index", "group"])]
    pub record: Option<String>,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Only this game, with its rule options, their defaults and accepted values.
    #[arg(long)]
    pub game: Option<String>,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Only this game (default: every game).
    #[arg(long)]
    pub game: Option<String>,
    /// Games (matches, for games played in matches) per level (default: 4000 for dice games, one
    /// for board games); a level plays itself, so each game is played once (a mirror run).
    #[arg(long)]
    pub games: Option<u64>,
    /// Worker threads (default 1, so that figures are per core).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

#[derive(Debug, Args)]
pub struct WeightsArgs {
    #[arg(long, help = game_help())]
    pub game: String,
    /// A level with a weight set (see `koom list`).
    #[arg(long)]
    pub level: String,
}

#[derive(Debug, Args)]
pub struct PerftArgs {
    #[arg(long, help = game_help())]
    pub game: String,
    /// Plies to count, at most 32 (the recursion is one stack frame a ply; no game's tree can be
    /// counted that deep in any case).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=32))]
    pub depth: u32,
    /// Start position in the game's notation (default: the initial position).
    #[arg(long)]
    pub position: Option<String>,
    /// Also print the count below each legal move.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads counting the root's moves (default: the CPUs koom may use). The count
    /// does not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

#[derive(Debug, Args)]
pub struct LegalArgs {
    #[arg(long, help = game_help())]
    pub game: String,
    /// Start position in the game's notation (default: the initial position).
    #[arg(long)]
    pub position: Option<String>,
    /// Moves to apply first, in order, comma separated.
    #[arg(long, value_delimiter = ',')]
    pub moves: Vec<String>,
    /// Replay a line of a `--records` file (instead of --position and --moves), check its
    /// result, and print the final position and result.
    #[arg(long, conflicts_with_all = ["position", "moves"])]
    pub record: Option<String>,
}

#[derive(Debug, Args)]
pub struct AnalyseArgs {
    #[arg(long)]
    pub game: String,
    /// The level: a name from `koom list`, or `level@weights.toml`.
    #[arg(long)]
    pub level: String,
    /// Position in the game's notation (default: the initial position).
    #[arg(long)]
    pub position: Option<String>,
    /// Moves to apply first, in order, comma separated (dice games draw the rolls between moves
    /// from dice stream 0).
    #[arg(long, value_delimiter = ',')]
    pub moves: Vec<String>,
    /// The roll to choose with, for dice games: one die for Ludo (`6`), the dice left to throw
    /// for Trente-douze (`13456`).
    #[arg(long)]
    pub roll: Option<String>,
    /// `batch` (the level's depth and node budgets: reproducible) or `player` (its time limit).
    #[arg(long, value_parser = time_control_parser(), default_value = "batch")]
    pub time_control: TimeControl,
    /// Seed of the level's tie-break stream.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct EngineArgs {
    #[arg(long, help = game_help())]
    pub game: String,
    /// The level: a name from `koom list`, or `level@weights.toml`.
    #[arg(long)]
    pub level: String,
    /// `batch` (the level's depth and node budgets) or `player` (its time limit); `go` limits
    /// replace either.
    #[arg(long, value_parser = time_control_parser(), default_value = "batch")]
    pub time_control: TimeControl,
    /// The protocol spoken on standard input and output.
    #[arg(long, value_enum, default_value_t = EngineProtocol::Koom)]
    pub protocol: EngineProtocol,
}

#[derive(Debug, Args)]
pub struct ConnectArgs {
    /// The server, `HOST` or `HOST:PORT` (port 49152 when not given).
    #[arg(long)]
    pub server: String,
    /// The account to log in to (the server's rule: up to 16 letters, digits, `-` and `_`).
    #[arg(long)]
    pub username: String,
    /// The account's password (up to 32 bytes; empty by default).
    #[arg(long, default_value = "")]
    pub password: String,
    /// Create the account instead of logging in to it.
    #[arg(long)]
    pub create_account: bool,
    /// The Hnefatafl level that plays: a name from `koom list`, or `level@weights.toml`.
    #[arg(long)]
    pub level: String,
    /// `batch` (the level's depth and node budgets) or `player` (its time limit).
    #[arg(long, value_parser = time_control_parser(), default_value = "batch")]
    pub time_control: TimeControl,
    /// Games to play one after another, each offered and waiting for a challenger.
    #[arg(long, default_value_t = 1, conflicts_with = "join")]
    pub games: u64,
    /// The side koom plays in the games it offers.
    #[arg(long, value_enum, default_value_t = Role::Defender, conflicts_with = "join")]
    pub role: Role,
    /// Offer rated games (un-rated by default).
    #[arg(long, conflicts_with = "join")]
    pub rated: bool,
    /// Instead of offering games, ask to join the waiting game with this id and play it.
    #[arg(long, value_name = "ID")]
    pub join: Option<u128>,
    /// Give up (exit 1) when the server sends nothing for this many seconds: waiting for a
    /// challenger and for the opponent's moves included.
    #[arg(long, value_name = "SECONDS", default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..))]
    pub read_timeout: u64,
    /// Print every line sent (`->`) and received (`<-`) on standard error.
    #[arg(long)]
    pub verbose: bool,
}

/// A Hnefatafl side, as `koom connect --role` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Role {
    /// the attackers, who move first
    Attacker,
    /// the defenders and the king
    Defender,
}

/// The protocols `koom engine` speaks (docs/engine-protocol.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineProtocol {
    /// koom's own line protocol, for every game
    Koom,
    /// the Hnefatafl Text Protocol of the hnefatafl-copenhagen engine and server (hnefatafl
    /// only)
    Htp,
}

/// `--keep LO..HI`: two numbers.
fn score_range(text: &str) -> Result<(f64, f64), String> {
    let (lo, hi) = text
        .split_once("..")
        .ok_or_else(|| format!("`{text}` is not LO..HI (e.g. 0.35..0.65)"))?;
    let number = |t: &str| {
        t.trim()
            .parse::<f64>()
            .map_err(|_| format!("`{t}` in `{text}` is not a number"))
    };
    Ok((number(lo)?, number(hi)?))
}

#[derive(Debug, Args)]
pub struct OpeningsArgs {
    #[arg(long, help = two_seat_game_help())]
    pub game: String,
    /// Random legal plies from the initial position in each opening.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=200))]
    pub plies: u32,
    /// Openings to keep.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub count: u64,
    /// The level that plays itself from each candidate (`level` or `level@weights.toml`).
    #[arg(long, default_value = "hard")]
    pub level: String,
    /// Keep a candidate when the first seat's mean score lies in LO..HI (0 to 1).
    #[arg(long, default_value = "0.35..0.65", value_parser = score_range, allow_hyphen_values = true)]
    pub keep: (f64, f64),
    /// Self-play games per candidate, each on its own seed.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub games: u64,
    /// Score only the games the rules decide: leave out those the ply cap cut off (they say
    /// nothing about balance); a candidate whose games were all capped is not kept.
    #[arg(long)]
    pub skip_capped: bool,
    /// Candidates to draw at most before giving up (default: 20 × --count).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub max_tries: Option<u64>,
    /// Seed of the random plies and of the self-play games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: the CPUs koom may use, as for `run`). The suite does not
    /// depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// A rule option, `key=value` (repeatable; see `koom list --game G`).
    #[arg(long = "option", value_name = "KEY=VALUE", value_parser = rule_option)]
    pub options: Vec<(String, toml::Value)>,
    /// Write the suite to FILE (whole, or not at all) instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    /// No progress lines on standard error.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Tuning config (TOML).
    pub config: PathBuf,
    /// Continue the run whose checkpoint is in the output folder.
    #[arg(long)]
    pub resume: bool,
    /// Output folder (default: the config's `out`, else koom-results/tune-GAME-LEVEL).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads (default: the config's, else the CPUs koom may use, as for `run`).
    /// Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// SPSA iterations (over the config's `iterations`).
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Seed groups per iteration (over the config's `pairs`).
    #[arg(long)]
    pub pairs: Option<u64>,
    /// Stop the iterations after this many seconds and finish with the weights reached (the
    /// verification gate follows); `--resume` continues the iterations later.
    #[arg(long, value_name = "SECONDS")]
    pub max_time: Option<f64>,
    /// A rule option, `key=value` (repeatable; see `koom list --game G`); over the config's.
    #[arg(long = "option", value_name = "KEY=VALUE", value_parser = rule_option)]
    pub options: Vec<(String, toml::Value)>,
    #[command(flatten)]
    pub openings: OpeningArgs,
    /// Print nothing but errors.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct FitArgs {
    #[arg(long, help = game_help())]
    pub game: String,
    /// The level whose weights start the fit (`expert`, or `expert@file.toml`); the weights past
    /// the evaluation's (search budgets) are kept as they are.
    #[arg(long)]
    pub level: String,
    /// A records file (`koom run --records`) whose games' results the fit predicts; repeatable.
    /// The self-play of the strongest level is the usual choice.
    #[arg(long = "records", value_name = "FILE", required = true)]
    pub records: Vec<PathBuf>,
    /// Keep every N-th position of each game.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..))]
    pub every: u32,
    /// Leave out the positions before this ply.
    #[arg(long, default_value_t = 8)]
    pub skip: u32,
    /// Adam iterations over every position.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub iterations: u32,
    /// Learning rate, in each weight's tuning steps per iteration at the start (it falls
    /// linearly to a tenth of that).
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// A weight to hold at its start value (repeatable; default: the weight set's first, which
    /// fixes the evaluation's units, since the fitted scale relates them to results).
    #[arg(long = "hold", value_name = "WEIGHT")]
    pub hold: Vec<String>,
    /// The weights file to write (default: koom-results/fit-GAME-LEVEL.toml); `fit.json` beside
    /// it holds the errors and the weights before and after.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print nothing but errors.
    #[arg(long)]
    pub quiet: bool,
}

/// `--game`'s help for the commands of learned evaluations: the games with a feature set.
fn features_game_help() -> String {
    format!(
        "Game with a feature set for networks: {}",
        engine::nnue::FEATURE_GAMES.join(", ")
    )
}

#[derive(Debug, Args)]
pub struct PositionsArgs {
    #[arg(long, help = features_game_help())]
    pub game: String,
    /// A records file (`koom run --records`, best with `--records-scores`); repeatable, read in
    /// order. Every game is replayed and checked.
    #[arg(long = "records", value_name = "FILE", required = true)]
    pub records: Vec<PathBuf>,
    /// The position set to write (written under FILE.tmp, then renamed).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Leave out the positions before this ply of each game.
    #[arg(long, default_value_t = 8)]
    pub skip: u32,
    /// Keep at most this many positions of each game, drawn at random (by --seed) among those
    /// from ply --skip on that are not already in the set.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..))]
    pub per_game: u32,
    /// Keep only positions whose move has a searched score.
    #[arg(long)]
    pub scored_only: bool,
    /// Games with points (Thud): a position's result is sigmoid(margin / SCALE), the margin
    /// being the first side's points less the other's at the round's end.
    #[arg(long, default_value_t = 10.0, value_name = "SCALE")]
    pub margin_scale: f64,
    /// Seed of the per-game draws: the same records and seed give the same set.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print nothing but errors.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct TrainArgs {
    /// The training config (TOML; see configs/train/).
    #[arg(long, value_name = "FILE")]
    pub config: PathBuf,
    /// Position sets to train on, in place of the config's `positions` (repeatable).
    #[arg(long = "positions", value_name = "FILE")]
    pub positions: Vec<PathBuf>,
    /// The output folder (default: koom-results/train-GAME): the network `net.knet`,
    /// `train.json` and `loss.svg`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The seed of the initial weights and shuffles, in place of the config's.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (default: the CPUs koom may use). The network does not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Print nothing but errors.
    #[arg(long)]
    pub quiet: bool,
}
