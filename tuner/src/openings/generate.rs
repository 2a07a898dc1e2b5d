//! `koom openings`: a suite of short random openings that a level, playing itself, scores near
//! even.
//!
//! Candidate `k` is `plies` uniformly random legal moves from the initial position, drawn from
//! its own seeded stream. It is scored by `games` self-play games of the level from it, game `j`
//! on its own seed (the levels break ties from the seed, so the games differ), as seat 0's mean
//! score: the share of the points in games scored on points (Thud), else 1 for a win, ½ for a
//! draw or no result, 0 for a loss. With `skip_capped`, games cut off by a safety cap (the
//! Hnefatafl ply cap) are left out of the mean: the level could not decide them, so they say
//! nothing about balance, and a candidate whose games were all capped is not kept. It is kept
//! when the score lies in `keep`. Candidates whose
//! random moves end the game, or that reach a position already tried, are skipped. Candidates
//! are scored in parallel and taken in order, so the suite depends only on the arguments.

use std::collections::HashSet;
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicBool, Ordering};

use engine::selfplay::SeededGame;
use engine::{AgentSetup, Game, NoClock, NoLog, RandomStream, SeatResult, game_seed};
use rayon::prelude::*;

use crate::InputError;
use crate::threads::thread_pool;

/// PCG stream selector of the candidates' random moves.
const MOVE_STREAM: u64 = 0x0e7e_0bde_5000_0002;

/// What `koom openings` was asked for.
#[derive(Clone, Debug)]
pub struct Spec<G: Game> {
    /// Random plies from the initial position.
    pub plies: u32,
    /// Openings wanted.
    pub count: u64,
    /// The level as written (for the header).
    pub level: String,
    pub setup: AgentSetup<G>,
    /// Seat 0's score range kept.
    pub keep: RangeInclusive<f64>,
    /// Self-play games per candidate.
    pub games: u64,
    /// Score only the games the rules decided, not those a cap cut off.
    pub skip_capped: bool,
    /// Candidates tried at most before giving up.
    pub max_tries: u64,
    pub seed: u64,
}

/// A kept opening.
#[derive(Clone, Debug, PartialEq)]
pub struct Kept {
    /// The candidate's number.
    pub candidate: u64,
    pub moves: Vec<String>,
    /// Seat 0's mean score over the games.
    pub score: f64,
    /// Mean plies of the games, the opening's included (capped games too).
    pub mean_plies: f64,
    /// Games cut off by a cap, left out of `score` (with `skip_capped`).
    pub capped: u64,
}

/// What the search found.
#[derive(Clone, Debug)]
pub struct Generated {
    pub kept: Vec<Kept>,
    /// Candidates drawn, skipped ones included.
    pub tried: u64,
    /// Candidates scored by self-play.
    pub scored: u64,
    /// Whether an interruption stopped it early.
    pub interrupted: bool,
}

/// A candidate's random moves and the position they reach, or `None` when the game ends first.
fn candidate<G: Game>(
    options: &G::Options,
    plies: u32,
    seed: u64,
    k: u64,
) -> Option<(Vec<String>, G)> {
    let mut dice = RandomStream::dice(0);
    let mut rng = RandomStream::from_seed(game_seed(seed, k), MOVE_STREAM);
    let mut game = G::new(options, G::SEATS.0, &mut dice, &mut NoLog);
    let mut moves = G::MoveList::default();
    let mut written = Vec::with_capacity(plies as usize);
    for _ in 0..plies {
        if game.outcome().is_some() {
            return None;
        }
        game.legal_moves(&mut moves);
        let mv = moves[rng.below(moves.len() as u32) as usize];
        written.push(game.format_move(mv));
        game.play(mv, &mut dice, &mut NoLog);
    }
    game.outcome().is_none().then_some((written, game))
}

