//! The whole `koom fit` job on records already read: the level and its weight set checked, the
//! positions sampled, the weights fitted, and the weights file and `fit.json` made, so that the
//! command only reads files, writes what this returns and prints it.

use std::path::PathBuf;

use engine::{Game, WeightSet, quote};

use super::{Fit, Report, Samples, Sampling, Settings, fit, terms_width};
use crate::InputError;
use crate::agents::{parse_agent, weights_toml};

/// What a fit is asked for (`koom fit`'s options).
#[derive(Clone, Debug)]
pub struct Request {
    /// The level whose weights start the fit (`expert` or `expert@file.toml`).
    pub level: String,
    /// The records files, by name (for messages and `fit.json`).
    pub records: Vec<PathBuf>,
    pub sampling: Sampling,
    pub iterations: usize,
    pub rate: f64,
    /// Weights held at their start, by name; none: the set's first.
    pub hold: Vec<String>,
}

/// What a fit found, ready to write and print.
#[derive(Debug)]
pub struct Outcome {
    /// The level's name, for the weights file's default name and `level@file` hint.
    pub level: &'static str,
    pub set: &'static WeightSet,
    pub samples: Samples,
    pub fit: Fit,
    /// The held weights' names, comma-separated.
    pub held: String,
    /// The fitted weights as a weights file, without its header comment.
    pub weights: String,
    /// `fit.json`.
    pub report: Vec<u8>,
}

/// One weight's row of the result table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    pub name: &'static str,
    pub start: f64,
    pub fitted: f64,
    /// The change in the weight's tuning steps.
    pub steps: f64,
}

impl Outcome {
    /// The evaluation weights before and after, in the weight set's order.
    #[must_use]
    pub fn rows(&self) -> Vec<Row> {
        self.set.params[..self.samples.width]
            .iter()
            .zip(self.fit.start.iter().zip(&self.fit.fitted))
            .map(|(p, (&start, &fitted))| Row {
                name: p.name,
                start,
                fitted,
                steps: (fitted - start) / p.step,
            })
            .collect()
    }
}

/// A request checked against game `G`: its level, weight set and held weights, before any
/// records are read.
#[derive(Debug)]
pub struct Checked<'a, G: Game> {
    request: &'a Request,
    setup: engine::AgentSetup<G>,
    /// The level's name, for the weights file's default name.
    pub level: &'static str,
    set: &'static WeightSet,
    held: Vec<usize>,
    _game: std::marker::PhantomData<G>,
}

/// Checks what can be checked before reading a game: the rate, that `G` has a linear
/// evaluation, the level and its weight set, and the held weights.
pub fn check<G: Game>(request: &Request) -> Result<Checked<'_, G>, InputError> {
    if !(request.rate.is_finite() && request.rate > 0.0) {
        return Err(InputError::new(
            "--rate must be a positive number (tuning steps per iteration)",
        ));
    }
    let width = terms_width::<G>()?;
    let setup = parse_agent::<G>(&request.level, engine::TimeControl::Batch)?;
    let level = setup.level;
    let Some(set) = level.weights else {
        return Err(InputError::new(format!(
            "{} level `{}` has no weight set",
            G::NAME,
            level.name
        )));
    };
    if set.params.len() < width {
        return Err(InputError::new(format!(
            "{} level `{}`: its weight set has {} weights, fewer than the evaluation's {width} terms",
            G::NAME,
            level.name,
            set.params.len()
        )));
    }
    Ok(Checked {
        request,
        held: held(&request.hold, set, width)?,
        setup,
        level: level.name,
        set,
        _game: std::marker::PhantomData,
    })
}

impl<G: Game> Checked<'_, G> {
    /// Fits the level's evaluation weights to the games of `records` (each file's text, in the
    /// request's order).
    pub fn run(self, records: &[String]) -> Result<Outcome, InputError> {
        let request = self.request;
        let lines = request
            .records
            .iter()
            .zip(records)
            .flat_map(|(path, text)| {
                text.lines()
                    .enumerate()
                    .map(move |(i, line)| (format!("{} line {}", path.display(), i + 1), line))
            });
        let samples = Samples::from_records::<G>(lines, request.sampling)?;
        if samples.is_empty() {
            return Err(InputError::new(format!(
                "no positions to fit: {} games read, {} left out, {} replays, none with a \
                 position from ply {} on",
                samples.games, samples.forfeits, samples.replays, request.sampling.skip
            )));
        }
        let set = self.set;
        let settings = Settings {
            iterations: request.iterations,
            rate: request.rate,
            held: self.held,
        };
        let found = fit(&samples, set, &self.setup.weights, &settings);
        let held: Vec<&str> = settings.held.iter().map(|&i| set.params[i].name).collect();
        let report = Report {
            game: G::NAME,
            level: &request.level,
            weight_set: set.name,
            records: &request.records,
            games: samples.games,
            games_left_out: samples.forfeits,
            games_replayed: samples.replays,
            positions: samples.len(),
            positions_held_out: samples.held_out(),
            sampling: request.sampling,
            rate: request.rate,
            names: set.params.iter().map(|p| p.name).collect(),
            fit: &found,
        };
        let report = serde_json::to_vec_pretty(&report)
            .map_err(|e| InputError::new(format!("cannot write fit.json: {e}")))?;
        Ok(Outcome {
            level: self.level,
            set,
            weights: weights_toml(G::NAME, set, &found.fitted),
            held: held.join(", "),
            samples,
            fit: found,
            report,
        })
    }
}

/// The indices of the weights `hold` names (by default the set's first).
fn held(hold: &[String], set: &WeightSet, width: usize) -> Result<Vec<usize>, InputError> {
    if hold.is_empty() {
        return Ok(vec![0]);
    }
    hold.iter()
        .map(|name| match set.index_of(name.trim()) {
            Some(i) if i < width => Ok(i),
            _ => Err(InputError::new(format!(
                "--hold {}: not an evaluation weight of {} (accepted: {})",
                quote(name),
                set.name,
                set.params[..width]
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use engine::games::hnefatafl::Hnefatafl;
    use engine::games::ludo::Ludo;

    use super::*;

    fn request(level: &str, rate: f64, hold: &[&str]) -> Request {
        Request {
            level: level.to_owned(),
            records: vec![PathBuf::from("r.txt")],
            sampling: Sampling { every: 1, skip: 0 },
            iterations: 3,
            rate,
            hold: hold.iter().map(|&h| h.to_owned()).collect(),
        }
    }

    fn refusal<G: Game>(request: &Request, records: &[String]) -> String {
        match check::<G>(request) {
            Ok(checked) => checked.run(records).unwrap_err().to_string(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn refuses_what_cannot_be_fitted_before_reading_a_game() {
        let none = [String::new()];
        assert_eq!(
            refusal::<Hnefatafl>(&request("hard", 0.0, &[]), &none),
            "--rate must be a positive number (tuning steps per iteration)"
        );
        assert!(
            refusal::<Ludo>(&request("hard", 1.0, &[]), &none).contains("ludo"),
            "a game without a linear evaluation"
        );
        assert!(
            refusal::<Hnefatafl>(&request("hard", 1.0, &["cycle"]), &none)
                .starts_with("--hold `cycle`: not an evaluation weight of hnefatafl"),
            "a held name outside the evaluation's weights"
        );
        assert_eq!(
            refusal::<Hnefatafl>(&request("hard", 1.0, &[]), &none),
            "no positions to fit: 0 games read, 0 left out, 0 replays, none with a position from ply 0 on"
        );
    }
}
