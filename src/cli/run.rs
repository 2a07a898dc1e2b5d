//! `koom run`: an experiment from a config and flags, written to an output folder.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context as _, bail};
use engine::{Game, GameVisitor};
use reports::GamesCsv;
use tuner::atomic::lock_output_dir;
use tuner::batch::partial::Shard;
use tuner::batch::records::RecordsFile;
use tuner::batch::session::{Opening, RunSession, SessionResult};
use tuner::config::Format;
use tuner::config::{Experiment, ExperimentFile};
use tuner::interop::external::EngineFailures;
use tuner::lines::{Layout, LineFile};
use tuner::strength::play_matches;
use tuner::strength::tournament::{summarize_tournament, tournament_pairs};

use super::args::RunArgs;
use super::live::{Live, interrupted, run_info, write_results};

struct RunGame<'a> {
    exp: &'a Experiment,
    args: &'a RunArgs,
    shard: Option<Shard>,
}

impl GameVisitor for RunGame<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let (exp, args, shard) = (self.exp, self.args, self.shard);
        super::check_records_scores(args.records.as_deref(), args.records_scores)?;
        if let Some(format) = &exp.format {
            if shard.is_some() || args.resume || exp.games_csv {
                bail!(
                    "--shard, --resume and --games-csv apply to single experiments, not to a `format = \"{format}\"` tournament"
                );
            }
            let records = args.records.as_deref().map(|r| (r, args.records_scores));
            return tournament::<G>(exp, *format, args.quiet, records);
        }
        let _lock = lock_output_dir(&exp.out)?;
        let (mut session, opening) = RunSession::<G>::open(exp, shard, args.resume)?;
        session.plan.records = args.records.is_some();
        session.plan.record_scores = args.records_scores;
        announce(opening, &session);
        if opening == Opening::Finished {
            return Ok(ExitCode::SUCCESS);
        }
        let mut live = Live::new(session.total_games(), args.quiet);
        live.bar.inc(session.games_done());
        let started = Instant::now();
        let resumed = opening == Opening::Resumed;
        let result = play_session(&session, exp, args.records.as_deref(), &mut live, resumed)?;
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
        let failures = EngineFailures::of(&session.plan.labels, &result.total.tally);
        super::engine_failures(&failures)?;
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
        Opening::Finished => note!(
            "{} holds this shard's finished result: kept, nothing to play (without --resume it is played again)",
            session.shard_path().display()
        ),
    }
}

/// Where the rows of an unfinished run wait for `--resume`: the name says they are partial.
const PARTIAL_CSV: &str = "games.partial.csv";

/// Plays the session, streaming `games.csv` and the records when asked. A resumed session
/// continues the files the stopped one left, cut back to the games its checkpoint counts,
/// whether it was interrupted or killed (see [`LineFile`]).
fn play_session<G: Game>(
    session: &RunSession<'_, G>,
    exp: &Experiment,
    records: Option<&Path>,
    live: &mut Live,
    resumed: bool,
) -> anyhow::Result<SessionResult<G>> {
    let plan = &session.plan;
    let counted = |index: u64| session.counts_game(index);
    let games = session.games_done();
    let csv = if exp.games_csv {
        let (path, partial) = (exp.out.join("games.csv"), exp.out.join(PARTIAL_CSV));
        let header = reports::csv_line(&GamesCsv::header(plan.seats()));
        Some(if resumed {
            let layout = Layout {
                header: Some(&header),
                separator: ',',
                flag: "--games-csv",
            };
            LineFile::resume(&path, partial, layout, &counted, games)?
        } else {
            LineFile::create(&path, partial, Some(&header))?
        })
    } else {
        None
    };
    let records = match records {
        Some(path) if resumed => Some(RecordsFile::resume(
            path,
            plan.record_scores,
            &counted,
            games,
        )?),
        Some(path) => Some(RecordsFile::create(path, plan.record_scores)?),
        None => None,
    };
    live.csv = csv;
    live.records = records;
    let result = session.play(exp.threads, live).context("writing results")?;
    let complete = result.is_complete();
    if let Some(csv) = live.csv.take() {
        csv.finish(complete, ',')?;
    }
    // An interrupted run keeps its records under the `.partial` name: they are not all the games.
    if let Some(file) = live.records.take() {
        file.finish(complete)?;
    }
    Ok(result)
}

/// Plays a round-robin or gauntlet and writes its summary (and its records, pairing by pairing).
fn tournament<G: Game>(
    exp: &Experiment,
    format: Format,
    quiet: bool,
    records: Option<(&Path, bool)>,
) -> anyhow::Result<ExitCode> {
    let (pairs, games) = tournament_pairs::<G>(exp, format)?;
    let _lock = lock_output_dir(&exp.out)?;
    let file = records.map(|(path, scores)| RecordsFile::create(path, scores));
    let mut live = Live::new(games, quiet).with_records(file.transpose()?);
    let started = Instant::now();
    let matches = play_matches::<G>(exp, &exp.agents, &pairs, exp.threads, &mut live)?;
    live.bar.finish_and_clear();
    if let Some(file) = live.records.take() {
        file.finish(!matches.partial)?;
    }
    if matches.results.is_empty() {
        errln!("interrupted before a game finished: nothing written");
        return Ok(interrupted());
    }
    let summary = summarize_tournament(exp, format, &matches)?;
    let games = matches.results.iter().map(|(_, _, t)| t.games).sum();
    let info = run_info(games, Some(started), exp.threads);
    let failures = matches.failures(&exp.agents);
    reports::write_atomic(
        &exp.out.join("summary.csv"),
        &reports::tournament_csv(&summary)?,
    )?;
    reports::write_atomic(
        &exp.out.join("summary.json"),
        reports::summary_json(&summary, &failures, &info)?.as_bytes(),
    )?;
    super::report::write_report(&exp.out)?;
    if !quiet {
        out!("{}", reports::tournament_table(&summary));
    }
    note!(
        "results written to {}; report written to {}",
        exp.out.display(),
        exp.out.join("report.html").display()
    );
    super::engine_failures(&failures)?;
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
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    let file = args.experiment.experiment(flags)?;
    let default_out = file.out.is_none();
    let mut exp = file.resolve();
    // Shards started at once must not share the default folder.
    if let (Some(shard), true) = (shard, default_out) {
        exp.out.set_file_name(format!(
            "{}-shard-{}-of-{}",
            exp.game, shard.index, shard.count
        ));
    }
    engine::visit_game(
        &exp.game,
        RunGame {
            exp: &exp,
            args: &args,
            shard,
        },
    )?
}
