//! The summary of a run: every figure computed from the counts, with its interval.

use engine::Game;
use engine::GameStats as _;
use engine::tally::{Moments, ratio, wilson95};
use serde::Serialize;

use crate::config::Plan;
use crate::stats::{EloEstimate, GroupScores};
use crate::tally::{Record, RunTally};

/// One agent's or one seat's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RecordSummary {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<usize>,
    /// For an agent: how many seats it held in each game (its games are seat-games, summed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<usize>,
    /// The seat's name in the game: its side (dwarfs, attackers) or its place at the table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub no_result: u64,
    /// Wins over all games played (no-results included in the denominator).
    pub win_rate: f64,
    pub win_rate_ci95: [f64; 2],
    /// (wins + draws / 2) over the games with a result.
    pub score: f64,
}

impl RecordSummary {
    fn new(record: &Record, agent: Option<String>, seat: Option<usize>) -> Self {
        let decided = record.games - record.no_result;
        Self {
            agent,
            seat,
            seats: None,
            side: None,
            games: record.games,
            wins: record.wins,
            draws: record.draws,
            losses: record.losses,
            no_result: record.no_result,
            win_rate: ratio(record.wins, record.games),
            win_rate_ci95: wilson95(record.wins as f64, record.games as f64),
            score: if decided == 0 {
                0.0
            } else {
                (record.wins as f64 + record.draws as f64 / 2.0) / decided as f64
            },
        }
    }
}

/// A figure with its 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub value: f64,
    pub ci95: [f64; 2],
}

/// The first player's advantage. In games won outright it is the first player's win rate minus
/// the fair share `1 / seats`, in percentage points; in games scored on points (Thud) it is the
/// first player's mean point margin per game. The outright and shared win rates are given too, so
/// that a seat-0 win rate and this figure never seem to disagree where the first player is drawn.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FirstPlayer {
    /// Who the first player is, in the game's words.
    pub definition: &'static str,
    /// `percentage points` (win rate − fair share) or `points` (point margin per game).
    pub unit: &'static str,
    /// As a fraction in percentage-point figures (0.01 = 1 percentage point), else in points.
    pub value: f64,
    pub ci95: [f64; 2],
    pub fair_share: f64,
    /// The first player's sole wins, and its wins shared with others or draws, over all games.
    pub outright_wins: Share,
    pub shared_wins: Share,
    /// Games with a single winner: with none, the advantage means nothing.
    pub decisive_games: u64,
}

impl FirstPlayer {
    fn new<G: Game>(tally: &RunTally<G>, seats: usize) -> Self {
        let fair = 1.0 / seats as f64;
        let first = &tally.first_player;
        let margin = &tally.first_player_margin;
        let (unit, value, ci95) = if margin.n > 0 {
            ("points", margin.mean(), margin.mean_ci95())
        } else {
            let [lo, hi] = wilson95(first.wins as f64, first.games as f64);
            (
                "percentage points",
                ratio(first.wins, first.games) - fair,
                [lo - fair, hi - fair],
            )
        };
        Self {
            definition: G::FIRST_PLAYER,
            unit,
            value,
            ci95,
            fair_share: fair,
            outright_wins: Share::new(first.wins, first.games),
            shared_wins: Share::new(first.draws, first.games),
            decisive_games: first.wins + first.losses,
        }
    }

    /// The advantage as an estimate, in the unit [`FirstPlayer::unit`] names.
    #[must_use]
    pub fn estimate(&self) -> Estimate {
        Estimate {
            value: self.value,
            ci95: self.ci95,
        }
    }
}

/// The distribution of an integer quantity.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Distribution {
    pub unit: &'static str,
    pub mean: f64,
    pub sd: f64,
    pub min: i64,
    pub max: i64,
}

