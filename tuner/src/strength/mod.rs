//! Strength testing on top of the runner: the SPRT gate and the level ladder.

pub mod stats;
pub mod tournament;

use engine::Game;
use engine::sample::Estimate;
use serde::{Deserialize, Serialize};

use crate::InputError;
use crate::batch::records::RecordsFile;
use crate::batch::runner::run;
use crate::batch::summary::{HeadToHead, SideScore, side_scores};
use crate::batch::tally::RunTally;
use crate::config::{Experiment, Plan};
use crate::interop::external::EngineFailures;
use crate::observer::Observer;
use crate::openings::SuiteInfo;
use crate::strength::stats::ladder::Pairing;
use crate::strength::stats::{
    Bounds, EloEstimate, Intransitive, LadderFit, Sprt, Verdict, fit_bradley_terry,
    intransitive_triples, transitivity::reversed,
};

/// The seats of a two-agent match in game `G`: the first half of the seats A, the second half B
/// (two players when the game takes a variable number). Halves rather than alternation: with
/// A B A B, rotations 0 and 2 would seat the same agents in the same seats on the same dice and
/// replay the same game, while every rotation of A A B B is a different game.
#[must_use]
pub fn match_agents<G: Game>(a: &str, b: &str) -> Vec<String> {
    let (min, max) = G::SEATS;
    let seats = if min == max { min } else { min.max(2) };
    (0..seats)
        .map(|s| {
            if s < seats.div_ceil(2) {
                a.to_owned()
            } else {
                b.to_owned()
            }
        })
        .collect()
}

/// A two-agent match plan whose team A is the first agent's seats, even when both agents are
/// the same. Its outside players are not started here: the gate's caller and [`play_matches`]
/// probe them, once a command.
pub fn match_plan<G: Game>(base: &Experiment, a: &str, b: &str) -> Result<Plan<G>, InputError> {
    let exp = Experiment {
        agents: match_agents::<G>(a, b),
        ..base.clone()
    };
    let plan = Plan::<G>::new(&exp)?;
    let half = plan.seats().div_ceil(2);
    let teams = (0..plan.seats()).map(|s| s < half).collect();
    Ok(plan.with_teams(teams))
}

/// What `--games`/`--max-games` count in game `G`, singular and plural: matches (two rounds,
/// sides swapped) where a seed group is scored as one match, as in Thud; games elsewhere.
#[must_use]
pub fn count_unit<G: Game>() -> (&'static str, &'static str) {
    if G::GAMES_COUNT_GROUPS {
        ("match", "matches")
    } else {
        ("game", "games")
    }
}

/// How much a tally played, in the unit of [`count_unit`]: `256 matches (512 rounds)` in Thud,
/// `512 games (256 seed groups)` elsewhere.
#[must_use]
pub fn played<G: Game>(tally: &RunTally<G>) -> String {
    if G::GAMES_COUNT_GROUPS {
        format!("{} matches ({} rounds)", tally.groups, tally.games)
    } else {
        format!("{} games ({} seed groups)", tally.games, tally.groups)
    }
}

fn games_unit() -> String {
    "games".to_owned()
}

/// What `koom gate` writes to `summary.json` (the writer adds `run`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GateSummary {
    pub game: String,
    pub seed: u64,
    pub verdict: String,
    pub exit_code: u8,
    /// Single games played (in Thud, rounds: two per match).
    pub games_played: u64,
    /// What `--max-games` counted: `games`, or `matches` in Thud.
    pub unit: String,
    /// How many of those were played (Thud: matches; elsewhere the same as `games_played`).
    pub played: u64,
    pub partial: bool,
    /// The opening suite the seed groups started from, as `run` writes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<SuiteInfo>,
    pub sprt: Sprt,
    /// Candidate (`agent`) against baseline (`opponent`).
    #[serde(flatten)]
    pub head_to_head: HeadToHead,
}

/// What `koom ladder` writes to `summary.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LadderSummary {
    pub game: String,
    pub seed: u64,
    /// Games per pair, in `unit`.
    pub games_per_pair: u64,
    /// `games`, or `matches` in Thud (each two rounds); summaries written before it said games.
    #[serde(default = "games_unit")]
    pub unit: String,
    #[serde(flatten)]
    pub ladder: Ladder,
}

/// A finished (or stopped) gate.
#[derive(Debug)]
pub struct GateRun<G: Game> {
    pub tally: RunTally<G>,
    pub sprt: Sprt,
    pub partial: bool,
}

