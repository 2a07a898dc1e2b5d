//! Expert's native move times on the positions the browser measures (web/e2e.py): a seeded game
//! from the start, Expert's choice timed at each move, under its batch (node) budget.
//! Usage: `movetime GAME SEED MOVES`; prints the milliseconds of each move as a JSON array.

use std::time::Instant;

use engine::{NoClock, TimeControl};
use web::session::{Budget, Config, start};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [game, seed, moves] = args.as_slice() else {
        return Err("usage: movetime GAME SEED MOVES".into());
    };
    let mut session = start(game, &Config::from_json(&format!(r#"{{"seed": {seed}}}"#))?)?;
    let mut times = Vec::new();
    for _ in 0..moves.parse::<usize>()? {
        if session.state().result.is_some() {
            break;
        }
        let t0 = Instant::now();
        let hint = session.hint("expert", Budget::Level(TimeControl::Batch), &NoClock)?;
        times.push(t0.elapsed().as_secs_f64() * 1e3);
        session.play(&hint.mv)?;
    }
    println!("{}", serde_json::to_string(&times)?);
    Ok(())
}
