//! Texel-style fitting of Copenhagen Hnefatafl's evaluation weights to game results: the second
//! tuning method next to `koom tune` (SPSA).
//!
//! ```text
//! cargo run --release -p engine --example hnefatafl_texel -- [--level expert] [--games 20]
//!     [--every 4] [--seed 1] [--rounds 300] > configs/weights/hnefatafl-LEVEL-texel.toml
//! ```
//!
//! It plays `--games` seeded self-play games of the level (batch budgets, so the positions
//! reproduce), keeps every `--every`-th position of each with the game's result for the
//! attackers (1 win, ½ draw, 0 loss), and fits the evaluation, which is linear in its weights
//! ([`features`]), so that `sigmoid(eval / K)` predicts the result: first the scale `K` at the
//! start weights, then the weights by sign-gradient descent on the mean squared error, each
//! step a fraction of the weight's own tuning step, clamped to its range. It prints the
//! level's weights file (search parameters unchanged) on stdout and the errors on stderr; load
//! it as `LEVEL@file.toml`.

use engine::games::hnefatafl::{EvalWeights, Hnefatafl, HnefataflOptions, TERMS, features};
use engine::selfplay::SeededGame;
use engine::{AgentSetup, Game, NoClock, NoLog, TimeControl};

/// One sampled position: its terms and the attackers' result.
struct Sample {
    terms: [f64; TERMS],
    result: f64,
}

struct Args {
    level: String,
    games: u64,
    every: usize,
    seed: u64,
    rounds: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        level: "expert".into(),
        games: 20,
        every: 4,
        seed: 1,
        rounds: 300,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{flag}: not a count: {value}"))
        };
        match flag.as_str() {
            "--level" => args.level.clone_from(&value),
            "--games" => args.games = number()?,
            "--every" => args.every = number()? as usize,
            "--seed" => args.seed = number()?,
            "--rounds" => args.rounds = number()? as usize,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if args.games == 0 || args.every == 0 {
        return Err("--games and --every must be at least 1".into());
    }
    Ok(args)
}

/// Self-play of `level`: every `every`-th position of `games` games, with their results.
fn sample(level: usize, args: &Args) -> Vec<Sample> {
    let setup = AgentSetup {
        level,
        weights: Vec::new(),
        time_control: TimeControl::Batch,
    };
    let mut agents = [Hnefatafl::new_agent(&setup), Hnefatafl::new_agent(&setup)];
    let options = HnefataflOptions::default();
    let mut samples = Vec::new();
    for game in 0..args.games {
        let mut terms = Vec::new();
        let end = SeededGame {
            options: &options,
            seats: 2,
            seed: args.seed.wrapping_mul(1_000_003).wrapping_add(game),
            clock: &NoClock,
        }
        .play(
            &mut agents,
            |seat| seat,
            &mut NoLog,
            |g: &Hnefatafl| {
                if g.outcome().is_none() && (g.plies() as usize).is_multiple_of(args.every) {
                    terms.push(features(g));
                }
            },
        );
        let result = match end.outcome().and_then(|o| o.sole_winner()) {
            Some(0) => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        eprintln!(
            "game {game}: {} plies, attackers' result {result}",
            end.plies()
        );
        samples.extend(terms.into_iter().map(|terms| Sample { terms, result }));
    }
    samples
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn eval(weights: &[f64], terms: &[f64; TERMS]) -> f64 {
    terms.iter().zip(weights).map(|(t, w)| t * w).sum()
}

/// Mean squared error of the predicted results.
fn error(samples: &[Sample], weights: &[f64], scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| (sigmoid(eval(weights, &s.terms) / scale) - s.result).powi(2))
        .sum();
    total / samples.len() as f64
}

/// The scale with the least error at `weights`, on a geometric grid from 10 to 100,000.
fn fit_scale(samples: &[Sample], weights: &[f64]) -> f64 {
    (0..=80)
        .map(|i| 10.0 * 10_000f64.powf(f64::from(i) / 80.0))
        .min_by(|&a, &b| error(samples, weights, a).total_cmp(&error(samples, weights, b)))
        .expect("a non-empty grid")
}

/// Sign-gradient descent: each round moves every weight by a decaying fraction of its step
/// against the gradient's sign, clamped to its range, and keeps the round only if the error
/// falls.
fn fit_weights(samples: &[Sample], start: &[f64], scale: f64, rounds: usize) -> Vec<f64> {
    let params = EvalWeights::SET.params;
    let mut weights = start.to_vec();
    let mut best = error(samples, &weights, scale);
    for round in 0..rounds {
        let mut gradient = [0.0; TERMS];
        for s in samples {
            let p = sigmoid(eval(&weights, &s.terms) / scale);
            let common = 2.0 * (p - s.result) * p * (1.0 - p) / scale;
            for (g, t) in gradient.iter_mut().zip(&s.terms) {
                *g += common * t;
            }
        }
        let rate = 2.0 * (1.0 - round as f64 / rounds as f64);
        let trial: Vec<f64> = weights
            .iter()
            .zip(params)
            .zip(gradient)
            .map(|((w, p), g)| (w - rate * p.step * g.signum()).clamp(p.min, p.max))
            .collect();
        let e = error(samples, &trial, scale);
        if e < best {
            best = e;
            weights = trial;
        }
    }
    weights
}

fn main() {
    let args = parse_args().unwrap_or_else(|e| {
        eprintln!("hnefatafl_texel: {e}");
        std::process::exit(2);
    });
    let level = engine::level_index::<Hnefatafl>(&args.level).unwrap_or_else(|e| {
        eprintln!("hnefatafl_texel: {e}");
        std::process::exit(2);
    });
    let set = Hnefatafl::levels()[level]
        .weights
        .expect("a searching level");
    let samples = sample(level, &args);
    let defaults = set.defaults();
    let start = &defaults[..TERMS];
    let scale = fit_scale(&samples, start);
    let before = error(&samples, start, scale);
    let fitted = fit_weights(&samples, start, scale, args.rounds);
    let after = error(&samples, &fitted, scale);
    eprintln!(
        "{} positions, scale {scale:.1}: mean squared error {before:.5} -> {after:.5}",
        samples.len()
    );
    println!(
        "# Texel fit of {} on {} positions from {} self-play games",
        set.name,
        samples.len(),
        args.games
    );
    println!(
        "# (seed {}, every {}th position): error {before:.5} -> {after:.5}, scale {scale:.1}",
        args.seed, args.every
    );
    println!(
        "game = \"hnefatafl\"\nweight_set = \"{}\"\n\n[weights]",
        set.name
    );
    let values = fitted.iter().chain(&defaults[TERMS..]).copied();
    for (p, v) in set.params.iter().zip(values) {
        println!("{} = {v:.4}", p.name);
    }
}
