//! `koom connect`: a Hnefatafl level playing on a hnefatafl-copenhagen server, as that
//! project's AI client (`taflzero`) does: log in, offer a game (or ask to join one), accept the
//! challenger, then answer each `generate_move` with a move and follow the opponent's moves,
//! until the server says the game is over (`docs/engine-protocol.md`, "The hnefatafl-copenhagen
//! server").
//!
//! The server holds the game and its rules; koom keeps its own copy to search in. The two rule
//! sets differ in places (the server's defenders may not repeat a board, its games are drawn
//! after 141 plies, and it knows an attackers' win koom does not). The first is followed here,
//! since it restricts koom's own moves; for the others the server's word is final, and the
//! report notes where koom's copy disagreed.

pub mod wire;

use std::collections::HashSet;
use std::io::{BufRead, ErrorKind, Write};

use engine::games::hnefatafl::{
    Board, EvalWeights, Evaluation, Hnefatafl, HnefataflOptions, Move, MoveList, Side,
};
use engine::{Agent, AgentSetup, Clock, Context, NoLog, RandomStream};

use crate::interop::protocol::htp::role_name;
use crate::interop::protocol::line::read_line;
use engine::Notation;
use engine::Rules;
pub use wire::{DEFAULT_PORT, GameId, Message};

/// How the client logs in.
#[derive(Clone, Debug)]
pub struct Account {
    pub username: String,
    pub password: String,
    /// Create the account (`create_account`) instead of logging in to it.
    pub create: bool,
}

/// How the client finds each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seek {
    /// Offer an un-timed game, koom playing `seat`, and accept whoever challenges.
    Offer { seat: usize, rated: bool },
    /// Ask to play in the waiting game with this id.
    Join(GameId),
}

/// Why the client stopped.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("network: {0}")]
    Io(#[from] std::io::Error),
    #[error("the server closed the connection")]
    Closed,
    /// Nothing came within the stream's read timeout (`koom connect --read-timeout`).
    #[error("the server sent nothing within the read timeout (koom connect --read-timeout)")]
    Silent,
    #[error("the server refused `{command}`: {why}")]
    Refused { command: String, why: String },
    #[error("the server broke the protocol: {0}")]
    Protocol(String),
}

/// One game played on the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    pub id: GameId,
    /// koom's seat: 0 the attackers, 1 the defenders.
    pub seat: usize,
    pub opponent: String,
    /// The winner's seat as the server declared it; `None`: a draw.
    pub winner: Option<usize>,
    /// Every move of the game in koom's notation (captures included).
    pub moves: Vec<String>,
    /// Where koom's copy of the game disagreed with the server, in words.
    pub notes: Vec<String>,
}

/// Sees every line of a connection, `true` for the ones sent (`koom connect --verbose`).
pub type Trace = Box<dyn FnMut(bool, &str)>;

/// A line connection to the server.
pub struct Connection<R, W> {
    reader: R,
    writer: W,
    trace: Trace,
    /// The line being read, reused (bounded by the protocol's line cap).
    buf: Vec<u8>,
}

impl<R, W> std::fmt::Debug for Connection<R, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection").finish_non_exhaustive()
    }
}

