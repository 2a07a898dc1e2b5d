//! The tuning config: a TOML file naming the game, the level and how to tune its weight set.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use engine::weights::Param;
use engine::{AgentSetup, Game, Level, TimeControl, WeightSet};
use serde::{Deserialize, Serialize};

use super::spsa::{DEFAULT_R_END, Settings};
use crate::InputError;
use crate::agents::{level, load_weights, one_line, parse_agent, parse_options};
use crate::config::DEFAULT_SEED;
use crate::strength::stats::{Bounds, EloModel};

/// Default seed groups per iteration.
pub const DEFAULT_PAIRS: u64 = 64;
/// Default cap on the verification gate's games.
pub const DEFAULT_VERIFY_GAMES: u64 = 20_000;
/// Default seed groups between two checks of the verification SPRT.
pub const DEFAULT_VERIFY_BATCH: u64 = 128;

/// `koom tune`'s config file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TuneFile {
    pub game: String,
    /// The level whose weight set is tuned.
    pub level: String,
    /// Parameters to tune (default: the whole weight set); the others keep their start values.
    pub parameters: Option<Vec<String>>,
    /// The start: a weights file path, or a table of values (missing names take the defaults).
    /// Default: the level's defaults.
    pub start: Option<toml::Value>,
    pub iterations: u64,
    /// Seed groups per iteration (side-swapped pairs in two-player games, seat rotations in
    /// dice games); default 64.
    pub pairs: Option<u64>,
    pub seed: Option<u64>,
    /// Worker threads; 0 or absent = all cores. Results do not depend on it.
    pub threads: Option<usize>,
    /// Tune against this fixed agent (`level` or `level@weights.toml`) instead of θ+ against θ−.
    pub opponent: Option<String>,
    /// End-of-run learning rate `a_end / c_end²` (default 0.002, fishtest's).
    pub r_end: Option<f64>,
    /// End-of-run perturbation in steps of each parameter (default 1).
    pub c_end: Option<f64>,
    /// Stability constant of the step-size decay (default 10% of the iterations).
    #[serde(rename = "A")]
    pub big_a: Option<f64>,
    /// Narrower tuning ranges or other steps for some parameters, inside the table's ranges.
    pub ranges: Option<BTreeMap<String, RangeFile>>,
    pub verify: Option<VerifyFile>,
    pub out: Option<PathBuf>,
    /// The game's rule options.
    pub options: Option<toml::Table>,
    /// An opening suite every iteration's seed groups start from (see [`crate::openings`]).
    pub openings: Option<PathBuf>,
    pub openings_order: Option<crate::openings::Order>,
}

/// `[ranges.NAME]`: what to change in a parameter's table entry for this run.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeFile {
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub step: Option<f64>,
}

/// The verification gate run at the end: tuned weights against the start on fresh seeds.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifyFile {
    /// Game cap (default 20000; in Thud, matches of two rounds); 0 skips the verification.
    pub games: Option<u64>,
    /// Seed groups between two checks of the SPRT (default 128).
    pub batch: Option<u64>,
    /// SPRT bounds in normalized Elo (default fishtest's `gain`: [0, 2]).
    pub elo0: Option<f64>,
    pub elo1: Option<f64>,
    pub alpha: Option<f64>,
    pub beta: Option<f64>,
}

impl TuneFile {
    /// Reads a config file; errors name the file and the offending key.
    pub fn load(path: &Path) -> Result<Self, InputError> {
        let text = std::fs::read_to_string(path).map_err(|e| InputError::io("config", path, e))?;
        Self::parse(&text).map_err(|e| InputError::file("config", path, e))
    }

    /// Parses config text.
    pub fn parse(text: &str) -> Result<Self, InputError> {
        toml::from_str(text).map_err(|e| InputError::new(one_line(&e.to_string())))
    }
}

/// The verification as resolved.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Verify {
    pub games: u64,
    pub batch: u64,
    pub bounds: Bounds,
}

/// A config checked against its game: everything a run needs.
#[derive(Clone, Debug)]
pub struct TuneSpec<G: Game> {
    pub level: &'static Level<G>,
    pub set: &'static WeightSet,
    /// The table with this run's ranges and steps (see [`TuneFile::ranges`]).
    pub params: Vec<Param>,
    /// Table indices of the tuned parameters, in table order.
    pub tuned: Vec<usize>,
    /// The start, a full weight vector in table order.
    pub start: Vec<f64>,
    pub settings: Settings,
    pub pairs: u64,
    pub seed: u64,
    pub threads: usize,
    /// The fixed opponent, as written and as resolved.
    pub opponent: Option<(String, AgentSetup<G>)>,
    pub verify: Verify,
    pub options: G::Options,
    /// The options as written, for the plans the runner takes.
    pub options_table: toml::Table,
}