/// Plays `batch_groups` seed groups at a time, re-evaluating the SPRT after each batch, until a
/// bound is crossed or `plan.groups` groups are played. `observer` sees the test after each
/// batch, and every game's row when it wants them (the plan must then note moves for its
/// records: [`RecordsFile::note_in`]).
pub fn gate<G: Game>(
    plan: &Plan<G>,
    bounds: Bounds,
    batch_groups: u64,
    threads: usize,
    observer: &mut dyn Observer<G>,
) -> std::io::Result<GateRun<G>> {
    let mut tally = RunTally::new(plan);
    let mut sprt = Sprt::evaluate(bounds, &tally.group_scores);
    let mut start = 0;
    let mut partial = false;
    while start < plan.groups && sprt.verdict == Verdict::Continue {
        let end = (start + batch_groups.max(1)).min(plan.groups);
        let batch = run(plan, start..end, threads, observer)?;
        tally.merge(&batch.tally);
        sprt = Sprt::evaluate(bounds, &tally.group_scores);
        observer.sprt(&sprt, &tally);
        if batch.partial {
            partial = true;
            break;
        }
        start = end;
    }
    Ok(GateRun {
        tally,
        sprt,
        partial,
    })
}

/// The verdict of a gate in words and its exit code: 0 passed, 1 failed, 3 undecided at the game
/// limit, and `interrupted` (the caller's status for a stopped command) when stopped. `gain`
/// says whether the bounds ask for a gain or for no regression.
#[must_use]
pub fn gate_verdict(
    verdict: Verdict,
    partial: bool,
    gain: bool,
    interrupted: u8,
) -> (&'static str, u8) {
    match (verdict, partial) {
        (_, true) => ("interrupted", interrupted),
        (Verdict::AcceptH1, _) if gain => ("H1 accepted: gains", 0),
        (Verdict::AcceptH1, _) => ("H1 accepted: not weaker", 0),
        (Verdict::AcceptH0, _) if gain => ("H0 accepted: no gain", 1),
        (Verdict::AcceptH0, _) => ("H0 accepted: regression", 1),
        (Verdict::Continue, _) => ("inconclusive at the game limit", 3),
    }
}

/// A gate of `candidate` against `baseline`, planned and its outside players started, before
/// anything is played (so that a caller can size its progress bar).
#[derive(Debug)]
pub struct GateMatch<G: Game> {
    plan: Plan<G>,
}

impl<G: Game> GateMatch<G> {
    /// Plans the match (seats as [`match_agents`]) and checks that its outside players answer.
    pub fn new(exp: &Experiment, candidate: &str, baseline: &str) -> Result<Self, InputError> {
        let plan = match_plan::<G>(exp, candidate, baseline)?;
        crate::interop::external::probe_all::<G>(&plan.externals)?;
        Ok(Self { plan })
    }

    /// The most games the gate plays.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.plan.games()
    }

    /// Plays the gate ([`gate`]), noting moves when `observer` writes records. Returns the
    /// opening suite the games started from with the result, for the summary.
    pub fn play(
        mut self,
        bounds: Bounds,
        batch_groups: u64,
        threads: usize,
        observer: &mut dyn Observer<G>,
    ) -> std::io::Result<(GateRun<G>, Option<SuiteInfo>)> {
        RecordsFile::note_in(observer.records(), &mut self.plan);
        let result = gate(&self.plan, bounds, batch_groups, threads, observer)?;
        Ok((result, self.plan.openings.map(|suite| suite.info.clone())))
    }
}

impl GateSummary {
    /// The summary of a gate played with `seed`, whose verdict is `verdict` (exit `exit_code`).
    #[must_use]
    pub fn new<G: Game>(
        seed: u64,
        result: &GateRun<G>,
        head_to_head: HeadToHead,
        openings: Option<SuiteInfo>,
        (verdict, exit_code): (&str, u8),
    ) -> Self {
        Self {
            game: G::NAME.to_owned(),
            seed,
            verdict: verdict.to_owned(),
            exit_code,
            games_played: result.tally.games,
            unit: count_unit::<G>().1.to_owned(),
            played: if G::GAMES_COUNT_GROUPS {
                result.tally.groups
            } else {
                result.tally.games
            },
            partial: result.partial,
            openings,
            sprt: result.sprt.clone(),
            head_to_head,
        }
    }
}

