//! `koom gate` and `koom ladder`: strength tests with exit codes for CI.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use engine::{Game, GameVisitor};
use reports::RunInfo;
use tuner::atomic::lock_output_dir;
use tuner::batch::records::RecordsFile;
use tuner::batch::summary::HeadToHead;
use tuner::config::{Experiment, ExperimentFile};
use tuner::interop::external::EngineFailures;
use tuner::openings::SuiteInfo;
use tuner::strength::stats::{Bounds, EloModel};
use tuner::strength::{
    GateMatch, GateRun, GateSummary, Ladder, LadderSummary, count_unit, gate_verdict,
    ladder as run_ladder, ladder_games, ladder_levels, match_agents, played,
};

use super::args::{GateArgs, LadderArgs, MatchArgs, Preset};
use super::live::{Live, interrupted, interrupted_status, run_info};

impl MatchArgs {
    /// The config file (if any) with these flags over it; `out_name` names the default folder.
    fn experiment(
        &self,
        games: Option<u64>,
        levels: Option<Vec<String>>,
        out_name: &str,
    ) -> anyhow::Result<Experiment> {
        let file = match &self.config {
            Some(path) => ExperimentFile::load(path)?,
            None => ExperimentFile::default(),
        };
        let flags = ExperimentFile {
            game: self.game.clone(),
            seed: self.seed,
            threads: self.threads,
            time_control: self.time_control,
            out: self.out.clone(),
            games,
            levels,
            adjudication: self.adjudication.flags(),
            ..self.openings.flags()
        };
        let mut merged = file.overridden_by(flags);
        merged.options = super::args::with_options(merged.options.take(), &self.options);
        let game = merged
            .game
            .clone()
            .unwrap_or_else(|| tuner::config::DEFAULT_GAME.to_owned());
        let out = merged
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from("koom-results").join(format!("{out_name}-{game}")));
        Ok(ExperimentFile {
            out: Some(out),
            ..merged
        }
        .resolve())
    }
}

impl MatchArgs {
    /// The `--records` file, started (as `FILE.partial`) when asked for.
    fn records_file(&self) -> anyhow::Result<Option<RecordsFile>> {
        super::check_records_scores(self.records.as_deref(), self.records_scores)?;
        Ok(self
            .records
            .as_deref()
            .map(|path| RecordsFile::create(path, self.records_scores))
            .transpose()?)
    }
}

fn write_json(
    out: &std::path::Path,
    value: &impl tuner::Serialize,
    failures: &EngineFailures,
    info: &RunInfo,
) -> anyhow::Result<()> {
    reports::write_atomic(
        &out.join("summary.json"),
        reports::summary_json(value, failures, info)?.as_bytes(),
    )?;
    note!("results written to {}", out.display());
    Ok(())
}

struct Gate<'a> {
    exp: &'a Experiment,
    args: &'a GateArgs,
    bounds: Bounds,
}

impl GameVisitor for Gate<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let args = self.args;
        let exp = Experiment {
            games: args.max_games,
            ..self.exp.clone()
        };
        let _lock = lock_output_dir(&exp.out)?;
        let started = Instant::now();
        let (result, openings) = self.play::<G>(&exp)?;
        // The words follow the question the bounds ask: a gain ([0, 2]) or no regression.
        let h2h = HeadToHead::new(&args.candidate, &args.baseline, &result.tally);
        print_gate::<G>(args, exp.seed, &result, &h2h);
        // An outside player that failed most of its games gives the test nothing to decide on.
        let labels = match_agents::<G>(&args.candidate, &args.baseline);
        let failures = EngineFailures::of(&labels, &result.tally);
        let failed = super::engine_failures(&failures);
        let (verdict, code) = if failed.is_err() {
            ("none: an outside player failed most of its games", 2)
        } else {
            gate_verdict(
                result.sprt.verdict,
                result.partial,
                args.preset == Some(Preset::Gain),
                interrupted_status(),
            )
        };
        outln!("  verdict: {verdict} (exit {code})");
        let summary = GateSummary::new(exp.seed, &result, h2h, openings, (verdict, code));
        write_json(
            &exp.out,
            &summary,
            &failures,
            &run_info(result.tally.games, Some(started), exp.threads),
        )?;
        failed?;
        Ok(ExitCode::from(code))
    }
}

impl Gate<'_> {
    /// Plays the gate's batches until the SPRT decides, the game limit or Ctrl-C, showing the
    /// test's state as it goes and writing `--records` when asked. Returns the opening suite
    /// the games started from with the result, for the summary.
    fn play<G: Game>(&self, exp: &Experiment) -> anyhow::Result<(GateRun<G>, Option<SuiteInfo>)> {
        let args = self.args;
        let gate = GateMatch::<G>::new(exp, &args.candidate, &args.baseline)?;
        let records = args.common.records_file()?;
        let mut live = Live::new(gate.games(), args.common.quiet).with_records(records);
        let (result, openings) = gate.play(self.bounds, args.batch, exp.threads, &mut live)?;
        live.bar.finish_and_clear();
        if let Some(file) = live.records.take() {
            file.finish(!result.partial)?;
        }
        Ok((result, openings))
    }
}

