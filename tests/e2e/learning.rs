//! `koom positions` and `koom train`: records to a position set to a network file, reproducible
//! at any thread count, and bad input refused in one line.

use crate::common::{Koom, json, read, scratch, stdout, write};
use std::path::{Path, PathBuf};

/// 8 seed groups (16 rounds) of Thud, Easy against Balanced, recorded with Balanced's searched scores.
fn records(dir: &Path) -> PathBuf {
    let path = dir.join("games.rec");
    Koom::new("run")
        .args([
            "--game",
            "thud",
            "--agents",
            "easy,balanced",
            "--games",
            "8",
        ])
        .args(["--seed", "5", "--threads", "2", "--quiet", "--records"])
        .arg(&path)
        .arg("--records-scores")
        .out(dir.join("run"))
        .ok();
    path
}

fn positions(records: &Path, out: &Path, seed: &str) -> Koom {
    Koom::new("positions")
        .args(["--game", "thud", "--skip", "4", "--per-game", "40"])
        .args(["--seed", seed, "--records"])
        .arg(records)
        .arg("--out")
        .arg(out)
}

const CONFIG: &str = "game = \"thud\"\nhidden = 16\nepochs = 4\nbatch_size = 64\n\
    hold_out_every = 4\nscore_scale = 1000.0\n";

fn train(config: &Path, set: &Path, out: &Path, threads: &str) -> Koom {
    Koom::new("train")
        .arg("--config")
        .arg(config)
        .arg("--positions")
        .arg(set)
        .args(["--threads", threads])
        .out(out)
}

#[test]
fn records_become_a_reproducible_set_and_a_network_identical_at_any_thread_count() {
    let dir = scratch("learning");
    let games = records(&dir);
    let set = dir.join("thud.kpos");
    let said = stdout(&positions(&games, &set, "1").ok());
    assert!(said.contains("16 games read"), "{said}");
    assert!(said.contains("wrote"), "{said}");
    let again = dir.join("again.kpos");
    positions(&games, &again, "1").quiet().ok();
    assert_eq!(std::fs::read(&set).unwrap(), std::fs::read(&again).unwrap());
    let other = dir.join("other.kpos");
    positions(&games, &other, "2").quiet().ok();
    assert_ne!(std::fs::read(&set).unwrap(), std::fs::read(&other).unwrap());
    assert!(!dir.join("thud.kpos.tmp").exists());

    let config = write(&dir, "train.toml", CONFIG);
    let said = stdout(&train(&config, &set, &dir.join("one"), "1").ok());
    assert!(said.contains("held-out loss: 16 hidden"), "{said}");
    train(&config, &set, &dir.join("two"), "2").quiet().ok();
    let net = std::fs::read(dir.join("one/net.knet")).unwrap();
    assert_eq!(net, std::fs::read(dir.join("two/net.knet")).unwrap());
    let network = engine::nnue::Network::from_bytes(&net).unwrap();
    assert_eq!(network.game(), "thud");
    assert_eq!(network.hidden(), 16);
    let provenance: serde_json::Value = serde_json::from_str(network.provenance()).unwrap();
    assert_eq!(provenance["config"], CONFIG);
    assert_eq!(provenance["seed"], 1);
    let report = json(&dir.join("one/train.json"));
    for model in ["network", "linear"] {
        let loss = report[model]["held_out_loss"].as_f64().unwrap();
        assert!(loss > 0.0 && loss < 0.25, "{model}: {loss}");
        assert_eq!(report[model]["losses"].as_array().unwrap().len(), 5);
    }
    assert_eq!(report["linear"]["hidden"], 0);
    assert!(report["positions"]["held_out"].as_u64().unwrap() > 0);
    assert!(read(&dir.join("one/loss.svg")).contains("mean squared error"));
}

#[test]
fn bad_sets_configs_and_games_are_refused_in_one_line() {
    let dir = scratch("learning-bad");
    let games = records(&dir);
    let set = dir.join("thud.kpos");
    positions(&games, &set, "1").quiet().ok();
    let bytes = std::fs::read(&set).unwrap();
    let config = write(&dir, "train.toml", CONFIG);
    let out = dir.join("out");

    let truncated = dir.join("truncated.kpos");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    train(&config, &truncated, &out, "1").rejects("checksum mismatch");
    let mut edited = bytes.clone();
    let at = edited.len() / 2;
    edited[at] ^= 0x10;
    let edited_path = dir.join("edited.kpos");
    std::fs::write(&edited_path, &edited).unwrap();
    train(&config, &edited_path, &out, "1").rejects("it was truncated, damaged or edited");
    train(&config, &games, &out, "1").rejects("not a koom position set");
    let hnefatafl = write(&dir, "h.toml", "game = \"hnefatafl\"\n");
    train(&hnefatafl, &set, &out, "1").rejects("holds `thud` positions, not hnefatafl");
    let wide = write(&dir, "wide.toml", "game = \"thud\"\nhidden = 999\n");
    train(&wide, &set, &out, "1").rejects("wide.toml: hidden = 999");
    let typo = write(&dir, "typo.toml", "game = \"thud\"\nepoch = 3\n");
    train(&typo, &set, &out, "1").rejects("unknown field `epoch`");
    let ludo = write(&dir, "ludo.toml", "game = \"ludo\"\n");
    train(&ludo, &set, &out, "1").rejects("game `ludo` has no feature set");
    assert!(
        !out.join("net.knet").exists(),
        "nothing written after a refusal"
    );

    positions(&games, &dir.join("x.kpos"), "1")
        .args(["--margin-scale", "0"])
        .rejects("--margin-scale must be a positive number");
    Koom::new("positions")
        .args(["--game", "ludo", "--out", "x.kpos", "--records"])
        .arg(&games)
        .rejects("game `ludo` has no feature set");
    let bad = write(&dir, "bad.rec", &read(&games).replacen("\t-\t", "\tx\t", 1));
    positions(&bad, &dir.join("x.kpos"), "1").rejects("bad.rec line 1: ");
    assert!(!dir.join("x.kpos").exists());
}