impl Distribution {
    fn new(unit: &'static str, m: &Moments) -> Self {
        Self {
            unit,
            mean: m.mean(),
            sd: m.sd(),
            min: m.min.unwrap_or(0),
            max: m.max.unwrap_or(0),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Termination {
    pub reason: &'static str,
    pub games: u64,
    pub share: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Captures {
    pub seat: usize,
    pub total: u64,
    pub per_game: f64,
}

/// Everything `summary.json` holds except the `run` object (which the writer adds): all of it is
/// a function of the config, the seed and the code.
#[derive(Clone, Debug, Serialize)]
pub struct Summary<R: Serialize> {
    pub game: &'static str,
    pub seed: u64,
    pub agents: Vec<String>,
    pub options: serde_json::Value,
    pub time_control: engine::TimeControl,
    pub games_played: u64,
    pub seed_groups: u64,
    pub rotations: usize,
    pub no_result: u64,
    pub draws: u64,
    pub partial: bool,
    /// What `by_agent` counts: `games`, or `matches` where the game plays a seed group as one
    /// match won on points (Thud); `by_seat` always counts games (rounds).
    pub agent_unit: &'static str,
    pub by_agent: Vec<RecordSummary>,
    pub by_seat: Vec<RecordSummary>,
    /// Each agent in each seat (agents with the same label pooled), in games.
    pub by_agent_seat: Vec<RecordSummary>,
    /// The first player's advantage, said in words next to its figure (see [`FirstPlayer`]).
    pub first_player_advantage: FirstPlayer,
    pub length: Distribution,
    /// Games per length bin (moves), for histograms.
    pub length_histogram: Histogram,
    /// Die rolls per game, for games with dice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length_rolls: Option<Distribution>,
    pub termination: Vec<Termination>,
    pub captures_by_seat: Vec<Captures>,
    /// Game-design metrics: balance, completion, draws, timeouts and duration.
    pub design: DesignMetrics,
    /// Present when exactly two distinct agents play: their match as Elo.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_to_head: Option<HeadToHead>,
    pub game_specific: R,
}

/// Counts of an integer quantity in equal bins `[start + i·width, start + (i+1)·width)`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Histogram {
    pub start: u32,
    pub width: u32,
    pub counts: Vec<u64>,
}

impl Histogram {
    /// At most `bins` bins of a whole width covering the exact counts.
    #[must_use]
    pub fn from_counts(exact: &std::collections::BTreeMap<u32, u64>, bins: u32) -> Self {
        let (Some((&lo, _)), Some((&hi, _))) = (exact.first_key_value(), exact.last_key_value())
        else {
            return Self {
                start: 0,
                width: 1,
                counts: Vec::new(),
            };
        };
        let width = ((hi - lo) / bins.max(1) + 1).max(1);
        let mut counts = vec![0; ((hi - lo) / width + 1) as usize];
        for (&length, &count) in exact {
            counts[((length - lo) / width) as usize] += count;
        }
        Self {
            start: lo,
            width,
            counts,
        }
    }
}

/// A proportion with its Wilson interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Share {
    pub value: f64,
    pub ci95: [f64; 2],
}

impl Share {
    fn new(k: u64, n: u64) -> Self {
        Self {
            value: ratio(k, n),
            ci95: wilson95(k as f64, n as f64),
        }
    }
}

/// Game-design metrics: how fair, how decisive and how long the game
/// is under these agents.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DesignMetrics {
    /// 1 − the largest gap between two seats' mean scores (1 = perfectly balanced seats).
    pub balance: f64,
    /// The first seat's win rate minus the fair share, as `first_player_advantage`.
    pub advantage: Estimate,
    /// Share of games with a winner.
    pub completion: Share,
    /// Share of games drawn (no single winner, with a result).
    pub drawishness: Share,
    /// Share of games cut off by a safety cap.
    pub timeouts: Share,
    /// Mean length in moves, with its interval, and the standard deviation.
    pub duration: Estimate,
    pub duration_sd: f64,
}

/// Two agents' match: the first agent (team A) against the other, counted per seed group.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeadToHead {
    pub agent: String,
    pub opponent: String,
    /// Games per seed group (2 for side-swapped pairs: the pentanomial model).
    pub group_size: usize,
    /// Groups by team A's score, from 0 to `group_size` in half-point steps.
    pub group_scores: Vec<u64>,
    #[serde(flatten)]
    pub estimate: EloEstimate,
}