/// Seat 0's score in a finished game: its share of the points where games score points.
#[must_use]
pub fn seat0_score<G: Game>(game: &G) -> f64 {
    if let Some(points) = game.points() {
        let total = points[0] + points[1];
        return if total == 0 {
            0.5
        } else {
            f64::from(points[0]) / f64::from(total)
        };
    }
    match game.outcome().map(|o| o.result_of(0)) {
        Some(SeatResult::Win) => 1.0,
        Some(SeatResult::Loss) => 0.0,
        _ => 0.5,
    }
}

/// A candidate's games: seat 0's mean score (`None` when every game was capped and capped games
/// are skipped), the mean length, and the games skipped as capped.
struct Scored {
    score: Option<f64>,
    mean_plies: f64,
    capped: u64,
}

/// Plays `spec.games` self-play games from `start`.
fn score<G: Game>(spec: &Spec<G>, options: &G::Options, start: &G, k: u64) -> Scored {
    let mut agents = vec![spec.setup.agent(), spec.setup.agent()];
    let (mut total, mut plies, mut capped) = (0.0, 0u64, 0u64);
    for j in 0..spec.games {
        let seeded = SeededGame {
            options,
            seats: 2,
            seed: game_seed(game_seed(spec.seed, k), j + 1),
            clock: &NoClock,
            adjudication: Default::default(),
        };
        let end = seeded.play_from(start, &mut agents, |s| s, &mut NoLog, |_| {}, |_, _| {});
        plies += u64::from(end.counters().moves);
        if spec.skip_capped && end.outcome().is_some_and(|o| o.reason.is_timeout()) {
            capped += 1;
        } else {
            total += seat0_score(&end);
        }
    }
    let decided = spec.games - capped;
    Scored {
        score: (decided > 0).then(|| total / decided as f64),
        mean_plies: plies as f64 / spec.games as f64,
        capped,
    }
}

/// Refuses games the generator cannot score: seat 0's score is an even share only with two
/// seats.
pub fn check_game<G: Game>() -> Result<(), InputError> {
    if G::SEATS != (2, 2) {
        return Err(InputError::new(format!(
            "koom openings scores openings for two-player games ({}), not {}",
            engine::game_names_where(|g| g.seats == (2, 2)),
            G::NAME
        )));
    }
    Ok(())
}

