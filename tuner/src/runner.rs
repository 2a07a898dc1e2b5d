//! The seeded parallel batch runner.
//!
//! Seed group `g` of an experiment gets the seed `game_seed(master, g)` and is played once per
//! rotation of the agents over the seats, all rotations on the same dice (common random numbers).
//! Groups are cut into chunks that rayon plays in parallel; each chunk returns integer counts,
//! which merge exactly, so results do not depend on the thread count or on finishing order.
//! Chunks are played in waves so that rows for `games.csv` are written in game order with memory
//! bounded by one wave, and so that an interruption is noticed between chunks.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use arrayvec::ArrayVec;
use engine::{
    Agent, Clock, Context, Game, Log, MAX_SEATS, NoClock, NoLog, RandomStream, game_seed,
    seat_agent,
};
use rayon::prelude::*;

use crate::config::Plan;
use crate::tally::{GameRow, RunTally};

/// What a run reports while it goes, and how it is stopped.
pub struct Hooks<'a> {
    /// Called with the number of games just finished (from worker threads).
    pub progress: &'a (dyn Fn(u64) + Sync),
    /// Set (e.g. by Ctrl-C) to stop after the chunks in flight.
    pub interrupt: &'a AtomicBool,
    /// The clock searching agents read under `--time-control player`.
    pub clock: &'a (dyn Clock + Sync),
}

impl std::fmt::Debug for Hooks<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hooks")
            .field("interrupt", &self.interrupt)
            .finish_non_exhaustive()
    }
}

/// The result of a run: the counts, and whether it stopped before the end.
#[derive(Debug)]
pub struct RunResult<G: Game> {
    pub tally: RunTally<G>,
    pub partial: bool,
}

/// Builds one agent per slot of the plan.
#[must_use]
pub fn new_agents<G: Game>(plan: &Plan<G>) -> Vec<Box<dyn Agent<G>>> {
    plan.agents.iter().map(G::new_agent).collect()
}

/// Plays rotation `rotation` of seed group `group`, narrating into `log` and showing each new
/// position to `after_move`.
pub fn play_game<G: Game>(
    plan: &Plan<G>,
    agents: &mut [Box<dyn Agent<G>>],
    group: u64,
    rotation: usize,
    clock: &dyn Clock,
    log: &mut impl Log,
    mut after_move: impl FnMut(&G),
) -> G {
    let seats = plan.seats();
    let seed = game_seed(plan.seed, group);
    let mut dice = RandomStream::dice(seed);
    let mut tie_breaks: ArrayVec<RandomStream, MAX_SEATS> = (0..seats)
        .map(|s| RandomStream::tie_break(seed, s))
        .collect();
    agents.iter_mut().for_each(|a| a.new_game());
    let mut game = G::new(&plan.options, seats, &mut dice, log);
    let mut moves = G::MoveList::default();
    while game.outcome().is_none() {
        game.legal_moves(&mut moves);
        let seat = game.to_move();
        let agent = &mut agents[seat_agent(seat, rotation, seats)];
        let mv = agent.choose(
            &game,
            &moves,
            &mut Context {
                rng: &mut tie_breaks[seat],
                clock,
            },
        );
        game.play(mv, &mut dice, log);
        after_move(&game);
    }
    game
}

/// The `games.csv` row of a finished game.
#[must_use]
pub fn row_of<G: Game>(plan: &Plan<G>, game: &G, group: u64, rotation: usize) -> GameRow {
    let seats = plan.seats();
    let counters = game.counters();
    GameRow {
        index: group * seats as u64 + rotation as u64,
        seed: game_seed(plan.seed, group),
        rotation,
        outcome: game.outcome().expect("finished game"),
        seat_agents: (0..seats).map(|s| seat_agent(s, rotation, seats)).collect(),
        moves: counters.moves,
        rolls: counters.rolls,
        captures: counters.captures[..seats].to_vec(),
    }
}

struct Chunk<G: Game> {
    tally: RunTally<G>,
    rows: Vec<GameRow>,
}

fn play_chunk<G: Game>(
    plan: &Plan<G>,
    groups: Range<u64>,
    want_rows: bool,
    hooks: &Hooks<'_>,
) -> Option<Chunk<G>> {
    if hooks.interrupt.load(Ordering::Relaxed) {
        return None;
    }
    let seats = plan.seats();
    let mut agents = new_agents(plan);
    let mut tally = RunTally::new(&plan.teams);
    let mut rows = Vec::new();
    let mut finals = Vec::with_capacity(seats);
    for group in groups {
        finals.clear();
        for rotation in 0..seats {
            let game = play_game(
                plan,
                &mut agents,
                group,
                rotation,
                hooks.clock,
                &mut NoLog,
                |_| {},
            );
            if want_rows {
                rows.push(row_of(plan, &game, group, rotation));
            }
            finals.push(game);
        }
        tally.add_group(&finals);
        (hooks.progress)(seats as u64);
    }
    Some(Chunk { tally, rows })
}

/// Receives each finished game's row, in game order (e.g. to stream `games.csv`).
pub type RowSink<'a> = dyn FnMut(&GameRow) -> std::io::Result<()> + 'a;