impl<G: Game> TuneSpec<G> {
    /// Checks `file` against game `G`.
    pub fn new(file: &TuneFile) -> Result<Self, InputError> {
        let level = level::<G>(&file.level)?;
        let set = weight_set(level)?;
        engine::weights::check_table(set)
            .map_err(|e| InputError::new(format!("weight set table: {e}")))?;
        let tuned = tuned_indices(set, file.parameters.as_deref())?;
        let params = ranges(set, file.ranges.as_ref())?;
        let start = start_values::<G>(set, file.start.as_ref())?;
        for &i in &tuned {
            let p = &params[i];
            if !(p.min..=p.max).contains(&start[i]) {
                return Err(InputError::new(format!(
                    "start value {} of `{}` is outside its tuning range [{}, {}]",
                    start[i], p.name, p.min, p.max
                )));
            }
        }
        if file.iterations == 0 {
            return Err(InputError::new("iterations must be at least 1"));
        }
        let pairs = file.pairs.unwrap_or(DEFAULT_PAIRS);
        if pairs == 0 {
            return Err(InputError::new("pairs must be at least 1"));
        }
        crate::config::check_games("pairs", pairs)?;
        crate::config::check_games("iterations × pairs", file.iterations.saturating_mul(pairs))?;
        crate::config::check_threads(file.threads.unwrap_or(0))?;
        let settings = settings(file)?;
        let opponent = file
            .opponent
            .as_ref()
            .map(|spec| {
                parse_agent::<G>(spec, TimeControl::Batch)
                    .map(|setup| (spec.trim().to_owned(), setup))
                    .map_err(|e| InputError::new(format!("opponent: {e}")))
            })
            .transpose()?;
        let options_table = file.options.clone().unwrap_or_default();
        let options = parse_options::<G>(&options_table)?;
        Ok(Self {
            level,
            set,
            params,
            tuned,
            start,
            settings,
            pairs,
            seed: file.seed.unwrap_or(DEFAULT_SEED),
            threads: file.threads.unwrap_or(0),
            opponent,
            verify: verify(file.verify.as_ref())?,
            options,
            options_table,
        })
    }

    /// The level's name as the game spells it.
    #[must_use]
    pub fn level_name(&self) -> &'static str {
        self.level.name
    }
}

/// The tuned parameters' indices, in table order; unknown and repeated names are errors.
/// The weight set of `level`, which must have one to be tuned.
fn weight_set<G: Game>(level: &Level<G>) -> Result<&'static WeightSet, InputError> {
    level.weights.ok_or_else(|| {
        let tunable: Vec<&str> = G::levels()
            .iter()
            .filter(|l| l.weights.is_some())
            .map(|l| l.name)
            .collect();
        let with_one = if tunable.is_empty() {
            format!("{} has none", G::NAME)
        } else {
            format!("levels with one: {}", tunable.join(", "))
        };
        InputError::new(format!(
            "{} level `{}` has no weight set to tune ({with_one})",
            G::NAME,
            level.name
        ))
    })
}

/// The SPSA settings, with their defaults, each checked.
fn settings(file: &TuneFile) -> Result<Settings, InputError> {
    let settings = Settings {
        iterations: file.iterations,
        big_a: file
            .big_a
            .unwrap_or_else(|| Settings::default_big_a(file.iterations)),
        r_end: file.r_end.unwrap_or(DEFAULT_R_END),
        c_end_steps: file.c_end.unwrap_or(1.0),
    };
    for (name, value, ok) in [
        ("r_end", settings.r_end, settings.r_end > 0.0),
        ("c_end", settings.c_end_steps, settings.c_end_steps > 0.0),
        ("A", settings.big_a, settings.big_a >= 0.0),
    ] {
        if !(ok && value.is_finite()) {
            return Err(InputError::new(format!(
                "{name} = {value} must be a finite number above 0 (A may be 0)"
            )));
        }
    }
    Ok(settings)
}

