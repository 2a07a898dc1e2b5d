//! One game in progress, as the browser API sees it: the same for every game, reached through
//! the engine's registry. Plain Rust (no JavaScript types), so that the native tests exercise
//! exactly the logic the WebAssembly package runs.

use engine::error::quote;
use engine::{
    Agent, AgentSetup, Analysis, Clock, Context, Game, GameVisitor, Level, RandomStream,
    TimeControl, game_seed, visit_game,
};
use serde::{Deserialize, Serialize};

/// Bad input from the page: the message becomes the text of a JavaScript `Error`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebError(pub String);

impl core::fmt::Display for WebError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl core::error::Error for WebError {}

fn error<T>(message: impl Into<String>) -> Result<T, WebError> {
    Err(WebError(message.into()))
}

/// The seed as JavaScript can write it: a number (exact up to 2^53) or a decimal string.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
enum Seed {
    Number(u64),
    Text(String),
}

impl Seed {
    fn value(&self) -> Result<u64, WebError> {
        match self {
            Self::Number(n) => Ok(*n),
            Self::Text(t) => t.trim().parse().map_err(|_| {
                WebError(format!(
                    "seed {} is not a whole number from 0 to 2^64-1",
                    quote(t)
                ))
            }),
        }
    }
}

/// How a game starts. The game with master `seed` and seed group `group` is the one
/// `koom play --seed SEED --index I` plays for `I = group * seats + rotation` (the rotation only
/// decides which agent sits where): same dice, same tie-break streams.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Config {
    seed: Seed,
    #[serde(default)]
    group: u64,
    /// Number of seats; the game's smallest when absent.
    seats: Option<usize>,
    /// Rule options, as in an experiment config's `[options]` table.
    #[serde(default)]
    options: Option<serde_json::Value>,
    /// A start position in the game's notation (the games that have one).
    position: Option<String>,
}

impl Config {
    /// Reads the configuration from JSON text.
    pub fn from_json(text: &str) -> Result<Self, WebError> {
        serde_json::from_str(text).map_err(|e| WebError(format!("malformed game config: {e}")))
    }
}

/// A computer level as the page lists it.
#[derive(Clone, Debug, Serialize)]
pub struct LevelInfo {
    pub name: &'static str,
    pub summary: &'static str,
}

/// What the page needs to know about a game before it starts one.
#[derive(Clone, Debug, Serialize)]
pub struct GameInfo {
    pub name: &'static str,
    pub seats: [usize; 2],
    pub levels: Vec<LevelInfo>,
    pub reasons: Vec<&'static str>,
    /// Whether the game draws dice (its records replay only with the run's master seed).
    pub dice: bool,
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameResult {
    /// Seats that won (several: a shared win; none: a draw or no result).
    pub winners: Vec<usize>,
    pub no_result: bool,
    /// Why the game ended, in the game's words.
    pub reason: &'static str,
    /// Each seat's points, for games scored in points.
    pub points: Option<Vec<i32>>,
}

/// A snapshot of everything the page draws.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameState {
    pub game: &'static str,
    pub seats: usize,
    /// The seat to choose, `None` once the game is over.
    pub to_move: Option<usize>,
    /// The position in the game's notation (its text picture where it has none).
    pub position: String,
    pub legal_moves: Vec<String>,
    /// The moves played so far, in koom's notation.
    pub moves: Vec<String>,
    pub result: Option<GameResult>,
}

/// A level's choice for the seat to move.
#[derive(Clone, Debug, Serialize)]
pub struct Hint {
    #[serde(rename = "move")]
    pub mv: String,
    pub level: &'static str,
    /// The level's score for the move (`Agent::analyse`: a searcher's evaluation from the
    /// mover's side, a dice level's move value); `None` for a level that does not score.
    pub score: Option<f64>,
    /// The principal variation in koom's notation, the move first.
    pub pv: Vec<String>,
    /// The last completed search depth in plies (0 for a level that does not search).
    pub depth: u32,
    /// Nodes searched (0 for a level that does not search).
    pub nodes: u64,
}

/// The game-independent face of a [`Session`], so that one JavaScript class serves every game.
pub trait AnySession {
    fn state(&self) -> GameState;
    /// Checks and plays a move given in the game's notation; returns it as koom writes it.
    fn play(&mut self, text: &str) -> Result<String, WebError>;
    /// What `level` would play for the seat to move under `budget`. The game, its streams and
    /// the playing agents stay untouched, so hints never change the computer's moves.
    fn hint(&mut self, level: &str, budget: Budget, clock: &dyn Clock) -> Result<Hint, WebError>;
    /// The computer's move: `level` chooses for the seat to move, with that seat's tie-break
    /// stream and agent (as `koom play` does), and the move is played.
    fn play_level(
        &mut self,
        level: &str,
        budget: Budget,
        clock: &dyn Clock,
    ) -> Result<Hint, WebError>;
    /// Takes back the last move; `false` at the start.
    fn undo(&mut self) -> bool;
    /// The narration (rolls, moves, captures) written since the last call.
    fn take_narration(&mut self) -> String;
}

