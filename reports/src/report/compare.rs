//! Two runs compared side by side.

use super::parts::*;
use super::{Document, ReportError, Summary, charts};

/// Compares two runs side by side (e.g. two rule variants), with the interval of the
/// difference of their first-player advantages (independent runs: the variances add; each
/// run's interval already counts its seed groups).
pub fn compare(a: &Summary, b: &Summary, names: [&str; 2]) -> Result<Document, ReportError> {
    let runs = [(a, names[0]), (b, names[1])].map(|(s, name)| match s {
        Summary::Run(run) => Ok(run),
        Summary::Tournament(_) | Summary::Ladder(_) => Err(ReportError::NotARun(name.to_owned())),
    });
    let [a, b] = runs;
    let (a, b) = (a?, b?);
    let mut doc = Document {
        title: format!("koom report: {} compared with {}", names[0], names[1]),
        blocks: Vec::new(),
    };
    doc.heading("Experiments");
    for (s, name) in [(a, names[0]), (b, names[1])] {
        doc.text(format!(
            "{name}: game {}, agents {:?}, seed {}, options {}",
            s.game, s.agents, s.seed, s.options
        ));
    }
    doc.details("How the 95% ranges are computed", interval_note(a));
    let fa = item(names[0].to_owned(), &a.first_player_advantage.advantage);
    let fb = item(names[1].to_owned(), &b.first_player_advantage.advantage);
    let half = |x: &charts::Interval| (x.hi - x.lo) / 2.0;
    let diff = fa.value - fb.value;
    let diff_half = (half(&fa).powi(2) + half(&fb).powi(2)).sqrt();
    doc.heading("First-player advantage");
    doc.table(
        &[
            "",
            names[0],
            names[1],
            "difference",
            "95% interval of the difference",
        ],
        vec![vec![
            "first player's win rate − fair share".into(),
            format!("{:+.2} percentage points", 100.0 * fa.value),
            format!("{:+.2} percentage points", 100.0 * fb.value),
            format!("{:+.2} percentage points", 100.0 * diff),
            format!(
                "[{:+.2}, {:+.2}]",
                100.0 * (diff - diff_half),
                100.0 * (diff + diff_half)
            ),
        ]],
    );
    doc.text(independence_note(a.seed, b.seed));
    doc.heading("Game-design metrics");
    let (ra, rb) = (
        design_rows(&a.design, &a.first_player_advantage),
        design_rows(&b.design, &b.first_player_advantage),
    );
    let rows = ra
        .iter()
        .zip(&rb)
        .map(|(x, y)| {
            vec![
                x[0].clone(),
                format!("{} {}", x[1], x[2]),
                format!("{} {}", y[1], y[2]),
            ]
        })
        .collect();
    doc.table(&["metric", names[0], names[1]], rows);
    let items = vec![fa, fb];
    doc.chart(
        "first-player-advantage.svg",
        "First-player advantage in each run (95% intervals)",
        charts::intervals(
            "First-player advantage",
            advantage_axis(a),
            &items,
            Some(0.0),
            advantage_scale(a),
        )?,
    );
    Ok(doc)
}

/// How the difference of two runs is computed, and when that misleads.
fn independence_note(seed_a: u64, seed_b: u64) -> String {
    let base = "The interval of the difference treats the two runs as independent: their \
        variances (each counted over its own seed groups) add.";
    if seed_a == seed_b {
        format!(
            "{base} Both runs used seed {seed_a}, so their games share dice and seeds group by \
             group and are not independent: with a positive correlation the true interval is \
             narrower, with a negative one wider. A paired comparison needs each group's \
             result, which summary.json does not keep; rerun one side with another seed for an \
             independent comparison."
        )
    } else {
        format!("{base} The runs used different seeds ({seed_a} and {seed_b}).")
    }
}
