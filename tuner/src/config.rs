//! Experiment configs: a TOML file, overridden by command-line flags, resolved against one game.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use engine::adjudicate::Adjudication;
use engine::{AgentSetup, Game, TimeControl};
use serde::{Deserialize, Serialize};

use crate::InputError;
use crate::agents::{one_line, parse_agent, parse_options};
use crate::interop::external::{DEFAULT_TIMEOUT_MS, ExternalSpec};
use crate::interop::protocol::Protocol;
use crate::openings::{Order, Suite};

/// The built-in experiment `koom run` plays with no arguments: the three Ludo levels mixed.
pub const DEFAULT_GAME: &str = "ludo";
pub const DEFAULT_AGENTS: &[&str] = &["easy", "normal", "hard", "hard"];
pub const DEFAULT_GAMES: u64 = 40_000;
pub const DEFAULT_SEED: u64 = 1;
/// The most games (matches, for games played in matches) one run may ask for: 10^12, days of
/// play at a million games a second, and far enough below `u64::MAX` that no count of games,
/// seats or pairs can overflow.
pub const MAX_GAMES: u64 = 1_000_000_000_000;

/// Checks a game count against [`MAX_GAMES`]; `what` names it in the message.
pub fn check_games(what: &str, games: u64) -> Result<(), InputError> {
    if games > MAX_GAMES {
        return Err(InputError::new(format!(
            "{what} = {games} is above koom's limit of {MAX_GAMES} (10^12) per run"
        )));
    }
    Ok(())
}

/// Checks a worker-thread count: more than four threads per core (or 32 on a small machine)
/// only adds load, as results do not depend on the thread count. 0 means all cores.
pub fn check_threads(threads: usize) -> Result<(), InputError> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let max = (4 * cores).max(32);
    if threads > max {
        return Err(InputError::new(format!(
            "threads = {threads} is more than this machine's limit of {max} (4 per core, at least 32); results do not depend on the thread count"
        )));
    }
    Ok(())
}

/// An experiment as written in a TOML file; every field may also come from a flag.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentFile {
    pub game: Option<String>,
    /// One agent per seat (per player for games with a variable number of players).
    pub agents: Option<Vec<String>>,
    /// Games to play (matches for games that count matches); rounded up to whole seed groups.
    pub games: Option<u64>,
    pub seed: Option<u64>,
    /// Worker threads; 0 or absent = the CPUs koom may use (see `threads::default_threads`).
    pub threads: Option<usize>,
    /// `batch` (deterministic budgets, default) or `player` (the app's time limits).
    pub time_control: Option<TimeControl>,
    pub out: Option<PathBuf>,
    pub games_csv: Option<bool>,
    /// The game's rule options.
    pub options: Option<toml::Table>,
    /// `koom ladder`: the levels in their expected order, weakest first.
    pub levels: Option<Vec<String>>,
    /// `round-robin` or `gauntlet`: `agents` are then a tournament's participants, each pairing
    /// a match of `games` games.
    pub format: Option<Format>,
    /// External programs, each usable as an agent by its name (`[engines.NAME]`).
    pub engines: Option<BTreeMap<String, EngineTable>>,
    /// An opening suite: every seed group starts from one of its openings (see
    /// [`crate::openings`]).
    pub openings: Option<PathBuf>,
    /// `sequential` (group `g` plays opening `g mod N`) or `random` (a seeded shuffle).
    pub openings_order: Option<Order>,
    /// Ending games early on the players' search scores (`[adjudication]`, see
    /// [`engine::adjudicate`]); off when absent.
    pub adjudication: Option<Adjudication>,
}

/// An external program speaking koom's engine protocol or the Hnefatafl Text Protocol
/// (`docs/engine-protocol.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineTable {
    /// The program and its arguments, split on spaces (no shell).
    pub command: String,
    /// Working directory of the program (default: koom's).
    pub dir: Option<PathBuf>,
    /// `koom` (the default) or `htp` (the Hnefatafl Text Protocol, hnefatafl only).
    pub protocol: Option<String>,
    /// Limits sent with every `go` (koom's protocol only: HTP has no per-move limits).
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    /// Longest wait for a move in milliseconds, before a margin of 1 s (default 10,000, or
    /// `movetime` when larger).
    pub timeout_ms: Option<u64>,
}