impl<R: BufRead, W: Write> Connection<R, W> {
    pub fn new(reader: R, writer: W, trace: Trace) -> Self {
        Self {
            reader,
            writer,
            trace,
            buf: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) -> Result<(), ConnectError> {
        (self.trace)(true, line);
        writeln!(self.writer, "{line}")?;
        Ok(self.writer.flush()?)
    }

    /// The next message; the end of the stream is [`ConnectError::Closed`].
    fn read(&mut self) -> Result<Message, ConnectError> {
        // A socket's read timeout shows as either kind, depending on the system.
        let line = read_line(&mut self.reader, &mut self.buf).map_err(|e| match e.kind() {
            ErrorKind::WouldBlock | ErrorKind::TimedOut => ConnectError::Silent,
            _ => ConnectError::Io(e),
        })?;
        let Some(line) = line else {
            return Err(ConnectError::Closed);
        };
        let line = line
            .text()
            .map_err(|why| ConnectError::Protocol(format!("the server sent a {why}")))?;
        (self.trace)(false, &line);
        wire::parse(&line).map_err(|e| ConnectError::Protocol(e.to_string()))
    }

    /// Reads until `pick` takes a message; a refusal of one of `commands` ends the wait.
    fn wait<T>(
        &mut self,
        commands: &[&str],
        mut pick: impl FnMut(Message) -> Option<T>,
    ) -> Result<T, ConnectError> {
        loop {
            match self.read()? {
                Message::Refused { command, why } if commands.contains(&command.as_str()) => {
                    return Err(ConnectError::Refused { command, why });
                }
                message => {
                    if let Some(found) = pick(message) {
                        return Ok(found);
                    }
                }
            }
        }
    }

    /// Logs in (or creates the account) and names the client.
    pub fn login(&mut self, account: &Account) -> Result<(), ConnectError> {
        self.send(&wire::login(
            account.create,
            &account.username,
            &account.password,
        ))?;
        self.wait(&["login", "create_account"], |m| {
            (m == Message::LoggedIn).then_some(())
        })?;
        self.send(&wire::software_id())
    }

    /// Finds the next game: its id, koom's seat and the opponent's name.
    pub fn seek(
        &mut self,
        seek: Seek,
        username: &str,
    ) -> Result<(GameId, usize, String), ConnectError> {
        let id = match seek {
            Seek::Offer { seat, rated } => {
                self.send(&wire::new_game(seat, rated))?;
                let id = self.wait(&["new_game"], |m| match m {
                    Message::Created(id) => Some(id),
                    _ => None,
                })?;
                self.wait(&[], |m| (m == Message::Challenged(id)).then_some(()))?;
                self.send(&wire::join_game(id))?;
                id
            }
            Seek::Join(id) => {
                self.send(&wire::join_game_pending(id))?;
                self.wait(&["join_game_pending"], |m| {
                    (m == Message::Pending(id)).then_some(())
                })?;
                id
            }
        };
        let (attacker, defender) = self.wait(&["join_game"], |m| match m {
            Message::Started { attacker, defender } => Some((attacker, defender)),
            _ => None,
        })?;
        if attacker == username {
            Ok((id, 0, defender))
        } else if defender == username {
            Ok((id, 1, attacker))
        } else {
            Err(ConnectError::Protocol(format!(
                "game {id} began between {attacker} and {defender}, not {username}"
            )))
        }
    }
}

/// The boards of the game so far, for the server's rule that koom's rules lack: a defenders'
/// move may not leave the board (before its captures) as it stood after any earlier move or at
/// the start (`legal_move` in hnefatafl-copenhagen's `src/board.rs`, `RepeatMove`).
#[derive(Debug)]
struct Boards(HashSet<Board>);

impl Boards {
    fn new(game: &Hnefatafl) -> Self {
        Self(HashSet::from([*game.board()]))
    }

    fn push(&mut self, game: &Hnefatafl) {
        self.0.insert(*game.board());
    }

    fn refuses(&self, game: &Hnefatafl, mv: Move) -> bool {
        if game.side_to_move() != Side::Defenders {
            return false;
        }
        let mut board = *game.board();
        let Some(piece) = board.piece_at(mv.from) else {
            return false;
        };
        board.remove(piece, mv.from);
        board.put(piece, mv.to);
        self.0.contains(&board)
    }
}

/// A koom level as the client's player.
pub struct Player<'a> {
    agent: Box<dyn Agent<Hnefatafl>>,
    /// The level's evaluation, to choose among the moves the server allows when the level's
    /// own choice repeats a board.
    eval: Evaluation,
    clock: &'a dyn Clock,
    games: u64,
}

impl std::fmt::Debug for Player<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Player")
            .field("games", &self.games)
            .finish_non_exhaustive()
    }
}

/// What the player does at its turn.
enum Turn {
    Play(Move),
    /// Give the game up, and why.
    Resign(String),
}

impl<'a> Player<'a> {
    #[must_use]
    pub fn new(setup: &AgentSetup<Hnefatafl>, clock: &'a dyn Clock) -> Self {
        Self::with_agent(
            setup.agent(),
            EvalWeights::from_values(&setup.weights),
            clock,
        )
    }

    fn with_agent(
        agent: Box<dyn Agent<Hnefatafl>>,
        weights: EvalWeights,
        clock: &'a dyn Clock,
    ) -> Self {
        Self {
            agent,
            eval: Evaluation::new(weights),
            clock,
            games: 0,
        }
    }

