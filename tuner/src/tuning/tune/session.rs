//! A tuning run over games: the plans of each iteration, its result, resuming and the final
//! verification.

use engine::Game;
use serde::Serialize;

use super::checkpoint::{Checkpoint, FORMAT, IterationRecord, config_hash};
use super::config::{TuneFile, TuneSpec};
use super::seeds::fresh_seed;
use super::spsa::{ALPHA, GAMMA, Spsa};
use crate::InputError;
use crate::batch::runner::run;
use crate::config::{Experiment, ExperimentFile, Plan};
use crate::observer::Observer;
use crate::strength::stats::GroupScores;
use crate::strength::{GateRun, gate, match_plan};

/// Where a run stands: θ and what each iteration did.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneState {
    /// The full weight vector, in table order.
    pub theta: Vec<f64>,
    pub history: Vec<IterationRecord>,
}

impl TuneState {
    /// Iterations done.
    #[must_use]
    pub fn done(&self) -> u64 {
        self.history.len() as u64
    }

    /// Games played by the iterations done.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.history.iter().map(|r| r.games).sum()
    }
}

/// What a config hash covers: everything that decides the run's games and updates, resolved
/// (a start read from a file enters as its values), and nothing that does not (threads, the
/// output folder, the verification).
#[derive(Serialize)]
struct Canonical<'a, O> {
    format: &'static str,
    game: &'static str,
    level: &'static str,
    weight_set: &'static str,
    /// Name, min, max, step of each tuned parameter.
    tuned: Vec<(&'static str, f64, f64, f64)>,
    start: &'a [f64],
    iterations: u64,
    pairs: u64,
    seed: u64,
    big_a: f64,
    r_end: f64,
    c_end_steps: f64,
    alpha: f64,
    gamma: f64,
    /// The opponent's level by its number in the game's list, and its weights.
    opponent: Option<(usize, &'a [f64])>,
    options: &'a O,
    /// The suite's hash and order; absent without one, so that other configs keep their hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    openings: Option<(&'a str, crate::openings::Order)>,
}

/// A tuning run of game `G`, ready to play iterations.
#[derive(Debug)]
pub struct Tuner<G: Game> {
    pub spec: TuneSpec<G>,
    pub spsa: Spsa,
    /// [`config_hash`] of the resolved config.
    pub hash: String,
    /// θ (team A, first half of the seats) against θ or the opponent (team B); each iteration
    /// replaces the weights.
    template: Plan<G>,
    base: Experiment,
}

impl<G: Game> Tuner<G> {
    pub fn new(file: &TuneFile) -> Result<Self, InputError> {
        let spec = TuneSpec::<G>::new(file)?;
        let spsa = Spsa::new(&spec.params, &spec.tuned, spec.settings, spec.seed);
        // Built from the file form, so that fields added to experiments take their defaults.
        let base = ExperimentFile {
            game: Some(G::NAME.to_owned()),
            agents: Some(Vec::new()),
            games: Some(1),
            seed: Some(spec.seed),
            threads: Some(spec.threads),
            time_control: Some(engine::TimeControl::Batch),
            options: Some(spec.options_table.clone()),
            openings: file.openings.clone(),
            openings_order: file.openings_order,
            ..ExperimentFile::default()
        }
        .resolve();
        let level = spec.level_name();
        let b = spec.opponent.as_ref().map_or(level, |(s, _)| s.as_str());
        let mut template = match_plan::<G>(&base, level, b)?;
        let b_label = spec.opponent.as_ref().map_or("theta-", |(s, _)| s.as_str());
        template.labels = template
            .teams
            .iter()
            .map(|&a| if a { "theta+" } else { b_label }.to_owned())
            .collect();
        let canonical = Canonical {
            format: "koom-tune-1",
            game: G::NAME,
            level,
            weight_set: spec.set.name,
            tuned: spec
                .tuned
                .iter()
                .map(|&i| {
                    let p = &spec.params[i];
                    (p.name, p.min, p.max, p.step)
                })
                .collect(),
            start: &spec.start,
            iterations: spec.settings.iterations,
            pairs: spec.pairs,
            seed: spec.seed,
            big_a: spec.settings.big_a,
            r_end: spec.settings.r_end,
            c_end_steps: spec.settings.c_end_steps,
            alpha: ALPHA,
            gamma: GAMMA,
            opponent: spec
                .opponent
                .as_ref()
                .map(|(written, s)| {
                    let index = s.level.index().ok_or_else(|| {
                        InputError::new(format!("opponent `{written}` is not a {} level", G::NAME))
                    })?;
                    Ok::<_, InputError>((index, s.weights.as_slice()))
                })
                .transpose()?,
            options: &spec.options,
            openings: template
                .openings
                .as_ref()
                .map(|s| (s.info.hash.as_str(), s.info.order)),
        };
        let hash = config_hash(&canonical);
        Ok(Self {
            spec,
            spsa,
            hash,
            template,
            base,
        })
    }

    /// The state before the first iteration.
    #[must_use]
    pub fn start(&self) -> TuneState {
        TuneState {
            theta: self.spec.start.clone(),
            history: Vec::new(),
        }
    }

    /// The tuned parameters' values in `theta`.
    #[must_use]
    pub fn tuned_values(&self, theta: &[f64]) -> Vec<f64> {
        self.spec.tuned.iter().map(|&i| theta[i]).collect()
    }

    /// The checkpoint of `state`.
    #[must_use]
    pub fn checkpoint(&self, state: &TuneState) -> Checkpoint {
        Checkpoint {
            format: FORMAT.to_owned(),
            config_hash: self.hash.clone(),
            iterations_done: state.done(),
            theta: state.theta.clone(),
            history: state.history.clone(),
        }
    }

    /// The state a checkpoint holds, after checking that it belongs to this config and is
    /// consistent. `Err(Mismatch)` for another config's, `Err(Corrupt)` for an inconsistent one.
    pub fn resume(&self, checkpoint: Checkpoint) -> Result<TuneState, ResumeError> {
        if checkpoint.config_hash != self.hash {
            return Err(ResumeError::OtherConfig {
                found: checkpoint.config_hash,
                expected: self.hash.clone(),
            });
        }
        let corrupt = |why: String| Err(ResumeError::Corrupt(why));
        let n = self.spec.tuned.len();
        let done = checkpoint.iterations_done;
        if done > self.spec.settings.iterations {
            return corrupt(format!(
                "{done} iterations done of {}",
                self.spec.settings.iterations
            ));
        }
        if checkpoint.history.len() as u64 != done {
            return corrupt(format!(
                "{} iteration records for {done} iterations done",
                checkpoint.history.len()
            ));
        }
        if checkpoint.theta.len() != self.spec.start.len() {
            return corrupt(format!(
                "θ has {} values, the weight set {}",
                checkpoint.theta.len(),
                self.spec.start.len()
            ));
        }
        for (k, record) in checkpoint.history.iter().enumerate() {
            let k = k as u64;
            if record.iteration != k + 1
                || record.theta.len() != n
                || record.delta != self.spsa.perturbation(k)
                || record.games != self.games_per_iteration()
                || record.result.unsigned_abs() > record.games
                || record.theta.iter().any(|x| !x.is_finite())
            {
                return corrupt(format!("the record of iteration {} does not fit", k + 1));
            }
        }
        let last = checkpoint
            .history
            .last()
            .map_or_else(|| self.tuned_values(&self.spec.start), |r| r.theta.clone());
        let untouched = (0..self.spec.start.len())
            .filter(|i| !self.spec.tuned.contains(i))
            .all(|i| checkpoint.theta[i].to_bits() == self.spec.start[i].to_bits());
        if self.tuned_values(&checkpoint.theta) != last || !untouched {
            return corrupt("θ differs from the last iteration's record".to_owned());
        }
        for (&i, &v) in self.spec.tuned.iter().zip(&last) {
            let p = &self.spec.params[i];
            if !(p.min..=p.max).contains(&v) {
                return corrupt(format!(
                    "`{}` = {v} is outside [{}, {}]",
                    p.name, p.min, p.max
                ));
            }
        }
        Ok(TuneState {
            theta: checkpoint.theta,
            history: checkpoint.history,
        })
    }

    /// The template with team A playing `a` and, without an opponent, team B playing `b`.
    fn plan(&self, a: &[f64], b: &[f64]) -> Plan<G> {
        let mut plan = self.template.clone();
        let fixed_opponent = self.spec.opponent.is_some();
        for (agent, &team_a) in plan.agents.iter_mut().zip(&self.template.teams) {
            if team_a {
                agent.weights = a.to_vec();
            } else if !fixed_opponent {
                agent.weights = b.to_vec();
            }
        }
        plan
    }

    /// Plays the next iteration and applies its update. Returns `false`, leaving `state` as it
    /// was, when interrupted: the iteration's games are then played again on resume.
    pub fn iterate(
        &self,
        state: &mut TuneState,
        observer: &mut dyn Observer<G>,
    ) -> std::io::Result<bool> {
        let k = state.done();
        let probe = self.spsa.probe(&state.theta, k);
        let groups = k * self.spec.pairs..(k + 1) * self.spec.pairs;
        let threads = self.spec.threads;
        let (games, result) = if self.spec.opponent.is_some() {
            let plus = run(
                &self.plan(&probe.plus, &[]),
                groups.clone(),
                threads,
                observer,
            )?;
            if plus.partial {
                return Ok(false);
            }
            let minus = run(&self.plan(&probe.minus, &[]), groups, threads, observer)?;
            if minus.partial {
                return Ok(false);
            }
            (
                plus.tally.games + minus.tally.games,
                net_wins(&plus.tally.group_scores) - net_wins(&minus.tally.group_scores),
            )
        } else {
            let batch = run(
                &self.plan(&probe.plus, &probe.minus),
                groups,
                threads,
                observer,
            )?;
            if batch.partial {
                return Ok(false);
            }
            (batch.tally.games, net_wins(&batch.tally.group_scores))
        };
        self.spsa
            .update(&mut state.theta, k, &probe.delta, result as f64);
        state.history.push(IterationRecord {
            iteration: k + 1,
            delta: probe.delta,
            games,
            result,
            theta: self.tuned_values(&state.theta),
        });
        Ok(true)
    }

    /// Games per iteration.
    #[must_use]
    pub fn games_per_iteration(&self) -> u64 {
        let runs = if self.spec.opponent.is_some() { 2 } else { 1 };
        runs * self.spec.pairs * self.template.seats() as u64
    }

    /// The seed groups of the verification.
    fn verify_groups(&self) -> u64 {
        let games = self.spec.verify.games;
        if G::GAMES_COUNT_GROUPS {
            games
        } else {
            games.div_ceil(self.template.seats() as u64)
        }
    }

    /// The verification's master seed: derived from the master seed, and checked to give no
    /// game seed that any tuning iteration uses (see [`fresh_seed`]).
    #[must_use]
    pub fn verify_seed(&self) -> u64 {
        fresh_seed(
            self.spec.seed,
            self.spec.settings.iterations * self.spec.pairs,
            self.verify_groups(),
        )
    }

    /// The tuned weights `theta` (team A, `tuned`) against the start (team B, `start`), on the
    /// verification seed, for at most the verification's games.
    pub fn verify_plan(&self, theta: &[f64]) -> Result<Plan<G>, InputError> {
        let level = self.spec.level_name();
        let exp = Experiment {
            games: self.spec.verify.games.max(1),
            seed: self.verify_seed(),
            ..self.base.clone()
        };
        let mut plan = match_plan::<G>(&exp, level, level)?;
        for (slot, &team_a) in plan.teams.iter().enumerate() {
            plan.agents[slot].weights = if team_a { theta } else { &self.spec.start }.to_vec();
            plan.labels[slot] = if team_a { "tuned" } else { "start" }.to_owned();
        }
        Ok(plan)
    }

    /// Plays the verification gate of `theta` against the start.
    pub fn verify(
        &self,
        plan: &Plan<G>,
        observer: &mut dyn Observer<G>,
    ) -> std::io::Result<GateRun<G>> {
        let v = &self.spec.verify;
        gate(plan, v.bounds, v.batch, self.spec.threads, observer)
    }

    /// `tuning.csv`: a header, the start (iteration 0), then one row per iteration done.
    #[must_use]
    pub fn csv_rows(&self, state: &TuneState) -> Vec<Vec<String>> {
        let mut header: Vec<String> = ["iteration", "games", "result", "c_k_steps", "r_k", "delta"]
            .map(String::from)
            .to_vec();
        header.extend(self.spsa.params.iter().map(|p| p.name.to_owned()));
        let mut start = vec!["0".to_owned()];
        start.extend(std::iter::repeat_n(String::new(), 5));
        start.extend(
            self.tuned_values(&self.spec.start)
                .iter()
                .map(f64::to_string),
        );
        let mut rows = vec![header, start];
        for (k, r) in state.history.iter().enumerate() {
            let k = k as u64;
            let mut row = vec![
                r.iteration.to_string(),
                r.games.to_string(),
                r.result.to_string(),
                self.spsa.c_steps(k).to_string(),
                self.spsa.r_k(k).to_string(),
                r.delta
                    .iter()
                    .map(|&d| if d > 0 { '+' } else { '-' })
                    .collect(),
            ];
            row.extend(r.theta.iter().map(f64::to_string));
            rows.push(row);
        }
        rows
    }
}

/// Team A's wins minus losses, in games, from group scores in half-points: a group of `G`
/// games in which team A scored `h` half-points counts `h − G`.
#[must_use]
pub fn net_wins(scores: &GroupScores) -> i64 {
    let g = scores.games_per_group() as i64;
    scores
        .counts
        .iter()
        .enumerate()
        .map(|(h, &c)| c as i64 * (h as i64 - g))
        .sum()
}

/// Why a checkpoint cannot be resumed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResumeError {
    /// Written for another config (or another version of this one).
    OtherConfig { found: String, expected: String },
    /// Inconsistent with itself or with the config.
    Corrupt(String),
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use engine::game_seed;
    use engine::games::ludo::{HardWeights, Ludo};

    use super::*;
    use crate::observer::Quiet;

    /// A tiny tune from a bad start, with `extra` lines (keys or tables) added.
    fn tiny(extra: &str) -> String {
        format!(
            "game = 'ludo'\nlevel = 'hard'\niterations = 6\npairs = 4\nseed = 11\nr_end = 0.02\n\
             {extra}\n[start]\ncapture = 0.5\nrisk_weight = 0.0\n"
        )
    }

    fn tuner(text: &str) -> Tuner<Ludo> {
        Tuner::new(&TuneFile::parse(text).unwrap()).unwrap()
    }

    fn run_to_end(t: &Tuner<Ludo>, state: &mut TuneState) {
        while state.done() < t.spec.settings.iterations {
            assert!(t.iterate(state, &mut Quiet::new()).unwrap());
        }
    }

    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    #[test]
    fn resuming_from_a_checkpoint_ends_exactly_where_an_uninterrupted_run_does() {
        let t = tuner(&tiny(""));
        let mut whole = t.start();
        run_to_end(&t, &mut whole);
        assert_ne!(whole.theta, t.spec.start, "θ moved");

        let mut first = t.start();
        for _ in 0..3 {
            assert!(t.iterate(&mut first, &mut Quiet::new()).unwrap());
        }
        // An interrupted iteration changes nothing.
        let stop = AtomicBool::new(true);
        let before = first.clone();
        assert!(!t.iterate(&mut first, &mut Quiet::until(&stop)).unwrap());
        assert_eq!(first, before);

        let json = t.checkpoint(&first).to_json();
        let again = tuner(&tiny(""));
        let mut resumed = again.resume(Checkpoint::parse(&json).unwrap()).unwrap();
        run_to_end(&again, &mut resumed);
        assert_eq!(bits(&resumed.theta), bits(&whole.theta));
        assert_eq!(resumed.history, whole.history);
        assert_eq!(again.csv_rows(&resumed), t.csv_rows(&whole));
    }

    #[test]
    fn threads_do_not_change_the_run() {
        let one = tuner(&tiny("threads = 1"));
        let two = tuner(&tiny("threads = 2"));
        assert_eq!(
            one.hash, two.hash,
            "threads are not part of the config hash"
        );
        let (mut a, mut b) = (one.start(), two.start());
        run_to_end(&one, &mut a);
        run_to_end(&two, &mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn checkpoints_of_other_configs_or_inconsistent_ones_are_refused() {
        let t = tuner(&tiny(""));
        let mut state = t.start();
        assert!(t.iterate(&mut state, &mut Quiet::new()).unwrap());
        let cp = t.checkpoint(&state);
        for other in [
            tiny("").replace("seed = 11", "seed = 12"),
            tiny("").replace("capture = 0.5", "capture = 0.75"),
            tiny("parameters = ['capture']"),
            tiny("[options]\nroll_cap = 500"),
        ] {
            assert!(matches!(
                tuner(&other).resume(cp.clone()),
                Err(ResumeError::OtherConfig { .. })
            ));
        }
        // Not part of the hash: the verification and the output folder.
        assert!(
            tuner(&tiny("[verify]\ngames = 10"))
                .resume(cp.clone())
                .is_ok()
        );

        let corrupt = |edit: &dyn Fn(&mut Checkpoint)| {
            let mut bad = cp.clone();
            edit(&mut bad);
            match t.resume(bad) {
                Err(ResumeError::Corrupt(why)) => why,
                other => panic!("{other:?}"),
            }
        };
        assert!(corrupt(&|c| c.iterations_done = 2).contains("1 iteration records for 2"));
        assert!(corrupt(&|c| c.history[0].delta[0] *= -1).contains("iteration 1 does not fit"));
        assert!(corrupt(&|c| c.theta[0] += 1.0).contains("θ differs"));
        assert!(corrupt(&|c| c.theta.pop().map(drop).unwrap_or(())).contains("θ has 6 values"));
        assert!(corrupt(&|c| c.iterations_done = 99).contains("99 iterations done of 6"));
    }

    #[test]
    fn against_a_fixed_opponent_both_probes_meet_it_on_the_same_seeds() {
        let t = tuner(&tiny("opponent = 'normal'"));
        assert_eq!(t.games_per_iteration(), 2 * 4 * 4);
        let mut state = t.start();
        assert!(t.iterate(&mut state, &mut Quiet::new()).unwrap());
        let record = &state.history[0];
        assert_eq!(record.games, 32);
        // The same result by hand: θ± against Normal on groups 0..4 of the master seed.
        let probe = t.spsa.probe(&t.spec.start, 0);
        let base = ExperimentFile {
            seed: Some(11),
            ..ExperimentFile::default()
        }
        .resolve();
        let net = |weights: &[f64]| {
            let mut plan = match_plan::<Ludo>(&base, "hard", "normal").unwrap();
            for (agent, &a) in plan.agents.iter_mut().zip(&plan.teams) {
                if a {
                    agent.weights = weights.to_vec();
                }
            }
            let r = run(&plan, 0..4, 1, &mut Quiet::new()).unwrap();
            net_wins(&r.tally.group_scores)
        };
        assert_eq!(record.result, net(&probe.plus) - net(&probe.minus));
    }

    #[test]
    fn net_wins_counts_games_from_half_points() {
        // Groups of 4 games: scores 0, 3 and 8 half-points = −4, −1 and +4 games.
        let mut scores = GroupScores::new(4);
        for h in [0, 3, 8] {
            scores.add(h);
        }
        assert_eq!(net_wins(&scores), -1);
    }

    #[test]
    fn verification_seeds_are_fresh_and_the_plan_seats_tuned_against_start() {
        let t = tuner(&tiny("[verify]\ngames = 400"));
        let seed = t.verify_seed();
        assert_ne!(seed, t.spec.seed);
        let tuning: Vec<u64> = (0..6 * 4).map(|g| game_seed(t.spec.seed, g)).collect();
        assert!((0..100).all(|g| !tuning.contains(&game_seed(seed, g))));
        let theta = HardWeights::SET.defaults();
        let plan = t.verify_plan(&theta).unwrap();
        assert_eq!((plan.seed, plan.groups), (seed, 100));
        assert_eq!(plan.labels, ["tuned", "tuned", "start", "start"]);
        assert_eq!(plan.agents[0].weights, theta);
        assert_eq!(plan.agents[3].weights, t.spec.start);
    }
}

#[cfg(test)]
mod shipped {
    use engine::{Game, GameVisitor};

    use super::*;

    struct Check<'a>(&'a TuneFile);

    impl GameVisitor for Check<'_> {
        type Output = Result<(), InputError>;
        fn visit<G: Game>(self) -> Self::Output {
            Tuner::<G>::new(self.0).map(drop)
        }
    }

    #[test]
    fn every_shipped_tuning_config_is_valid() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../configs/tune");
        let mut checked = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let file = TuneFile::load(&path).unwrap();
            engine::visit_game(&file.game, Check(&file))
                .unwrap()
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            checked += 1;
        }
        assert!(checked >= 3, "{checked} configs in {dir}");
    }
}
