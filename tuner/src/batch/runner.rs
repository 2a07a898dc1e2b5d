//! The seeded parallel batch runner.
//!
//! Seed group `g` of an experiment gets the seed `game_seed(master, g)` and is played once per
//! rotation of the agents over the seats, all rotations on the same dice (common random numbers),
//! or once where one deterministic agent holds every seat (see [`Design`](crate::config::Design)).
//! Groups are cut into chunks that rayon plays in parallel; each chunk returns integer counts,
//! which merge exactly, so results do not depend on the thread count or on finishing order.
//! Each worker thread builds its agents once and keeps them for the whole run, since some are
//! costly to build (Trente-douze Hard solves its keep table) and every game starts them afresh.
//! Chunks are played in waves so that rows for `games.csv` are written in game order with memory
//! bounded by one wave. An interruption is noticed between seed groups: a chunk stops before
//! its next group, and the groups it finished count.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError};

use engine::selfplay::{MoveScore, SeededGame};
use engine::{Agent, Clock, Ending, Game, Log, NoLog, game_seed, seat_agent};
use rayon::prelude::*;

use crate::batch::tally::{GameRow, RunTally};
use crate::config::Plan;
use crate::observer::{Observer, Watch};
use crate::threads::thread_pool;

/// The result of a run: the counts, and whether it stopped before the end.
#[derive(Debug)]
pub struct RunResult<G: Game> {
    pub tally: RunTally<G>,
    pub partial: bool,
    /// The seed groups played, as sorted disjoint ranges.
    pub done: Vec<Range<u64>>,
}

/// Builds one agent per slot of the plan.
#[must_use]
pub fn new_agents<G: Game>(plan: &Plan<G>) -> Vec<Box<dyn Agent<G>>> {
    plan.agents
        .iter()
        .zip(&plan.externals)
        .map(|(setup, external)| match external {
            Some(spec) => Box::new(crate::interop::external::External::<G>::new(Arc::clone(
                spec,
            ))) as _,
            None => setup.agent(),
        })
        .collect()
}

/// Plays rotation `rotation` of seed group `group` (`at = (group, rotation)`) from the group's
/// opening (or the initial position), narrating into `log`, showing each new position — the
/// first one included — to `observe` and each move with the position it is played in to
/// `on_move`, with the mover's searched score when the plan keeps scored records.
pub fn play_game<G: Game>(
    plan: &Plan<G>,
    agents: &mut [Box<dyn Agent<G>>],
    (group, rotation): (u64, usize),
    clock: &dyn Clock,
    log: &mut impl Log,
    observe: impl FnMut(&G),
    on_move: impl FnMut(&G, G::Move, Option<MoveScore>),
) -> G {
    let seats = plan.seats();
    let seed = game_seed(plan.seed, group);
    let game = SeededGame {
        options: &plan.options,
        seats,
        seed,
        clock,
        adjudication: plan.adjudication,
    };
    let seating = (agents, |seat| seat_agent(seat, rotation, seats));
    let start = plan
        .openings
        .as_ref()
        .map(|suite| &suite.for_group(group).position);
    game.play_scoring(start, plan.record_scores, seating, log, observe, on_move)
}

/// The `games.csv` row of a finished game.
#[must_use]
pub fn row_of<G: Game>(
    plan: &Plan<G>,
    game: &G,
    group: u64,
    rotation: usize,
) -> GameRow<G::Reason> {
    let seats = plan.seats();
    let counters = game.counters();
    GameRow {
        index: group * plan.rotations() as u64 + rotation as u64,
        seed: game_seed(plan.seed, group),
        rotation,
        outcome: game.outcome().expect("finished game"),
        seat_agents: (0..seats).map(|s| seat_agent(s, rotation, seats)).collect(),
        moves: counters.moves,
        rolls: counters.rolls,
        captures: counters.captures[..seats].to_vec(),
        opening: plan.openings.as_ref().map(|s| s.index_of(group)),
        start: plan
            .openings
            .as_ref()
            .and_then(|s| s.for_group(group).start.clone()),
        notation: Vec::new(),
        scores: Vec::new(),
    }
}