/// Plays seed groups `groups` of `plan` on `threads` threads (0 = all cores), handing each
/// finished game's row to `on_row` in game order when it is given.
pub fn run<G: Game>(
    plan: &Plan<G>,
    groups: Range<u64>,
    threads: usize,
    hooks: &Hooks<'_>,
    mut on_row: Option<&mut RowSink<'_>>,
) -> std::io::Result<RunResult<G>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| {
            std::io::Error::other(format!("cannot start {threads} worker threads: {e}"))
        })?;
    let workers = pool.current_num_threads() as u64;
    let total = groups.end - groups.start;
    // Enough chunks per worker to balance uneven game lengths, few enough to keep overhead low.
    let chunk_groups = (total / (workers * 32)).clamp(1, 256);
    let wave_groups = chunk_groups * workers * 4;
    let mut tally = RunTally::new(&plan.teams);
    let mut partial = false;
    let mut start = groups.start;
    while start < groups.end {
        if hooks.interrupt.load(Ordering::Relaxed) {
            partial = true;
            break;
        }
        let end = (start + wave_groups).min(groups.end);
        let chunks: Vec<Range<u64>> = (start..end)
            .step_by(chunk_groups as usize)
            .map(|s| s..(s + chunk_groups).min(end))
            .collect();
        let want_rows = on_row.is_some();
        let results: Vec<Option<Chunk<G>>> = pool.install(|| {
            chunks
                .into_par_iter()
                .map(|r| play_chunk(plan, r, want_rows, hooks))
                .collect()
        });
        for chunk in results {
            let Some(chunk) = chunk else {
                partial = true;
                continue;
            };
            tally.merge(&chunk.tally);
            if let Some(sink) = on_row.as_mut() {
                chunk.rows.iter().try_for_each(&mut **sink)?;
            }
        }
        start = end;
    }
    Ok(RunResult { tally, partial })
}

/// Hooks that report nothing and never interrupt: for tests and library callers.
#[must_use]
pub fn quiet_hooks(interrupt: &AtomicBool) -> Hooks<'_> {
    Hooks {
        progress: &|_| {},
        interrupt,
        clock: &NoClock,
    }
}

#[cfg(test)]
mod tests {
    use engine::games::ludo::Ludo;

    use super::*;
    use crate::config::ExperimentFile;
    use crate::summary::summarize;

    fn plan(agents: &[&str], games: u64, seed: u64) -> Plan<Ludo> {
        let file = ExperimentFile {
            agents: Some(agents.iter().map(|s| (*s).to_owned()).collect()),
            games: Some(games),
            seed: Some(seed),
            ..ExperimentFile::default()
        };
        Plan::new(&file.resolve()).unwrap()
    }

    fn run_quietly(plan: &Plan<Ludo>, threads: usize) -> RunResult<Ludo> {
        let interrupt = AtomicBool::new(false);
        run(
            plan,
            0..plan.groups,
            threads,
            &quiet_hooks(&interrupt),
            None,
        )
        .unwrap()
    }

    #[test]
    fn normal_beats_easy_beyond_the_fair_share() {
        let plan = plan(&["normal", "easy", "easy", "easy"], 8000, 2024);
        let result = run_quietly(&plan, 0);
        let summary = summarize(&plan, "batch", &result.tally, result.partial);
        let normal = &summary.by_agent[0];
        assert_eq!(normal.games, 8000);
        assert!(
            normal.win_rate_ci95[0] > 0.25,
            "Normal {:?} should exclude the fair share 0.25",
            normal.win_rate_ci95
        );
    }

    #[test]
    fn thread_count_and_chunking_do_not_change_the_counts() {
        let plan = plan(&["hard", "normal", "easy", "easy"], 3000, 77);
        let one = run_quietly(&plan, 1).tally;
        let two = run_quietly(&plan, 2).tally;
        let three = run_quietly(&plan, 3).tally;
        let json = |t: &RunTally<Ludo>| serde_json::to_string(t).unwrap();
        assert_eq!(json(&one), json(&two));
        assert_eq!(json(&one), json(&three));
        assert_eq!(one.games, 3000);
    }

    #[test]
    fn rotations_seat_every_agent_everywhere_on_the_same_dice() {
        let plan = plan(&["hard", "normal", "easy", "easy"], 4, 5);
        let mut agents = new_agents(&plan);
        let rows: Vec<GameRow> = (0..4)
            .map(|r| {
                let game = play_game(&plan, &mut agents, 0, r, &NoClock, &mut NoLog, |_| {});
                row_of(&plan, &game, 0, r)
            })
            .collect();
        assert!(rows.iter().all(|r| r.seed == rows[0].seed));
        for seat in 0..4 {
            let mut slots: Vec<usize> = rows.iter().map(|r| r.seat_agents[seat]).collect();
            slots.sort_unstable();
            assert_eq!(slots, vec![0, 1, 2, 3], "seat {seat} sees every agent once");
        }
    }

    #[test]
    fn an_interrupted_run_is_partial_and_counts_only_finished_games() {
        let plan = plan(&["easy"; 4], 400, 1);
        let interrupt = AtomicBool::new(true);
        let result = run(&plan, 0..plan.groups, 1, &quiet_hooks(&interrupt), None).unwrap();
        assert!(result.partial);
        assert_eq!(result.tally.games, 0);
    }
}