impl EngineTable {
    fn spec(&self, name: &str) -> Result<ExternalSpec, InputError> {
        let protocol = match self.protocol.as_deref() {
            None | Some("koom") => Protocol::Koom,
            Some("htp") => Protocol::Htp,
            Some(other) => {
                return Err(InputError::new(format!(
                    "engines.{name}.protocol `{other}` is not supported (accepted: koom, htp)"
                )));
            }
        };
        if protocol == Protocol::Htp
            && (self.depth.is_some() || self.nodes.is_some() || self.movetime.is_some())
        {
            return Err(InputError::new(format!(
                "engines.{name}: depth, nodes and movetime are limits of koom's protocol; the Hnefatafl Text Protocol has none (set timeout_ms for the wait)"
            )));
        }
        let command = crate::interop::external::split_command(
            &self.command,
            &format!("engines.{name}.command"),
        )?;
        if command.is_empty() {
            return Err(InputError::new(format!("engines.{name}.command is empty")));
        }
        Ok(ExternalSpec {
            name: name.to_owned(),
            command,
            dir: self.dir.clone(),
            go: engine::Budget {
                depth: self.depth,
                nodes: self.nodes,
                time_ms: self.movetime,
            },
            timeout_ms: self.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS),
            protocol,
        })
    }
}

impl ExperimentFile {
    /// Reads a config file; errors name the file and the offending key.
    pub fn load(path: &Path) -> Result<Self, InputError> {
        let text = std::fs::read_to_string(path).map_err(|e| InputError::io("config", path, e))?;
        toml::from_str(&text)
            .map_err(|e| InputError::file("config", path, one_line(&e.to_string())))
    }

    /// `other`'s fields replace this one's where set (flags over the file).
    #[must_use]
    pub fn overridden_by(self, other: Self) -> Self {
        Self {
            game: other.game.or(self.game),
            agents: other.agents.or(self.agents),
            games: other.games.or(self.games),
            seed: other.seed.or(self.seed),
            threads: other.threads.or(self.threads),
            time_control: other.time_control.or(self.time_control),
            out: other.out.or(self.out),
            games_csv: other.games_csv.or(self.games_csv),
            options: other.options.or(self.options),
            levels: other.levels.or(self.levels),
            format: other.format.or(self.format),
            engines: other.engines.or(self.engines),
            openings: other.openings.or(self.openings),
            openings_order: other.openings_order.or(self.openings_order),
            adjudication: match (self.adjudication, other.adjudication) {
                // Rule by rule: `--draw` keeps the config's resign rule.
                (Some(file), Some(flags)) => Some(Adjudication {
                    resign: flags.resign.or(file.resign),
                    draw: flags.draw.or(file.draw),
                }),
                (file, flags) => flags.or(file),
            },
        }
    }

    /// Fills what is missing from the built-in default experiment.
    #[must_use]
    pub fn resolve(self) -> Experiment {
        let game = self.game.unwrap_or_else(|| DEFAULT_GAME.to_owned());
        let agents = self.agents.unwrap_or_else(|| {
            if game == DEFAULT_GAME {
                DEFAULT_AGENTS.iter().map(|s| (*s).to_owned()).collect()
            } else {
                Vec::new()
            }
        });
        Experiment {
            out: self
                .out
                .unwrap_or_else(|| PathBuf::from("koom-results").join(&game)),
            game,
            agents,
            games: self.games.unwrap_or(DEFAULT_GAMES),
            seed: self.seed.unwrap_or(DEFAULT_SEED),
            threads: self.threads.unwrap_or(0),
            time_control: self.time_control.unwrap_or_default(),
            games_csv: self.games_csv.unwrap_or(false),
            options: self.options.unwrap_or_default(),
            levels: self.levels,
            format: self.format,
            engines: self.engines.unwrap_or_default(),
            openings: self.openings,
            openings_order: self.openings_order.unwrap_or_default(),
            adjudication: self.adjudication.unwrap_or_default(),
        }
    }
}

/// A complete experiment, not yet checked against its game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Experiment {
    pub game: String,
    pub agents: Vec<String>,
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    pub time_control: TimeControl,
    pub out: PathBuf,
    pub games_csv: bool,
    pub options: toml::Table,
    pub levels: Option<Vec<String>>,
    pub format: Option<Format>,
    #[serde(default)]
    pub engines: BTreeMap<String, EngineTable>,
    #[serde(default)]
    pub openings: Option<PathBuf>,
    #[serde(default)]
    pub openings_order: Order,
    /// Off (the default) leaves the serialised experiment as it was before adjudication.
    #[serde(default, skip_serializing_if = "Adjudication::is_off")]
    pub adjudication: Adjudication,
}

