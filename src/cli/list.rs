//! `koom list`.

use std::process::ExitCode;

use engine::{GAME_NAMES, Game, GameVisitor};

struct Describe;

impl GameVisitor for Describe {
    type Output = String;

    fn visit<G: Game>(self) -> String {
        let (min, max) = G::SEATS;
        let seats = if min == max {
            format!("{min} seats")
        } else {
            format!("{min} to {max} seats")
        };
        let mut out = format!("{} ({seats})\n", G::NAME);
        for level in G::levels() {
            out.push_str(&format!("  {:<10} {}\n", level.name, level.summary));
            if let Some(set) = level.weights {
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
        out
    }
}

pub fn list() -> anyhow::Result<ExitCode> {
    for name in GAME_NAMES {
        out!("{}", super::with_game(name, Describe)?);
    }
    Ok(ExitCode::SUCCESS)
}

struct DefaultWeights<'a>(&'a str);

impl GameVisitor for DefaultWeights<'_> {
    type Output = anyhow::Result<String>;

    fn visit<G: Game>(self) -> anyhow::Result<String> {
        let setup = tuner::agents::parse_agent::<G>(self.0, engine::TimeControl::Batch)?;
        let Some(set) = G::levels()[setup.level].weights else {
            anyhow::bail!("{} level `{}` has no weight set", G::NAME, self.0);
        };
        Ok(tuner::agents::weights_toml(G::NAME, set, &setup.weights))
    }
}

pub fn weights(args: super::args::WeightsArgs) -> anyhow::Result<ExitCode> {
    out!(
        "{}",
        super::with_game(&args.game, DefaultWeights(&args.level))??
    );
    Ok(ExitCode::SUCCESS)
}
