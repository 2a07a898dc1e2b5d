//! Thud's own statistics: the rounds (points, plies, captures, why they ended), the matches
//! (each player's total over the two rounds of a seed, and who won), and the dwarfs'
//! first-player advantage. Everything is an integer count; figures are computed in the report.

use serde::{Deserialize, Serialize};

use super::{Reason, Side, Thud};
use crate::game::{EndReason, Ending, Game, GameStats, SeatResult, seat_agent};
use crate::tally::{Clustered, Counts, Distribution, Estimate, Moments, Record};

/// How many reasons a round can end for.
const REASONS: usize = Ending::<Reason>::COUNT;

/// One agent slot's matches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRecord {
    pub record: Record,
    /// The agent's total points per match.
    pub points: Moments,
}

impl MatchRecord {
    fn merge(&mut self, other: &Self) {
        self.record.merge(&other.record);
        self.points.merge(&other.points);
    }
}

/// The counts behind Thud's report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThudStats {
    /// Points of the dwarf side and of the troll side per round.
    pub dwarf_points: Moments,
    pub troll_points: Moments,
    /// Dwarf points minus troll points per round: above zero, the side moving first did better.
    pub dwarf_margin: Moments,
    /// The dwarf margin and the dwarfs' round wins summed per match (the seed group), for
    /// intervals that count matches rather than rounds.
    pub margin_by_match: Clustered,
    pub dwarf_wins_by_match: Clustered,
    /// The same margins counted one by one, for the distribution chart.
    pub margin_counts: Counts,
    pub plies: Moments,
    /// Trolls taken by the dwarfs, dwarfs taken by the trolls, per round.
    pub trolls_taken: Moments,
    pub dwarfs_taken: Moments,
    /// Rounds won by the dwarf side, drawn, won by the troll side.
    pub dwarf_round_wins: u64,
    pub round_draws: u64,
    pub troll_round_wins: u64,
    /// Rounds per end reason, in [`Ending::index`] order.
    pub reasons: [u64; REASONS],
    /// Per agent slot (0, 1): its matches.
    pub agents: [MatchRecord; 2],
    pub matches: u64,
}

impl ThudStats {
    fn add_round(&mut self, round: &Thud) {
        let [dwarfs, trolls] = round.side_points();
        self.dwarf_points.add(i64::from(dwarfs));
        self.troll_points.add(i64::from(trolls));
        self.dwarf_margin.add(i64::from(dwarfs - trolls));
        self.margin_counts.add(i64::from(dwarfs - trolls));
        let counters = round.counters();
        self.plies.add(i64::from(counters.moves));
        self.trolls_taken
            .add(i64::from(counters.captures[Side::Dwarfs.seat()]));
        self.dwarfs_taken
            .add(i64::from(counters.captures[Side::Trolls.seat()]));
        match dwarfs.cmp(&trolls) {
            core::cmp::Ordering::Greater => self.dwarf_round_wins += 1,
            core::cmp::Ordering::Equal => self.round_draws += 1,
            core::cmp::Ordering::Less => self.troll_round_wins += 1,
        }
        if let Some(outcome) = round.outcome() {
            self.reasons[outcome.reason.index()] += 1;
        }
    }
}

impl GameStats<Thud> for ThudStats {
    type Report = ThudReport;

    /// Round `r` has seat `s` (0 dwarfs, 1 trolls) played by agent slot `seat_agent(s, r, 2)`;
    /// each slot's match total is the points of the sides it played.
    fn add_group(&mut self, rounds: &[Thud]) {
        let mut totals = [0i64; 2];
        let (mut margin, mut dwarf_wins) = (0, 0);
        for (rotation, round) in rounds.iter().enumerate() {
            self.add_round(round);
            let [dwarfs, trolls] = round.side_points();
            margin += i64::from(dwarfs - trolls);
            dwarf_wins += i64::from(dwarfs > trolls);
            for (seat, points) in round.side_points().into_iter().enumerate() {
                totals[seat_agent(seat, rotation, 2)] += i64::from(points);
            }
        }
        self.matches += 1;
        let n = rounds.len() as u64;
        self.margin_by_match.add_group(margin, n);
        self.dwarf_wins_by_match.add_group(dwarf_wins, n);
        for (slot, record) in self.agents.iter_mut().enumerate() {
            record.points.add(totals[slot]);
            record
                .record
                .add(match totals[slot].cmp(&totals[1 - slot]) {
                    core::cmp::Ordering::Greater => SeatResult::Win,
                    core::cmp::Ordering::Equal => SeatResult::Draw,
                    core::cmp::Ordering::Less => SeatResult::Loss,
                });
        }
    }

