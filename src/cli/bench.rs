//! `koom bench`: a fixed workload per game whose signature (total moves played, perft count)
//! changes only when behaviour changes, and whose timings track speed, in the manner of chess
//! engines' `bench` command.

use std::process::ExitCode;
use std::time::Instant;

use engine::{GAME_NAMES, Game, GameVisitor, NoLog, RandomStream};
use tuner::batch::runner::run;
use tuner::config::{ExperimentFile, Plan};
use tuner::observer::Quiet;
use tuner::strength::match_agents;

use super::args::BenchArgs;

struct Bench<'a>(&'a BenchArgs);

impl GameVisitor for Bench<'_> {
    type Output = anyhow::Result<u64>;

    fn visit<G: Game>(self) -> anyhow::Result<u64> {
        let args = self.0;
        let mut signature = 0u64;
        for level in G::levels() {
            let agents = match_agents::<G>(level.name, level.name);
            let games = args
                .games
                .unwrap_or(if G::BENCH_PERFT_DEPTH > 0 { 1 } else { 4000 });
            let exp = ExperimentFile {
                game: Some(G::NAME.into()),
                agents: Some(agents),
                games: Some(games),
                seed: Some(1),
                options: Some(toml::from_str(G::BENCH_OPTIONS)?),
                ..ExperimentFile::default()
            }
            .resolve();
            let plan = Plan::<G>::new(&exp)?;
            tuner::config::check_threads(args.threads)?;
            let started = Instant::now();
            let result = run(&plan, 0..plan.groups, args.threads, &mut Quiet::new())?;
            let seconds = started.elapsed().as_secs_f64();
            let moves = result.tally.moves.sum as u64;
            signature = signature.wrapping_mul(31).wrapping_add(moves);
            outln!(
                "{:<14} {:<10} {:>7} games {:>10} moves {:>9.3} s {:>11.0} games/s {:>9.3} us/move",
                G::NAME,
                level.name,
                result.tally.games,
                moves,
                seconds,
                result.tally.games as f64 / seconds.max(1e-9),
                1e6 * seconds / moves.max(1) as f64
            );
        }
        if G::BENCH_PERFT_DEPTH > 0 {
            let start = G::new(
                &G::Options::default(),
                G::SEATS.0,
                &mut RandomStream::dice(0),
                &mut NoLog,
            );
            let started = Instant::now();
            let nodes = tuner::perft::divide(&start, G::BENCH_PERFT_DEPTH, args.threads)?.0;
            let seconds = started.elapsed().as_secs_f64();
            signature = signature.wrapping_mul(31).wrapping_add(nodes);
            outln!(
                "{:<14} perft({}) {:>17} nodes {:>9.3} s {:>11.0} nodes/s",
                G::NAME,
                G::BENCH_PERFT_DEPTH,
                nodes,
                seconds,
                nodes as f64 / seconds.max(1e-9)
            );
        }
        Ok(signature)
    }
}

pub fn bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let names: Vec<&str> = match &args.game {
        Some(name) => vec![name.as_str()],
        None => GAME_NAMES.to_vec(),
    };
    errln!(
        "koom bench: {} on {} thread(s); every level of {} plays a fixed workload, then perft. \
         The strongest board-game levels dominate; a game's bench rule options (Hnefatafl: a \
         60-ply cap) keep them short (`--game G` benches one game; docs/throughput.md has timings).",
        args.games.map_or_else(
            || "4000 games per level for dice games, one side-swapped pair for board games"
                .to_owned(),
            |g| format!("{g} games per level")
        ),
        args.threads,
        names.join(", ")
    );
    let mut signature = 0u64;
    for name in names {
        signature = signature
            .wrapping_mul(1_000_003)
            .wrapping_add(engine::visit_game(name, Bench(&args))??);
    }
    outln!("signature {signature}");
    Ok(ExitCode::SUCCESS)
}