/// Draws and scores candidates on `threads` threads until `spec.count` are kept, `spec.max_tries`
/// are drawn or `interrupt` is set; `progress(kept, tried)` is called after each batch.
pub fn generate<G: Game>(
    spec: &Spec<G>,
    options: &G::Options,
    threads: usize,
    interrupt: &AtomicBool,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> std::io::Result<Generated> {
    let pool = thread_pool(threads)?;
    let batch = (pool.current_num_threads() as u64 * 2).max(1);
    let mut seen: HashSet<String> = HashSet::new();
    let mut scored_ks: Vec<u64> = Vec::new();
    let mut found = Generated {
        kept: Vec::new(),
        tried: 0,
        scored: 0,
        interrupted: false,
    };
    while (found.kept.len() as u64) < spec.count && found.tried < spec.max_tries {
        if interrupt.load(Ordering::Relaxed) {
            found.interrupted = true;
            break;
        }
        let ks = found.tried..(found.tried + batch).min(spec.max_tries);
        found.tried = ks.end;
        // Drawn and filtered in order, so that which candidates are scored does not depend on
        // the thread count.
        let fresh: Vec<(u64, Vec<String>, G)> = ks
            .filter_map(|k| {
                candidate::<G>(options, spec.plies, spec.seed, k).map(|(m, g)| (k, m, g))
            })
            .filter(|(_, moves, game)| {
                seen.insert(game.position().unwrap_or_else(|| moves.join(",")))
            })
            .collect();
        let scored: Vec<Scored> = pool.install(|| {
            fresh
                .par_iter()
                .map(|(k, _, game)| score(spec, options, game, *k))
                .collect()
        });
        scored_ks.extend(fresh.iter().map(|(k, _, _)| *k));
        for ((k, moves, _), scored) in fresh.into_iter().zip(scored) {
            let Some(score) = scored.score.filter(|s| spec.keep.contains(s)) else {
                continue;
            };
            if (found.kept.len() as u64) < spec.count {
                found.kept.push(Kept {
                    candidate: k,
                    moves,
                    score,
                    mean_plies: scored.mean_plies,
                    capped: scored.capped,
                });
            }
        }
        progress(found.kept.len() as u64, found.tried);
    }
    // Batches follow the thread count: count only the candidates up to the last one kept once
    // the suite is full, so that the counts do not depend on it either.
    if found.kept.len() as u64 == spec.count {
        found.tried = found.kept.last().map_or(0, |k| k.candidate + 1);
    }
    found.scored = scored_ks.iter().filter(|&&k| k < found.tried).count() as u64;
    Ok(found)
}

#[cfg(test)]
mod tests {
    use engine::games::thud::Thud;

    use super::*;
    use crate::agents::parse_agent;

    fn spec<G: Game>(count: u64, keep: RangeInclusive<f64>) -> Spec<G> {
        Spec {
            plies: 4,
            count,
            level: "balanced".into(),
            setup: parse_agent::<G>(
                if G::NAME == "thud" {
                    "balanced"
                } else {
                    "easy"
                },
                engine::TimeControl::Batch,
            )
            .unwrap(),
            keep,
            games: 2,
            skip_capped: false,
            max_tries: 40,
            seed: 7,
        }
    }

    #[test]
    fn the_suite_does_not_depend_on_the_thread_count_and_keeps_only_scores_in_range() {
        let never = AtomicBool::new(false);
        let run = |threads| {
            generate::<Thud>(
                &spec::<Thud>(5, 0.3..=0.5),
                &Default::default(),
                threads,
                &never,
                &|_, _| {},
            )
            .unwrap()
        };
        let (one, three) = (run(1), run(3));
        assert_eq!(one.kept, three.kept);
        assert_eq!(one.kept.len(), 5);
        assert!(one.scored > 5, "some candidates scored outside the range");
        assert!(
            one.kept
                .iter()
                .all(|k| (0.3..=0.5).contains(&k.score) && k.moves.len() == 4)
        );
    }

    #[test]
    fn an_empty_range_keeps_nothing_and_stops_at_max_tries() {
        let never = AtomicBool::new(false);
        let found = generate::<Thud>(
            &Spec {
                max_tries: 3,
                ..spec::<Thud>(5, 2.0..=3.0)
            },
            &Default::default(),
            1,
            &never,
            &|_, _| {},
        )
        .unwrap();
        assert_eq!((found.kept.len(), found.tried), (0, 3));
    }

    /// Hnefatafl `easy` cannot end a game in 10 plies: every game is capped. Counted as draws they
    /// score ½; skipped, they leave no score and nothing is kept.
    #[test]
    fn capped_games_score_half_or_with_skip_capped_keep_nothing() {
        use engine::games::hnefatafl::{Hnefatafl, HnefataflOptions};
        let never = AtomicBool::new(false);
        let options = HnefataflOptions { ply_cap: 10 };
        let run = |skip_capped| {
            generate::<Hnefatafl>(
                &Spec {
                    skip_capped,
                    max_tries: 4,
                    ..spec::<Hnefatafl>(2, 0.5..=0.5)
                },
                &options,
                1,
                &never,
                &|_, _| {},
            )
            .unwrap()
        };
        let counted = run(false);
        assert_eq!(counted.kept.len(), 2);
        assert!(counted.kept.iter().all(|k| k.score == 0.5 && k.capped == 0));
        let skipped = run(true);
        assert!(skipped.kept.is_empty());
        assert_eq!(skipped.scored, 4, "every candidate was played");
    }
}
