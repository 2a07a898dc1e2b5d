//! `koom positions`: records to a position set ([`tuner::tuning::positions::sample`]).

use std::process::ExitCode;

use anyhow::{Context as _, bail};
use engine::nnue::{Features, FeaturesVisitor};
use tuner::checksum::fnv1a64_from;
use tuner::tuning::positions::Sampling;

use super::args::PositionsArgs;

pub fn positions(args: &PositionsArgs) -> anyhow::Result<ExitCode> {
    if !(args.margin_scale.is_finite() && args.margin_scale > 0.0) {
        bail!("--margin-scale must be a positive number of points (a margin of SCALE gives 0.73)");
    }
    engine::nnue::visit_features_game(&args.game, Positions(args))?
}

struct Positions<'a>(&'a PositionsArgs);

impl FeaturesVisitor for Positions<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Features>(self) -> anyhow::Result<ExitCode> {
        let args = self.0;
        let texts = super::read_records(&args.records)?;
        let records_hash = texts
            .iter()
            .fold(None, |h, t| Some(fnv1a64_from(h, t.as_bytes())))
            .unwrap_or_default();
        let lines = args.records.iter().zip(&texts).flat_map(|(path, text)| {
            text.lines()
                .enumerate()
                .map(move |(i, line)| (format!("{} line {}", path.display(), i + 1), line))
        });
        let sampling = Sampling {
            skip: args.skip,
            per_game: args.per_game,
            scored_only: args.scored_only,
            margin_scale: args.margin_scale,
        };
        let (set, tally) = tuner::tuning::positions::sample::from_records::<G>(
            lines,
            records_hash,
            sampling,
            args.seed,
        )?;
        if set.is_empty() {
            bail!(
                "no positions to write: {} games read, {} left out (forfeits or no result), {} exact \
                 replays, {} positions from ply {} on{}",
                tally.games,
                tally.left_out,
                tally.replays,
                tally.eligible,
                args.skip,
                if args.scored_only {
                    " with a score"
                } else {
                    ""
                }
            );
        }
        set.write(&args.out)
            .with_context(|| format!("cannot write {}", args.out.display()))?;
        outln!(
            "{} games read: {} left out (forfeits or no result), {} exact replays skipped",
            tally.games,
            tally.left_out,
            tally.replays
        );
        outln!(
            "{} positions from ply {} on, {} already in the set; kept {} ({} with a score), at most {} a game",
            tally.eligible,
            args.skip,
            tally.duplicates,
            tally.positions,
            tally.scored,
            args.per_game
        );
        outln!(
            "wrote {} ({} {}, {} inputs, records hash {records_hash:016x})",
            args.out.display(),
            G::NAME,
            G::FEATURE_SET,
            G::INPUTS
        );
        Ok(ExitCode::SUCCESS)
    }
}
