//! What `koom tune` writes to `summary.json`.

use engine::Game;
use serde::Serialize;
use serde_json::{Map, Value};

use super::session::{TuneState, Tuner};
use super::spsa::{ParamGains, Settings};
use crate::batch::summary::HeadToHead;
use crate::strength::GateRun;
use crate::strength::stats::{Sprt, Verdict};

/// The verification gate's result.
#[derive(Clone, Debug, Serialize)]
pub struct VerificationSummary {
    /// The verification's master seed (its games never share a seed with a tuning game).
    pub seed: u64,
    pub verdict: &'static str,
    pub games_played: u64,
    pub partial: bool,
    pub sprt: Sprt,
    /// Tuned (`agent`) against start (`opponent`).
    #[serde(flatten)]
    pub head_to_head: HeadToHead,
}

impl VerificationSummary {
    #[must_use]
    pub fn new<G: Game>(seed: u64, gate: &GateRun<G>) -> Self {
        let verdict = match (gate.sprt.verdict, gate.partial) {
            (_, true) => "interrupted",
            (Verdict::AcceptH1, _) => "H1 accepted: the tuned weights gain",
            (Verdict::AcceptH0, _) => "H0 accepted: no gain over the start",
            (Verdict::Continue, _) => "inconclusive at the game limit",
        };
        Self {
            seed,
            verdict,
            games_played: gate.tally.games,
            partial: gate.partial,
            sprt: gate.sprt.clone(),
            head_to_head: HeadToHead::new("tuned", "start", &gate.tally),
        }
    }
}

/// How much of the run taught the tuner nothing: iterations whose result was 0, so that their
/// update was zero. On common dice a small perturbation often changes no decision at all, and
/// θ+ and θ− then play identical games.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ZeroSignal {
    pub iterations: u64,
    pub share: f64,
    /// Whether the share passed [`ZeroSignal::WARN_SHARE`].
    pub warning: bool,
}

impl ZeroSignal {
    /// Above this share of zero-signal iterations, the run says it learned little.
    pub const WARN_SHARE: f64 = 0.5;

    #[must_use]
    pub fn of(state: &TuneState) -> Self {
        let iterations = state.history.iter().filter(|r| r.result == 0).count() as u64;
        let share = if state.history.is_empty() {
            0.0
        } else {
            iterations as f64 / state.history.len() as f64
        };
        Self {
            iterations,
            share,
            warning: share > Self::WARN_SHARE,
        }
    }
}

/// The whole run.
#[derive(Clone, Debug, Serialize)]
pub struct TuneSummary {
    pub game: &'static str,
    pub level: &'static str,
    pub weight_set: &'static str,
    pub method: &'static str,
    pub config_hash: String,
    pub seed: u64,
    pub iterations: u64,
    pub iterations_done: u64,
    pub pairs: u64,
    pub opponent: Option<String>,
    /// Games of the tuning iterations (the verification's are counted apart).
    pub games_played: u64,
    pub settings: Settings,
    pub gains: Vec<ParamGains>,
    /// Iterations whose θ+ and θ− scored the same (result 0): they moved θ not at all.
    pub zero_signal: ZeroSignal,
    /// Every parameter of the weight set, by name, at the start and at the end.
    pub theta_start: Map<String, Value>,
    pub theta_end: Map<String, Value>,
    /// The tuned weights file, loadable as `level@file`.
    pub weights_file: String,
    pub verification: Option<VerificationSummary>,
}

impl TuneSummary {
    #[must_use]
    pub fn new<G: Game>(
        tuner: &Tuner<G>,
        state: &TuneState,
        weights_file: String,
        verification: Option<VerificationSummary>,
    ) -> Self {
        let spec = &tuner.spec;
        let named = |values: &[f64]| -> Map<String, Value> {
            spec.set
                .params
                .iter()
                .zip(values)
                .map(|(p, &v)| (p.name.to_owned(), Value::from(v)))
                .collect()
        };
        Self {
            game: G::NAME,
            level: spec.level_name(),
            weight_set: spec.set.name,
            method: "spsa",
            config_hash: tuner.hash.clone(),
            seed: spec.seed,
            iterations: spec.settings.iterations,
            iterations_done: state.done(),
            pairs: spec.pairs,
            opponent: spec.opponent.as_ref().map(|(s, _)| s.clone()),
            games_played: state.games(),
            settings: spec.settings,
            gains: tuner.spsa.params.clone(),
            zero_signal: ZeroSignal::of(state),
            theta_start: named(&spec.start),
            theta_end: named(&state.theta),
            weights_file,
            verification,
        }
    }
}
