//! `koom train`: a network evaluation fitted to position sets ([`tuner::tuning::train`]), written as a
//! network file (`engine::nnue::Network`) with `train.json` and `loss.svg` beside it.
//!
//! The linear model over the same inputs is trained alongside, on the same split and seed: it
//! is the baseline the network must beat on held-out loss, and both are reported.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context as _, bail};
use engine::nnue::{Features, FeaturesVisitor, FloatNetwork, Network};
use indicatif::{ProgressBar, ProgressStyle};
use reports::plot::{Convergence, Series};
use serde_json::json;
use tuner::tuning::positions::PositionSet;
use tuner::tuning::train::{Data, Model, Progress, TrainConfig, Trained};

use super::args::TrainArgs;

/// The network file's name in the output folder.
const NETWORK_FILE: &str = "net.knet";

pub fn train(args: &TrainArgs) -> anyhow::Result<ExitCode> {
    let origin = args.config.display().to_string();
    let text = std::fs::read_to_string(&args.config)
        .with_context(|| format!("cannot read training config {origin}"))?;
    let mut config = TrainConfig::parse(&text, &origin)?;
    if !args.positions.is_empty() {
        config.positions.clone_from(&args.positions);
    }
    if let Some(seed) = args.seed {
        config.seed = seed;
    }
    if config.positions.is_empty() {
        bail!("{origin}: no position sets: give `positions = [...]` or --positions FILE");
    }
    let game = config.game.clone();
    engine::nnue::visit_features_game(
        &game,
        Train {
            args,
            config,
            text: &text,
        },
    )?
}

struct Train<'a> {
    args: &'a TrainArgs,
    config: TrainConfig,
    text: &'a str,
}

impl FeaturesVisitor for Train<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Features>(self) -> anyhow::Result<ExitCode> {
        let Self { args, config, text } = self;
        let out = args
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from("koom-results").join(format!("train-{}", G::NAME)));
        let mut sets = Vec::new();
        for path in &config.positions {
            sets.push(PositionSet::read(path, G::NAME, G::FEATURE_SET, G::INPUTS)?);
        }
        let hashes: Vec<String> = sets.iter().map(|s| format!("{:016x}", s.hash())).collect();
        let mut set = sets.swap_remove(0);
        for other in &sets {
            set.append(other).map_err(anyhow::Error::msg)?;
        }
        drop(sets);
        if config.hand && set.iter().any(|p| p.hand.is_none()) {
            bail!(
                "hand = true, but the position sets hold positions without the hand-made score                  (sets of format version 1): make them again with `koom positions`"
            );
        }
        let data = Data::new(&set, &config);
        let split = &data.split;
        if split.held_out.is_empty() || split.train.is_empty() {
            bail!(
                "{} positions from {} seed groups: hold_out_every = {} leaves {} held out and {} to \
                 train on; give more games or a smaller hold_out_every",
                set.len(),
                split.groups,
                config.hold_out_every,
                split.held_out.len(),
                split.train.len()
            );
        }
        reports::check_writable_dir(&out)?;
        let threads = args.threads.map_or(0, |t| t as usize);
        let pool = tuner::threads::thread_pool(threads)?;
        let shapes: Vec<usize> = [0, config.hidden]
            .into_iter()
            .filter(|&h| h == 0 || config.hidden > 0)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let total = (split.train.len() * config.epochs as usize * shapes.len()) as u64;
        let bar = progress_bar(total);
        outln!(
            "{} positions ({} seed groups), {} held out ({} groups); {} epochs, batches of {}",
            set.len(),
            split.groups,
            split.held_out.len(),
            split.held_out_groups,
            config.epochs,
            config.batch_size
        );
        let fitted = tuner::tuning::train::fitted_score_scale(&set);
        if let Some(k) = fitted {
            outln!(
                "the scores predict the results best at score_scale {k:.0} (the config's: {})",
                config.score_scale
            );
        }
        let started = Instant::now();
        let mut trained = Vec::new();
        for &hidden in &shapes {
            let name = model_name(hidden);
            let mut on = |p: Progress| match p {
                Progress::Batch(n) => bar.inc(n),
                Progress::Epoch(e) => bar.suspend(|| {
                    outln!(
                        "{name:<12} epoch {:>3}  train {:.5}  held out {:.5}",
                        e.epoch,
                        e.train,
                        e.held_out
                    );
                }),
            };
            trained.push(tuner::tuning::train::train(
                &data, &config, hidden, &pool, &mut on,
            ));
        }
        bar.finish_and_clear();
        let elapsed = started.elapsed().as_secs_f64();
        let network = trained.last().context("no model was trained")?;
        let linear = &trained[0];
        let float = float_network(&network.model, config.score_scale);
        let provenance = json!({
            "game": G::NAME,
            "feature_set": G::FEATURE_SET,
            "data": hashes,
            "positions": set.len(),
            "seed": config.seed,
            "config": text,
            "koom_version": env!("CARGO_PKG_VERSION"),
        })
        .to_string();
        let quantised = Network::quantise(&float, G::NAME, G::FEATURE_SET, &provenance)
            .map_err(|e| anyhow::anyhow!("cannot write the network: {e}"))?;
        let bytes = quantised.to_bytes();
        let error = quantisation_error(&quantised, &float, &data);
        let net_path = out.join(NETWORK_FILE);
        write(&net_path, &bytes)?;
        let report = json!({
            "game": G::NAME,
            "feature_set": G::FEATURE_SET,
            "config": config,
            "positions": {
                "files": config.positions.iter().zip(&hashes).map(|(p, h)| json!({
                    "path": p.display().to_string(), "hash": h,
                })).collect::<Vec<_>>(),
                "total": set.len(),
                "train": split.train.len(),
                "held_out": split.held_out.len(),
                "split": split,
            },
            "network": model_json(network, config.hidden),
            "linear": model_json(linear, 0),
            "quantisation": error,
            "fitted_score_scale": fitted,
            "output": {
                "path": net_path.display().to_string(),
                "bytes": bytes.len(),
                "provenance": provenance,
            },
            "run": {
                "elapsed_s": elapsed,
                "positions_per_s": total as f64 / elapsed.max(1e-9),
                "threads": pool.current_num_threads(),
            },
        });
        let mut json_text = serde_json::to_string_pretty(&report)?;
        json_text.push('\n');
        write(&out.join("train.json"), json_text.as_bytes())?;
        write(
            &out.join("loss.svg"),
            loss_plot::<G>(&trained).svg()?.as_bytes(),
        )?;
        outln!(
            "held-out loss: {} {:.5} (epoch {}), linear {:.5} (epoch {}); {:.0} positions/s on {} threads",
            model_name(config.hidden),
            network.held_out_loss(),
            network.best_epoch,
            linear.held_out_loss(),
            linear.best_epoch,
            total as f64 / elapsed.max(1e-9),
            pool.current_num_threads()
        );
        outln!(
            "wrote {} ({} bytes; load it as `expert@{}`), train.json and loss.svg in {}",
            net_path.display(),
            bytes.len(),
            net_path.display(),
            out.display()
        );
        Ok(ExitCode::SUCCESS)
    }
}

