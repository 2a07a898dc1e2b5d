//! A game's own statistics (`game_specific` in `summary.json`) as labelled tables, whatever the
//! game: the figures of an object become rows, a list of objects (per agent, per ending) one
//! table with a row each, and the common shapes (a rate or mean with its interval, a
//! win–draw–loss record) one readable cell. Reports never name a game.

use serde_json::{Map, Value};

use super::document::Document;

/// Renders `specific` as tables under the current heading; `distributions` are left to the
/// histograms.
pub fn tables(doc: &mut Document, specific: &Value) {
    if let Value::Object(map) = specific {
        object(doc, None, map);
    }
}

fn object(doc: &mut Document, title: Option<&str>, map: &Map<String, Value>) {
    let mut rows = Vec::new();
    let mut later: Vec<(&str, &Value)> = Vec::new();
    for (key, value) in map {
        if key == "distributions" || key.ends_with("_ci95") {
            continue;
        }
        match value {
            Value::Array(items) if items.iter().all(Value::is_object) && !items.is_empty() => {
                later.push((key, value));
            }
            Value::Object(inner) if cell_of_object(key, inner).is_none() => {
                later.push((key, value));
            }
            _ => rows.push(vec![
                label(key),
                cell(key, value, map.get(&format!("{key}_ci95"))),
            ]),
        }
    }
    if !rows.is_empty() {
        if let Some(title) = title {
            doc.subheading(title.to_owned());
        }
        doc.table(&["figure", "value [95% interval]"], rows);
    }
    for (key, value) in later {
        match value {
            Value::Array(items) => list(doc, key, items),
            Value::Object(inner) => object(doc, Some(&label(key)), inner),
            _ => {}
        }
    }
}

