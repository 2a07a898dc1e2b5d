//! Intransitive triples in a full ladder (every pair of levels played).
//!
//! Levels are ranked weakest first (the ladder ranks them by their Bradley–Terry ratings), so
//! for any three of them `low < mid < top` a transitive strength expects `top` to beat `mid`,
//! `mid` to beat `low`, and the wider gap to give the larger score.
//! A triple is flagged when the data contradict that with 95% confidence:
//! - **cycle**: each level of the three beats the next round a circle (`a` beats `b`, `b` beats
//!   `c`, `c` beats `a`), where "beats" means the score's 95% interval lies above ½;
//! - **order**: `top` scores less against `low` than `mid` does against `low`, or less against
//!   `low` than against `mid`, and the 95% interval of the difference of the two scores lies
//!   below 0. The difference's half-width combines the two scores' half-widths as if the
//!   matches were independent (they share seeds, which would narrow it: the check is
//!   conservative).
//!
//! Cycles use the overall scores; the order check also runs on each side of a two-sided game.

use serde::{Deserialize, Serialize};

use engine::sample::{Estimate, Z95};

/// What kind of contradiction a triple shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TripleKind {
    Cycle,
    Order,
}

/// One flagged triple.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Intransitive {
    pub kind: TripleKind,
    /// The three levels, weakest first.
    pub levels: [String; 3],
    /// The side the scores are on (two-sided games), or `None` for the overall scores.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// The scores that contradict each other, with their intervals.
    pub detail: String,
}

/// `0.650 [0.580, 0.720]`.
fn score_text(e: &Estimate) -> String {
    format!("{:.3} [{:.3}, {:.3}]", e.value, e.ci95[0], e.ci95[1])
}

/// The score of the other player: `1 − s`, its interval reversed.
#[must_use]
pub fn reversed(e: &Estimate) -> Estimate {
    Estimate {
        value: 1.0 - e.value,
        ci95: [1.0 - e.ci95[1], 1.0 - e.ci95[0]],
    }
}

/// Whether `x − y` is below 0 with 95% confidence (half-widths combined as independent).
fn significantly_below(x: &Estimate, y: &Estimate) -> bool {
    let half = |e: &Estimate| (e.ci95[1] - e.ci95[0]) / 2.0;
    let se = (half(x).powi(2) + half(y).powi(2)).sqrt() / Z95;
    x.value - y.value + Z95 * se < 0.0
}

/// The triples of `levels` that contradict the ladder's order. `score(upper, lower)` (indices,
/// `upper > lower`) is the upper level's overall score against the lower one; `side_score(upper,
/// lower, k)` its score on side `k` of `sides`. A pair never played gives `None` and no flag.
#[must_use]
pub fn intransitive_triples(
    levels: &[String],
    sides: &[String],
    score: &dyn Fn(usize, usize) -> Option<Estimate>,
    side_score: &dyn Fn(usize, usize, usize) -> Option<Estimate>,
) -> Vec<Intransitive> {
    let mut found = Vec::new();
    let n = levels.len();
    for low in 0..n {
        for mid in low + 1..n {
            for top in mid + 1..n {
                let names = [low, mid, top].map(|i| levels[i].clone());
                let flag = |kind, side: Option<&String>, detail| Intransitive {
                    kind,
                    levels: names.clone(),
                    side: side.cloned(),
                    detail,
                };
                if let Some(detail) =
                    cycle(&names, score(mid, low), score(top, mid), score(top, low))
                {
                    found.push(flag(TripleKind::Cycle, None, detail));
                }
                let overall = order(&names, score(mid, low), score(top, mid), score(top, low));
                found.extend(overall.map(|d| flag(TripleKind::Order, None, d)));
                for (k, side) in sides.iter().enumerate() {
                    let on_side = order(
                        &names,
                        side_score(mid, low, k),
                        side_score(top, mid, k),
                        side_score(top, low, k),
                    );
                    found.extend(on_side.map(|d| flag(TripleKind::Order, Some(side), d)));
                }
            }
        }
    }
    found
}

/// A three-cycle among `[low, mid, top]` from the scores of `mid` over `low`, `top` over `mid`
/// and `top` over `low`.
fn cycle(
    [low, mid, top]: &[String; 3],
    mid_low: Option<Estimate>,
    top_mid: Option<Estimate>,
    top_low: Option<Estimate>,
) -> Option<String> {
    let (mid_low, top_mid, top_low) = (mid_low?, top_mid?, top_low?);
    let beats = |e: &Estimate| e.ci95[0] > 0.5;
    let (low_top, mid_top, low_mid) = (reversed(&top_low), reversed(&top_mid), reversed(&mid_low));
    // The two possible cycles: up the ladder and back (mid > low, top > mid, low > top), or
    // down it (low > mid, mid > top, top > low).
    let circles = [
        [
            (mid, low, mid_low),
            (top, mid, top_mid),
            (low, top, low_top),
        ],
        [
            (low, mid, low_mid),
            (mid, top, mid_top),
            (top, low, top_low),
        ],
    ];
    circles
        .iter()
        .find(|c| c.iter().all(|(_, _, e)| beats(e)))
        .map(|c| {
            c.iter()
                .map(|(a, b, e)| format!("{a} beats {b} {}", score_text(e)))
                .collect::<Vec<_>>()
                .join(", ")
        })
}