/// What a move changes, kept to take it back.
struct Snapshot<G> {
    game: G,
    dice: RandomStream,
    tie_breaks: Vec<RandomStream>,
    narration: usize,
}

/// One agent per seat and level, kept for the whole game as `koom play` keeps its agents (a
/// searching level may remember earlier positions).
struct SeatAgent<G: Game> {
    seat: usize,
    setup: AgentSetup<G>,
    agent: Box<dyn Agent<G>>,
}

/// A game in progress with its seeded streams, history and agents.
pub struct Session<G: Game> {
    game: G,
    dice: RandomStream,
    tie_breaks: Vec<RandomStream>,
    seats: usize,
    history: Vec<Snapshot<G>>,
    moves: Vec<String>,
    narration: String,
    read: usize,
    /// The agents that play the computer's moves.
    agents: Vec<SeatAgent<G>>,
    /// The agents that answer hints, apart so that a hint leaves no trace in the game.
    hint_agents: Vec<SeatAgent<G>>,
}

impl<G: Game> core::fmt::Debug for Session<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Session")
            .field("game", &G::NAME)
            .field("moves", &self.moves)
            .finish_non_exhaustive()
    }
}

impl<G: Game> Session<G> {
    /// Starts a game as the seeded runner does ([`engine::selfplay::SeededGame`]).
    pub fn new(config: &Config) -> Result<Self, WebError> {
        let (min, max) = G::SEATS;
        let seats = config.seats.unwrap_or(min);
        if !(min..=max).contains(&seats) {
            let accepted = if min == max {
                format!("{min}")
            } else {
                format!("{min} to {max}")
            };
            return error(format!(
                "{} is played by {accepted} seats, not {seats}",
                G::NAME
            ));
        }
        let options: G::Options = match &config.options {
            None => G::Options::default(),
            Some(value) => serde_json::from_value(value.clone())
                .map_err(|e| WebError(format!("malformed {} options: {e}", G::NAME)))?,
        };
        G::check_options(&options).map_err(|e| WebError(format!("{}: {e}", G::NAME)))?;
        let seed = game_seed(config.seed.value()?, config.group);
        let mut dice = RandomStream::dice(seed);
        let mut narration = String::new();
        let game = match &config.position {
            None => G::new(&options, seats, &mut dice, &mut narration),
            Some(text) => G::from_position(text, &options).map_err(|e| {
                WebError(format!(
                    "{} position {}: {}",
                    G::NAME,
                    quote(text),
                    e.reason()
                ))
            })?,
        };
        Ok(Self {
            game,
            dice,
            tie_breaks: (0..seats)
                .map(|s| RandomStream::tie_break(seed, s))
                .collect(),
            seats,
            history: Vec::new(),
            moves: Vec::new(),
            narration,
            read: 0,
            agents: Vec::new(),
            hint_agents: Vec::new(),
        })
    }

    fn legal(&self) -> G::MoveList {
        let mut moves = G::MoveList::default();
        if self.game.outcome().is_none() {
            self.game.legal_moves(&mut moves);
        }
        moves
    }

    fn result(&self) -> Option<GameResult> {
        self.game.outcome().map(|o| GameResult {
            winners: o.winners.iter().collect(),
            no_result: o.no_result,
            reason: o.reason.name(),
            points: self.game.points().map(|p| p[..self.seats].to_vec()),
        })
    }

    /// `analysis` (of the current position) as the choice of `level`.
    fn hint_of(&self, level: &Level<G>, analysis: &Analysis<G::Move>) -> Hint {
        Hint {
            mv: self.game.format_move(analysis.best),
            level: level.name,
            score: analysis.score,
            pv: engine::move_texts(&self.game, &analysis.pv),
            depth: analysis.depth,
            nodes: analysis.nodes,
        }
    }

    fn ensure_running(&self) -> Result<(), WebError> {
        match self.result() {
            Some(result) => error(format!(
                "the {} game is over ({}): no more moves",
                G::NAME,
                result.reason
            )),
            None => Ok(()),
        }
    }

    fn apply(&mut self, mv: G::Move) -> String {
        let text = self.game.format_move(mv);
        self.history.push(Snapshot {
            game: self.game.clone(),
            dice: self.dice.clone(),
            tie_breaks: self.tie_breaks.clone(),
            narration: self.narration.len(),
        });
        self.game.play(mv, &mut self.dice, &mut self.narration);
        self.moves.push(text.clone());
        text
    }
}