/// One rung of a ladder: `upper` against the level below it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Rung {
    pub upper: String,
    pub lower: String,
    pub games: u64,
    pub group_scores: Vec<u64>,
    #[serde(flatten)]
    pub estimate: EloEstimate,
    /// In two-seat games, the upper level's score on each side.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by_side: Vec<SideScore>,
    /// The upper level's score interval lies above an even score, overall and on every side (in
    /// Thud, its round point margin's above 0 on each side).
    pub passed: bool,
}

/// A ladder's result: each adjacent pair (with `--full`, every pair), and the ratings fitted over
/// all of them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Ladder {
    pub levels: Vec<String>,
    /// The pairs played: the adjacent ones first, then (with `full`) the wider ones.
    pub rungs: Vec<Rung>,
    pub fit: LadderFit,
    pub passed: bool,
    pub partial: bool,
    /// Every pair of levels was played, not only adjacent ones.
    #[serde(default)]
    pub full: bool,
    /// With `full`: the triples whose scores contradict the ladder's order (see
    /// [`intransitive_triples`]); empty when none does.
    #[serde(default)]
    pub intransitive: Vec<Intransitive>,
    /// The opening suite every pair's seed groups started from, as `run` writes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<SuiteInfo>,
    /// The outside players' failures (`summary.json` writes them beside the ladder).
    #[serde(skip)]
    pub failures: EngineFailures,
}

/// The finished matches of a set of pairings.
#[derive(Debug)]
pub struct Matches<G: Game> {
    /// `(a, b, counts)`: agent `a` (team A) against agent `b`.
    pub results: Vec<(usize, usize, RunTally<G>)>,
    pub partial: bool,
    /// The suite the matches started from (every pair reads the same one).
    pub openings: Option<SuiteInfo>,
}

impl<G: Game> Matches<G> {
    /// The outside players' failures over every match of `agents`.
    #[must_use]
    pub fn failures(&self, agents: &[String]) -> EngineFailures {
        let mut all = EngineFailures::default();
        for (a, b, tally) in &self.results {
            let labels = match_agents::<G>(&agents[*a], &agents[*b]);
            all.add(EngineFailures::of(&labels, tally));
        }
        all
    }

    /// Bradley–Terry ratings of `agents` agents over these matches, the first anchored at 0.
    #[must_use]
    pub fn ratings(&self, agents: usize) -> LadderFit {
        fit_bradley_terry(agents, &self.pairings(|i| i))
    }

    /// The rating (Elo with its interval) of each of `agents` agents that played, fitted over those alone (an
    /// agent that never played, after an interruption, would leave the fit without an
    /// interval); `None` for the others.
    #[must_use]
    pub fn played_ratings(&self, agents: usize) -> Vec<Option<Estimate>> {
        let mut played = vec![false; agents];
        for (a, b, _) in &self.results {
            played[*a] = true;
            played[*b] = true;
        }
        let position: Vec<usize> = played
            .iter()
            .scan(0, |next, &p| {
                let at = *next;
                *next += usize::from(p);
                Some(at)
            })
            .collect();
        let count = played.iter().filter(|&&p| p).count();
        let fit = fit_bradley_terry(count, &self.pairings(|i| position[i]));
        (0..agents)
            .map(|i| played[i].then(|| fit.ratings[position[i]]))
            .collect()
    }

    /// The pairings for the Bradley–Terry fit, agent `i` numbered `index(i)`.
    fn pairings(&self, index: impl Fn(usize) -> usize) -> Vec<Pairing> {
        self.results
            .iter()
            .map(|(a, b, tally)| {
                let scores = &tally.group_scores;
                let estimate = scores.estimate();
                Pairing {
                    a: index(*a),
                    b: index(*b),
                    score: estimate.score.value,
                    games: tally.games as f64,
                    variance_of_mean: estimate.group_variance / scores.groups().max(1) as f64,
                }
            })
            .collect()
    }
}