/// How each seed group is played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Design {
    /// Once per rotation of the agents over the seats, all rotations on the same dice (common
    /// random numbers), so that different agents are compared on the same luck.
    #[default]
    Rotation,
    /// Once: one deterministic agent holds every seat, so every rotation would replay the game
    /// (dice and tie-breaks are drawn per seat, not per agent).
    Mirror,
}

impl Design {
    /// The design for agents given as `labels`, `external` when any is an outside program.
    fn of(labels: &[String], external: bool, time_control: TimeControl) -> Self {
        // A clock or an outside program can play a rotation differently: rotate them.
        let same = labels.iter().all(|l| *l == labels[0]);
        if same && !external && time_control == TimeControl::Batch {
            Self::Mirror
        } else {
            Self::Rotation
        }
    }

    /// Why the runner chose this design, for the terminal and `summary.json`.
    #[must_use]
    pub fn reason(self) -> &'static str {
        match self {
            Self::Rotation => {
                "rotation: the agents differ (or play on a clock, or outside koom), so each seed group seats every agent in every seat on the same seed (the same dice and tie-breaks)"
            }
            Self::Mirror => {
                "mirror: one deterministic agent holds every seat, so each seed group is one game (rotating it would replay the same game)"
            }
        }
    }
}

/// An experiment resolved against game `G`: what the runner needs.
#[derive(Clone, Debug)]
pub struct Plan<G: Game> {
    pub options: G::Options,
    pub agents: Vec<AgentSetup<G>>,
    /// Per agent slot, the external program playing it (`cmd:` or an `[engines]` name) instead
    /// of the level in `agents`.
    pub externals: Vec<Option<Arc<ExternalSpec>>>,
    /// Whether the runner notes every move for game records (`--records`).
    pub records: bool,
    /// Whether those records also keep each move's searched score (`--records-scores`): agents
    /// are then asked for their analysis, which plays the same moves.
    pub record_scores: bool,
    /// The agents as the user wrote them.
    pub labels: Vec<String>,
    pub seed: u64,
    /// Seed groups to play; each is played [`Plan::rotations`] times.
    pub groups: u64,
    pub design: Design,
    /// The opening suite seed groups start from; `None`: the initial position.
    pub openings: Option<Arc<Suite<G>>>,
    /// The rules that may end a game early on the players' scores (off by default).
    pub adjudication: Adjudication,
    /// `teams[slot]`: whether the slot plays for team A (the candidate) in head-to-head
    /// statistics. By default the slots with the first agent's label.
    pub teams: Vec<bool>,
}

impl<G: Game> Plan<G> {
    /// Checks the experiment against the game: agent count, levels, weights, options, games.
    pub fn new(exp: &Experiment) -> Result<Self, InputError> {
        let (min, max) = G::SEATS;
        let n = exp.agents.len();
        if n < min || n > max {
            let wanted = if min == max {
                format!("{min}")
            } else {
                format!("{min} to {max}")
            };
            return Err(InputError::new(format!(
                "{} needs {wanted} agents (one per seat), got {n}: give them as --agents a,b,...",
                G::NAME
            )));
        }
        let time_control = exp.time_control;
        let mut agents = Vec::with_capacity(n);
        let mut externals = Vec::with_capacity(n);
        for spec in &exp.agents {
            let external = match (ExternalSpec::from_cmd(spec), exp.engines.get(spec.trim())) {
                (Some(cmd), _) => Some(Arc::new(cmd?)),
                (None, Some(table)) => Some(Arc::new(table.spec(spec.trim())?)),
                (None, None) => None,
            };
            if let Some(spec) = &external {
                check_protocol::<G>(spec)?;
            }
            agents.push(match external {
                // The level is never played: the program is.
                Some(_) => AgentSetup {
                    time_control,
                    ..G::levels()[0].setup()
                },
                None => parse_agent::<G>(spec, time_control)?,
            });
            externals.push(external);
        }
        let options = parse_options::<G>(&exp.options)?;
        if exp.games == 0 {
            return Err(InputError::new("games must be at least 1"));
        }
        check_games("games", exp.games)?;
        check_threads(exp.threads)?;
        let design = Design::of(
            &exp.agents,
            externals.iter().any(Option::is_some),
            time_control,
        );
        let groups = if G::GAMES_COUNT_GROUPS || design == Design::Mirror {
            exp.games
        } else {
            exp.games.div_ceil(n as u64)
        };
        let openings = match &exp.openings {
            Some(path) => Some(Arc::new(Suite::load(
                path,
                exp.openings_order,
                exp.seed,
                &options,
                n,
            )?)),
            None => None,
        };
        if openings.is_some() {
            check_no_htp(&externals)?;
        }
        check_adjudication::<G>(&exp.adjudication)?;
        let teams = exp
            .agents
            .iter()
            .map(|label| *label == exp.agents[0])
            .collect();
        Ok(Self {
            options,
            agents,
            externals,
            records: false,
            record_scores: false,
            labels: exp.agents.clone(),
            seed: exp.seed,
            groups,
            design,
            openings,
            adjudication: exp.adjudication,
            teams,
        })
    }