    /// koom's move in `game`, or a resignation when none is allowed.
    fn turn(&mut self, game: &Hnefatafl, boards: &Boards, rng: &mut RandomStream) -> Turn {
        if let Some(outcome) = game.outcome() {
            return Turn::Resign(format!(
                "koom's rules ended the game ({}) where the server's did not; koom resigned",
                outcome.reason.name()
            ));
        }
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        let allowed: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| !boards.refuses(game, mv))
            .collect();
        if allowed.is_empty() {
            return Turn::Resign(
                "every move repeats a board, which the server forbids the defenders; koom resigned"
                    .into(),
            );
        }
        let chosen = self.agent.choose(
            game,
            &allowed,
            &mut Context {
                rng,
                clock: self.clock,
            },
        );
        if allowed.contains(&chosen) {
            return Turn::Play(chosen);
        }
        // A searching level chooses among all legal moves: the best allowed one by its
        // evaluation, one ply deep, stands in for its choice.
        let score = |&mv: &Move| {
            let mut next = *game;
            next.apply(mv);
            -self.eval.for_side_to_move(&next)
        };
        Turn::Play(allowed.iter().copied().max_by_key(score).unwrap_or(chosen))
    }

    /// Plays game `id` as `seat` to the server's end of it.
    pub fn play<R: BufRead, W: Write>(
        &mut self,
        conn: &mut Connection<R, W>,
        id: GameId,
        seat: usize,
        opponent: String,
    ) -> Result<GameReport, ConnectError> {
        self.agent.new_game();
        let mut table = Table::new(id, seat, opponent, self.games);
        self.games += 1;
        loop {
            match conn.read()? {
                Message::YourMove { id: game_id, .. } if game_id == id => {
                    let turn = if table.lost_track {
                        Turn::Resign("koom lost track of the game; koom resigned".into())
                    } else {
                        self.turn(&table.game, &table.boards, &mut table.rng)
                    };
                    conn.send(&table.answer(turn))?;
                }
                Message::Played {
                    id: game_id,
                    seat: mover,
                    from,
                    to,
                } if game_id == id && !table.lost_track => table.follow(mover, &from, &to),
                Message::Refused { command, why } if command == "game" => {
                    // koom's move was refused: its copy is off the server's, so it resigns.
                    table.lose_track(format!(
                        "the server refused koom's move {}: {why}",
                        table.report.moves.last().map_or("-", String::as_str)
                    ));
                    conn.send(&wire::resign(id, seat))?;
                }
                Message::Over {
                    id: game_id,
                    winner,
                } if game_id == id => {
                    table.report.winner = Some(winner);
                    return Ok(table.end());
                }
                Message::Drawn => return Ok(table.end()),
                _ => {}
            }
        }
    }
}

/// One game in progress: koom's copy of it, and what the report will say.
struct Table {
    game: Hnefatafl,
    boards: Boards,
    rng: RandomStream,
    report: GameReport,
    /// Set once koom's copy can no longer follow the server's game.
    lost_track: bool,
}

impl Table {
    /// Game `id` from the start, koom in `seat`; `index` counts koom's games (its tie-break
    /// stream).
    fn new(id: GameId, seat: usize, opponent: String, index: u64) -> Self {
        // No cap: the server ends the game.
        let options = HnefataflOptions { ply_cap: u32::MAX };
        let game = Hnefatafl::new(&options, 2, &mut RandomStream::dice(0), &mut NoLog);
        Self {
            boards: Boards::new(&game),
            game,
            rng: RandomStream::tie_break(index, seat),
            report: GameReport {
                id,
                seat,
                opponent,
                winner: None,
                moves: Vec::new(),
                notes: Vec::new(),
            },
            lost_track: false,
        }
    }

    fn apply(&mut self, mv: Move) {
        self.report.moves.push(self.game.format_move(mv));
        self.game.apply(mv);
        self.boards.push(&self.game);
    }

    fn lose_track(&mut self, why: String) {
        self.lost_track = true;
        self.report.notes.push(why);
    }

    /// The line that carries out koom's turn (its move is played on the copy).
    fn answer(&mut self, turn: Turn) -> String {
        let (id, seat) = (self.report.id, self.report.seat);
        match turn {
            Turn::Play(mv) => {
                self.apply(mv);
                wire::play(id, seat, mv)
            }
            Turn::Resign(why) => {
                self.report.notes.push(why);
                wire::resign(id, seat)
            }
        }
    }