/// Plays a two-agent match (seats as [`match_agents`]) for each pair of `agents`, stopping at
/// the first interrupted one; `observer` sees every game, match by match, and writes its
/// records when it has a records file.
pub fn play_matches<G: Game>(
    base: &Experiment,
    agents: &[String],
    pairs: &[(usize, usize)],
    threads: usize,
    observer: &mut dyn Observer<G>,
) -> Result<Matches<G>, LadderError> {
    let plans = pairs
        .iter()
        .map(|&(a, b)| match_plan::<G>(base, &agents[a], &agents[b]))
        .collect::<Result<Vec<_>, _>>()?;
    let externals: Vec<_> = plans.iter().flat_map(|p| p.externals.clone()).collect();
    crate::interop::external::probe_all::<G>(&externals)?;
    let mut results = Vec::new();
    let mut openings = None;
    for (&(a, b), mut plan) in pairs.iter().zip(plans) {
        RecordsFile::note_in(observer.records(), &mut plan);
        openings = plan.openings.as_ref().map(|s| s.info.clone());
        let groups = 0..plan.groups;
        let result = run(&plan, groups, threads, observer)?;
        // A pair stopped before its first game is left out: it has nothing to rate.
        if result.tally.games > 0 {
            results.push((a, b, result.tally));
        }
        if result.partial {
            return Ok(Matches {
                results,
                partial: true,
                openings,
            });
        }
    }
    Ok(Matches {
        results,
        partial: false,
        openings,
    })
}

/// The pairs of a ladder over `levels` levels as `(upper, lower)`: adjacent ones, then with
/// `full` the wider ones by increasing gap, so that an interruption leaves the adjacent ones.
#[must_use]
pub fn ladder_pairs(levels: usize, full: bool) -> Vec<(usize, usize)> {
    let widest = if full { levels } else { 2.min(levels) };
    (1..widest)
        .flat_map(|gap| (gap..levels).map(move |upper| (upper, upper - gap)))
        .collect()
}

/// Plays the pairs of `levels` (weakest first; adjacent ones, or every pair with `full`) for
/// `base.games` games each and fits ratings. A rung passes when the upper level's score interval
/// lies above an even score overall and on every side; the ladder passes when every rung does.
/// `observer` sees every game.
pub fn ladder<G: Game>(
    base: &Experiment,
    levels: &[String],
    full: bool,
    threads: usize,
    observer: &mut dyn Observer<G>,
) -> Result<Ladder, LadderError> {
    if levels.len() < 2 {
        return Err(InputError::new(format!(
            "a ladder needs at least two levels, got {}",
            levels.len()
        ))
        .into());
    }
    let pairs = ladder_pairs(levels.len(), full);
    let matches = play_matches::<G>(base, levels, &pairs, threads, observer)?;
    let rungs: Vec<Rung> = matches
        .results
        .iter()
        .map(|(upper, lower, tally)| rung(levels, *upper, *lower, tally))
        .collect();
    // Adjacent pairs come first: the levels covered are those joined by the adjacent rungs.
    let covered = rungs.len().min(levels.len() - 1) + 1;
    let fit = matches.ratings(covered);
    let passed = !matches.partial && rungs.iter().all(|r| r.passed);
    let intransitive = if full {
        triples(&levels[..covered], &fit.ratings, &rungs)
    } else {
        Vec::new()
    };
    Ok(Ladder {
        levels: levels[..covered].to_vec(),
        rungs,
        fit,
        passed,
        partial: matches.partial,
        full,
        intransitive,
        failures: matches.failures(levels),
        openings: matches.openings,
    })
}

/// The levels a ladder climbs: those `exp` names, else every level of the game, weakest first.
#[must_use]
pub fn ladder_levels<G: Game>(exp: &Experiment) -> Vec<String> {
    exp.levels
        .clone()
        .unwrap_or_else(|| G::levels().iter().map(|l| l.name.to_owned()).collect())
}

/// The games a ladder over `levels` plays in all (for a progress bar): a pair's games times
/// the pairs.
#[must_use]
pub fn ladder_games<G: Game>(exp: &Experiment, levels: &[String], full: bool) -> u64 {
    let pairs = ladder_pairs(levels.len(), full).len() as u64;
    let per_pair = levels
        .first()
        .and_then(|level| match_plan::<G>(exp, level, level).ok())
        .map_or(exp.games, |p| p.games());
    per_pair.saturating_mul(pairs)
}

/// `upper` against `lower` as a rung.
fn rung<G: Game>(levels: &[String], upper: usize, lower: usize, tally: &RunTally<G>) -> Rung {
    let estimate = tally.group_scores.estimate();
    let by_side = side_scores(tally);
    Rung {
        upper: levels[upper].clone(),
        lower: levels[lower].clone(),
        games: tally.games,
        group_scores: tally.group_scores.counts.clone(),
        passed: estimate.score.ci95[0] > 0.5 && by_side.iter().all(SideScore::ahead),
        estimate,
        by_side,
    }
}

