//! The engine side of the Hnefatafl Text Protocol: one Hnefatafl level answering HTP commands
//! (`koom engine --game hnefatafl --protocol htp`).
//!
//! Unlike koom's own protocol, HTP sends the game move by move (`play`), and `generate_move`
//! plays the chosen move on the engine's board as GTP's `genmove` does; the session therefore
//! holds the game in progress and checks every move against the side to move.

use engine::games::hnefatafl::{Hnefatafl, HnefataflOptions, MoveList, Square, square_name};
use engine::{Agent, AgentSetup, Budget, Clock, Context, NoLog, RandomStream};

use super::Flow;
use super::htp::{
    COMMANDS, Fischer, HtpCommand, HtpError, PROTOCOL_VERSION, parse_command, response, role_name,
};
use engine::Notation;
use engine::Rules;

/// Why the session refuses a command: the text it answers after `? `.
#[derive(Debug, thiserror::Error)]
enum Refusal {
    /// The line is not a command.
    #[error(transparent)]
    Command(#[from] HtpError),
    /// A board size other than 11.
    #[error("board_size {}: koom plays Copenhagen Hnefatafl on 11×11 only", super::shorten(.0))]
    BoardSize(String),
    /// A move or resignation after the end; the final status.
    #[error("the game is over ({0})")]
    GameOver(&'static str),
    /// A command for the side not to move.
    #[error("it is the {}'s turn, not the {}'s", role_name(*.to_move), role_name(*.seat))]
    NotTheirTurn { to_move: usize, seat: usize },
    /// A move the position does not allow.
    #[error(transparent)]
    Move(#[from] engine::ParseError),
    /// `play_to` from a square with no piece of the side that can move.
    #[error("no piece of the {} on `{}` can move", role_name(*.seat), super::shorten(.from))]
    CannotMove { seat: usize, from: String },
}

/// A Hnefatafl level behind HTP. It never panics on any input line.
pub struct HtpSession {
    name: String,
    agent: Box<dyn Agent<Hnefatafl>>,
    options: HnefataflOptions,
    game: Hnefatafl,
    /// The seat that resigned (`play ROLE resigns`), which ends the game.
    resigned: Option<usize>,
    /// `time_settings fischer`: the increment, and each side's time left (spent only by this
    /// engine's own searches, which is all it can measure).
    clock: Option<(Fischer, [u64; 2])>,
    /// The tie-break stream, restarted with each new game so that a game replays exactly.
    rng: RandomStream,
}

impl std::fmt::Debug for HtpSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HtpSession")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl HtpSession {
    /// A session of the level `setup`, called `name` in answer to `name`.
    #[must_use]
    pub fn new(name: String, setup: &AgentSetup<Hnefatafl>, options: HnefataflOptions) -> Self {
        Self {
            name,
            agent: setup.agent(),
            game: Self::initial(&options),
            options,
            resigned: None,
            clock: None,
            rng: RandomStream::tie_break(0, 0),
        }
    }

    fn initial(options: &HnefataflOptions) -> Hnefatafl {
        Hnefatafl::new(options, 2, &mut RandomStream::dice(0), &mut NoLog)
    }

    fn reset(&mut self) {
        self.agent.new_game();
        self.rng = RandomStream::tie_break(0, 0);
        self.game = Self::initial(&self.options);
        self.resigned = None;
        if let Some((fischer, left)) = &mut self.clock {
            *left = [fischer.start_ms; 2];
        }
    }

    /// Answers one line: the lines to write back (a response ends with an empty line; an empty
    /// or comment line gets none), and whether to go on.
    pub fn handle(&mut self, line: &str, clock: &dyn Clock) -> (Vec<String>, Flow) {
        let answer = match parse_command(line) {
            Ok(HtpCommand::Empty) => return (Vec::new(), Flow::Continue),
            Ok(HtpCommand::Quit) => return (response(true, ""), Flow::Quit),
            Ok(command) => self.answer(command, clock),
            Err(e) => Err(Refusal::Command(e)),
        };
        let lines = match answer {
            Ok(text) => response(true, &text),
            Err(why) => response(false, &why.to_string()),
        };
        (lines, Flow::Continue)
    }

    fn answer(&mut self, command: HtpCommand, clock: &dyn Clock) -> Result<String, Refusal> {
        match command {
            // Answered by `handle` before it gets here (no answer; the end of the session).
            HtpCommand::Empty | HtpCommand::Quit => Ok(String::new()),
            HtpCommand::BoardSize(size) if size == "11" => {
                self.reset();
                Ok(String::new())
            }
            HtpCommand::BoardSize(size) => Err(Refusal::BoardSize(size)),
            HtpCommand::Reset => {
                self.reset();
                Ok(String::new())
            }
            HtpCommand::FinalStatus => Ok(self.final_status().to_owned()),
            HtpCommand::GenerateMove(seat) => self.generate_move(seat, clock),
            HtpCommand::KnownCommand(name) => Ok(COMMANDS.contains(&name.as_str()).to_string()),
            HtpCommand::ListCommands => Ok(COMMANDS.join("\n")),
            HtpCommand::Name => Ok(format!("koom {}", self.name)),
            HtpCommand::Play { seat, from, to } => self.play(seat, &format!("{from}-{to}")),
            HtpCommand::Resign(_) if self.final_status() != "ongoing" => {
                Err(Refusal::GameOver(self.final_status()))
            }
            HtpCommand::Resign(seat) => {
                self.resigned = Some(seat);
                Ok(String::new())
            }
            HtpCommand::PlayFrom => self.play_from(),
            HtpCommand::PlayTo { seat, from } => self.play_to(seat, &from),
            HtpCommand::ProtocolVersion => Ok(PROTOCOL_VERSION.to_owned()),
            HtpCommand::ShowBoard => Ok(self.game.render()),
            HtpCommand::TimeSettings(fischer) => {
                self.clock = fischer.map(|f| (f, [f.start_ms; 2]));
                Ok(String::new())
            }
            HtpCommand::Version => Ok(env!("CARGO_PKG_VERSION").to_owned()),
        }
    }

    fn final_status(&self) -> &'static str {
        if let Some(seat) = self.resigned {
            return if seat == 0 {
                "defender_wins"
            } else {
                "attacker_wins"
            };
        }
        match self.game.outcome().map(|o| o.sole_winner()) {
            None => "ongoing",
            Some(Some(0)) => "attacker_wins",
            Some(Some(_)) => "defender_wins",
            Some(None) => "draw",
        }
    }

    /// Refuses a command for `seat` when the game is over or the other side is to move.
    fn check_turn(&self, seat: usize) -> Result<(), Refusal> {
        if self.final_status() != "ongoing" {
            return Err(Refusal::GameOver(self.final_status()));
        }
        let to_move = self.game.to_move();
        if seat != to_move {
            return Err(Refusal::NotTheirTurn { to_move, seat });
        }
        Ok(())
    }

    /// Plays the move and answers the squares it captured, `d4 e3`; the king's square too when
    /// the move captures him, as hnefatafl-copenhagen answers (its `capture_the_king` adds it).
    fn play(&mut self, seat: usize, text: &str) -> Result<String, Refusal> {
        self.check_turn(seat)?;
        let mv = self.game.parse_move(text)?;
        let king = self.game.board().king;
        let capture = self.game.apply(mv);
        let squares: Vec<String> = (0..121)
            .map(Square::from_index)
            .filter(|&s| capture.soldiers >> s.index() & 1 != 0 || (capture.king && s == king))
            .map(square_name)
            .collect();
        Ok(squares.join(" "))
    }

    fn generate_move(&mut self, seat: Option<usize>, clock: &dyn Clock) -> Result<String, Refusal> {
        let seat = seat.unwrap_or_else(|| self.game.to_move());
        self.check_turn(seat)?;
        let mut moves = MoveList::new();
        self.game.legal_moves(&mut moves);
        let budget = self
            .clock
            .map_or_else(Budget::default, |(fischer, left)| Budget {
                time_ms: Some((left[seat] / 20 + fischer.add_ms).min(left[seat]).max(1)),
                ..Budget::default()
            });
        self.agent.set_budget(budget);
        let started = clock.now_ms();
        let mv = self.agent.choose(
            &self.game,
            &moves,
            &mut Context {
                rng: &mut self.rng,
                clock,
            },
        );
        if let Some((fischer, left)) = &mut self.clock {
            let spent = clock.now_ms().saturating_sub(started);
            left[seat] = left[seat].saturating_sub(spent) + fischer.add_ms;
        }
        let text = super::htp::play_text(seat, &self.game.format_move(mv));
        self.game.apply(mv);
        Ok(text)
    }

    /// The role to move and the squares of its pieces that can move.
    fn play_from(&self) -> Result<String, Refusal> {
        self.check_turn(self.game.to_move())?;
        let mut moves = MoveList::new();
        self.game.legal_moves(&mut moves);
        let mut from: Vec<Square> = moves.iter().map(|mv| mv.from).collect();
        from.sort_unstable();
        from.dedup();
        let names: Vec<String> = from.into_iter().map(square_name).collect();
        Ok(format!(
            "{} {}",
            role_name(self.game.to_move()),
            names.join(" ")
        ))
    }

    /// The squares the piece on `from` can reach.
    fn play_to(&self, seat: usize, from: &str) -> Result<String, Refusal> {
        self.check_turn(seat)?;
        let mut moves = MoveList::new();
        self.game.legal_moves(&mut moves);
        let to: Vec<String> = moves
            .iter()
            .filter(|mv| square_name(mv.from).eq_ignore_ascii_case(from))
            .map(|mv| square_name(mv.to))
            .collect();
        if to.is_empty() {
            return Err(Refusal::CannotMove {
                seat,
                from: from.to_owned(),
            });
        }
        Ok(to.join(" "))
    }
}
