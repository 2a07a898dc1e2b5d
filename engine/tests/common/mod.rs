//! Perft fixtures in one format for every game, read by one generic reader, as shakmaty's
//! `tests/perft.rs` reads its records: records separated by blank lines, each
//!
//! ```text
//! id NAME
//! position TEXT                      (the game's position notation)
//! options {"troll_capture": "all"}   (optional: the game's rule options as JSON)
//! perft DEPTH LEAVES                 (one line per depth)
//! ```
//!
//! and `#` starting a comment line.

use engine::Game;

/// One position and its leaf counts by depth.
pub struct Fixture<G: Game> {
    pub id: String,
    pub position: String,
    pub options: G::Options,
    pub counts: Vec<(u32, u64)>,
}

/// The fixtures of `text` for game `G`; a malformed record panics, naming it.
pub fn perft_fixtures<G: Game>(text: &str) -> Vec<Fixture<G>> {
    let mut fixtures: Vec<Fixture<G>> = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (key, value) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("`key value` lines: {line}"));
        if key == "id" {
            fixtures.push(Fixture {
                id: value.to_owned(),
                position: String::new(),
                options: G::Options::default(),
                counts: Vec::new(),
            });
            continue;
        }
        let fixture = fixtures.last_mut().expect("a record starts with `id`");
        let id = &fixture.id;
        match key {
            "position" => fixture.position = value.to_owned(),
            "options" => {
                fixture.options = serde_json::from_str(value)
                    .unwrap_or_else(|e| panic!("{id}: options {value}: {e}"));
            }
            "perft" => {
                let (depth, leaves) = value
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("{id}: perft DEPTH LEAVES"));
                fixture
                    .counts
                    .push((depth.parse().unwrap(), leaves.parse().unwrap()));
            }
            other => panic!("{id}: unknown key `{other}`"),
        }
    }
    for f in &fixtures {
        assert!(
            G::from_position(&f.position, &f.options).is_ok() && !f.counts.is_empty(),
            "{}: a readable position and at least one count",
            f.id
        );
    }
    fixtures
}