    /// The opponent's move `from`-`to` for `mover`, played on the copy when koom can read it.
    fn follow(&mut self, mover: usize, from: &str, to: &str) {
        let text = format!("{from}-{to}");
        match self.game.parse_move(&text) {
            Ok(mv) if mover == self.game.to_move() => self.apply(mv),
            Ok(_) => self.lose_track(format!(
                "the server played {text} for the {}, out of turn for koom",
                role_name(mover)
            )),
            Err(e) => self.lose_track(format!("the server played a move koom refuses: {e}")),
        }
    }

    /// The report, with a note when koom's copy ended otherwise than the server's game.
    fn end(mut self) -> GameReport {
        if !self.lost_track {
            note_disagreement(&self.game, &mut self.report);
        }
        self.report
    }
}

/// Notes when koom's copy of the game ended otherwise than the server's.
fn note_disagreement(game: &Hnefatafl, report: &mut GameReport) {
    let server = match report.winner {
        Some(seat) => format!("the {}s won", role_name(seat)),
        None => "a draw".to_owned(),
    };
    match game.outcome() {
        None => report.notes.push(format!(
            "the server ended the game ({server}) where koom's rules did not"
        )),
        Some(outcome) if outcome.sole_winner() != report.winner => report.notes.push(format!(
            "the server's result ({server}) is not koom's ({})",
            outcome.reason.name()
        )),
        Some(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The game after an attacker's move out and back around a defender's move f4-i4, with
    /// the boards it passed through: the defender's i4-f4 would now restore the first board.
    fn defender_out_and_back() -> (Hnefatafl, Boards) {
        let mut game = Hnefatafl::new(
            &HnefataflOptions::default(),
            2,
            &mut RandomStream::dice(0),
            &mut NoLog,
        );
        let mut boards = Boards::new(&game);
        for text in ["d1-d3", "f4-i4", "d3-d1"] {
            let mv = game.parse_move(text).unwrap();
            game.apply(mv);
            boards.push(&game);
        }
        (game, boards)
    }

    /// The server's rule: a defender that moves back and forth may not restore a board of the
    /// game (the attackers may, and a board never seen is allowed).
    #[test]
    fn a_defenders_move_back_to_an_earlier_board_is_refused() {
        let (mut game, mut boards) = defender_out_and_back();
        // Back to the start: f4 back home would restore the initial board.
        let back = game.parse_move("i4-f4").unwrap();
        assert!(boards.refuses(&game, back));
        let elsewhere = game.parse_move("i4-i3").unwrap();
        assert!(!boards.refuses(&game, elsewhere));
        // The attackers are never refused, even into a board seen before.
        game.apply(elsewhere);
        boards.push(&game);
        let attacker = game.parse_move("d1-d3").unwrap();
        assert!(!boards.refuses(&game, attacker));
    }

    /// An agent that insists on one move, as a searching level may insist on a repeat.
    struct Stubborn(Move);

    impl Agent<Hnefatafl> for Stubborn {
        fn choose(&mut self, _: &Hnefatafl, _: &[Move], _: &mut Context<'_>) -> Move {
            self.0
        }
    }

    /// When the level insists on a move the server would refuse, the player plays the allowed
    /// move its evaluation likes best one ply deep; the level's other choices stand.
    #[test]
    fn the_player_never_plays_a_refused_move() {
        let (game, boards) = defender_out_and_back();
        let back = game.parse_move("i4-f4").unwrap();
        let weights = EvalWeights::default();
        let mut player = Player::with_agent(Box::new(Stubborn(back)), weights, &engine::NoClock);
        let mut rng = RandomStream::tie_break(0, 1);
        let Turn::Play(played) = player.turn(&game, &boards, &mut rng) else {
            panic!("resigned")
        };
        assert_ne!(played, back);
        assert!(!boards.refuses(&game, played));
        let eval = Evaluation::new(weights);
        let value = |mv: Move| {
            let mut next = game;
            next.apply(mv);
            -eval.for_side_to_move(&next)
        };
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        let best = moves
            .iter()
            .filter(|&&mv| mv != back)
            .map(|&mv| value(mv))
            .max()
            .unwrap();
        assert_eq!(value(played), best);
        // An allowed choice is played as chosen.
        let fine = game.parse_move("i4-i3").unwrap();
        let mut player = Player::with_agent(Box::new(Stubborn(fine)), weights, &engine::NoClock);
        assert!(matches!(player.turn(&game, &boards, &mut rng), Turn::Play(mv) if mv == fine));
    }
}