/// The analysis of the agent of `setup` for the seat to move (its move, score and PV), drawing
/// its ties from `rng`; `Agent::analyse` makes the same move, draws and state as `choose`.
fn choose<G: Game>(
    game: &G,
    agents: &mut Vec<SeatAgent<G>>,
    setup: AgentSetup<G>,
    rng: &mut RandomStream,
    clock: &dyn Clock,
) -> Analysis<G::Move> {
    let mut moves = G::MoveList::default();
    game.legal_moves(&mut moves);
    seat_agent(agents, game.to_move(), setup).analyse(game, &moves, &mut Context { rng, clock })
}

/// The agent of `setup` for `seat`, built (and started on a new game) on first use.
fn seat_agent<G: Game>(
    agents: &mut Vec<SeatAgent<G>>,
    seat: usize,
    setup: AgentSetup<G>,
) -> &mut dyn Agent<G> {
    let index = match agents
        .iter()
        .position(|a| a.seat == seat && a.setup == setup)
    {
        Some(i) => i,
        None => {
            let mut agent = setup.agent();
            agent.new_game();
            agents.push(SeatAgent { seat, setup, agent });
            agents.len() - 1
        }
    };
    agents[index].agent.as_mut()
}

/// What a level may spend on one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// The level's own budget: its node budget (`Batch`, reproducible) or the app's time limit
    /// (`Player`).
    Level(TimeControl),
    /// A node budget: the level's `nodes` search parameter.
    Nodes(f64),
    /// A time budget in milliseconds on the injected clock: the level's `time_ms` parameter.
    TimeMs(f64),
}

impl Budget {
    /// Reads `"batch"`, `"player"`, `{"nodes": N}` or `{"timeMs": N}`.
    pub fn from_json(text: &str) -> Result<Self, WebError> {
        let bad = || {
            WebError(format!(
                "budget {} is not \"batch\", \"player\", {{\"nodes\": N}} or {{\"timeMs\": N}}",
                quote(text)
            ))
        };
        let value: serde_json::Value = serde_json::from_str(text).map_err(|_| bad())?;
        match value {
            serde_json::Value::String(s) if s == "batch" => Ok(Self::Level(TimeControl::Batch)),
            serde_json::Value::String(s) if s == "player" => Ok(Self::Level(TimeControl::Player)),
            serde_json::Value::Object(o) if o.len() == 1 => {
                let (key, n) = o.iter().next().ok_or_else(bad)?;
                let n = n.as_f64().ok_or_else(bad)?;
                match key.as_str() {
                    "nodes" => Ok(Self::Nodes(n)),
                    "timeMs" => Ok(Self::TimeMs(n)),
                    _ => Err(bad()),
                }
            }
            _ => Err(bad()),
        }
    }
}

/// The level called `name` (case-insensitive) under `budget`. A node or time budget sets the
/// level's search parameter of that name, so it applies to any level whose weight set has one.
fn level_setup<G: Game>(name: &str, budget: Budget) -> Result<AgentSetup<G>, WebError> {
    let level = Level::<G>::named(name).map_err(|e| WebError(e.to_string()))?;
    let set = level.weights;
    let mut weights = set.map_or_else(Vec::new, |w| w.defaults());
    let (time_control, param) = match budget {
        Budget::Level(tc) => (tc, None),
        Budget::Nodes(n) => (TimeControl::Batch, Some(("nodes", n))),
        Budget::TimeMs(ms) => (TimeControl::Player, Some(("time_ms", ms))),
    };
    if let Some((param, value)) = param {
        let no_budget = || {
            WebError(format!(
                "{} level `{}` has no `{param}` budget",
                G::NAME,
                level.name
            ))
        };
        let set = set.ok_or_else(no_budget)?;
        weights[set.index_of(param).ok_or_else(no_budget)?] = value;
        set.check(&weights)
            .map_err(|e| WebError(format!("{} level `{}`: {e}", G::NAME, level.name)))?;
    }
    Ok(AgentSetup {
        level,
        weights,
        time_control,
        network: None,
    })
}

impl<G: Game> AnySession for Session<G> {
    fn state(&self) -> GameState {
        let over = self.game.outcome().is_some();
        GameState {
            game: G::NAME,
            seats: self.seats,
            to_move: (!over).then(|| self.game.to_move()),
            position: self.game.position().unwrap_or_else(|| self.game.render()),
            legal_moves: self
                .legal()
                .iter()
                .map(|&m| self.game.format_move(m))
                .collect(),
            moves: self.moves.clone(),
            result: self.result(),
        }
    }

