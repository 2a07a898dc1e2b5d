//! `koom perft` and `koom legal`: the hooks for checking koom's move generators against other
//! implementations of the same game.

use std::process::ExitCode;

use engine::{Game, GameVisitor, NoLog, RandomStream};

use engine::record::result_text;

use super::args::{LegalArgs, PerftArgs};

/// The position given in the game's notation, or the initial one.
pub(super) fn start<G: Game>(position: Option<&str>) -> anyhow::Result<G> {
    let options = G::Options::default();
    match position {
        Some(text) => Ok(G::from_position(text, &options)?),
        None => Ok(G::new(
            &options,
            G::SEATS.0,
            &mut RandomStream::dice(0),
            &mut NoLog,
        )),
    }
}

struct Perft<'a>(&'a PerftArgs);

impl GameVisitor for Perft<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let args = self.0;
        let root: G = start(args.position.as_deref())?;
        tuner::config::check_threads(args.threads)?;
        let (total, per_move) = tuner::perft::divide(&root, args.depth, args.threads)?;
        if args.divide {
            for (mv, count) in per_move {
                outln!("{}: {count}", root.format_move(mv));
            }
        }
        outln!("perft {} = {total}", args.depth);
        Ok(ExitCode::SUCCESS)
    }
}

struct Legal<'a>(&'a LegalArgs);

impl GameVisitor for Legal<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let args = self.0;
        let game: G = match &args.record {
            Some(line) => tuner::batch::records::replay(line, |_, _| {})?.1,
            None => replay(args.position.as_deref(), &args.moves)?,
        };
        match game.position() {
            Some(text) => outln!("{text}"),
            None => out!("{}", game.render()),
        }
        if let Some(outcome) = game.outcome() {
            outln!("result: {}", describe_outcome::<G>(&outcome));
        } else {
            let mut moves = G::MoveList::default();
            game.legal_moves(&mut moves);
            for &mv in moves.iter() {
                outln!("{}", game.format_move(mv));
            }
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// The position given (or the initial one) after `moves`, played in order on dice stream 0.
pub(super) fn replay<G: Game>(position: Option<&str>, moves: &[String]) -> anyhow::Result<G> {
    let opening = tuner::openings::replay::<G>(position, moves, &G::Options::default(), G::SEATS.0)
        .map_err(anyhow::Error::msg)?;
    Ok(opening.position)
}

/// `seat 1 wins (corner)`, `draw (...)`, `no result (...)`.
pub(super) fn describe_outcome<G: Game>(outcome: &engine::Outcome<G::Reason>) -> String {
    format!("{} ({})", result_text(outcome), outcome.reason.name())
}

pub fn perft(args: PerftArgs) -> anyhow::Result<ExitCode> {
    engine::visit_game(&args.game, Perft(&args))?
}

pub fn legal(args: LegalArgs) -> anyhow::Result<ExitCode> {
    engine::visit_game(&args.game, Legal(&args))?
}
