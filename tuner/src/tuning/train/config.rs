//! `koom train`'s config (configs/train/GAME.toml): the data, the model and the optimiser.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::InputError;
use engine::nnue::MAX_HIDDEN;

/// A training config as its TOML says it; every field but `game` has a default.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TrainConfig {
    /// A game with a feature set (thud or hnefatafl).
    pub game: String,
    /// Position sets (`koom positions`) to train on, read in order; `--positions` replaces them.
    #[serde(default)]
    pub positions: Vec<PathBuf>,
    /// Hidden clipped-ReLU units (0: the linear model alone).
    #[serde(default = "defaults::hidden")]
    pub hidden: usize,
    /// Passes over the training positions.
    #[serde(default = "defaults::epochs")]
    pub epochs: u32,
    /// Positions per Adam step.
    #[serde(default = "defaults::batch_size")]
    pub batch_size: usize,
    /// Adam's step size at the first epoch.
    #[serde(default = "defaults::learning_rate")]
    pub learning_rate: f64,
    /// The step size is multiplied by this after every epoch.
    #[serde(default = "defaults::lr_decay")]
    pub lr_decay: f64,
    /// The target is `lambda * result + (1 - lambda) * sigmoid(score / score_scale)` (the
    /// result alone for positions without a score).
    #[serde(default = "defaults::lambda")]
    pub lambda: f64,
    /// Evaluation units per logit: the network's output times this is its evaluation, in the
    /// units of the game's hand-made evaluation and of the records' scores.
    #[serde(default = "defaults::score_scale")]
    pub score_scale: f64,
    /// One seed group in this many (the last of every run of this many, in order of first
    /// appearance) is held out.
    #[serde(default = "defaults::hold_out_every")]
    pub hold_out_every: u32,
    /// The seed of the initial weights and of each epoch's shuffle.
    #[serde(default = "defaults::seed")]
    pub seed: u64,
    /// Whether the models read the top level's hand-made score as one more input, straight
    /// to the output, and start as that score alone (the position sets must carry it).
    #[serde(default)]
    pub hand: bool,
}

mod defaults {
    pub const fn hidden() -> usize {
        64
    }
    pub const fn epochs() -> u32 {
        20
    }
    pub const fn batch_size() -> usize {
        1024
    }
    pub const fn learning_rate() -> f64 {
        0.002
    }
    pub const fn lr_decay() -> f64 {
        0.9
    }
    pub const fn lambda() -> f64 {
        0.5
    }
    pub const fn score_scale() -> f64 {
        100.0
    }
    pub const fn hold_out_every() -> u32 {
        5
    }
    pub const fn seed() -> u64 {
        1
    }
}

impl TrainConfig {
    /// Reads and checks a config's text; the error is one line naming `origin` and the field.
    pub fn parse(text: &str, origin: &str) -> Result<Self, InputError> {
        let config: Self = toml::from_str(text).map_err(|e| {
            let message = e.message().trim().replace('\n', " ");
            InputError::new(format!("{origin}: {message}"))
        })?;
        config
            .check()
            .map_err(|why| InputError::new(format!("{origin}: {why}")))?;
        Ok(config)
    }

    fn check(&self) -> Result<(), String> {
        let positive = |x: f64| x.is_finite() && x > 0.0;
        if self.hidden > MAX_HIDDEN {
            return Err(format!(
                "hidden = {}: at most {MAX_HIDDEN} units (0 trains the linear model alone)",
                self.hidden
            ));
        }
        if !(1..=10_000).contains(&self.epochs) {
            return Err(format!("epochs = {}: give 1 to 10000", self.epochs));
        }
        if !(1..=1 << 20).contains(&self.batch_size) {
            return Err(format!(
                "batch_size = {}: give 1 to 1048576 positions",
                self.batch_size
            ));
        }
        if !positive(self.learning_rate) {
            return Err(format!(
                "learning_rate = {}: give a positive number",
                self.learning_rate
            ));
        }
        if !(positive(self.lr_decay) && self.lr_decay <= 1.0) {
            return Err(format!(
                "lr_decay = {}: give a number in (0, 1]",
                self.lr_decay
            ));
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err(format!(
                "lambda = {}: give a number in [0, 1] (1: results only, 0: scores only)",
                self.lambda
            ));
        }
        if !positive(self.score_scale) {
            return Err(format!(
                "score_scale = {}: give a positive number of evaluation units per logit",
                self.score_scale
            ));
        }
        if self.hold_out_every < 2 {
            return Err(format!(
                "hold_out_every = {}: give 2 or more (one seed group in that many is held out)",
                self.hold_out_every
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_minimal_config_takes_the_defaults() {
        let config = TrainConfig::parse("game = \"thud\"", "t.toml").unwrap();
        assert_eq!(config.hidden, 64);
        assert_eq!(config.hold_out_every, 5);
        assert!(config.positions.is_empty());
    }

    #[test]
    fn bad_configs_are_refused_in_one_line_naming_the_field() {
        for (text, expected) in [
            ("game = \"thud\"\nhiden = 3", "unknown field `hiden`"),
            ("game = \"thud\"\nhidden = 300", "hidden = 300"),
            ("game = \"thud\"\nlambda = 1.5", "lambda = 1.5"),
            ("game = \"thud\"\nscore_scale = 0", "score_scale = 0"),
            ("game = \"thud\"\nlearning_rate = -1", "learning_rate = -1"),
            ("game = \"thud\"\nhold_out_every = 1", "hold_out_every = 1"),
            ("game = \"thud\"\nepochs = 0", "epochs = 0"),
            ("game = \"thud\"\nlr_decay = 2", "lr_decay = 2"),
            ("hidden = 3", "missing field `game`"),
            ("game = \"thud\"\nhidden = \"many\"", "invalid type"),
        ] {
            let err = TrainConfig::parse(text, "t.toml").unwrap_err().to_string();
            assert!(err.starts_with("t.toml: "), "{err}");
            assert!(err.contains(expected), "{text}: {err}");
            assert!(!err.contains('\n'), "{err}");
        }
    }
}