struct Chunk<G: Game> {
    /// The seed groups played: all of the chunk's, or the first of them when an interruption
    /// cut it short.
    groups: Range<u64>,
    tally: RunTally<G>,
    rows: Vec<GameRow<G::Reason>>,
}

/// Whether an outside player failed in `game` (crashed, was late, broke the protocol).
fn failed<G: Game>(game: &G) -> bool {
    matches!(game.outcome(), Some(o) if matches!(o.reason, Ending::Forfeit(f) if f.is_failure()))
}

/// Plays the chunk's groups in order, stopping before the next group once interrupted. A group
/// that ends after the interruption with an outside player's failure is dropped: the signal
/// that stopped koom may have reached the engine too (Slurm signals every process of a job), so
/// its forfeit is no result, and the group is played again on resume.
fn play_chunk<G: Game>(
    plan: &Plan<G>,
    agents: &mut [Box<dyn Agent<G>>],
    groups: Range<u64>,
    want_rows: bool,
    watch: &dyn Watch,
) -> Chunk<G> {
    let rotations = plan.rotations();
    let mut tally = RunTally::new(plan);
    let mut rows = Vec::new();
    let mut finals = Vec::with_capacity(rotations);
    let mut fingerprints = Vec::with_capacity(rotations);
    let mut played = groups.start..groups.start;
    for group in groups {
        if watch.interrupted() {
            break;
        }
        finals.clear();
        fingerprints.clear();
        let kept_rows = rows.len();
        for rotation in 0..rotations {
            // A record replays from the opening's start: its moves come first.
            let mut notation = match &plan.openings {
                Some(suite) if plan.records => suite.for_group(group).moves.clone(),
                _ => Vec::new(),
            };
            // Fixed keys: the hash depends on the moves only, for the replay check.
            let mut moves = DefaultHasher::new();
            let mut scores = vec![
                None;
                if plan.record_scores {
                    notation.len()
                } else {
                    0
                }
            ];
            let game = play_game(
                plan,
                agents,
                (group, rotation),
                watch.clock(),
                &mut NoLog,
                |_| {},
                |g: &G, mv, score| {
                    // A mirror's one game has nothing to be compared with: skip the hashing.
                    if rotations > 1 {
                        mv.hash(&mut moves);
                    }
                    if plan.records {
                        notation.push(g.format_move(mv));
                    }
                    if plan.record_scores {
                        scores.push(score);
                    }
                },
            );
            if want_rows {
                rows.push(GameRow {
                    notation,
                    scores,
                    ..row_of(plan, &game, group, rotation)
                });
            }
            finals.push(game);
            fingerprints.push(moves.finish());
        }
        if watch.interrupted() && finals.iter().any(failed) {
            rows.truncate(kept_rows);
            break;
        }
        tally.add_group(&finals, &fingerprints);
        played.end = group + 1;
        watch.progress(rotations as u64);
    }
    Chunk {
        groups: played,
        tally,
        rows,
    }
}

/// One value per worker thread of a run's pool (its agents), built on the thread's first chunk
/// and kept until the run ends.
struct PerWorker<T> {
    slots: Vec<Mutex<Option<T>>>,
}

impl<T> PerWorker<T> {
    fn new(workers: u64) -> Self {
        Self {
            slots: (0..workers).map(|_| Mutex::new(None)).collect(),
        }
    }

    /// Runs `work` with the calling worker's value, built by `build` the first time. Only that
    /// worker locks its slot, so the lock is never contended; a thread outside the pool builds
    /// a value of its own.
    fn with<R>(&self, build: impl FnOnce() -> T, work: impl FnOnce(&mut T) -> R) -> R {
        let Some(slot) = rayon::current_thread_index().and_then(|i| self.slots.get(i)) else {
            return work(&mut build());
        };
        let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
        work(slot.get_or_insert_with(build))
    }
}

/// Plays seed groups `groups` of `plan` on `threads` threads (0 = all cores), telling
/// `observer` how it goes (each finished game's row in game order, when it wants them).
pub fn run<G: Game>(
    plan: &Plan<G>,
    groups: Range<u64>,
    threads: usize,
    observer: &mut dyn Observer<G>,
) -> std::io::Result<RunResult<G>> {
    run_ranges(plan, &[groups], threads, observer)
}