/// A list of objects as one table: a column per key of the first item. An ending no game ended
/// by (a `reason` whose counts are all zero, as every forfeit kind is when no outside program
/// played) is left out, as the "How games ended" chart leaves it out.
fn list(doc: &mut Document, key: &str, items: &[Value]) {
    let Some(Value::Object(first)) = items.first() else {
        return;
    };
    let keys: Vec<&String> = first.keys().filter(|k| !k.ends_with("_ci95")).collect();
    let header: Vec<String> = keys.iter().map(|k| label(k)).collect();
    let rows: Vec<Vec<String>> = items
        .iter()
        .filter(|item| !never_happened(item))
        .map(|item| {
            keys.iter()
                .map(|k| cell(k, &item[k.as_str()], item.get(format!("{k}_ci95"))))
                .collect()
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    doc.subheading(label(key));
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    doc.table(&header, rows);
}

/// An ending (an item with a `reason`) whose every number is zero.
fn never_happened(item: &Value) -> bool {
    let Value::Object(map) = item else {
        return false;
    };
    map.contains_key("reason") && map.values().filter_map(Value::as_f64).all(|x| x == 0.0)
}

/// `dwarf_round_wins` → `dwarf round wins`.
fn label(key: &str) -> String {
    key.replace('_', " ")
}

/// Whether a figure named `key` is a proportion, shown in percent.
fn is_share(key: &str) -> bool {
    ["rate", "share", "score", "advantage"]
        .iter()
        .any(|w| key.contains(w))
}

fn number(key: &str, x: f64) -> String {
    if is_share(key) {
        format!("{:.2}%", 100.0 * x)
    } else if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

fn interval(key: &str, ci: &Value) -> Option<String> {
    Some(format!(
        " [{}, {}]",
        number(key, ci.get(0)?.as_f64()?),
        number(key, ci.get(1)?.as_f64()?)
    ))
}

fn cell(key: &str, value: &Value, ci95: Option<&Value>) -> String {
    let with_ci = |text: String| text + &ci95.and_then(|c| interval(key, c)).unwrap_or_default();
    match value {
        Value::Number(n) => with_ci(n.as_f64().map_or_else(String::new, |x| number(key, x))),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Null => "–".to_owned(),
        Value::Array(items) => items
            .iter()
            .map(|v| cell(key, v, None))
            .collect::<Vec<_>>()
            .join(", "),
        Value::Object(map) => cell_of_object(key, map).unwrap_or_default(),
    }
}

/// The compact cell of the common small objects, or `None` for one that needs its own table.
fn cell_of_object(key: &str, map: &Map<String, Value>) -> Option<String> {
    let f = |k: &str| map.get(k).and_then(Value::as_f64);
    let ci = map
        .get("ci95")
        .and_then(|c| interval(key, c))
        .unwrap_or_default();
    if let (Some(w), Some(d), Some(l)) = (f("wins"), f("draws"), f("losses")) {
        return Some(format!("{w:.0} won, {d:.0} drawn, {l:.0} lost"));
    }
    if let Some(mean) = f("mean") {
        let spread = match (f("sd"), f("min"), f("max")) {
            (Some(sd), Some(lo), Some(hi)) => format!(" (sd {sd:.2}, {lo:.0} to {hi:.0})"),
            _ => String::new(),
        };
        let mean = if is_share(key) {
            number(key, mean)
        } else {
            format!("{mean:.2}")
        };
        return Some(format!("{mean}{ci}{spread}"));
    }
    let value = f("value").or_else(|| f("rate"))?;
    Some(format!("{}{ci}", number(key, value)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Block;

    fn render(v: Value) -> Vec<Block> {
        let mut doc = Document::default();
        tables(&mut doc, &v);
        doc.blocks
    }

    #[test]
    fn figures_become_labelled_rows_with_their_intervals() {
        let blocks = render(serde_json::json!({
            "rounds": 20,
            "dwarf_margin": {"value": -17.9, "ci95": [-22.02, -13.78]},
            "dwarf_round_win_rate": {"value": 0.25, "ci95": [0.1, 0.4]},
            "attackers_score_minus_half": -0.25,
            "attackers_score_minus_half_ci95": [-0.5, 0.0],
            "distributions": [{"name": "x", "counts": [[1, 2]]}],
        }));
        let Block::Table(t) = &blocks[0] else {
            panic!("a table first: {blocks:?}")
        };
        assert_eq!(t.rows.len(), 4, "distributions are left to the charts");
        assert_eq!(t.rows[0], vec!["rounds", "20"]);
        assert_eq!(t.rows[1], vec!["dwarf margin", "-17.90 [-22.02, -13.78]"]);
        assert_eq!(
            t.rows[2],
            vec!["dwarf round win rate", "25.00% [10.00%, 40.00%]"]
        );
        assert_eq!(
            t.rows[3],
            vec!["attackers score minus half", "-25.00% [-50.00%, 0.00%]"]
        );
    }

    #[test]
    fn lists_of_objects_become_one_table_with_a_row_each() {
        let blocks = render(serde_json::json!({
            "agents": [
                {"agent": "easy", "as_attackers": {"wins": 0, "draws": 1, "losses": 2},
                 "deaths_per_game": {"mean": 3.0, "sd": 0.5, "ci95": [2.8, 3.2], "min": 2, "max": 4}},
                {"agent": "hard", "as_attackers": {"wins": 2, "draws": 0, "losses": 1},
                 "deaths_per_game": {"mean": 1.0, "sd": 0.0, "ci95": [1.0, 1.0], "min": 1, "max": 1}},
            ],
        }));
        assert_eq!(blocks[0], Block::Subheading("agents".into()));
        let Block::Table(t) = &blocks[1] else {
            panic!("{blocks:?}")
        };
        assert_eq!(t.header, vec!["agent", "as attackers", "deaths per game"]);
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[0][1], "0 won, 1 drawn, 2 lost");
        assert_eq!(t.rows[0][2], "3.00 [2.80, 3.20] (sd 0.50, 2 to 4)");
    }

    #[test]
    fn endings_no_game_ended_by_are_left_out() {
        let blocks = render(serde_json::json!({
            "endings": [
                {"reason": "corner", "games": 3, "share": 0.75},
                {"reason": "forfeit: resigned", "games": 0, "share": 0.0},
                {"reason": "fort", "games": 1, "share": 0.25},
            ],
        }));
        assert_eq!(blocks[0], Block::Subheading("endings".into()));
        let Block::Table(t) = &blocks[1] else {
            panic!("{blocks:?}")
        };
        let reasons: Vec<&str> = t.rows.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(reasons, ["corner", "fort"]);
        let none = render(serde_json::json!({
            "endings": [{"reason": "cap", "games": 0, "share": 0.0}],
        }));
        assert!(none.is_empty(), "{none:?}");
    }
}