/// The gate's result on standard output: the test, the group scores, each side's score and the
/// Elo estimates.
fn print_gate<G: Game>(args: &GateArgs, seed: u64, result: &GateRun<G>, h2h: &HeadToHead) {
    let sprt = &result.sprt;
    outln!(
        "{} gate: {} vs {} over {}, seed {seed}",
        G::NAME,
        args.candidate,
        args.baseline,
        played(&result.tally),
    );
    outln!(
        "  SPRT [{}, {}] {:?} Elo, alpha {}, beta {}: LLR {:.3} (bounds {:.3}, {:.3})",
        sprt.bounds.elo0,
        sprt.bounds.elo1,
        sprt.bounds.model,
        sprt.bounds.alpha,
        sprt.bounds.beta,
        sprt.llr,
        sprt.lower,
        sprt.upper
    );
    outln!(
        "  {}",
        group_scores_line(
            &args.candidate,
            h2h.group_size,
            &h2h.group_scores,
            G::GAMES_COUNT_GROUPS
        )
    );
    for side in &h2h.by_side {
        outln!("  {}", side_line(&args.candidate, side));
    }
    outln!("  {} (nElo per {})", h2h.estimate, count_unit::<G>().0);
    if let Some(corrected) = &sprt.elo_sequential {
        outln!("  {corrected}");
    }
}

/// The SPRT bounds from a preset and/or explicit values.
fn bounds(args: &GateArgs) -> anyhow::Result<Bounds> {
    let (p0, p1) = match args.preset {
        Some(Preset::Gain) => Bounds::GAIN,
        Some(Preset::Nonreg) | None => Bounds::NONREG,
    };
    if args.preset.is_some() && args.logistic {
        bail!(
            "--preset gives normalized Elo bounds; with --logistic give --elo0 and --elo1 instead"
        );
    }
    let b = Bounds {
        elo0: args.elo0.unwrap_or(p0),
        elo1: args.elo1.unwrap_or(p1),
        alpha: args.alpha,
        beta: args.beta,
        model: if args.logistic {
            EloModel::Logistic
        } else {
            EloModel::Normalized
        },
    };
    b.check()
        .map_err(|e| anyhow::anyhow!("bad SPRT bounds: {e}"))?;
    if args.max_games == 0 {
        bail!("--max-games must be at least 1");
    }
    Ok(b)
}

pub fn gate(args: GateArgs) -> anyhow::Result<ExitCode> {
    let bounds = bounds(&args)?;
    let exp = args.common.experiment(None, None, "gate")?;
    engine::visit_game(
        &exp.game,
        Gate {
            exp: &exp,
            args: &args,
            bounds,
        },
    )?
}

struct LadderGame<'a> {
    exp: &'a Experiment,
    args: &'a MatchArgs,
    full: bool,
}

impl GameVisitor for LadderGame<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let exp = self.exp;
        let _lock = lock_output_dir(&exp.out)?;
        let started = Instant::now();
        let ladder = self.play::<G>()?;
        print_ladder::<G>(exp, &ladder);
        let games = ladder.rungs.iter().map(|r| r.games).sum();
        let summary = LadderSummary {
            game: G::NAME.to_owned(),
            seed: exp.seed,
            games_per_pair: exp.games,
            unit: count_unit::<G>().1.to_owned(),
            ladder,
        };
        write_json(
            &exp.out,
            &summary,
            &summary.ladder.failures,
            &run_info(games, Some(started), exp.threads),
        )?;
        super::report::write_report(&exp.out)?;
        note!(
            "report written to {}",
            exp.out.join("report.html").display()
        );
        super::engine_failures(&summary.ladder.failures)?;
        let ladder = summary.ladder;
        Ok(if ladder.partial {
            errln!("interrupted: the ladder covers the pairs played so far");
            interrupted()
        } else if ladder.passed {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        })
    }
}

impl LadderGame<'_> {
    /// Plays every pair of the ladder (neighbours, or all pairs with `--full`) with a progress
    /// bar over all their games, writing `--records` when asked.
    fn play<G: Game>(&self) -> anyhow::Result<Ladder> {
        let exp = self.exp;
        let levels = ladder_levels::<G>(exp);
        let games = ladder_games::<G>(exp, &levels, self.full);
        let records = self.args.records_file()?;
        let mut live = Live::new(games, self.args.quiet).with_records(records);
        let ladder: Ladder = run_ladder::<G>(exp, &levels, self.full, exp.threads, &mut live)
            .map_err(anyhow::Error::from)?;
        live.bar.finish_and_clear();
        if let Some(file) = live.records.take() {
            file.finish(!ladder.partial)?;
        }
        Ok(ladder)
    }
}