fn tuned_indices(set: &WeightSet, names: Option<&[String]>) -> Result<Vec<usize>, InputError> {
    let Some(names) = names else {
        return Ok((0..set.params.len()).collect());
    };
    if names.is_empty() {
        return Err(InputError::new(format!(
            "parameters is empty: name some of {} or leave it out to tune them all",
            set.names()
        )));
    }
    let mut indices = Vec::with_capacity(names.len());
    for name in names {
        let i = set.index_of(name).ok_or_else(|| {
            InputError::new(format!(
                "unknown parameter `{name}` for weight set `{}` (accepted: {})",
                set.name,
                set.names()
            ))
        })?;
        if indices.contains(&i) {
            return Err(InputError::new(format!(
                "parameter `{name}` is listed twice in parameters"
            )));
        }
        indices.push(i);
    }
    indices.sort_unstable();
    Ok(indices)
}

/// The table with `[ranges]` applied: each override must keep min < max and step > 0 and stay
/// inside the table's own range (weights outside it could not be loaded back).
fn ranges(
    set: &WeightSet,
    overrides: Option<&BTreeMap<String, RangeFile>>,
) -> Result<Vec<Param>, InputError> {
    let mut params = set.params.to_vec();
    for (name, range) in overrides.into_iter().flatten() {
        let i = set.index_of(name).ok_or_else(|| {
            InputError::new(format!(
                "ranges: unknown parameter `{name}` for weight set `{}` (accepted: {})",
                set.name,
                set.names()
            ))
        })?;
        let table = set.params[i];
        let p = &mut params[i];
        p.min = range.min.unwrap_or(p.min);
        p.max = range.max.unwrap_or(p.max);
        p.step = range.step.unwrap_or(p.step);
        // Written to be true for NaN bounds too.
        if p.min >= p.max || p.min.is_nan() || p.max.is_nan() {
            return Err(InputError::new(format!(
                "ranges.{name}: min ({}) must be below max ({})",
                p.min, p.max
            )));
        }
        if !(p.step > 0.0 && p.step.is_finite()) {
            return Err(InputError::new(format!(
                "ranges.{name}: step ({}) must be above 0",
                p.step
            )));
        }
        if p.min < table.min || p.max > table.max {
            return Err(InputError::new(format!(
                "ranges.{name}: [{}, {}] must lie inside the table's range [{}, {}]",
                p.min, p.max, table.min, table.max
            )));
        }
    }
    Ok(params)
}

/// The start vector: the defaults, a weights file, or a table over the defaults.
fn start_values<G: Game>(
    set: &'static WeightSet,
    start: Option<&toml::Value>,
) -> Result<Vec<f64>, InputError> {
    match start {
        None => Ok(set.defaults()),
        Some(toml::Value::String(path)) => load_weights::<G>(Path::new(path), set)
            .map_err(|e| InputError::new(format!("start: {e}"))),
        Some(toml::Value::Table(table)) => {
            let mut values = set.defaults();
            for (name, value) in table {
                let i = set.index_of(name).ok_or_else(|| {
                    InputError::new(format!(
                        "start: unknown parameter `{name}` for weight set `{}` (accepted: {})",
                        set.name,
                        set.names()
                    ))
                })?;
                values[i] = value
                    .as_float()
                    .or_else(|| value.as_integer().map(|v| v as f64))
                    .ok_or_else(|| {
                        InputError::new(format!("start: `{name}` must be a number, got {value}"))
                    })?;
            }
            set.check(&values)
                .map_err(|e| InputError::new(format!("start: {e}")))?;
            Ok(values)
        }
        Some(other) => Err(InputError::new(format!(
            "start must be a weights file path or a table of parameter values, got {}",
            other.type_str()
        ))),
    }
}

