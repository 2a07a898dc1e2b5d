//! `koom analyse`: a level's move for one position, and why (the apps' "hint").

use std::process::ExitCode;
use std::time::Instant;

use engine::{Analysis, Context, Game, GameVisitor, RandomStream};
use serde_json::json;
use tuner::agents::parse_agent;

use super::args::AnalyseArgs;
use super::live::WallClock;
use super::position::replay;

struct Analyse<'a>(&'a AnalyseArgs);

impl GameVisitor for Analyse<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        let args = self.0;
        let mut game: G = replay(args.position.as_deref(), &args.moves)?;
        if let Some(roll) = &args.roll {
            game.set_roll(roll)
                .map_err(|e| anyhow::anyhow!("--roll {roll}: {e}"))?;
        }
        if let Some(outcome) = game.outcome() {
            anyhow::bail!(
                "the game is over ({}): there is no move to analyse",
                super::position::describe_outcome::<G>(&outcome)
            );
        }
        let time_control = args.time_control;
        let setup = parse_agent::<G>(&args.level, time_control)?;
        let mut agent = setup.agent();
        agent.new_game();
        let mut moves = G::MoveList::default();
        game.legal_moves(&mut moves);
        let clock = WallClock::new();
        let mut rng = RandomStream::tie_break(args.seed, game.to_move());
        let started = Instant::now();
        let analysis = agent.analyse(
            &game,
            &moves,
            &mut Context {
                rng: &mut rng,
                clock: &clock,
            },
        );
        let time_ms = started.elapsed().as_secs_f64() * 1000.0;
        print_analysis(&game, &analysis, time_ms, args.json);
        Ok(ExitCode::SUCCESS)
    }
}

fn print_analysis<G: Game>(game: &G, a: &Analysis<G::Move>, time_ms: f64, as_json: bool) {
    let best = game.format_move(a.best);
    let pv = engine::move_texts(game, &a.pv);
    let values: Vec<(String, f64)> = a
        .values
        .iter()
        .map(|&(m, v)| (game.format_move(m), v))
        .collect();
    if as_json {
        let moves: Vec<_> = values
            .iter()
            .map(|(m, v)| json!({ "move": m, "value": v }))
            .collect();
        let doc = json!({
            "game": G::NAME,
            "to_move": game.to_move(),
            "position": game.position(),
            "best": best,
            "score": a.score,
            "pv": pv,
            "depth": a.depth,
            "nodes": a.nodes,
            "time_ms": time_ms,
            "moves": moves,
        });
        outln!("{doc:#}");
        return;
    }
    outln!("seat to move: {}", game.to_move());
    outln!("best move: {best}");
    match a.score {
        Some(score) => outln!("score: {score} (the level's units, for the seat to move)"),
        None => outln!("score: none (this level does not score moves)"),
    }
    outln!("pv: {}", pv.join(", "));
    outln!("depth {}, nodes {}, time {time_ms:.1} ms", a.depth, a.nodes);
    if !values.is_empty() {
        outln!("moves:");
        let width = values.iter().map(|(m, _)| m.len()).max().unwrap_or(0);
        for (m, v) in &values {
            outln!("  {m:<width$}  {v:.4}");
        }
    }
}

pub fn analyse(args: AnalyseArgs) -> anyhow::Result<ExitCode> {
    engine::visit_game(&args.game, Analyse(&args))?
}
