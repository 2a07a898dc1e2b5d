//! `koom engine`: a level over standard input and output, speaking koom's engine protocol or,
//! for Hnefatafl, the Hnefatafl Text Protocol (`docs/engine-protocol.md`), so that other
//! programs (tournament runners, koom itself with a `cmd:` or `htp:` agent, the
//! hnefatafl-copenhagen tools) can play it.

use std::io::Write;
use std::process::ExitCode;

use engine::games::hnefatafl::Hnefatafl;
use engine::{Clock, Game, GameVisitor};
use tuner::InputError;
use tuner::agents::parse_agent;
use tuner::interop::protocol::htp;
use tuner::interop::protocol::line::read_line;
use tuner::interop::protocol::{EngineSession, Flow, HtpSession};

use super::args::{EngineArgs, EngineProtocol};
use super::live::WallClock;
use engine::Rules;

struct Serve<'a>(&'a EngineArgs);

impl GameVisitor for Serve<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let args = self.0;
        let time_control = args.time_control;
        match args.protocol {
            EngineProtocol::Koom => {
                let setup = parse_agent::<G>(&args.level, time_control)?;
                let mut session =
                    EngineSession::<G>::new(args.level.clone(), &setup, G::Options::default());
                Ok(serve_lines(
                    |line, clock| session.handle(line, clock),
                    |why| vec![format!("error {why}")],
                ))
            }
            EngineProtocol::Htp if G::NAME == Hnefatafl::NAME => {
                let setup = parse_agent::<Hnefatafl>(&args.level, time_control)?;
                let mut session = HtpSession::new(args.level.clone(), &setup, Default::default());
                Ok(serve_lines(
                    |line, clock| session.handle(line, clock),
                    |why| htp::response(false, why),
                ))
            }
            EngineProtocol::Htp => Err(InputError::new(format!(
                "--protocol htp (the Hnefatafl Text Protocol) serves hnefatafl only, not {}",
                G::NAME
            ))
            .into()),
        }
    }
}

/// Reads standard input a line at a time and writes each answer, until `quit` or the end of
/// input. A line that is not UTF-8 or is longer than the protocol's cap is answered with
/// `error`, as any line the engine cannot act on, and the session goes on.
/// `refuse` gives the protocol's answer to such a line.
fn serve_lines(
    mut handle: impl FnMut(&str, &dyn Clock) -> (Vec<String>, Flow),
    refuse: fn(&str) -> Vec<String>,
) -> ExitCode {
    let clock = WallClock::new();
    let mut stdout = std::io::stdout().lock();
    let mut stdin = std::io::stdin().lock();
    let mut buf = Vec::new();
    // A closed or unreadable input ends the session as `quit` does.
    while let Ok(Some(line)) = read_line(&mut stdin, &mut buf) {
        let (replies, flow) = match line.text() {
            Ok(line) => handle(&line, &clock),
            Err(why) => (refuse(why), Flow::Continue),
        };
        for reply in replies {
            if writeln!(stdout, "{reply}").is_err() {
                return ExitCode::SUCCESS;
            }
        }
        if stdout.flush().is_err() || flow == Flow::Quit {
            break;
        }
    }
    ExitCode::SUCCESS
}

pub fn engine(args: EngineArgs) -> anyhow::Result<ExitCode> {
    engine::visit_game(&args.game, Serve(&args))?
}
