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
        print!("{}", super::with_game(name, Describe)?);
    }
    Ok(ExitCode::SUCCESS)
}
