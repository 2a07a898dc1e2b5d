//! The command line (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use tuner::config::ExperimentFile;

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
    /// List the games, their computer levels and weight sets.
    List,
    /// Count the leaf nodes of the move tree to a depth (move-generator check).
    Perft(PerftArgs),
    /// Apply moves to a position, then print the position and its legal moves.
    Legal(LegalArgs),
}

/// The experiment, as flags; each overrides the config file.
#[derive(Debug, Args)]
pub struct ExperimentArgs {
    /// Experiment config (TOML); flags override its values.
    pub config: Option<PathBuf>,
    /// Game: ludo (see `koom list`).
    #[arg(long)]
    pub game: Option<String>,
    /// Agents, one per seat: levels, or `level@weights.toml`.
    #[arg(long, value_delimiter = ',')]
    pub agents: Option<Vec<String>>,
    /// Master seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// `batch` (deterministic depth/node budgets) or `player` (the app's time limits).
    #[arg(long)]
    pub time_control: Option<String>,
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
            time_control: self.time_control.clone(),
            ..ExperimentFile::default()
        };
        Ok(file.overridden_by(own.overridden_by(flags)))
    }
}

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub experiment: ExperimentArgs,
    /// Number of games (matches for games played in matches); rounded up to whole rotations.
    #[arg(long)]
    pub games: Option<u64>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output folder (default: koom-results/GAME).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write games.csv, one row per game.
    #[arg(long)]
    pub games_csv: bool,
    /// No progress bar and no table.
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
}

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Game with a move tree (see `koom list`).
    #[arg(long)]
    pub game: String,
    #[arg(long)]
    pub depth: u32,
    /// Start position in the game's notation (default: the initial position).
    #[arg(long)]
    pub position: Option<String>,
    /// Also print the count below each legal move.
    #[arg(long)]
    pub divide: bool,
}

#[derive(Debug, Args)]
pub struct LegalArgs {
    #[arg(long)]
    pub game: String,
    /// Start position in the game's notation (default: the initial position).
    #[arg(long)]
    pub position: Option<String>,
    /// Moves to apply first, in order, comma separated.
    #[arg(long, value_delimiter = ',')]
    pub moves: Vec<String>,
}
