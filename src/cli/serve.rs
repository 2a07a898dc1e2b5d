//! `koom engine`: a level over standard input and output, speaking koom's engine protocol
//! (`docs/engine-protocol.md`), so that other programs (tournament runners, koom itself with a
//! `cmd:` agent) can play it.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use engine::{Game, GameVisitor};
use tuner::agents::parse_agent;
use tuner::config::parse_time_control;
use tuner::protocol::{EngineSession, Flow};

use super::args::EngineArgs;
use super::live::WallClock;

struct Serve<'a>(&'a EngineArgs);

impl GameVisitor for Serve<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let args = self.0;
        let time_control = parse_time_control(args.time_control.as_deref().unwrap_or("batch"))?;
        let setup = parse_agent::<G>(&args.level, time_control)?;
        let mut session =
            EngineSession::<G>::new(args.level.clone(), &setup, G::Options::default());
        let clock = WallClock::new();
        let mut stdout = std::io::stdout().lock();
        for line in std::io::stdin().lock().lines() {
            // A closed or unreadable input ends the session as `quit` does.
            let Ok(line) = line else { break };
            let (replies, flow) = session.handle(&line, &clock);
            for reply in replies {
                if writeln!(stdout, "{reply}").is_err() {
                    return Ok(ExitCode::SUCCESS);
                }
            }
            if stdout.flush().is_err() || flow == Flow::Quit {
                break;
            }
        }
        Ok(ExitCode::SUCCESS)
    }
}

pub fn engine(args: EngineArgs) -> anyhow::Result<ExitCode> {
    super::with_game(&args.game, Serve(&args))?
}