fn verify(file: Option<&VerifyFile>) -> Result<Verify, InputError> {
    let file = file.cloned().unwrap_or_default();
    let (elo0, elo1) = Bounds::GAIN;
    let bounds = Bounds {
        elo0: file.elo0.unwrap_or(elo0),
        elo1: file.elo1.unwrap_or(elo1),
        alpha: file.alpha.unwrap_or(0.05),
        beta: file.beta.unwrap_or(0.05),
        model: EloModel::Normalized,
    };
    bounds
        .check()
        .map_err(|e| InputError::new(format!("verify: {e}")))?;
    let batch = file.batch.unwrap_or(DEFAULT_VERIFY_BATCH);
    if batch == 0 {
        return Err(InputError::new("verify.batch must be at least 1"));
    }
    Ok(Verify {
        games: file.games.unwrap_or(DEFAULT_VERIFY_GAMES),
        batch,
        bounds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::games::ludo::{HardWeights, Ludo};

    fn spec(text: &str) -> Result<TuneSpec<Ludo>, InputError> {
        TuneSpec::new(&TuneFile::parse(text)?)
    }

    const BASE: &str = "game = 'ludo'\nlevel = 'hard'\niterations = 10\n";

    #[test]
    fn defaults_tune_the_whole_set_from_its_defaults() {
        let s = spec(BASE).unwrap();
        assert_eq!(
            s.tuned,
            (0..HardWeights::SET.params.len()).collect::<Vec<_>>()
        );
        assert_eq!(s.start, HardWeights::SET.defaults());
        assert_eq!((s.pairs, s.seed, s.settings.big_a), (DEFAULT_PAIRS, 1, 1.0));
        assert_eq!(s.verify.bounds.elo1, 2.0);
        assert!(s.opponent.is_none());
    }

    #[test]
    fn parameters_and_start_are_read_by_name() {
        let s = spec(&format!(
            "{BASE}parameters = ['risk_weight', 'capture']\n[start]\nrisk_weight = 0\ncapture = 0.5\n"
        ))
        .unwrap();
        let (risk, capture) = (
            HardWeights::SET.index_of("risk_weight").unwrap(),
            HardWeights::SET.index_of("capture").unwrap(),
        );
        assert_eq!(s.tuned, vec![capture, risk], "table order");
        assert_eq!((s.start[risk], s.start[capture]), (0.0, 0.5));
        assert_eq!(s.start[1], HardWeights::default().capture_extra);
        let narrowed = spec(&format!(
            "{BASE}[ranges.risk_weight]\nmax = 4.0\nstep = 0.1\n"
        ))
        .unwrap();
        assert_eq!(
            (narrowed.params[risk].max, narrowed.params[risk].step),
            (4.0, 0.1)
        );
        assert_eq!(narrowed.params[risk].min, 0.0);
    }

    #[test]
    fn bad_configs_say_what_is_wrong() {
        let err = |extra: &str| spec(&format!("{BASE}{extra}")).unwrap_err().to_string();
        assert!(err("parameters = ['risk']").starts_with(
            "unknown parameter `risk` for weight set `ludo-hard` (accepted: capture,"
        ));
        assert!(err("parameters = []").contains("parameters is empty"));
        assert!(err("parameters = ['safe', 'safe']").contains("listed twice"));
        assert!(err("[start]\nsafe = 11.0").contains("outside its range [0, 10]"));
        assert!(err("[start]\nsafty = 1.0").contains("start: unknown parameter `safty`"));
        assert!(err("start = 3").contains("weights file path or a table"));
        assert!(err("start = 'missing.toml'").contains("cannot read weights file missing.toml"));
        assert!(err("pairs = 0").contains("pairs must be at least 1"));
        assert!(err("r_end = -1.0").contains("r_end = -1"));
        assert!(err("opponent = 'master'").starts_with("opponent: unknown ludo level `master`"));
        assert!(err("[verify]\nelo0 = 3.0").contains("must be below elo1"));
        assert!(err("[options]\nroll_cap = 0").contains("roll_cap"));
        assert_eq!(
            err("[ranges.safe]\nmin = 3.0\nmax = 3.0"),
            "ranges.safe: min (3) must be below max (3)"
        );
        assert_eq!(
            err("[ranges.safe]\nstep = 0.0"),
            "ranges.safe: step (0) must be above 0"
        );
        assert!(err("[ranges.safe]\nmax = 12.0").contains("inside the table's range [0, 10]"));
        assert!(err("[ranges.saf]\nmax = 1.0").contains("ranges: unknown parameter `saf`"));
        assert_eq!(
            err("[ranges.safe]\nmax = 1.0"),
            "start value 2 of `safe` is outside its tuning range [0, 1]"
        );
        assert!(err("itrations = 3").contains("unknown field `itrations`"));
        let level = spec("game = 'ludo'\nlevel = 'normal'\niterations = 1")
            .unwrap_err()
            .to_string();
        assert_eq!(
            level,
            "ludo level `normal` has no weight set to tune (levels with one: hard)"
        );
        let zero = spec("game = 'ludo'\nlevel = 'hard'\niterations = 0")
            .unwrap_err()
            .to_string();
        assert!(zero.contains("iterations must be at least 1"));
        assert!(
            TuneFile::parse("game = 'ludo'\nlevel = 'hard'")
                .unwrap_err()
                .to_string()
                .contains("missing field `iterations`")
        );
    }
}
