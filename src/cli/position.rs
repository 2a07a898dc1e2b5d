//! `koom perft` and `koom legal`: the hooks for checking koom's move generators against other
//! implementations of the same game.

use std::process::ExitCode;

use anyhow::bail;
use engine::{Game, GameVisitor, NoLog, RandomStream, quote};

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
        if args.divide && args.depth > 0 {
            let mut moves = G::MoveList::default();
            root.legal_moves(&mut moves);
            for &mv in moves.iter() {
                let mut next = root.clone();
                next.play(mv, &mut RandomStream::dice(0), &mut NoLog);
                outln!("{}: {}", root.format_move(mv), next.perft(args.depth - 1));
            }
        }
        outln!("perft {} = {}", args.depth, root.perft(args.depth));
        Ok(ExitCode::SUCCESS)
    }
}

struct Legal<'a>(&'a LegalArgs);

impl GameVisitor for Legal<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let args = self.0;
        let game: G = match &args.record {
            Some(line) => tuner::records::replay(line, |_, _| {})?.1,
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
    let mut game: G = start(position)?;
    let mut dice = RandomStream::dice(0);
    for (i, text) in moves.iter().enumerate() {
        if game.outcome().is_some() {
            bail!("move {} {}: the game is already over", i + 1, quote(text));
        }
        let mv = game.parse_move(text).map_err(|e| {
            anyhow::anyhow!("move {} {} is illegal: {}", i + 1, quote(text), e.reason())
        })?;
        game.play(mv, &mut dice, &mut NoLog);
    }
    Ok(game)
}

/// `seat 1 wins (corner)`, `draw (...)`, `no result (...)`.
pub(super) fn describe_outcome<G: Game>(outcome: &engine::Outcome<G::Reason>) -> String {
    format!("{} ({})", result_text(outcome), outcome.reason.name())
}

pub fn perft(args: PerftArgs) -> anyhow::Result<ExitCode> {
    super::with_game(&args.game, Perft(&args))?
}

pub fn legal(args: LegalArgs) -> anyhow::Result<ExitCode> {
    super::with_game(&args.game, Legal(&args))?
}
