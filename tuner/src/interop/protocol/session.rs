//! The engine side of the protocol: one level answering commands (`koom engine`).

use engine::{Agent, AgentSetup, Analysis, Clock, Context, Game, NoLog, RandomStream};

use super::{Command, VERSION, parse_command};
use engine::move_texts;

/// Whether to read another line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// A level of game `G` behind the protocol. It holds the position the controller set and
/// answers each command with zero or more lines; it never panics on any input line.
pub struct EngineSession<G: Game> {
    name: String,
    agent: Box<dyn Agent<G>>,
    options: G::Options,
    seats: usize,
    game: G,
    /// The tie-break stream, restarted at each `newgame` so that a game replays exactly.
    rng: RandomStream,
}

impl<G: Game> std::fmt::Debug for EngineSession<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineSession")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl<G: Game> EngineSession<G> {
    /// A session of the level `setup`, called `name` in the handshake.
    #[must_use]
    pub fn new(name: String, setup: &AgentSetup<G>, options: G::Options) -> Self {
        let seats = G::SEATS.0;
        Self {
            name,
            agent: setup.agent(),
            game: Self::initial(&options, seats),
            options,
            seats,
            rng: RandomStream::tie_break(0, 0),
        }
    }

    fn initial(options: &G::Options, seats: usize) -> G {
        G::new(options, seats, &mut RandomStream::dice(0), &mut NoLog)
    }

    /// Answers one line: the lines to write back, and whether to go on.
    pub fn handle(&mut self, line: &str, clock: &dyn Clock) -> (Vec<String>, Flow) {
        let command = match parse_command(line) {
            Ok(command) => command,
            Err(e) => return (vec![format!("error {e}")], Flow::Continue),
        };
        let lines = match command {
            Command::Hello => vec![
                format!("id name koom {}", self.name),
                format!("id game {}", G::NAME),
                format!("protocol {VERSION}"),
                "koom-protocol-ok".to_owned(),
            ],
            Command::IsReady => vec!["readyok".to_owned()],
            Command::NewGame => {
                self.agent.new_game();
                self.rng = RandomStream::tie_break(0, 0);
                self.game = Self::initial(&self.options, self.seats);
                Vec::new()
            }
            Command::Quit => return (Vec::new(), Flow::Quit),
            Command::Position { text, moves } => self.set_position(text.as_deref(), &moves),
            Command::Dice(roll) => match self.game.set_roll(&roll) {
                Ok(()) => Vec::new(),
                Err(e) => vec![format!("error dice {roll}: {e}")],
            },
            Command::Go(budget) => {
                self.agent.set_budget(budget);
                self.go(clock)
            }
        };
        (lines, Flow::Continue)
    }

    fn set_position(&mut self, text: Option<&str>, moves: &[String]) -> Vec<String> {
        let start = match text {
            None => Ok(Self::initial(&self.options, self.seats)),
            Some(text) => G::from_position(text, &self.options),
        };
        let mut game = match start {
            Ok(game) => game,
            Err(e) => return vec![format!("error position: {e}")],
        };
        let mut dice = RandomStream::dice(0);
        for (i, text) in moves.iter().enumerate() {
            if game.outcome().is_some() {
                return vec![format!("error move {} `{text}`: the game is over", i + 1)];
            }
            match game.parse_move(text) {
                Ok(mv) => game.play(mv, &mut dice, &mut NoLog),
                Err(e) => return vec![format!("error move {} `{text}`: {e}", i + 1)],
            }
        }
        self.game = game;
        Vec::new()
    }

    fn go(&mut self, clock: &dyn Clock) -> Vec<String> {
        if self.game.outcome().is_some() {
            return vec!["error go: the game is over, there is no move to choose".to_owned()];
        }
        let mut moves = G::MoveList::default();
        self.game.legal_moves(&mut moves);
        let started = clock.now_ms();
        let analysis = self.agent.analyse(
            &self.game,
            &moves,
            &mut Context {
                rng: &mut self.rng,
                clock,
            },
        );
        let time = clock.now_ms().saturating_sub(started);
        info_lines(&self.game, &analysis, time)
    }
}

/// The `info` lines and the `bestmove` of an analysis.
fn info_lines<G: Game>(game: &G, a: &Analysis<G::Move>, time_ms: u64) -> Vec<String> {
    let mut lines = Vec::with_capacity(a.values.len() + 2);
    for &(mv, value) in &a.values {
        lines.push(format!("info value {value} move {}", game.format_move(mv)));
    }
    let mut info = format!("info depth {} nodes {} time {time_ms}", a.depth, a.nodes);
    if let Some(score) = a.score {
        info.push_str(&format!(" score {score}"));
    }
    info.push_str(&format!(" pv {}", move_texts(game, &a.pv).join(", ")));
    lines.push(info);
    lines.push(format!("bestmove {}", game.format_move(a.best)));
    lines
}
