//! `koom run`: an experiment from a config and flags, written to an output folder.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context as _, bail};
use engine::{Game, GameVisitor};
use reports::GamesCsv;
use tuner::config::{Experiment, ExperimentFile};
use tuner::partial::Shard;
use tuner::records::record_line;
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
            if args.shard.is_some() || args.resume || exp.games_csv || args.records.is_some() {
                bail!(
                    "--shard, --resume, --games-csv and --records apply to single experiments, not to a `format = \"{format}\"` tournament"
                );
            }
            return tournament::<G>(exp, *format, args.quiet);
        }
        let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
        reports::check_writable_dir(&exp.out)?;
        if args.records.is_some() && (shard.is_some() || args.resume) {
            bail!(
                "--records needs every game of the run: it does not combine with --shard or --resume"
            );
        }
        let (mut session, opening) = RunSession::<G>::open(exp, shard, args.resume)?;
        session.plan.records = args.records.is_some();
        announce(opening, &session);
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

/// Where the rows of an unfinished run wait for `--resume`: the name says they are partial.
const PARTIAL_CSV: &str = "games.partial.csv";

/// Plays the session, streaming `games.csv` when asked.
fn play_session<G: Game>(
    session: &RunSession<'_, G>,
    exp: &Experiment,
    records: Option<&Path>,
    live: &Live,
    resumed: bool,
) -> anyhow::Result<SessionResult<G>> {
    let hooks = live.hooks();
    let mut games_csv = if exp.games_csv {
        let path = exp.out.join(PARTIAL_CSV);
        let earlier = if resumed {
            earlier_rows(&path, session.games_done())?
        } else {
            Vec::new()
        };
        let csv = GamesCsv::create(&path, &session.plan.labels)?;
        Some((csv, earlier.into_iter().peekable()))
    } else {
        None
    };
    let mut records = records.map(Records::create).transpose()?;
    let want_rows = exp.games_csv || records.is_some();
    let labels = &session.plan.labels;
    let seats = session.plan.seats() as u64;
    // The earlier rows go in before the first new row that follows them: both are in game order.
    let mut sink = |row: &tuner::tally::GameRow<G::Reason>| {
        if let Some((csv, earlier)) = games_csv.as_mut() {
            while let Some((_, line)) = earlier.next_if(|(index, _)| *index < row.index) {
                csv.push_line(&line)?;
            }
            csv.push(row)?;
        }
        if let Some(records) = records.as_mut() {
            writeln!(records.out, "{}", record_line::<G>(row, labels, seats))?;
        }
        Ok(())
    };
    let result = session
        .play(exp.threads, &hooks, want_rows.then_some(&mut sink as _))
        .context("writing results")?;
    if let Some((mut csv, earlier)) = games_csv {
        for (_, line) in earlier {
            csv.push_line(&line)?;
        }
        csv.commit()?;
        if result.is_complete() {
            std::fs::rename(exp.out.join(PARTIAL_CSV), exp.out.join("games.csv"))?;
        }
    }
    // An interrupted run keeps its records under the `.partial` name: they are not all the games.
    if let Some(records) = records.filter(|_| result.is_complete()) {
        records.commit()?;
    }
    Ok(result)
}

/// The rows of the interrupted run's `games.partial.csv`, by game index, checked against the
/// checkpoint's count of games played.
fn earlier_rows(path: &std::path::Path, games_done: u64) -> anyhow::Result<Vec<(u64, String)>> {
    let shown = path.display();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(_) if games_done == 0 => return Ok(Vec::new()),
        Err(e) => bail!(
            "--games-csv cannot continue {shown} ({e}): the interrupted run wrote no games.csv; resume without --games-csv, or start over"
        ),
    };
    let mut rows = Vec::new();
    for line in text.lines().skip(1) {
        let index = line.split(',').next().and_then(|i| i.parse().ok());
        let Some(index) = index else {
            bail!("{shown} is corrupt (a row without a game index); start over without --resume");
        };
        rows.push((index, line.to_owned()));
    }
    let sorted = rows.windows(2).all(|w| w[0].0 < w[1].0);
    if rows.len() as u64 != games_done || !sorted {
        bail!(
            "{shown} holds {} rows, the checkpoint {games_done} games: they do not belong together; start over without --resume",
            rows.len()
        );
    }
    Ok(rows)
}

/// The records file being written: lines go to `FILE.partial`, renamed to `FILE` once the run
/// is complete, so that an interrupted run leaves no file that looks complete.
struct Records {
    out: std::io::BufWriter<std::fs::File>,
    partial: PathBuf,
    path: PathBuf,
}

impl Records {
    fn create(path: &Path) -> anyhow::Result<Self> {
        let mut partial = path.as_os_str().to_owned();
        partial.push(".partial");
        let partial = PathBuf::from(partial);
        let file = std::fs::File::create(&partial)
            .with_context(|| format!("cannot write records {}", partial.display()))?;
        Ok(Self {
            out: std::io::BufWriter::new(file),
            partial,
            path: path.to_owned(),
        })
    }

    fn commit(mut self) -> anyhow::Result<()> {
        self.out.flush()?;
        std::fs::rename(&self.partial, &self.path)
            .with_context(|| format!("cannot write records {}", self.path.display()))
    }
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