    fn merge(&mut self, other: &Self) {
        for (a, b) in [
            (&mut self.dwarf_points, &other.dwarf_points),
            (&mut self.troll_points, &other.troll_points),
            (&mut self.dwarf_margin, &other.dwarf_margin),
            (&mut self.plies, &other.plies),
            (&mut self.trolls_taken, &other.trolls_taken),
            (&mut self.dwarfs_taken, &other.dwarfs_taken),
        ] {
            a.merge(b);
        }
        self.margin_counts.merge(&other.margin_counts);
        self.margin_by_match.merge(&other.margin_by_match);
        self.dwarf_wins_by_match.merge(&other.dwarf_wins_by_match);
        self.dwarf_round_wins += other.dwarf_round_wins;
        self.round_draws += other.round_draws;
        self.troll_round_wins += other.troll_round_wins;
        for (a, b) in self.reasons.iter_mut().zip(other.reasons) {
            *a += b;
        }
        for (a, b) in self.agents.iter_mut().zip(&other.agents) {
            a.merge(b);
        }
        self.matches += other.matches;
    }

    fn report(&self, agents: &[String]) -> ThudReport {
        let rounds = self.plies.n;
        ThudReport {
            rounds,
            matches: self.matches,
            dwarf_points_mean: self.dwarf_points.mean(),
            troll_points_mean: self.troll_points.mean(),
            plies_mean: self.plies.mean(),
            trolls_taken_mean: self.trolls_taken.mean(),
            dwarfs_taken_mean: self.dwarfs_taken.mean(),
            dwarf_margin: Estimate::clustered_mean(&self.margin_by_match),
            dwarf_round_wins: self.dwarf_round_wins,
            round_draws: self.round_draws,
            troll_round_wins: self.troll_round_wins,
            dwarf_round_win_rate: Estimate::clustered_proportion(&self.dwarf_wins_by_match),
            end_reasons: Ending::<Reason>::names()
                .zip(self.reasons)
                .map(|(reason, rounds)| ReasonCount { reason, rounds })
                .collect(),
            timeouts: self.reasons[Reason::PlyCap.index()],
            agents: self
                .agents
                .iter()
                .enumerate()
                .map(|(slot, r)| AgentReport {
                    agent: agents.get(slot).cloned().unwrap_or_default(),
                    matches: r.record,
                    total_points: r.points.sum,
                    points_per_match: r.points.mean(),
                })
                .collect(),
            distributions: vec![Distribution::new(
                "dwarf - troll point margin per round",
                &self.margin_counts,
            )],
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReasonCount {
    pub reason: &'static str,
    pub rounds: u64,
}

/// One agent's matches.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentReport {
    pub agent: String,
    /// Matches won, drawn and lost.
    pub matches: Record,
    /// Points over every round it played, both sides.
    pub total_points: i64,
    pub points_per_match: f64,
}

/// What `summary.json` shows under `game_specific` for Thud.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThudReport {
    pub rounds: u64,
    pub matches: u64,
    pub dwarf_points_mean: f64,
    pub troll_points_mean: f64,
    pub plies_mean: f64,
    pub trolls_taken_mean: f64,
    pub dwarfs_taken_mean: f64,
    /// The first player's advantage: the dwarfs' mean point margin per round (dwarf points minus
    /// troll points), with its 95% interval over matches (the two rounds of a seed share it).
    pub dwarf_margin: Estimate,
    pub dwarf_round_wins: u64,
    pub round_draws: u64,
    pub troll_round_wins: u64,
    /// Rounds won by the dwarf side over all rounds, with its 95% interval over matches.
    pub dwarf_round_win_rate: Estimate,
    pub end_reasons: Vec<ReasonCount>,
    /// Rounds ended by the ply cap (also under `end_reasons`).
    pub timeouts: u64,
    pub agents: Vec<AgentReport>,
    /// The dwarf − troll point margin of every round, for a histogram.
    pub distributions: Vec<Distribution>,
}