impl HeadToHead {
    #[must_use]
    pub fn new(agent: &str, opponent: &str, scores: &GroupScores) -> Self {
        Self {
            agent: agent.to_owned(),
            opponent: opponent.to_owned(),
            group_size: scores.games_per_group(),
            group_scores: scores.counts.clone(),
            estimate: scores.estimate(),
        }
    }
}

/// Agents with the same label are pooled (their slot records summed), in order of first seat,
/// with the number of seats each holds.
fn pooled_agents(labels: &[String], records: &[Record]) -> Vec<(String, Record, usize)> {
    let mut pooled: Vec<(String, Record, usize)> = Vec::new();
    for (label, record) in labels.iter().zip(records) {
        match pooled.iter_mut().find(|(l, _, _)| l == label) {
            Some((_, total, seats)) => {
                total.merge(record);
                *seats += 1;
            }
            None => pooled.push((label.clone(), *record, 1)),
        }
    }
    pooled
}

/// Each distinct agent's records in each seat, agents with the same label pooled.
fn agent_by_seat<G: Game>(labels: &[String], by_agent_seat: &[Record]) -> Vec<RecordSummary> {
    let seats = labels.len();
    let mut rows = Vec::new();
    for (i, label) in labels.iter().enumerate() {
        if labels[..i].contains(label) || by_agent_seat.len() < seats * seats {
            continue;
        }
        for seat in 0..seats {
            let mut total = Record::default();
            for (slot, _) in labels.iter().enumerate().filter(|(_, l)| *l == label) {
                total.merge(&by_agent_seat[slot * seats + seat]);
            }
            rows.push(RecordSummary {
                side: Some(G::seat_name(seat)),
                ..RecordSummary::new(&total, Some(label.clone()), Some(seat))
            });
        }
    }
    rows
}

/// The two labels, first-seated first, when exactly two distinct agents play.
fn two_agents(labels: &[String]) -> Option<(&str, &str)> {
    let first = labels.first()?;
    let other = labels.iter().find(|l| *l != first)?;
    labels
        .iter()
        .all(|l| l == first || l == other)
        .then_some((first.as_str(), other.as_str()))
}

