//! koom driving a program over the Hnefatafl Text Protocol (`docs/engine-protocol.md`).
//!
//! HTP has no command that sets a position: the program keeps the game itself, and is told
//! each move as it is played (`play ROLE FROM TO`), while `generate_move` plays the move it
//! chooses on its own board (GTP's `genmove`). koom's agents see only the position they move
//! in, so the controller keeps the position on the program's board and, at each turn, finds
//! the one legal move that leads from it to the position it is asked about: the opponent's
//! move, which it then sends.

use std::time::Instant;

use engine::{Forfeit, Game, NoLog, RandomStream};

use super::{External, Process, legal};
use crate::interop::protocol::htp::{play_text, read_play, read_response_start, role_name};

/// Lines a program may write between two responses before koom calls its output garbage.
/// hnefatafl-copenhagen 6.4.1 writes 15 around `generate_move`: a `N turn: ...` line before the
/// answer and its AI's heat map (`escape_vec:` and 12 board lines) after it.
const MAX_SKIPPED_LINES: usize = 64;

/// Sends one command and reads its response: `Ok` with the text after `=`, `Err` with the text
/// after `?`.
///
/// The response is the first line that starts with `=` or `?`. GTP ends every response with a
/// blank line, but hnefatafl-copenhagen 6.4.1 ends only its `?` answers so: a `=` answer is one
/// line, followed at most by lines that are not responses (a multi-line answer's rest, its AI's
/// diagnostics). So no response is read to its end; the lines before the next response (blank
/// lines included) are skipped instead, up to [`MAX_SKIPPED_LINES`].
fn command(
    process: &mut Process,
    text: &str,
    deadline: Instant,
) -> Result<Result<String, String>, Forfeit> {
    process.send(&text)?;
    for _ in 0..=MAX_SKIPPED_LINES {
        if let Some(answer) = read_response_start(&process.line(deadline)?) {
            return Ok(answer);
        }
    }
    Err(Forfeit::Garbage)
}

/// A command that must succeed: a `?` answer is garbage for koom, which only sends legal moves
/// and commands the program lists.
fn must(process: &mut Process, text: &str, deadline: Instant) -> Result<String, Forfeit> {
    command(process, text, deadline)?.map_err(|_| Forfeit::Garbage)
}

/// A new program must answer `name`.
pub(super) fn handshake(process: &mut Process, deadline: Instant) -> Result<(), Forfeit> {
    must(process, "name", deadline).map(drop)
}

/// A new game on a program that has played: `reset_board`, or `board_size 11` for the
/// versions of hnefatafl-copenhagen that dropped `reset_board`.
fn reset(process: &mut Process, deadline: Instant) -> Result<(), Forfeit> {
    match command(process, "reset_board", deadline)? {
        Ok(_) => Ok(()),
        Err(_) => must(process, "board_size 11", deadline).map(drop),
    }
}

/// The start position, as a program's board holds it after a reset. The rule options are the
/// defaults: they only set the ply cap, which changes no move.
fn start<G: Game>() -> G {
    G::new(
        &G::Options::default(),
        G::SEATS.0,
        &mut RandomStream::dice(0),
        &mut NoLog,
    )
}

/// The legal move that leads from `board` to `game`, if one does.
fn move_between<G: Game>(board: &G, game: &G) -> Option<G::Move> {
    let target = game.position();
    let mut moves = G::MoveList::default();
    board.legal_moves(&mut moves);
    moves.iter().copied().find(|&mv| {
        let mut next = board.clone();
        next.play(mv, &mut RandomStream::dice(0), &mut NoLog);
        next.position() == target
    })
}

impl<G: Game> External<G> {
    /// HTP: a reset when a new game is due, the opponent's move since the program's last,
    /// then `generate_move` for the side to move.
    pub(super) fn ask_htp(
        &mut self,
        process: &mut Process,
        game: &G,
        moves: &[G::Move],
    ) -> Result<G::Move, Forfeit> {
        let deadline = super::deadline(&self.spec);
        if std::mem::take(&mut self.new_game) {
            if self.board.is_some() {
                reset(process, deadline)?;
            }
            self.board = Some(start());
        }
        let board = self.board.get_or_insert_with(start);
        if board.position() != game.position() {
            // Not one move away: a game that did not begin at the start position, which HTP
            // cannot set up.
            let mv = move_between(board, game).ok_or(Forfeit::Garbage)?;
            let text = play_text(board.to_move(), &board.format_move(mv));
            must(process, &text, deadline)?;
            *board = game.clone();
        }
        let seat = game.to_move();
        let answer = must(
            process,
            &format!("generate_move {}", role_name(seat)),
            deadline,
        )?;
        let (role, text) = read_play(&answer).map_err(|_| Forfeit::Garbage)?;
        if role != seat {
            return Err(Forfeit::IllegalMove);
        }
        let mv = legal(game, moves, &text.ok_or(Forfeit::Resigned)?)?;
        board.play(mv, &mut RandomStream::dice(0), &mut NoLog);
        Ok(mv)
    }
}

#[cfg(test)]
mod tests {
    use engine::games::hnefatafl::Hnefatafl;
    use engine::{Notation, Rules};

    use super::*;

    fn after(moves: &[&str]) -> Hnefatafl {
        let mut game = start::<Hnefatafl>();
        for text in moves {
            let mv = game.parse_move(text).unwrap();
            game.play(mv, &mut RandomStream::dice(0), &mut NoLog);
        }
        game
    }

    /// The opponent's move is the one legal move between the two positions; two moves apart,
    /// or the same position, there is none to send.
    #[test]
    fn the_move_between_two_positions_is_found_only_one_ply_apart() {
        let board = after(&["d1-b1"]);
        let mv = move_between(&board, &after(&["d1-b1", "e5-e2"])).unwrap();
        assert_eq!(board.format_move(mv), "e5-e2");
        assert_eq!(
            move_between(&start::<Hnefatafl>(), &board).map(|mv| board.format_move(mv)),
            Some("d1-b1".into())
        );
        assert!(move_between(&start::<Hnefatafl>(), &after(&["d1-b1", "e5-e2"])).is_none());
        assert!(move_between(&board, &board).is_none());
    }
}