fn model_name(hidden: usize) -> String {
    if hidden == 0 {
        "linear".to_owned()
    } else {
        format!("{hidden} hidden")
    }
}

fn model_json(trained: &Trained, hidden: usize) -> serde_json::Value {
    json!({
        "hidden": hidden,
        "held_out_loss": trained.held_out_loss(),
        "best_epoch": trained.best_epoch,
        "losses": trained.losses,
    })
}

/// The trained model in the engine's float form, `scale` evaluation units per logit.
fn float_network(model: &Model, scale: f64) -> FloatNetwork {
    let (w1, b1, w2, b2) = model.split();
    FloatNetwork {
        inputs: model.inputs,
        hidden: model.hidden,
        w1,
        b1,
        w2,
        b2,
        scale: scale as f32,
        base_weight: model.hand_weight(),
    }
}

/// How far the integer network's evaluations stray from the float network's, in evaluation
/// units, over the held-out positions: what quantisation costs.
fn quantisation_error(
    network: &Network,
    float: &FloatNetwork,
    data: &Data<'_>,
) -> serde_json::Value {
    let mut sum = 0.0;
    let mut max = 0.0f64;
    for &i in &data.split.held_out {
        let p = data.set.get(i);
        let hand = p.hand.unwrap_or(0);
        // f32 holds every hand-made score exactly (they are far below 2^24).
        let logit = float.forward_with_base(p.features, hand as f32);
        let exact = f64::from(logit) * f64::from(float.scale);
        let integer = network.with_base(network.evaluate(p.features), hand);
        let error = (f64::from(integer) - exact).abs();
        sum += error;
        max = max.max(error);
    }
    json!({
        "mean_abs_eval_error": sum / data.split.held_out.len().max(1) as f64,
        "max_abs_eval_error": max,
    })
}

fn loss_plot<G: Features>(trained: &[Trained]) -> Convergence {
    let series = trained.iter().flat_map(|t| {
        let name = model_name(t.model.hidden);
        [
            Series {
                name: format!("{name}, held out"),
                min: 0.0,
                max: 1.0,
                values: t.losses.iter().map(|l| l.held_out).collect(),
            },
            Series {
                name: format!("{name}, trained on"),
                min: 0.0,
                max: 1.0,
                values: t.losses.iter().map(|l| l.train).collect(),
            },
        ]
    });
    Convergence {
        title: format!("{} ({}): loss per epoch", G::NAME, G::FEATURE_SET),
        x_label: "epoch".into(),
        y_label: Some("mean squared error".into()),
        series: series.collect(),
    }
}

/// A bar of positions trained, on standard error when it is a terminal and output is wanted.
fn progress_bar(total: u64) -> ProgressBar {
    if crate::output::quiet() || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} positions {per_sec} ETA {eta}")
    {
        bar.set_style(style);
    }
    bar
}

fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    tuner::atomic::write_atomic(path, bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}
