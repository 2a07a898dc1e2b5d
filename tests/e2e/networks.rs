//! Agents with a learned evaluation: `level@FILE.knet` loads a network file for a searching
//! level of Thud or Hnefatafl, and a damaged or foreign file is refused with one line.

use std::path::{Path, PathBuf};

use engine::games::hnefatafl::Hnefatafl;
use engine::nnue::{Features, FloatNetwork, Network};

use crate::common::{Koom, read, scratch};

/// A linear network over Hnefatafl's pieces (an attacker worth a logit, a defender minus
/// one), written to `dir/name`.
fn material_network(dir: &Path, name: &str) -> PathBuf {
    let squares = 121;
    let mut w2 = vec![1.0; squares];
    w2.extend(vec![-1.0; squares]);
    w2.extend(vec![0.0; squares + 1]);
    let float = FloatNetwork {
        inputs: Hnefatafl::INPUTS,
        hidden: 0,
        w1: vec![],
        b1: vec![],
        w2,
        b2: 0.0,
        scale: 100.0,
        base_weight: 0.0,
    };
    let net = Network::quantise(&float, "hnefatafl", Hnefatafl::FEATURE_SET, "{}").unwrap();
    let path = dir.join(name);
    std::fs::write(&path, net.to_bytes()).unwrap();
    path
}

/// The records of 2 Hnefatafl games between `agents`, on `threads` threads.
fn records(dir: &Path, name: &str, agents: &str, threads: &str) -> String {
    let path = dir.join(format!("{name}.records"));
    Koom::new("run")
        .args(["--game", "hnefatafl", "--games", "2", "--seed", "3"])
        .args(["--threads", threads, "--agents", agents, "--records"])
        .arg(&path)
        .out(dir.join(name))
        .quiet()
        .ok();
    let text = read(&path);
    // The moves, the last field but the opening's.
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').rev().nth(1).unwrap_or_default().to_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_level_plays_with_a_network_file_and_reproduces() {
    let dir = scratch("network-play");
    let net = material_network(&dir, "material.knet");
    let agents = format!("normal@{},normal", net.display());
    let first = records(&dir, "a", &agents, "1");
    assert_eq!(first.lines().count(), 2, "{first}");
    assert_eq!(
        first,
        records(&dir, "b", &agents, "2"),
        "same games at any --threads"
    );
    // The network changes the moves: the hand-made Normal plays other games.
    assert_ne!(first, records(&dir, "c", "normal,normal", "1"));
}

#[test]
fn a_damaged_or_foreign_network_file_is_refused_with_one_line_and_exit_2() {
    let dir = scratch("network-bad");
    let good = material_network(&dir, "good.knet");
    let bytes = std::fs::read(&good).unwrap();
    let truncated = dir.join("truncated.knet");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let mut edited_bytes = bytes.clone();
    edited_bytes[100] ^= 1;
    let edited = dir.join("edited.knet");
    std::fs::write(&edited, edited_bytes).unwrap();
    let text = dir.join("text.knet");
    std::fs::write(&text, "game = 'thud'\n").unwrap();
    let run = |game: &str, agents: String, expected: &str| {
        Koom::new("run")
            .args(["--game", game, "--games", "2", "--agents"])
            .arg(agents)
            .quiet()
            .rejects(expected);
    };
    let spec = |level: &str, path: &Path| format!("{level}@{},normal", path.display());
    run(
        "hnefatafl",
        spec("normal", &truncated),
        "truncated.knet: truncated",
    );
    run(
        "hnefatafl",
        spec("normal", &edited),
        "checksum does not match",
    );
    run(
        "hnefatafl",
        spec("normal", &text),
        "not a koom network file",
    );
    run(
        "hnefatafl",
        spec("normal", &dir.join("missing.knet")),
        "cannot read network file",
    );
    run(
        "thud",
        format!("expert@{},expert", good.display()),
        "it was trained for `hnefatafl`, not thud",
    );
    run(
        "thud",
        format!("easy@{},expert", good.display()),
        "thud level easy does not search",
    );
    run(
        "hnefatafl",
        format!("normal@{0}@{0},normal", good.display()),
        "names two network files",
    );
    run(
        "ludo",
        format!("hard@{},easy,easy,easy", good.display()),
        "ludo has no learned evaluation",
    );
}

#[test]
fn list_and_help_say_which_levels_use_a_network() {
    let list = crate::common::stdout(&Koom::new("list").ok());
    assert!(
        list.contains("Networks: no level has a built-in network"),
        "{list}"
    );
    let help = crate::common::stdout(&Koom::new("run").arg("--help").ok());
    assert!(help.contains("`level@net.knet`"), "{help}");
    assert!(help.contains("no level has a built-in network"), "{help}");
}
