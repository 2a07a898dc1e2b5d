//! `koom run`: an experiment from a config and flags, written to an output folder.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context as _, bail};
use engine::{Game, GameVisitor};
use reports::GamesCsv;
use tuner::atomic::lock_output_dir;
use tuner::config::Format;
use tuner::config::{Experiment, ExperimentFile};
use tuner::external::EngineFailures;
use tuner::partial::Shard;
use tuner::records::{RecordsFile, partial_path, record_of};
use tuner::session::{Opening, RunSession, SessionResult};
use tuner::strength::{match_plan, play_matches};
use tuner::tournament::{check_agents, summarize_tournament};

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
        let live = Live::new(session.total_games(), args.quiet);
        live.bar.inc(session.games_done());
        let started = Instant::now();
        let resumed = opening == Opening::Resumed;
        let result = play_session(&session, exp, args.records.as_deref(), &live, resumed)?;
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

/// An interrupted run's lines (of `games.partial.csv` or of the records' `.partial` file),
/// by game index, that a resumed run writes again before the new games that follow them.
type Earlier = std::iter::Peekable<std::vec::IntoIter<(u64, String)>>;

/// Writes the earlier lines that come before game `index` (all that are left with `None`).
fn catch_up(
    earlier: &mut Earlier,
    index: Option<u64>,
    mut write: impl FnMut(&str) -> std::io::Result<()>,
) -> std::io::Result<()> {
    while let Some((_, line)) = earlier.next_if(|(i, _)| index.is_none_or(|index| *i < index)) {
        write(&line)?;
    }
    Ok(())
}

/// Plays the session, streaming `games.csv` and the records when asked; a resumed session
/// continues the files the interrupted one left, in game order.
fn play_session<G: Game>(
    session: &RunSession<'_, G>,
    exp: &Experiment,
    records: Option<&Path>,
    live: &Live,
    resumed: bool,
) -> anyhow::Result<SessionResult<G>> {
    let hooks = live.hooks();
    let done = session.games_done();
    let earlier = |path: &Path, format: LineFormat| -> anyhow::Result<Earlier> {
        let lines = if resumed {
            earlier_lines(path, format, done)?
        } else {
            Vec::new()
        };
        Ok(lines.into_iter().peekable())
    };
    let mut games_csv = if exp.games_csv {
        let path = exp.out.join(PARTIAL_CSV);
        let earlier = earlier(&path, LineFormat::GamesCsv)?;
        let csv = GamesCsv::create(&path, &session.plan.labels)?;
        Some((csv, earlier))
    } else {
        None
    };
    let mut records = match records {
        Some(path) => {
            let earlier = earlier(&partial_path(path), LineFormat::Records)?;
            let scores = session.plan.record_scores;
            Some((RecordsFile::create(path, scores)?, earlier))
        }
        None => None,
    };
    let want_rows = exp.games_csv || records.is_some();
    let plan = &session.plan;
    let mut sink = |row: &tuner::tally::GameRow<G::Reason>| {
        if let Some((csv, earlier)) = games_csv.as_mut() {
            catch_up(earlier, Some(row.index), |line| csv.push_line(line))?;
            csv.push(row)?;
        }
        if let Some((file, earlier)) = records.as_mut() {
            catch_up(earlier, Some(row.index), |line| file.push_line(line))?;
            file.push(&record_of(plan, row))?;
        }
        Ok(())
    };
    let result = session
        .play(exp.threads, &hooks, want_rows.then_some(&mut sink as _))
        .context("writing results")?;
    let complete = result.is_complete();
    if let Some((mut csv, mut earlier)) = games_csv {
        catch_up(&mut earlier, None, |line| csv.push_line(line))?;
        csv.commit()?;
        if complete {
            std::fs::rename(exp.out.join(PARTIAL_CSV), exp.out.join("games.csv"))?;
        }
    }
    // An interrupted run keeps its records under the `.partial` name: they are not all the games.
    if let Some((mut file, mut earlier)) = records {
        catch_up(&mut earlier, None, |line| file.push_line(line))?;
        file.finish(complete)?;
    }
    Ok(result)
}

/// The per-game files a run continues after an interruption.
#[derive(Clone, Copy)]
enum LineFormat {
    /// `games.partial.csv`: a header, then rows starting with the game index and a comma.
    GamesCsv,
    /// A records `.partial` file: lines starting with the game index and a tab.
    Records,
}

/// The lines of the interrupted run's file, by game index, checked against the checkpoint's
/// count of games played.
fn earlier_lines(
    path: &Path,
    format: LineFormat,
    games_done: u64,
) -> anyhow::Result<Vec<(u64, String)>> {
    let shown = path.display();
    let (flag, header, separator) = match format {
        LineFormat::GamesCsv => ("--games-csv", 1, ','),
        LineFormat::Records => ("--records", 0, '\t'),
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(_) if games_done == 0 => return Ok(Vec::new()),
        Err(e) => bail!(
            "{flag} cannot continue {shown} ({e}): the interrupted run did not write it; resume without {flag}, or start over"
        ),
    };
    let mut rows = Vec::new();
    for line in text.lines().skip(header) {
        let index = line.split(separator).next().and_then(|i| i.parse().ok());
        let Some(index) = index else {
            bail!("{shown} is corrupt (a line without a game index); start over without --resume");
        };
        rows.push((index, line.to_owned()));
    }
    let sorted = rows.windows(2).all(|w| w[0].0 < w[1].0);
    if rows.len() as u64 != games_done || !sorted {
        bail!(
            "{shown} holds {} games, the checkpoint {games_done}: they do not belong together; start over without --resume",
            rows.len()
        );
    }
    Ok(rows)
}

/// Plays a round-robin or gauntlet and writes its summary (and its records, pairing by pairing).
fn tournament<G: Game>(
    exp: &Experiment,
    format: Format,
    quiet: bool,
    records: Option<(&Path, bool)>,
) -> anyhow::Result<ExitCode> {
    check_agents(&exp.agents)?;
    let pairs = format.pairs(exp.agents.len());
    // Check every agent before playing anything.
    for &(a, b) in &pairs {
        match_plan::<G>(exp, &exp.agents[a], &exp.agents[b])?;
    }
    let _lock = lock_output_dir(&exp.out)?;
    let per_pairing = match_plan::<G>(exp, &exp.agents[0], &exp.agents[1])?.games();
    let live = Live::new(per_pairing * pairs.len() as u64, quiet);
    let hooks = live.hooks();
    let started = Instant::now();
    let file = records.map(|(path, scores)| RecordsFile::create(path, scores));
    let mut file = file.transpose()?;
    let matches = play_matches::<G>(exp, &exp.agents, &pairs, exp.threads, &hooks, file.as_mut())?;
    live.bar.finish_and_clear();
    if let Some(file) = file {
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
    super::with_game(
        &exp.game,
        RunGame {
            exp: &exp,
            args: &args,
            shard,
        },
    )?
}