/// The intransitive triples among `levels`, taken in the order of their fitted ratings (so a
/// ladder listed in the wrong order is not called intransitive: its rungs fail instead).
fn triples(levels: &[String], ratings: &[Estimate], rungs: &[Rung]) -> Vec<Intransitive> {
    let mut order: Vec<usize> = (0..levels.len()).collect();
    order.sort_by(|&a, &b| ratings[a].value.total_cmp(&ratings[b].value));
    let ranked: Vec<String> = order.iter().map(|&i| levels[i].clone()).collect();
    // The rung of `a` against `b` in either direction, and whether `a` was its upper level.
    let find = |a: usize, b: usize| {
        rungs.iter().find_map(|r| {
            if r.upper == ranked[a] && r.lower == ranked[b] {
                Some((r, true))
            } else if r.upper == ranked[b] && r.lower == ranked[a] {
                Some((r, false))
            } else {
                None
            }
        })
    };
    let sides: Vec<String> = rungs
        .first()
        .map(|r| r.by_side.iter().map(|s| s.side.clone()).collect())
        .unwrap_or_default();
    intransitive_triples(
        &ranked,
        &sides,
        &|a, b| find(a, b).map(|(r, direct)| oriented(r.estimate.score, direct)),
        // Reversed, `a`'s score on side `k` is one minus the upper level's on the other side.
        &|a, b, k| {
            let (r, direct) = find(a, b)?;
            let side = if direct { k } else { sides.len() - 1 - k };
            r.by_side.get(side).map(|s| oriented(s.score, direct))
        },
    )
}

/// A score as it is (`direct`) or from the other player's view.
fn oriented(e: Estimate, direct: bool) -> Estimate {
    if direct { e } else { reversed(&e) }
}

/// A ladder fails on bad input or on a write error.
#[derive(Debug, thiserror::Error)]
pub enum LadderError {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

#[cfg(test)]
mod tests {
    use engine::games::ludo::Ludo;

    use super::*;
    use crate::config::ExperimentFile;
    use crate::observer::Quiet;

    fn base(games: u64, seed: u64) -> Experiment {
        ExperimentFile {
            games: Some(games),
            seed: Some(seed),
            ..ExperimentFile::default()
        }
        .resolve()
    }

    #[test]
    fn ludo_match_plans_seat_a_a_b_b() {
        let plan = match_plan::<Ludo>(&base(8, 1), "hard", "easy").unwrap();
        assert_eq!(plan.labels, ["hard", "hard", "easy", "easy"]);
        let same = match_plan::<Ludo>(&base(8, 1), "hard", "hard").unwrap();
        assert_eq!(same.teams, [true, true, false, false]);
    }

    #[test]
    fn gate_accepts_hard_over_easy_and_rejects_easy_against_hard() {
        let bounds = Bounds::nonreg();
        let good = gate(
            &match_plan::<Ludo>(&base(40_000, 3), "hard", "easy").unwrap(),
            bounds,
            64,
            0,
            &mut Quiet::new(),
        )
        .unwrap();
        assert_eq!(good.sprt.verdict, Verdict::AcceptH1);
        assert!(
            good.tally.games < 40_000,
            "decided early: {} games",
            good.tally.games
        );
        let bad = gate(
            &match_plan::<Ludo>(&base(40_000, 3), "easy", "hard").unwrap(),
            bounds,
            64,
            0,
            &mut Quiet::new(),
        )
        .unwrap();
        assert_eq!(bad.sprt.verdict, Verdict::AcceptH0);
    }

    #[test]
    fn gate_exit_codes_are_as_documented() {
        // As README.md documents them: 0 passed, 1 failed, 3 undecided at the game limit.
        let code = |v, partial, gain| gate_verdict(v, partial, gain, 130).1;
        assert_eq!(code(Verdict::AcceptH1, false, true), 0);
        assert_eq!(code(Verdict::AcceptH1, false, false), 0);
        assert_eq!(code(Verdict::AcceptH0, false, true), 1);
        assert_eq!(code(Verdict::AcceptH0, false, false), 1);
        assert_eq!(code(Verdict::Continue, false, false), 3);
        assert_eq!(code(Verdict::AcceptH1, true, false), 130);
        assert_eq!(
            gate_verdict(Verdict::AcceptH0, false, true, 143).0,
            "H0 accepted: no gain"
        );
    }

