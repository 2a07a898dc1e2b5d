//! `koom run`: an experiment from a config and flags, written to an output folder.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context as _, bail};
use engine::{Game, GameVisitor};
use reports::GamesCsv;
use tuner::config::{Experiment, ExperimentFile};
use tuner::partial::Shard;
use tuner::session::{Opening, RunSession, SessionResult};
use tuner::strength::{match_plan, play_matches};
use tuner::tournament::{Format, check_agents, summarize_tournament};

use super::args::RunArgs;
use super::live::{Live, interrupted, run_info, write_results};

struct RunGame<'a> {
    exp: &'a Experiment,
    args: &'a RunArgs,
}

impl GameVisitor for RunGame<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let (exp, args) = (self.exp, self.args);
        if let Some(format) = &exp.format {
            if args.shard.is_some() || args.resume || exp.games_csv {
                bail!(
                    "--shard, --resume and --games-csv apply to single experiments, not to a `format = \"{format}\"` tournament"
                );
            }
            return tournament::<G>(exp, *format, args.quiet);
        }
        let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
        reports::check_writable_dir(&exp.out)?;
        let (session, opening) = RunSession::<G>::open(exp, shard, args.resume)?;
        announce(opening, &session);
        let live = Live::new(session.total_games(), args.quiet);
        live.bar.inc(session.games_done());
        let started = Instant::now();
        let result = play_session(&session, exp, &live)?;
        live.bar.finish_and_clear();
        let finished = result.is_complete();
        if !finished {
            errln!(
                "interrupted: checkpoint written to {} (continue with --resume)",
                session.checkpoint_path().display()
            );
        }
        if let Some(shard) = shard {
            if finished {
                let path = session.write_shard(&result)?;
                note!(
                    "shard {}/{} ({} games) written to {}; combine the shards with `koom merge`",
                    shard.index,
                    shard.count,
                    result.total.tally.games,
                    path.display()
                );
            }
        } else {
            let info = run_info(result.played, Some(started), exp.threads);
            let plan = &session.plan;
            write_results(plan, exp, &result.total.tally, !finished, &info, args.quiet)?;
            if finished {
                session.close();
            }
        }
        Ok(if finished {
            ExitCode::SUCCESS
        } else {
            interrupted()
        })
    }
}

/// Says what the session does with the checkpoint it found (or did not find).
fn announce<G: Game>(opening: Opening, session: &RunSession<'_, G>) {
    let path = session.checkpoint_path();
    match opening {
        Opening::Fresh => {}
        Opening::Resumed => note!("resuming from {}", path.display()),
        Opening::NothingToResume => {
            note!(
                "no checkpoint at {}: starting from the beginning",
                path.display()
            );
        }
        Opening::Replacing => note!(
            "note: starting over; the checkpoint {} is replaced (--resume continues it)",
            path.display()
        ),
    }
}

/// Plays the session, streaming `games.csv` when asked.
fn play_session<G: Game>(
    session: &RunSession<'_, G>,
    exp: &Experiment,
    live: &Live,
) -> anyhow::Result<SessionResult<G>> {
    let hooks = live.hooks();
    let mut games_csv = if exp.games_csv {
        let path = exp.out.join("games.csv");
        Some(GamesCsv::create(&path, &session.plan.labels, G::REASONS)?)
    } else {
        None
    };
    let mut sink =
        |row: &tuner::tally::GameRow| games_csv.as_mut().map_or(Ok(()), |csv| csv.push(row));
    let result = session
        .play(exp.threads, &hooks, exp.games_csv.then_some(&mut sink as _))
        .context("writing results")?;
    if let Some(csv) = games_csv {
        csv.commit()?;
    }
    Ok(result)
}

/// Plays a round-robin or gauntlet and writes its summary.
fn tournament<G: Game>(exp: &Experiment, format: Format, quiet: bool) -> anyhow::Result<ExitCode> {
    check_agents(&exp.agents)?;
    let pairs = format.pairs(exp.agents.len());
    // Check every agent before playing anything.
    for &(a, b) in &pairs {
        match_plan::<G>(exp, &exp.agents[a], &exp.agents[b])?;
    }
    reports::check_writable_dir(&exp.out)?;
    let per_pairing = match_plan::<G>(exp, &exp.agents[0], &exp.agents[1])?.games();
    let live = Live::new(per_pairing * pairs.len() as u64, quiet);
    let hooks = live.hooks();
    let started = Instant::now();
    let matches = play_matches::<G>(exp, &exp.agents, &pairs, exp.threads, &hooks)?;
    live.bar.finish_and_clear();
    if matches.results.is_empty() {
        errln!("interrupted before a game finished: nothing written");
        return Ok(interrupted());
    }
    let summary = summarize_tournament(exp, format, &matches)?;
    let games = matches.results.iter().map(|(_, _, t)| t.games).sum();
    let info = run_info(games, Some(started), exp.threads);
    reports::write_atomic(
        &exp.out.join("summary.csv"),
        &reports::tournament_csv(&summary)?,
    )?;
    reports::write_atomic(
        &exp.out.join("summary.json"),
        reports::summary_json(&summary, &info)?.as_bytes(),
    )?;
    super::report::write_report(&exp.out)?;
    if !quiet {
        out!("{}", reports::tournament_table(&summary));
    }
    note!("results written to {}", exp.out.display());
    Ok(if matches.partial {
        interrupted()
    } else {
        ExitCode::SUCCESS
    })
}

pub fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    let flags = ExperimentFile {
        games: args.games,
        threads: args.threads,
        out: args.out.clone(),
        games_csv: args.games_csv.then_some(true),
        ..ExperimentFile::default()
    };
    let exp = args.experiment.experiment(flags)?.resolve();
    super::with_game(
        &exp.game,
        RunGame {
            exp: &exp,
            args: &args,
        },
    )?
}
