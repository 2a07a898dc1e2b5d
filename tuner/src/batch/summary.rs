//! The summary of a run: every figure computed from the counts, with its interval.

use engine::GameStats as _;
pub use engine::sample::Estimate;
use engine::sample::{Clustered, Moments, ratio};
use engine::{Ending, Game};
use serde::{Deserialize, Serialize};

use crate::batch::tally::{Record, RunTally};
use crate::config::Plan;
use crate::strength::stats::EloEstimate;

/// One agent's or one seat's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordSummary {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<usize>,
    /// For an agent: how many seats it held in each game (its games are seat-games, summed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<usize>,
    /// The seat's name in the game: its side (dwarfs, attackers) or its place at the table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    #[serde(flatten)]
    pub record: Record,
    /// Wins over all games played (no-results included in the denominator), with its interval
    /// over seed groups.
    pub win_rate: Estimate,
    /// (wins + draws / 2) over the games with a result (no-results left out of the
    /// denominator, unlike `win_rate` and the design `balance`). Summaries written before the
    /// field was named for its denominator call it `score`.
    #[serde(alias = "score")]
    pub score_of_decided: f64,
}

impl RecordSummary {
    fn new(record: &Record, wins: &Clustered, agent: Option<String>, seat: Option<usize>) -> Self {
        Self {
            agent,
            seat,
            seats: None,
            side: None,
            record: *record,
            win_rate: Estimate::clustered_proportion(wins),
            score_of_decided: record.score_of_decided(),
        }
    }
}

/// The first player's advantage. In games won outright it is the first player's win rate minus
/// the fair share `1 / seats`, in percentage points; in games scored on points (Thud) it is the
/// first player's mean point margin per round. The outright and shared win rates are given too, so
/// that a seat-0 win rate and this figure never seem to disagree where the first player is drawn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FirstPlayer {
    /// Who the first player is, in the game's words.
    pub definition: String,
    /// `percentage points` (win rate − fair share) or `points` (point margin per round).
    pub unit: String,
    /// As a fraction in percentage-point figures (0.01 = 1 percentage point), else in points.
    #[serde(flatten)]
    pub advantage: Estimate,
    pub fair_share: f64,
    /// The first player's sole wins, and its wins shared with others or draws, over all games.
    pub outright_wins: Estimate,
    pub shared_wins: Estimate,
    /// Games with a single winner: with none, the advantage means nothing.
    pub decisive_games: u64,
}

impl FirstPlayer {
    fn new<G: Game>(tally: &RunTally<G>, seats: usize) -> Self {
        let fair = 1.0 / seats as f64;
        let first = &tally.first_player;
        let margin = &tally.by_group.first_player_margin;
        let (unit, advantage) = if margin.n > 0 {
            ("points", Estimate::clustered_mean(margin))
        } else {
            (
                "percentage points",
                Estimate::clustered_proportion(&tally.by_group.first_player_wins).shifted(-fair),
            )
        };
        let by_group = &tally.by_group;
        Self {
            definition: G::FIRST_PLAYER.to_owned(),
            unit: unit.to_owned(),
            advantage,
            fair_share: fair,
            outright_wins: Estimate::clustered_proportion(&by_group.first_player_wins),
            shared_wins: Estimate::clustered_proportion(&by_group.first_player_draws),
            decisive_games: first.wins + first.losses,
        }
    }
}

/// The distribution of an integer quantity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Distribution {
    pub unit: String,
    pub mean: f64,
    pub sd: f64,
    pub min: i64,
    pub max: i64,
}

