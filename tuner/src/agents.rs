//! Agent specifications: `level`, `level@path/to/weights.toml`, `level@path/to/net.knet`.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use engine::nnue::Network;
use engine::{AgentSetup, Game, Level, TimeControl};
use serde::Deserialize;

use crate::InputError;

/// A weights file: the weight set's values by name, and optionally the game and set they are for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WeightsFile {
    game: Option<String>,
    weight_set: Option<String>,
    weights: BTreeMap<String, f64>,
}

/// The level of `G` called `name` ([`Level::named`]), its error as bad input.
pub fn level<G: Game>(name: &str) -> Result<&'static Level<G>, InputError> {
    Level::named(name).map_err(InputError::new)
}

/// Game `G`'s rule options from a config's `[options]` table, read and checked.
pub fn parse_options<G: Game>(table: &toml::Table) -> Result<G::Options, InputError> {
    let options: G::Options =
        toml::Value::Table(table.clone())
            .try_into()
            .map_err(|e: toml::de::Error| {
                InputError::new(format!("{} options: {}", G::NAME, one_line(&e.to_string())))
            })?;
    G::check_options(&options).map_err(InputError::new)?;
    Ok(options)
}

/// Resolves one agent specification of game `G`: `level`, `level@WEIGHTS.toml`,
/// `level@NETWORK.knet` (a learned evaluation for a searching level of a board game) or
/// `level@WEIGHTS.toml@NETWORK.knet`; a file is a network when its name ends in `.knet`.
pub fn parse_agent<G: Game>(
    spec: &str,
    time_control: TimeControl,
) -> Result<AgentSetup<G>, InputError> {
    let mut parts = spec.split('@').map(str::trim);
    let level_name = parts.next().unwrap_or_default();
    let (mut weights_path, mut network_path) = (None, None);
    for part in parts {
        let slot = if part.ends_with(".knet") {
            &mut network_path
        } else {
            &mut weights_path
        };
        if slot.replace(part).is_some() {
            return Err(InputError::new(format!(
                "agent `{spec}` names two {} files; give at most one weights file and one network",
                if part.ends_with(".knet") {
                    "network"
                } else {
                    "weights"
                }
            )));
        }
    }
    let level = level::<G>(level_name)?;
    let weights = match (weights_path, level.weights) {
        (None, Some(set)) => set.defaults(),
        (None, None) => Vec::new(),
        (Some(_), None) => {
            return Err(InputError::new(format!(
                "{} level `{}` has no weight set, so `{spec}` cannot load weights",
                G::NAME,
                level.name
            )));
        }
        (Some(path), Some(set)) => load_weights::<G>(Path::new(path), set)?,
    };
    let network = network_path
        .map(|path| load_network::<G>(Path::new(path), level))
        .transpose()?;
    Ok(AgentSetup {
        level,
        weights,
        time_control,
        network,
    })
}

/// Reads a network file for `level`, refusing one that is damaged, of another game or feature
/// set, or for a level that does not search.
pub fn load_network<G: Game>(path: &Path, level: &Level<G>) -> Result<Arc<Network>, InputError> {
    let bytes = std::fs::read(path).map_err(|e| InputError::io("network file", path, e))?;
    let net = Network::from_bytes(&bytes).map_err(|e| InputError::file("network file", path, e))?;
    level
        .accepts_network(&net)
        .map_err(|e| InputError::file("network file", path, e))?;
    Ok(Arc::new(net))
}

/// Reads a weights file for weight set `set` of game `G`.
pub fn load_weights<G: Game>(path: &Path, set: &engine::WeightSet) -> Result<Vec<f64>, InputError> {
    let shown = path.display();
    let text =
        std::fs::read_to_string(path).map_err(|e| InputError::io("weights file", path, e))?;
    let file: WeightsFile = toml::from_str(&text)
        .map_err(|e| InputError::file("weights file", path, one_line(&e.to_string())))?;
    if let Some(game) = &file.game
        && !game.eq_ignore_ascii_case(G::NAME)
    {
        return Err(InputError::new(format!(
            "weights file {shown} is for game `{game}`, not `{}`",
            G::NAME
        )));
    }
    if let Some(name) = &file.weight_set
        && name != set.name
    {
        return Err(InputError::new(format!(
            "weights file {shown} is for weight set `{name}`, not `{}`",
            set.name
        )));
    }
    set.from_named(file.weights.iter().map(|(k, &v)| (k.as_str(), v)))
        .map_err(|e| InputError::file("weights file", path, e))
}

/// Writes a weight vector as a weights file that [`load_weights`] reads back.
#[must_use]
pub fn weights_toml(game: &str, set: &engine::WeightSet, values: &[f64]) -> String {
    let mut out = format!(
        "game = \"{game}\"\nweight_set = \"{}\"\n\n[weights]\n",
        set.name
    );
    for (p, v) in set.params.iter().zip(values) {
        out.push_str(&format!(
            "# {} (default {}, range {}..={}, step {})\n",
            p.doc.trim(),
            p.default,
            p.min,
            p.max,
            p.step
        ));
        out.push_str(&format!("{} = {v:?}\n", p.name));
    }
    out
}

/// TOML errors span several lines (with a caret diagram); keep the first and the message.
pub(crate) fn one_line(message: &str) -> String {
    let lines: Vec<&str> = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    match (lines.first(), lines.last()) {
        (Some(first), Some(last)) if lines.len() > 1 => format!("{first} {last}"),
        (Some(first), _) => (*first).to_owned(),
        _ => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::games::ludo::{HardWeights, Ludo};

    #[test]
    fn levels_and_weights_resolve() {
        let hard = parse_agent::<Ludo>("Hard", TimeControl::Batch).unwrap();
        assert_eq!(
            (hard.level.name, hard.weights),
            ("hard", HardWeights::SET.defaults())
        );
        let err = parse_agent::<Ludo>("grandmaster", TimeControl::Batch).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown ludo level `grandmaster` (accepted: easy, normal, hard)"
        );
        assert!(
            parse_agent::<Ludo>("easy@x.toml", TimeControl::Batch)
                .unwrap_err()
                .to_string()
                .contains("has no weight set")
        );
    }

    #[test]
    fn weights_files_round_trip_and_are_checked() {
        let dir = std::env::temp_dir().join(format!("koom-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.toml");
        let mut values = HardWeights::SET.defaults();
        values[6] = 2.5;
        std::fs::write(&path, weights_toml("ludo", &HardWeights::SET, &values)).unwrap();
        assert_eq!(
            load_weights::<Ludo>(&path, &HardWeights::SET).unwrap(),
            values
        );
        std::fs::write(&path, "[weights]\ncapture = 5.0\n").unwrap();
        let err = load_weights::<Ludo>(&path, &HardWeights::SET)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("parameter `capture_extra` of weight set `ludo-hard` is missing"),
            "{err}"
        );
        std::fs::write(&path, "[weights\n").unwrap();
        let err = load_weights::<Ludo>(&path, &HardWeights::SET)
            .unwrap_err()
            .to_string();
        assert!(!err.contains('\n') && err.contains("w.toml"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