/// [`run`] over several ranges of seed groups, reporting each wave to `observer`. When
/// interrupted, chunks not yet started are skipped, so the groups played need not be a prefix:
/// [`RunResult::done`] says which they are.
pub fn run_ranges<G: Game>(
    plan: &Plan<G>,
    groups: &[Range<u64>],
    threads: usize,
    observer: &mut dyn Observer<G>,
) -> std::io::Result<RunResult<G>> {
    let pool = thread_pool(threads)?;
    let workers = pool.current_num_threads() as u64;
    let total: u64 = groups.iter().map(|r| r.end.saturating_sub(r.start)).sum();
    // Enough chunks per worker to balance uneven game lengths, few enough to keep overhead low.
    let chunk_groups = (total / (workers * 32)).clamp(1, 256);
    // Generated wave by wave, so that memory does not grow with the number of games.
    let mut chunks = groups.iter().flat_map(|r| {
        let end = r.end;
        (r.start..end)
            .step_by(chunk_groups as usize)
            .map(move |s| s..s.saturating_add(chunk_groups).min(end))
    });
    let mut tally = RunTally::new(plan);
    let mut done: Vec<Range<u64>> = Vec::new();
    let mut partial = false;
    let want_rows = observer.wants_rows();
    let worker_agents = PerWorker::new(workers);
    loop {
        let wave: Vec<Range<u64>> = chunks.by_ref().take(workers as usize * 4).collect();
        if wave.is_empty() {
            break;
        }
        if observer.watch().interrupted() {
            partial = true;
            break;
        }
        let watch = observer.watch();
        let results: Vec<Chunk<G>> = pool.install(|| {
            wave.par_iter()
                .map(|r| {
                    worker_agents.with(
                        || new_agents(plan),
                        |agents| play_chunk(plan, agents, r.clone(), want_rows, watch),
                    )
                })
                .collect()
        });
        for (range, chunk) in wave.iter().zip(results) {
            partial |= chunk.groups != *range;
            tally.merge(&chunk.tally);
            add_range(&mut done, chunk.groups);
            chunk
                .rows
                .iter()
                .try_for_each(|row| observer.row(plan, row))?;
        }
        if want_rows {
            observer.flush()?;
        }
        observer.wave(&tally, &done)?;
    }
    Ok(RunResult {
        tally,
        partial,
        done,
    })
}

/// Adds `range` to a sorted list of disjoint ranges, merging neighbours.
pub fn add_range(ranges: &mut Vec<Range<u64>>, range: Range<u64>) {
    if range.is_empty() {
        return;
    }
    ranges.push(range);
    ranges.sort_by_key(|r| r.start);
    let mut merged: Vec<Range<u64>> = Vec::with_capacity(ranges.len());
    for r in ranges.drain(..) {
        match merged.last_mut() {
            Some(last) if last.end >= r.start => last.end = last.end.max(r.end),
            _ => merged.push(r),
        }
    }
    *ranges = merged;
}

/// The parts of `all` not covered by the sorted disjoint `done`.
#[must_use]
pub fn remaining(all: Range<u64>, done: &[Range<u64>]) -> Vec<Range<u64>> {
    let mut left = Vec::new();
    let mut at = all.start;
    for r in done {
        if r.start >= all.end {
            break;
        }
        if r.start > at {
            left.push(at..r.start);
        }
        at = at.max(r.end);
    }
    if at < all.end {
        left.push(at..all.end);
    }
    left
}

#[cfg(test)]
mod tests {
    use engine::NoClock;
    use engine::games::ludo::Ludo;

    use super::*;
    use crate::batch::summary::summarize;
    use crate::config::ExperimentFile;
    use crate::observer::Quiet;

    fn plan(agents: &[&str], games: u64, seed: u64) -> Plan<Ludo> {
        plan_of(agents, games, seed)
    }