    /// Seats = agents.
    #[must_use]
    pub fn seats(&self) -> usize {
        self.agents.len()
    }

    /// Scores the slots marked in `teams` as team A against the rest. Two teams are compared,
    /// on common random numbers, even where their agents are the same: a mirror then rotates.
    #[must_use]
    pub fn with_teams(mut self, teams: Vec<bool>) -> Self {
        if self.design == Design::Mirror && teams.iter().any(|&t| t != teams[0]) {
            self.design = Design::Rotation;
            if !G::GAMES_COUNT_GROUPS {
                self.groups = self.groups.div_ceil(self.seats() as u64);
            }
        }
        self.teams = teams;
        self
    }

    /// Games per seed group: one per rotation of the agents over the seats, or one in a mirror.
    #[must_use]
    pub fn rotations(&self) -> usize {
        match self.design {
            Design::Rotation => self.seats(),
            Design::Mirror => 1,
        }
    }

    #[must_use]
    pub fn games(&self) -> u64 {
        self.groups * self.rotations() as u64
    }
}

/// Adjudication reads two players' search scores: it serves two-player games, with a move
/// count of at least 1 and thresholds that are not negative.
fn check_adjudication<G: Game>(rules: &Adjudication) -> Result<(), InputError> {
    if !rules.is_on() {
        return Ok(());
    }
    if G::SEATS != (2, 2) {
        return Err(InputError::new(format!(
            "adjudication reads two players' search scores; {} is not a two-player game (its levels do not search)",
            G::NAME
        )));
    }
    let counts = [
        rules.resign.map(|r| ("resign", r.movecount, r.score)),
        rules.draw.map(|d| ("draw", d.movecount, d.score)),
    ];
    for (rule, movecount, score) in counts.into_iter().flatten() {
        if movecount == 0 || score < 0 {
            return Err(InputError::new(format!(
                "adjudication.{rule}: movecount must be at least 1 and score at least 0 (got movecount={movecount}, score={score})"
            )));
        }
    }
    Ok(())
}

/// A protocol bound to one game (HTP) serves no other.
fn check_protocol<G: Game>(spec: &ExternalSpec) -> Result<(), InputError> {
    match spec.protocol.only_game() {
        Some(only) if only != G::NAME => Err(InputError::new(format!(
            "`{}` speaks {}, which serves {only} only, not {}",
            spec.name,
            spec.protocol.title(),
            G::NAME
        ))),
        _ => Ok(()),
    }
}

/// HTP has no command that sets a position: a program speaking it plays from the start only.
fn check_no_htp(externals: &[Option<Arc<ExternalSpec>>]) -> Result<(), InputError> {
    match externals
        .iter()
        .flatten()
        .find(|s| s.protocol == Protocol::Htp)
    {
        Some(spec) => Err(InputError::new(format!(
            "`{}` speaks the Hnefatafl Text Protocol, which cannot set up a position: it plays from the start position only, not with --openings",
            spec.name
        ))),
        None => Ok(()),
    }
}

/// How the agents of a tournament meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every pair of agents.
    RoundRobin,
    /// The first agent against each of the others.
    Gauntlet,
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::RoundRobin => "round-robin",
            Self::Gauntlet => "gauntlet",
        })
    }
}

impl Format {
    /// The names the command line and configs accept.
    pub const NAMES: [&str; 2] = ["round-robin", "gauntlet"];

    /// `round-robin` or `gauntlet`.
    pub fn parse(text: &str) -> Result<Self, InputError> {
        match text {
            "round-robin" => Ok(Self::RoundRobin),
            "gauntlet" => Ok(Self::Gauntlet),
            other => Err(InputError::new(format!(
                "unknown format `{other}` (accepted: round-robin, gauntlet)"
            ))),
        }
    }

