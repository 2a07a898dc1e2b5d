//! `koom list`.

use std::process::ExitCode;

use engine::{GAME_NAMES, Game, GameVisitor};

use super::args::ListArgs;

/// One game: its seats and levels; with `detail`, the weight sets and rule options too.
struct Describe {
    detail: bool,
}

impl GameVisitor for Describe {
    type Output = String;

    fn visit<G: Game>(self) -> String {
        let (min, max) = G::SEATS;
        let seats = if min == max {
            format!("{min} seats")
        } else {
            format!("{min} to {max} seats")
        };
        let sides: Vec<String> = (0..min).map(G::seat_name).collect();
        let mut out = format!("{} ({seats}: {})\n", G::NAME, sides.join(", "));
        for level in G::levels() {
            out.push_str(&format!("  {:<10} {}\n", level.name, level.summary));
            if let Some(net) = level.network {
                out.push_str(&format!(
                    "             evaluation: the network {net} (built in, engine/nets/)\n"
                ));
            }
            if let Some(set) = level.weights.filter(|_| self.detail) {
                out.push_str(&format!("             weight set `{}`:\n", set.name));
                for p in set.params {
                    out.push_str(&format!(
                        "               {:<20} {:>8} in [{}, {}] step {}  {}\n",
                        p.name,
                        p.default,
                        p.min,
                        p.max,
                        p.step,
                        p.doc.trim()
                    ));
                }
            }
        }
        if self.detail {
            out.push_str(&options_text::<G>());
        }
        out
    }
}

/// The rule options with their defaults, as `--option key=value` or a config's `[options]`.
fn options_text<G: Game>() -> String {
    if G::OPTIONS.is_empty() {
        return "  rule options: none\n".to_owned();
    }
    let defaults = toml::Value::try_from(G::Options::default())
        .ok()
        .and_then(|v| v.as_table().cloned())
        .unwrap_or_default();
    let mut out = "  rule options (--option key=value, or [options] in a config):\n".to_owned();
    for o in G::OPTIONS {
        let default = defaults
            .get(o.name)
            .map_or_else(String::new, ToString::to_string);
        out.push_str(&format!(
            "    {:<18} default {:<10} accepted: {}\n      {}\n",
            o.name, default, o.accepted, o.doc
        ));
    }
    out
}

/// `koom list`: every game in brief, or one game (`--game`) in full.
pub fn list(args: &ListArgs) -> anyhow::Result<ExitCode> {
    match &args.game {
        Some(game) => out!("{}", engine::visit_game(game, Describe { detail: true })?),
        None => {
            for name in GAME_NAMES {
                out!("{}", engine::visit_game(name, Describe { detail: false })?);
            }
            outln!("`koom list --game G` shows one game with its weight sets and rule options.");
            outln!(
                "Networks: {}; `level@FILE.knet` gives a searching Thud or Hnefatafl level a network file.",
                engine::nnue::built_in_networks_in_words()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

struct DefaultWeights<'a>(&'a str);

impl GameVisitor for DefaultWeights<'_> {
    type Output = anyhow::Result<String>;

    fn visit<G: Game>(self) -> anyhow::Result<String> {
        let setup = tuner::agents::parse_agent::<G>(self.0, engine::TimeControl::Batch)?;
        let Some(set) = setup.level.weights else {
            anyhow::bail!("{} level `{}` has no weight set", G::NAME, self.0);
        };
        Ok(tuner::agents::weights_toml(G::NAME, set, &setup.weights))
    }
}

pub fn weights(args: super::args::WeightsArgs) -> anyhow::Result<ExitCode> {
    out!(
        "{}",
        engine::visit_game(&args.game, DefaultWeights(&args.level))??
    );
    Ok(ExitCode::SUCCESS)
}