    fn play(&mut self, text: &str) -> Result<String, WebError> {
        self.ensure_running()?;
        let mv = self.game.parse_move(text).map_err(|_| {
            WebError(format!(
                "illegal {} move {} for seat {} ({} legal moves here)",
                G::NAME,
                quote(text),
                self.game.to_move(),
                self.legal().len()
            ))
        })?;
        Ok(self.apply(mv))
    }

    fn hint(&mut self, level: &str, budget: Budget, clock: &dyn Clock) -> Result<Hint, WebError> {
        self.ensure_running()?;
        let setup = level_setup::<G>(level, budget)?;
        let seat = self.game.to_move();
        let mut rng = self.tie_breaks[seat].clone();
        let level = setup.level;
        let analysis = choose(&self.game, &mut self.hint_agents, setup, &mut rng, clock);
        Ok(self.hint_of(level, &analysis))
    }

    fn play_level(
        &mut self,
        level: &str,
        budget: Budget,
        clock: &dyn Clock,
    ) -> Result<Hint, WebError> {
        self.ensure_running()?;
        let setup = level_setup::<G>(level, budget)?;
        let seat = self.game.to_move();
        let rng = &mut self.tie_breaks[seat];
        let level = setup.level;
        let analysis = choose(&self.game, &mut self.agents, setup, rng, clock);
        let hint = self.hint_of(level, &analysis);
        self.apply(analysis.best);
        Ok(hint)
    }

    fn undo(&mut self) -> bool {
        let Some(snapshot) = self.history.pop() else {
            return false;
        };
        self.game = snapshot.game;
        self.dice = snapshot.dice;
        self.tie_breaks = snapshot.tie_breaks;
        self.narration.truncate(snapshot.narration);
        self.read = self.read.min(snapshot.narration);
        self.moves.pop();
        // An agent's memory of the game (repetitions, tables) would now be ahead of the board.
        self.agents.clear();
        self.hint_agents.clear();
        true
    }

    fn take_narration(&mut self) -> String {
        let new = self.narration[self.read..].to_owned();
        self.read = self.narration.len();
        new
    }
}

/// Starts a game by name.
struct Start<'a>(&'a Config);

impl GameVisitor for Start<'_> {
    type Output = Result<Box<dyn AnySession>, WebError>;

    fn visit<G: Game>(self) -> Self::Output {
        Ok(Box::new(Session::<G>::new(self.0)?))
    }
}

/// Starts the game called `name` (case-insensitive).
pub fn start(name: &str, config: &Config) -> Result<Box<dyn AnySession>, WebError> {
    visit_game(name, Start(config)).map_err(|e| WebError(e.to_string()))?
}

struct Describe;

impl GameVisitor for Describe {
    type Output = GameInfo;

    fn visit<G: Game>(self) -> GameInfo {
        GameInfo {
            name: G::NAME,
            seats: [G::SEATS.0, G::SEATS.1],
            levels: G::levels()
                .iter()
                .map(|l| LevelInfo {
                    name: l.name,
                    summary: l.summary,
                })
                .collect(),
            reasons: engine::Ending::<G::Reason>::names().collect(),
            dice: G::HAS_DICE,
        }
    }
}

/// Every game with its seats, levels and end reasons.
#[must_use]
pub fn games() -> Vec<GameInfo> {
    engine::GAME_NAMES
        .iter()
        .filter_map(|name| visit_game(name, Describe).ok())
        .collect()
}

/// A record to replay, as the page's "load record" box reads it: a line of `koom run --records`
/// (read by [`engine::record::Record::parse`], the reader the command line uses) or a plain
/// move list (commas or new lines).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Record {
    /// The game's seed group in the run (`None` for a move list).
    pub group: Option<u64>,
    /// The agents, in seat order (empty for a move list): their number is the seat count.
    pub agents: Vec<String>,
    /// The recorded result and reason, as `koom run` wrote them.
    pub result: Option<String>,
    pub reason: Option<String>,
    /// The starting position (`None`: the game's start).
    pub start: Option<String>,
    pub moves: Vec<String>,
}

/// Reads the text of the "load record" box; the error names the wrong field.
pub fn parse_record(text: &str) -> Result<Record, WebError> {
    let text = text.trim_matches(['\n', '\r', ' ']);
    if !text.contains('\t') {
        return Ok(Record {
            moves: text
                .split([',', '\n'])
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(str::to_owned)
                .collect(),
            ..Record::default()
        });
    }
    let record = engine::record::Record::parse(text).map_err(|e| WebError(e.to_string()))?;
    Ok(Record {
        group: Some(record.group),
        agents: record.agents,
        result: Some(record.result),
        reason: Some(record.reason),
        start: record.start,
        moves: record.moves,
    })
}