/// An order contradiction among `[low, mid, top]`: `top` against `low` below `mid` against
/// `low`, or below `top` against `mid`.
fn order(
    [low, mid, top]: &[String; 3],
    mid_low: Option<Estimate>,
    top_mid: Option<Estimate>,
    top_low: Option<Estimate>,
) -> Option<String> {
    let top_low = top_low?;
    let mut said = Vec::new();
    if let Some(mid_low) = mid_low.filter(|m| significantly_below(&top_low, m)) {
        said.push(format!(
            "{top} scores {} against {low}, below {mid}'s {} against {low}",
            score_text(&top_low),
            score_text(&mid_low)
        ));
    }
    if let Some(top_mid) = top_mid.filter(|m| significantly_below(&top_low, m)) {
        said.push(format!(
            "{top} scores {} against {low}, below its {} against {mid}",
            score_text(&top_low),
            score_text(&top_mid)
        ));
    }
    (!said.is_empty()).then(|| said.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(value: f64, half: f64) -> Estimate {
        Estimate {
            value,
            ci95: [value - half, value + half],
        }
    }

    fn names() -> Vec<String> {
        ["easy", "normal", "hard"].map(String::from).to_vec()
    }

    /// Scores of upper over lower for (normal, easy), (hard, normal), (hard, easy).
    fn check(nl: Estimate, hn: Estimate, hl: Estimate) -> Vec<Intransitive> {
        let score = move |upper: usize, lower: usize| match (upper, lower) {
            (1, 0) => Some(nl),
            (2, 1) => Some(hn),
            (2, 0) => Some(hl),
            _ => None,
        };
        intransitive_triples(&names(), &[], &score, &|_, _, _| None)
    }

    #[test]
    fn a_consistent_ladder_has_no_flag() {
        assert!(check(e(0.7, 0.05), e(0.6, 0.05), e(0.8, 0.05)).is_empty());
        // Overlapping: hard vs easy a little below normal vs easy, within the noise.
        assert!(check(e(0.8, 0.05), e(0.6, 0.05), e(0.75, 0.05)).is_empty());
    }

    #[test]
    fn the_hnefatafl_example_is_an_order_contradiction() {
        // Hard vs easy 0.65, normal vs easy 0.825 (issue 13): a difference of −0.175 with a
        // combined half-width of √2 · 0.06 = 0.085.
        let found = check(e(0.825, 0.06), e(0.55, 0.06), e(0.65, 0.06));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].kind, TripleKind::Order);
        assert_eq!(
            found[0].detail,
            "hard scores 0.650 [0.590, 0.710] against easy, below normal's 0.825 [0.765, 0.885] against easy"
        );
        // A difference just inside the combined half-width is not flagged.
        assert!(check(e(0.73, 0.06), e(0.55, 0.06), e(0.65, 0.06)).is_empty());
    }

    #[test]
    fn a_circle_of_wins_is_a_cycle() {
        // normal beats easy, hard beats normal, easy beats hard.
        let found = check(e(0.7, 0.05), e(0.7, 0.05), e(0.3, 0.05));
        assert!(found.iter().any(|f| f.kind == TripleKind::Cycle
            && f.detail
                == "normal beats easy 0.700 [0.650, 0.750], hard beats normal 0.700 [0.650, 0.750], \
                    easy beats hard 0.700 [0.650, 0.750]"));
        // A score whose interval reaches ½ breaks the circle.
        let found = check(e(0.7, 0.05), e(0.7, 0.25), e(0.3, 0.05));
        assert!(found.iter().all(|f| f.kind != TripleKind::Cycle));
    }

    #[test]
    fn sides_are_checked_apart() {
        let sides = ["attackers".to_owned(), "defenders".to_owned()];
        let even = |_: usize, _: usize| Some(e(0.7, 0.02));
        // As attackers hard scores 0.5 against easy but 0.9 against normal.
        let side = |upper: usize, lower: usize, k: usize| match (upper, lower, k) {
            (2, 0, 0) => Some(e(0.5, 0.05)),
            (2, 1, 0) => Some(e(0.9, 0.05)),
            _ => Some(e(0.7, 0.05)),
        };
        let found = intransitive_triples(&names(), &sides, &even, &side);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].side.as_deref(), Some("attackers"));
        assert!(
            found[0].detail.contains("below normal's") && found[0].detail.contains("below its")
        );
    }
}