/// The ladder on standard output: each level's rating, each rung's score and verdict, and with
/// `--full` the intransitive triples.
fn print_ladder<G: Game>(exp: &Experiment, ladder: &Ladder) {
    outln!(
        "{} ladder, {} {} per pair, seed {}",
        G::NAME,
        exp.games,
        count_unit::<G>().1,
        exp.seed
    );
    for (level, rating) in ladder.levels.iter().zip(&ladder.fit.ratings) {
        outln!(
            "  {level:<24} {:>8} Elo {}",
            reports::signed(rating.value, 1),
            reports::elo_interval(rating)
        );
    }
    outln!("  (ratings: Bradley–Terry with {})", ladder.fit.prior);
    for rung in &ladder.rungs {
        let e = &rung.estimate;
        outln!(
            "  {} vs {}: score {:.3} [{:.3}, {:.3}], {}: {}",
            rung.upper,
            rung.lower,
            e.score.value,
            e.score.ci95[0],
            e.score.ci95[1],
            e,
            if rung.passed { "ok" } else { "FAIL" }
        );
        for side in &rung.by_side {
            outln!("    {}", side_line(&rung.upper, side));
        }
    }
    if ladder.full {
        print_intransitive(ladder);
    }
    outln!("  {}", reports::report::LADDER_NOTE);
}

pub fn ladder(args: LadderArgs) -> anyhow::Result<ExitCode> {
    let mut exp = args
        .common
        .experiment(args.games, args.levels.clone(), "ladder")?;
    if args.games.is_none() && exp.games == tuner::config::DEFAULT_GAMES {
        exp.games = 2000;
    }
    engine::visit_game(
        &exp.game,
        LadderGame {
            exp: &exp,
            args: &args.common,
            full: args.full,
        },
    )?
}

/// The intransitive triples of a full ladder, or that there are none.
fn print_intransitive(ladder: &Ladder) {
    if ladder.intransitive.is_empty() {
        outln!("  intransitive triples: none (no cycle of wins, no wider gap scoring less)");
    }
    for t in &ladder.intransitive {
        let side = t
            .side
            .as_ref()
            .map(|s| format!(" as {s}"))
            .unwrap_or_default();
        outln!(
            "  INTRANSITIVE ({:?}{side}) {}: {}",
            t.kind,
            t.levels.join(" < "),
            t.detail
        );
    }
}

/// `hard as attackers: score 0.712 [0.655, 0.763]`.
/// In Thud, `… , round point margin +8.2 [+5.1, +11.3]` follows.
fn side_line(agent: &str, side: &tuner::batch::summary::SideScore) -> String {
    let margin = side.margin.map_or_else(String::new, |m| {
        format!(
            ", round point margin {:+.1} [{:+.1}, {:+.1}]",
            m.value, m.ci95[0], m.ci95[1]
        )
    });
    format!(
        "{agent} as {}: score {:.3} [{:.3}, {:.3}]{margin}",
        side.side, side.score.value, side.score.ci95[0], side.score.ci95[1]
    )
}

/// The histogram the SPRT reads, in words: `hard's points per pair of games (how many pairs
/// scored each): 0: 2, ½: 0, 1: 12, 1½: 30, 2: 4`. A seed group's games share their luck, so the
/// test counts groups, not games; Thud's group is one match, scored 0, ½ or 1.
fn group_scores_line(candidate: &str, group_size: usize, scores: &[u64], matches: bool) -> String {
    let (group, groups) = match (matches, group_size) {
        (true, _) => ("match".to_owned(), "matches".to_owned()),
        (false, 2) => ("pair of games".to_owned(), "pairs".to_owned()),
        (false, n) => (format!("seed group of {n} games"), "groups".to_owned()),
    };
    let counts = scores
        .iter()
        .enumerate()
        .map(|(half_points, n)| format!("{}: {n}", half_point_text(half_points)))
        .collect::<Vec<_>>()
        .join(", ");
    format!("{candidate}'s points per {group} (how many {groups} scored each): {counts}")
}

/// `0`, `½`, `1`, `1½`, … for a score counted in half points.
fn half_point_text(half_points: usize) -> String {
    match (half_points / 2, half_points % 2) {
        (0, 1) => "½".to_owned(),
        (whole, 1) => format!("{whole}½"),
        (whole, _) => whole.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_scores_name_the_group_and_each_score() {
        assert_eq!(
            group_scores_line("hard", 2, &[2, 0, 12, 30, 4], false),
            "hard's points per pair of games (how many pairs scored each): 0: 2, ½: 0, 1: 12, 1½: 30, 2: 4"
        );
        assert_eq!(
            group_scores_line("hard", 1, &[3, 5, 10], true),
            "hard's points per match (how many matches scored each): 0: 3, ½: 5, 1: 10"
        );
        let four = group_scores_line("hard", 4, &[0; 9], false);
        assert!(
            four.starts_with("hard's points per seed group of 4 games"),
            "{four}"
        );
        assert!(four.ends_with("3½: 0, 4: 0"), "{four}");
    }
}