impl Distribution {
    fn new(unit: &str, m: &Moments) -> Self {
        Self {
            unit: unit.to_owned(),
            mean: m.mean(),
            sd: m.sd(),
            min: m.min.unwrap_or(0),
            max: m.max.unwrap_or(0),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Termination {
    pub reason: String,
    pub games: u64,
    pub share: f64,
    /// Per seat, the games it won alone by this ending (empty in summaries written before).
    #[serde(default)]
    pub won_by: Vec<u64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Captures {
    pub seat: usize,
    pub total: u64,
    pub per_game: f64,
}

/// Everything `summary.json` holds except the `run` object (which the writer adds): all of it is
/// a function of the config, the seed and the code. Readers deserialise it with `R` =
/// `serde_json::Value` when they do not know the game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Summary<R> {
    pub game: String,
    pub seed: u64,
    pub agents: Vec<String>,
    pub options: serde_json::Value,
    pub time_control: engine::TimeControl,
    /// The opening suite the seed groups started from, when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<crate::openings::SuiteInfo>,
    pub games_played: u64,
    pub seed_groups: u64,
    /// Seed groups whose games were all the same game (one agent in every seat on common
    /// dice): every interval counts seed groups, so such groups weigh as one game each.
    pub exact_replays: u64,
    /// Games per seed group: the seat rotations, or 1 in a mirror run.
    pub rotations: usize,
    /// How a seed group was played, and why (the key `design` holds the game-design metrics).
    #[serde(default)]
    pub group_design: GroupDesign,
    pub no_result: u64,
    pub draws: u64,
    pub partial: bool,
    /// What `by_agent` counts: `games`, or `matches` where the game plays a seed group as one
    /// match won on points (Thud); `by_seat` always counts games (rounds).
    pub agent_unit: String,
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length_rolls: Option<Distribution>,
    pub termination: Vec<Termination>,
    pub captures_by_seat: Vec<Captures>,
    /// Game-design metrics: balance, completion, draws, timeouts and duration.
    pub design: DesignMetrics,
    /// Present when exactly two distinct agents play: their match as Elo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_to_head: Option<HeadToHead>,
    pub game_specific: R,
}

/// Counts of an integer quantity in equal bins `[start + i·width, start + (i+1)·width)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
        let binned = Bins::new(lo.into(), hi.into(), bins.into());
        let mut counts = vec![0; binned.count];
        for (&length, &count) in exact {
            counts[binned.index(length.into())] += count;
        }
        Self {
            start: lo,
            // At most hi - lo + 1, so within u32.
            width: binned.width as u32,
            counts,
        }
    }
}

/// Equal bins of a whole width over the integers `lo..=hi`, at most a given number of them: the
/// one binning of the run's length histogram and of the report's distributions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bins {
    pub lo: i64,
    pub width: u64,
    pub count: usize,
}

impl Bins {
    /// Bins covering `lo..=hi` (`lo <= hi`), at most `max` of them. Computed in 128 bits, so a
    /// range spanning all of `i64` neither overflows nor asks for more than `max` bins.
    #[must_use]
    pub fn new(lo: i64, hi: i64, max: u64) -> Self {
        let span = (i128::from(hi) - i128::from(lo)).max(0) as u128;
        let width = (span / u128::from(max.max(1)) + 1).min(u128::from(u64::MAX));
        Self {
            lo,
            width: width as u64,
            count: (span / width + 1) as usize,
        }
    }

    /// The bin of `x` (`lo <= x <= hi`).
    #[must_use]
    pub fn index(&self, x: i64) -> usize {
        ((i128::from(x) - i128::from(self.lo)) as u128 / u128::from(self.width)) as usize
    }
}

/// Game-design metrics: how fair, how decisive and how long the game is under these agents.
/// Every interval counts seed groups.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DesignMetrics {
    /// 1 − the largest gap between two seats' scores over all games, a no-result scoring 0
    /// (1 = perfectly balanced seats).
    pub balance: f64,
    /// The first seat's win rate minus the fair share, as `first_player_advantage`.
    pub advantage: Estimate,
    /// Share of games with a winner.
    pub completion: Estimate,
    /// Share of games drawn (no single winner, with a result).
    pub drawishness: Estimate,
    /// Share of games cut off by a safety cap.
    pub timeouts: Estimate,
    /// Mean length in moves, with its interval, and the standard deviation.
    pub duration: Estimate,
    pub duration_sd: f64,
}

/// Two agents' match: the first agent (team A) against the other, counted per seed group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadToHead {
    pub agent: String,
    pub opponent: String,
    /// Games per seed group (2 for side-swapped pairs: the pentanomial model).
    pub group_size: usize,
    /// Groups by team A's score, from 0 to `group_size` in half-point steps.
    pub group_scores: Vec<u64>,
    #[serde(flatten)]
    pub estimate: EloEstimate,
    /// In two-seat games, team A's score on each side (attackers/defenders, dwarfs/trolls),
    /// with its interval over seed groups.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by_side: Vec<SideScore>,
}