    /// The pairings of `n` agents, `(a, b)` with `a` seated as team A.
    #[must_use]
    pub fn pairs(self, n: usize) -> Vec<(usize, usize)> {
        match self {
            Self::RoundRobin => (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect(),
            Self::Gauntlet => (1..n).map(|b| (0, b)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::games::ludo::Ludo;

    fn exp(toml_text: &str) -> Experiment {
        toml::from_str::<ExperimentFile>(toml_text)
            .unwrap()
            .resolve()
    }

    #[test]
    fn defaults_give_the_built_in_experiment() {
        let e = ExperimentFile::default().resolve();
        assert_eq!(
            (e.game.as_str(), e.games, e.seed),
            ("ludo", DEFAULT_GAMES, DEFAULT_SEED)
        );
        let plan = Plan::<Ludo>::new(&e).unwrap();
        assert_eq!(plan.groups, DEFAULT_GAMES / 4);
    }

    #[test]
    fn flags_override_the_file() {
        let file = toml::from_str::<ExperimentFile>("games = 10\nseed = 3").unwrap();
        let flags = ExperimentFile {
            seed: Some(9),
            ..Default::default()
        };
        let e = file.overridden_by(flags).resolve();
        assert_eq!((e.games, e.seed), (10, 9));
    }

    #[test]
    fn games_round_up_to_whole_rotations() {
        let plan = Plan::<Ludo>::new(&exp("games = 10")).unwrap();
        assert_eq!(
            (plan.design, plan.groups, plan.games()),
            (Design::Rotation, 3, 12)
        );
    }

    #[test]
    fn one_deterministic_agent_in_every_seat_plays_each_game_once() {
        let plan = |t: &str| Plan::<Ludo>::new(&exp(t)).unwrap();
        let mirror = plan("games = 10\nagents = ['hard', 'hard', 'hard', 'hard']");
        assert_eq!(
            (mirror.design, mirror.groups, mirror.games()),
            (Design::Mirror, 10, 10)
        );
        let clock =
            plan("games = 10\nagents = ['hard', 'hard', 'hard', 'hard']\ntime_control = 'player'");
        assert_eq!(clock.design, Design::Rotation);
        let mixed = plan("games = 10\nagents = ['hard', 'hard', 'hard', 'easy']");
        assert_eq!(mixed.design, Design::Rotation);
    }

    #[test]
    fn adjudication_is_off_by_default_and_flags_override_it_rule_by_rule() {
        use engine::adjudicate::{Draw, Resign};
        use engine::games::hnefatafl::Hnefatafl;
        let plan = |e: &Experiment| Plan::<Hnefatafl>::new(e).unwrap();
        let base = "game = 'hnefatafl'\nagents = ['hard', 'hard']\n";
        assert!(plan(&exp(base)).adjudication.is_off());
        let file = toml::from_str::<ExperimentFile>(&format!(
            "{base}[adjudication]\nresign = {{ movecount = 4, score = 2000 }}\ndraw = {{ movecount = 8, score = 10 }}"
        ))
        .unwrap();
        let draw = Draw {
            movenumber: 40,
            movecount: 6,
            score: 20,
        };
        let flags = ExperimentFile {
            adjudication: Some(Adjudication {
                resign: None,
                draw: Some(draw),
            }),
            ..ExperimentFile::default()
        };
        let rules = plan(&file.overridden_by(flags).resolve()).adjudication;
        let resign = Resign {
            movecount: 4,
            score: 2000,
        };
        assert_eq!((rules.resign, rules.draw), (Some(resign), Some(draw)));
    }

    #[test]
    fn bad_experiments_say_what_is_wrong() {
        let err = |t: &str| Plan::<Ludo>::new(&exp(t)).unwrap_err().to_string();
        assert_eq!(
            err("agents = ['easy', 'hard']"),
            "ludo needs 4 agents (one per seat), got 2: give them as --agents a,b,..."
        );
        assert!(err("games = 0").contains("at least 1"));
        assert!(err("[options]\nroll_cap = 0").contains("roll_cap"));
        assert!(err("[options]\nroll_limit = 5").contains("unknown field `roll_limit`"));
        let blitz = toml::from_str::<ExperimentFile>("time_control = 'blitz'").unwrap_err();
        assert!(blitz.to_string().contains("expected `batch` or `player`"));
        assert!(toml::from_str::<ExperimentFile>("gmaes = 3").is_err());
    }
}