    #[test]
    fn ladder_games_count_every_pair() {
        let levels = ["easy", "normal", "hard"].map(String::from);
        let exp = base(10, 1);
        let per_pair = match_plan::<Ludo>(&exp, "easy", "easy").unwrap().games();
        assert_eq!(ladder_games::<Ludo>(&exp, &levels, false), 2 * per_pair);
        assert_eq!(ladder_games::<Ludo>(&exp, &levels, true), 3 * per_pair);
        let all: Vec<String> = <Ludo as engine::Players>::levels()
            .iter()
            .map(|l| l.name.to_owned())
            .collect();
        assert_eq!(ladder_levels::<Ludo>(&exp), all);
    }

    #[test]
    fn full_ladders_play_every_pair_adjacent_first() {
        assert_eq!(ladder_pairs(3, false), [(1, 0), (2, 1)]);
        assert_eq!(
            ladder_pairs(4, true),
            [(1, 0), (2, 1), (3, 2), (2, 0), (3, 1), (3, 0)]
        );
        assert_eq!(ladder_pairs(2, true), [(1, 0)]);
    }

    #[test]
    fn ludo_ladder_passes_in_order() {
        let levels = ["easy", "normal", "hard"].map(String::from);
        let fitted = ladder::<Ludo>(&base(4000, 5), &levels, false, 0, &mut Quiet::new()).unwrap();
        assert!(
            fitted.passed,
            "{:?}",
            fitted
                .rungs
                .iter()
                .map(|r| r.estimate.score.ci95)
                .collect::<Vec<_>>()
        );
        assert!(
            fitted.fit.ratings[1].value > 0.0
                && fitted.fit.ratings[2].value > fitted.fit.ratings[1].value
        );
        // The reversed ladder fails.
        let reversed = ["hard", "normal", "easy"].map(String::from);
        assert!(
            !ladder::<Ludo>(&base(4000, 5), &reversed, false, 0, &mut Quiet::new())
                .unwrap()
                .passed
        );
    }

    #[test]
    fn two_sided_rungs_report_each_side_and_fail_on_either() {
        use engine::games::hnefatafl::Hnefatafl;
        let levels = ["easy", "normal"].map(String::from);
        let fitted =
            ladder::<Hnefatafl>(&base(20, 1), &levels, false, 0, &mut Quiet::new()).unwrap();
        let rung = &fitted.rungs[0];
        let sides: Vec<&str> = rung.by_side.iter().map(|s| s.side.as_str()).collect();
        assert_eq!(sides, ["attackers", "defenders"], "names from the game");
        // Each side is half the games: its score is the upper level's points on that side.
        let mean = rung.by_side.iter().map(|s| s.score.value).sum::<f64>() / 2.0;
        assert!((mean - rung.estimate.score.value).abs() < 1e-12);
        let sides_pass = rung.by_side.iter().all(SideScore::ahead);
        assert_eq!(rung.passed, rung.estimate.score.ci95[0] > 0.5 && sides_pass);
        // Ludo has four seats, not two sides.
        let ludo = ladder::<Ludo>(&base(40, 5), &levels, false, 0, &mut Quiet::new()).unwrap();
        assert!(ludo.rungs[0].by_side.is_empty());
    }

    #[test]
    fn thud_sides_report_the_round_point_margin() {
        use engine::games::thud::Thud;
        let plan = match_plan::<Thud>(&base(6, 1), "easy", "beginner").unwrap();
        let tally = run(&plan, 0..plan.groups, 0, &mut Quiet::new())
            .unwrap()
            .tally;
        let sides = side_scores(&tally);
        let margin = |k: usize| sides[k].margin.expect("Thud scores points").value;
        // Team A plays dwarfs in one round of each match and trolls in the other: its margin as
        // dwarfs minus its margin as trolls, per match, is the dwarfs' summed margin per match.
        let matches = tally.groups as f64;
        let dwarfs_margin = tally.by_group.first_player_margin.sum as f64;
        assert!((matches * (margin(0) - margin(1)) - dwarfs_margin).abs() < 1e-9);
        assert_eq!(
            sides[0].ahead(),
            sides[0].margin.unwrap().ci95[0] > 0.0,
            "a side is judged on its margin"
        );
    }
}