/// Team A's score when it plays one side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideScore {
    pub seat: usize,
    /// The game's name for the seat.
    pub side: String,
    /// Points per game (per round in Thud) on this side (a draw or no result is half a point).
    pub score: Estimate,
    /// In games scored on points (Thud): team A's mean point margin per round on this side,
    /// clustered by seed group. The match is won on the two rounds' sum, so a side's result is
    /// this margin, not its rounds won.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<Estimate>,
}

impl SideScore {
    /// Team A is ahead on this side with 95% confidence: its point margin's interval lies above
    /// 0 where the game scores points, its score's above ½ elsewhere.
    #[must_use]
    pub fn ahead(&self) -> bool {
        self.margin
            .map_or(self.score.ci95[0] > 0.5, |m| m.ci95[0] > 0.0)
    }
}

impl HeadToHead {
    #[must_use]
    pub fn new<G: Game>(agent: &str, opponent: &str, tally: &RunTally<G>) -> Self {
        let scores = &tally.group_scores;
        Self {
            agent: agent.to_owned(),
            opponent: opponent.to_owned(),
            group_size: scores.games_per_group(),
            group_scores: scores.counts.clone(),
            estimate: scores.estimate(),
            by_side: side_scores(tally),
        }
    }
}

/// Team A's score per side of a two-seat game (empty for other games).
#[must_use]
pub fn side_scores<G: Game>(tally: &RunTally<G>) -> Vec<SideScore> {
    let points = &tally.by_group.team_a_points_by_seat;
    if points.len() != 2 {
        return Vec::new();
    }
    points
        .iter()
        .enumerate()
        .map(|(seat, c)| SideScore {
            seat,
            side: G::seat_name(seat),
            score: Estimate::clustered_proportion(c),
            margin: tally
                .by_group
                .team_a_margin_by_seat
                .get(seat)
                .filter(|m| m.groups > 0)
                .map(Estimate::clustered_mean),
        })
        .collect()
}