/// Builds the summary of a run.
pub fn summarize<G: Game>(
    plan: &Plan<G>,
    time_control: engine::TimeControl,
    tally: &RunTally<G>,
    partial: bool,
) -> Summary<<G::Stats as engine::GameStats<G>>::Report> {
    let seats = plan.seats();
    let first_player = FirstPlayer::new(tally, seats);
    let advantage = first_player.estimate();
    let seat_scores: Vec<f64> = tally
        .by_seat
        .iter()
        .map(|r| (r.wins as f64 + r.draws as f64 / 2.0) / r.games.max(1) as f64)
        .collect();
    let gap = seat_scores
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max)
        - seat_scores.iter().copied().fold(f64::INFINITY, f64::min);
    let timeouts: u64 = tally
        .reasons
        .iter()
        .enumerate()
        .filter(|&(r, _)| G::is_timeout(r as u8))
        .map(|(_, &n)| n)
        .sum();
    let decided = tally.games - tally.no_result - tally.draws;
    let design = DesignMetrics {
        balance: 1.0 - gap,
        advantage: advantage.clone(),
        completion: Share::new(decided, tally.games),
        drawishness: Share::new(tally.draws, tally.games),
        timeouts: Share::new(timeouts, tally.games),
        duration: Estimate {
            value: tally.moves.mean(),
            ci95: tally.moves.mean_ci95(),
        },
        duration_sd: tally.moves.sd(),
    };
    Summary {
        game: G::NAME,
        seed: plan.seed,
        agents: plan.labels.clone(),
        options: serde_json::to_value(&plan.options).unwrap_or(serde_json::Value::Null),
        time_control,
        games_played: tally.games,
        seed_groups: tally.groups,
        rotations: seats,
        no_result: tally.no_result,
        draws: tally.draws,
        partial,
        agent_unit: if tally.first_player_margin.n > 0 {
            "matches"
        } else {
            "games"
        },
        by_agent: pooled_agents(&plan.labels, &tally.by_agent)
            .into_iter()
            .map(|(label, record, seats)| RecordSummary {
                seats: Some(seats),
                ..RecordSummary::new(&record, Some(label), None)
            })
            .collect(),
        by_seat: tally
            .by_seat
            .iter()
            .enumerate()
            .map(|(s, r)| RecordSummary {
                side: Some(G::seat_name(s)),
                ..RecordSummary::new(r, None, Some(s))
            })
            .collect(),
        by_agent_seat: agent_by_seat::<G>(&plan.labels, &tally.by_agent_seat),
        first_player_advantage: first_player,
        length: Distribution::new("moves", &tally.moves),
        length_histogram: Histogram::from_counts(&tally.length_counts, 40),
        length_rolls: (tally.rolls.sum > 0).then(|| Distribution::new("rolls", &tally.rolls)),
        termination: G::REASONS
            .iter()
            .zip(&tally.reasons)
            .map(|(&reason, &games)| Termination {
                reason,
                games,
                share: ratio(games, tally.games),
            })
            .collect(),
        captures_by_seat: tally
            .captures_by_seat
            .iter()
            .enumerate()
            .map(|(seat, &total)| Captures {
                seat,
                total,
                per_game: ratio(total, tally.games),
            })
            .collect(),
        design,
        head_to_head: two_agents(&plan.labels)
            .map(|(a, b)| HeadToHead::new(a, b, &tally.group_scores)),
        game_specific: tally.stats.report(&plan.labels),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_with_the_same_label_are_pooled_in_seat_order() {
        let r = |wins, games| Record {
            games,
            wins,
            losses: games - wins,
            ..Record::default()
        };
        let labels = ["hard", "easy", "hard", "easy"].map(String::from);
        let pooled = pooled_agents(&labels, &[r(5, 10), r(1, 10), r(4, 10), r(0, 10)]);
        assert_eq!(pooled.len(), 2);
        assert_eq!(
            (
                pooled[0].0.as_str(),
                pooled[0].1.wins,
                pooled[0].1.games,
                pooled[0].2
            ),
            ("hard", 9, 20, 2)
        );
        assert_eq!((pooled[1].0.as_str(), pooled[1].1.wins), ("easy", 1));
    }

    #[test]
    fn histograms_bin_exact_counts_without_loss() {
        let exact: std::collections::BTreeMap<u32, u64> =
            [(10, 2), (11, 1), (55, 4), (90, 3)].into_iter().collect();
        let h = Histogram::from_counts(&exact, 40);
        assert_eq!((h.start, h.width), (10, 3));
        assert_eq!(h.counts.iter().sum::<u64>(), 10);
        assert_eq!(h.counts[0], 3, "10 and 11 share the first bin");
        assert_eq!(h.counts[h.counts.len() - 1], 3);
        assert!(
            Histogram::from_counts(&Default::default(), 40)
                .counts
                .is_empty()
        );
    }

    #[test]
    fn record_summary_scores_draws_as_halves_and_skips_no_results() {
        let record = Record {
            games: 10,
            wins: 4,
            draws: 2,
            losses: 2,
            no_result: 2,
        };
        let s = RecordSummary::new(&record, None, Some(0));
        assert!((s.score - 5.0 / 8.0).abs() < 1e-12);
        assert!((s.win_rate - 0.4).abs() < 1e-12);
    }
}