    fn plan_of<G: Game>(agents: &[&str], games: u64, seed: u64) -> Plan<G> {
        let file = ExperimentFile {
            agents: Some(agents.iter().map(|s| (*s).to_owned()).collect()),
            games: Some(games),
            seed: Some(seed),
            ..ExperimentFile::default()
        };
        Plan::new(&file.resolve()).unwrap()
    }

    fn run_quietly<G: Game>(plan: &Plan<G>, threads: usize) -> RunResult<G> {
        run(plan, 0..plan.groups, threads, &mut Quiet::new()).unwrap()
    }

    #[test]
    fn normal_beats_easy_beyond_the_fair_share() {
        let plan = plan(&["normal", "easy", "easy", "easy"], 8000, 2024);
        let result = run_quietly(&plan, 0);
        let summary = summarize(
            &plan,
            engine::TimeControl::Batch,
            &result.tally,
            result.partial,
        );
        let normal = &summary.by_agent[0];
        assert_eq!(normal.record.games, 8000);
        assert!(
            normal.win_rate.ci95[0] > 0.25,
            "Normal {:?} should exclude the fair share 0.25",
            normal.win_rate.ci95
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
        let rows: Vec<GameRow<_>> = (0..4)
            .map(|r| {
                let game = play_game(
                    &plan,
                    &mut agents,
                    (0, r),
                    &NoClock,
                    &mut NoLog,
                    |_| {},
                    |_, _, _| {},
                );
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

    /// (groups that were exact replays, groups) of a run of `games` games, rotated even where a
    /// mirror would play each group once: the check is the safety net of the rotation design.
    fn replays<G: Game>(agents: &[&str], games: u64) -> (u64, u64) {
        let plan = Plan {
            design: crate::config::Design::Rotation,
            ..plan_of::<G>(agents, games, 9)
        };
        let tally = run_quietly(&plan, 1).tally;
        (tally.by_group.exact_replays, tally.groups)
    }

    #[test]
    fn exact_replays_are_counted_in_every_game() {
        use engine::games::{hnefatafl::Hnefatafl, thud::Thud, trente_douze::TrenteDouze};
        // Ludo's position() is None once a game is over, which the check once relied on.
        assert_eq!(replays::<Ludo>(&["hard"; 4], 40), (40, 40));
        assert_eq!(
            replays::<Ludo>(&["hard", "easy", "easy", "easy"], 40),
            (0, 10)
        );
        assert_eq!(replays::<TrenteDouze>(&["hard"; 3], 30), (30, 30));
        assert_eq!(
            replays::<TrenteDouze>(&["hard", "easy", "easy"], 30),
            (0, 10)
        );
        // Tie-breaks are drawn per seat, so even random levels replay when they fill every seat.
        assert_eq!(replays::<Thud>(&["beginner"; 2], 3), (3, 3));
        assert_eq!(replays::<Thud>(&["easy", "beginner"], 3), (0, 3));
        assert_eq!(replays::<Hnefatafl>(&["easy"; 2], 4), (4, 4));
        assert_eq!(replays::<Hnefatafl>(&["easy", "normal"], 4), (0, 2));
    }

    /// A mirror plays each seed group once; the rotation design replays it in every rotation.
    /// The counts differ by the rotations, the rates and the intervals (over seed groups) not.
    #[test]
    fn a_mirror_gives_the_rotation_designs_statistics_from_a_quarter_of_the_games() {
        let mirror = plan(&["hard"; 4], 200, 3);
        assert_eq!(mirror.design, crate::config::Design::Mirror);
        let rotated = Plan {
            design: crate::config::Design::Rotation,
            ..mirror.clone()
        };
        let (m, r) = (
            run_quietly(&mirror, 2).tally,
            run_quietly(&rotated, 2).tally,
        );
        m.check(&mirror).unwrap();
        r.check(&rotated).unwrap();
        assert_eq!((m.games, m.groups, r.games, r.groups), (200, 200, 800, 200));
        assert_eq!(
            (m.by_group.exact_replays, r.by_group.exact_replays),
            (0, 200)
        );
        for (a, b) in m.by_seat.iter().zip(&r.by_seat) {
            assert_eq!((4 * a.games, 4 * a.wins), (b.games, b.wins));
        }
        let summary =
            |p: &Plan<Ludo>, t: &RunTally<Ludo>| summarize(p, engine::TimeControl::Batch, t, false);
        let (sm, sr) = (summary(&mirror, &m), summary(&rotated, &r));
        let close = |x: f64, y: f64| assert!((x - y).abs() < 1e-12, "{x} against {y}");
        let (fm, fr) = (&sm.first_player_advantage, &sr.first_player_advantage);
        close(fm.advantage.value, fr.advantage.value);
        close(fm.advantage.ci95[0], fr.advantage.ci95[0]);
        close(fm.advantage.ci95[1], fr.advantage.ci95[1]);
        for (a, b) in sm.by_seat.iter().zip(&sr.by_seat) {
            close(a.win_rate.ci95[0], b.win_rate.ci95[0]);
            close(a.win_rate.ci95[1], b.win_rate.ci95[1]);
        }
        close(sm.by_agent[0].win_rate.value, sr.by_agent[0].win_rate.value);
    }

    #[test]
    fn an_agent_playing_itself_in_a_mirror_draws_every_match() {
        use engine::games::thud::Thud;
        let plan = plan_of::<Thud>(&["beginner"; 2], 4, 3);
        let tally = run_quietly(&plan, 1).tally;
        assert_eq!((tally.games, tally.groups), (4, 4));
        for record in &tally.by_agent {
            assert_eq!((record.games, record.draws), (4, 4));
        }
    }

    #[test]
    fn each_worker_builds_its_value_once_whatever_the_number_of_chunks() {
        let pool = thread_pool(2).expect("pool");
        let per_worker = PerWorker::new(2);
        let builds = std::sync::atomic::AtomicUsize::new(0);
        let used: Vec<u64> = pool.install(|| {
            (0..500u64)
                .into_par_iter()
                .map(|chunk| {
                    per_worker.with(
                        || {
                            builds.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            0u64
                        },
                        |uses| {
                            *uses += 1;
                            chunk
                        },
                    )
                })
                .collect()
        });
        assert_eq!(used, (0..500).collect::<Vec<_>>());
        let built = builds.into_inner();
        assert!((1..=2).contains(&built), "{built} builds for 2 workers");
        let uses: u64 = per_worker
            .slots
            .into_iter()
            .map(|s| s.into_inner().expect("slot").unwrap_or(0))
            .sum();
        assert_eq!(uses, 500, "every chunk used a worker's value");
    }

    #[test]
    fn ranges_merge_and_complement() {
        let mut done = Vec::new();
        add_range(&mut done, 10..20);
        add_range(&mut done, 0..5);
        add_range(&mut done, 5..10);
        add_range(&mut done, 30..40);
        assert_eq!(done, vec![0..20, 30..40]);
        assert_eq!(remaining(0..50, &done), vec![20..30, 40..50]);
        assert_eq!(remaining(0..20, &done), Vec::<Range<u64>>::new());
    }

    #[test]
    fn split_ranges_add_up_to_the_whole_run() {
        let plan = plan(&["hard", "normal", "easy", "easy"], 800, 13);
        let whole = run_quietly(&plan, 2).tally;
        let mut parts = run_ranges(&plan, &[0..50, 120..200], 1, &mut Quiet::new()).unwrap();
        assert_eq!(parts.done, vec![0..50, 120..200]);
        let rest = run_ranges(
            &plan,
            &remaining(0..plan.groups, &parts.done),
            2,
            &mut Quiet::new(),
        )
        .unwrap();
        parts.tally.merge(&rest.tally);
        let json = |t: &RunTally<Ludo>| serde_json::to_string(t).unwrap();
        assert_eq!(json(&parts.tally), json(&whole));
    }

    #[test]
    fn an_interrupted_run_is_partial_and_counts_only_finished_games() {
        let plan = plan(&["easy"; 4], 400, 1);
        let interrupt = std::sync::atomic::AtomicBool::new(true);
        let result = run(&plan, 0..plan.groups, 1, &mut Quiet::until(&interrupt)).unwrap();
        assert!(result.partial);
        assert_eq!(result.tally.games, 0);
    }
}