/// Agents with the same label are pooled (their slot records summed), in order of first seat,
/// with the number of seats each holds.
fn pooled_agents(labels: &[String], records: &[Record]) -> Vec<(String, Record, usize)> {
    let pools = crate::batch::tally::pools(labels);
    let mut pooled: Vec<(String, Record, usize)> = Vec::new();
    for ((label, record), &pool) in labels.iter().zip(records).zip(&pools) {
        if pool == pooled.len() {
            pooled.push((label.clone(), *record, 1));
        } else {
            pooled[pool].1.merge(record);
            pooled[pool].2 += 1;
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
            // Each slot sits in a given seat once per seed group: Wilson over those games.
            rows.push(RecordSummary {
                agent: Some(label.clone()),
                seat: Some(seat),
                seats: None,
                side: Some(G::seat_name(seat)),
                record: total,
                win_rate: Estimate::proportion(total.wins as f64, total.games as f64),
                score_of_decided: total.score_of_decided(),
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

/// The run's game-design metrics, with `advantage` the first player's.
fn design_metrics<G: Game>(tally: &RunTally<G>, advantage: Estimate) -> DesignMetrics {
    let g = &tally.by_group;
    let scores_over_all_games: Vec<f64> = tally
        .by_seat
        .iter()
        .map(|r| (r.wins as f64 + r.draws as f64 / 2.0) / r.games.max(1) as f64)
        .collect();
    let gap = scores_over_all_games
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max)
        - scores_over_all_games
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min);
    DesignMetrics {
        balance: 1.0 - gap,
        advantage,
        completion: Estimate::clustered_proportion(&g.decided),
        drawishness: Estimate::clustered_proportion(&g.draws),
        timeouts: Estimate::clustered_proportion(&g.timeouts),
        duration: Estimate::clustered_mean(&g.moves),
        duration_sd: tally.moves.sd(),
    }
}

/// One record per agent, its slots pooled when one agent fills several.
fn agent_records<G: Game>(labels: &[String], tally: &RunTally<G>) -> Vec<RecordSummary> {
    pooled_agents(labels, &tally.by_agent)
        .into_iter()
        .zip(&tally.by_group.agent_wins)
        .map(|((label, record, seats), wins)| RecordSummary {
            seats: Some(seats),
            ..RecordSummary::new(&record, wins, Some(label), None)
        })
        .collect()
}

/// One record per seat, named by the game's side names.
fn seat_records<G: Game>(tally: &RunTally<G>) -> Vec<RecordSummary> {
    tally
        .by_seat
        .iter()
        .zip(&tally.by_group.seat_wins)
        .enumerate()
        .map(|(s, (r, wins))| RecordSummary {
            side: Some(G::seat_name(s)),
            ..RecordSummary::new(r, wins, None, Some(s))
        })
        .collect()
}

/// How many games ended each way, and their share, in the game's ending order.
fn terminations<G: Game>(tally: &RunTally<G>) -> Vec<Termination> {
    let seats = tally.by_seat.len();
    Ending::<G::Reason>::names()
        .zip(&tally.reasons)
        .enumerate()
        .map(|(i, (reason, &games))| Termination {
            reason: reason.to_owned(),
            games,
            share: ratio(games, tally.games),
            won_by: tally
                .wins_by_reason
                .get(i * seats..(i + 1) * seats)
                .map(<[u64]>::to_vec)
                .unwrap_or_default(),
        })
        .collect()
}

/// How a seed group was played, and why that way.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct GroupDesign {
    pub design: crate::config::Design,
    pub reason: String,
}

/// Builds the summary of a run.
pub fn summarize<G: Game>(
    plan: &Plan<G>,
    time_control: engine::TimeControl,
    tally: &RunTally<G>,
    partial: bool,
) -> Summary<<G::Stats as engine::GameStats<G>>::Summary> {
    let seats = plan.seats();
    let g = &tally.by_group;
    let first_player = FirstPlayer::new(tally, seats);
    let design = design_metrics(tally, first_player.advantage);
    Summary {
        game: G::NAME.to_owned(),
        seed: plan.seed,
        agents: plan.labels.clone(),
        options: serde_json::to_value(&plan.options).unwrap_or(serde_json::Value::Null),
        time_control,
        openings: plan.openings.as_ref().map(|s| s.info.clone()),
        games_played: tally.games,
        seed_groups: tally.groups,
        exact_replays: g.exact_replays,
        rotations: plan.rotations(),
        group_design: GroupDesign {
            design: plan.design,
            reason: plan.design.reason().to_owned(),
        },
        no_result: tally.no_result,
        draws: tally.draws,
        partial,
        agent_unit: if tally.by_group.first_player_margin.n > 0 {
            "matches"
        } else {
            "games"
        }
        .to_owned(),
        by_agent: agent_records(&plan.labels, tally),
        by_seat: seat_records(tally),
        by_agent_seat: agent_by_seat::<G>(&plan.labels, &tally.by_agent_seat),
        first_player_advantage: first_player,
        length: Distribution::new("moves", &tally.moves),
        length_histogram: Histogram::from_counts(&tally.length_counts, 40),
        length_rolls: (tally.rolls.sum > 0).then(|| Distribution::new("rolls", &tally.rolls)),
        termination: terminations(tally),
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
        head_to_head: two_agents(&plan.labels).map(|(a, b)| HeadToHead::new(a, b, tally)),
        game_specific: tally.stats.summary(&plan.labels),
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
    fn bins_cover_any_range_without_overflow() {
        let b = Bins::new(10, 130, 40);
        assert_eq!((b.width, b.count), (4, 31));
        assert_eq!(
            (b.index(10), b.index(13), b.index(14), b.index(130)),
            (0, 0, 1, 30)
        );
        // The whole i64 range: 2^64 - 1 apart, still at most 40 bins.
        let all = Bins::new(i64::MIN, i64::MAX, 40);
        assert!(all.count <= 40, "{all:?}");
        assert_eq!(
            (all.index(i64::MIN), all.index(i64::MAX)),
            (0, all.count - 1)
        );
        let one = Bins::new(i64::MIN, i64::MAX, 1);
        assert_eq!((one.width, one.count), (u64::MAX, 2));
        assert_eq!(
            Bins::new(7, 7, 40),
            Bins {
                lo: 7,
                width: 1,
                count: 1
            }
        );
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
        let mut wins = Clustered::default();
        wins.add_group(4, 10);
        let s = RecordSummary::new(&record, &wins, None, Some(0));
        assert!((s.score_of_decided - 5.0 / 8.0).abs() < 1e-12);
        assert!((s.win_rate.value - 0.4).abs() < 1e-12);
    }
}
