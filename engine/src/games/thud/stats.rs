//! Thud's own statistics: the rounds (points, plies, captures, why they ended), the matches
//! (each player's total over the two rounds of a seed, and who won), and the dwarfs'
//! first-player advantage. Everything is an integer count; figures are computed in the summary.

use serde::{Deserialize, Serialize};

use super::{Reason, Side, Thud};
use crate::game::{EndReason, Ending, GameStats, Rules, SeatResult, seat_agent};
use crate::sample::{Clustered, Counts, Estimate, Frequencies, Moments, Record};

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

/// Per-round figures summed over each match's rounds: means per round whose intervals count
/// matches (the two rounds of a seed share it), not rounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByMatch {
    /// Points of the dwarf side and of the troll side.
    pub dwarf_points: Clustered,
    pub troll_points: Clustered,
    pub plies: Clustered,
    /// Trolls taken by the dwarfs, dwarfs taken by the trolls.
    pub trolls_taken: Clustered,
    pub dwarfs_taken: Clustered,
}

impl ByMatch {
    fn add(&mut self, rounds: &[Thud]) {
        let n = rounds.len() as u64;
        let sum = |f: &dyn Fn(&Thud) -> i64| rounds.iter().map(f).sum::<i64>();
        let captures = |side: Side| move |r: &Thud| i64::from(r.counters().captures[side.seat()]);
        self.dwarf_points
            .add_group(sum(&|r| i64::from(r.side_points()[0])), n);
        self.troll_points
            .add_group(sum(&|r| i64::from(r.side_points()[1])), n);
        self.plies
            .add_group(sum(&|r| i64::from(r.counters().moves)), n);
        self.trolls_taken.add_group(sum(&captures(Side::Dwarfs)), n);
        self.dwarfs_taken.add_group(sum(&captures(Side::Trolls)), n);
    }

    fn merge(&mut self, other: &Self) {
        for (a, b) in [
            (&mut self.dwarf_points, &other.dwarf_points),
            (&mut self.troll_points, &other.troll_points),
            (&mut self.plies, &other.plies),
            (&mut self.trolls_taken, &other.trolls_taken),
            (&mut self.dwarfs_taken, &other.dwarfs_taken),
        ] {
            a.merge(b);
        }
    }
}

/// The counts behind Thud's summary.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThudStats {
    /// Points, plies and captures per round, summed per match.
    pub by_match: ByMatch,
    /// The dwarf margin (dwarf points minus troll points: above zero, the side moving first did
    /// better) and the dwarfs' round wins summed per match (the seed group), for intervals that
    /// count matches rather than rounds.
    pub margin_by_match: Clustered,
    pub dwarf_wins_by_match: Clustered,
    /// The same margins counted one by one, for the distribution chart.
    pub margin_counts: Counts,
    /// Rounds won by the dwarf side, drawn, won by the troll side.
    pub dwarf_round_wins: u64,
    pub round_draws: u64,
    pub troll_round_wins: u64,
    /// Rounds per end reason, in [`Ending::index`] order.
    #[serde(deserialize_with = "crate::game::deserialize_endings")]
    pub reasons: [u64; REASONS],
    /// Per agent slot (0, 1): its matches.
    pub agents: [MatchRecord; 2],
    pub matches: u64,
}

impl ThudStats {
    fn add_round(&mut self, round: &Thud) {
        let [dwarfs, trolls] = round.side_points();
        self.margin_counts.add(i64::from(dwarfs - trolls));
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
    type Summary = ThudSummary;

    /// Round `r` has seat `s` (0 dwarfs, 1 trolls) played by agent slot `seat_agent(s, r, 2)`;
    /// each slot's match total is the points of the sides it played. A mirror match (one agent
    /// on both sides) is one round, which stands for its swapped round too: that would replay it.
    fn add_group(&mut self, rounds: &[Thud]) {
        let mut totals = [0i64; 2];
        let (mut margin, mut dwarf_wins) = (0, 0);
        for round in rounds {
            self.add_round(round);
            let [dwarfs, trolls] = round.side_points();
            margin += i64::from(dwarfs - trolls);
            dwarf_wins += i64::from(dwarfs > trolls);
        }
        for rotation in 0..2 {
            let round = &rounds[rotation % rounds.len()];
            for (seat, points) in round.side_points().into_iter().enumerate() {
                totals[seat_agent(seat, rotation, 2)] += i64::from(points);
            }
        }
        self.matches += 1;
        self.by_match.add(rounds);
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
        self.by_match.merge(&other.by_match);
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

    fn summary(&self, agents: &[String]) -> ThudSummary {
        let m = &self.by_match;
        ThudSummary {
            rounds: m.plies.n,
            matches: self.matches,
            dwarf_points: Estimate::clustered_mean(&m.dwarf_points),
            troll_points: Estimate::clustered_mean(&m.troll_points),
            moves: Estimate::clustered_mean(&m.plies),
            trolls_taken: Estimate::clustered_mean(&m.trolls_taken),
            dwarfs_taken: Estimate::clustered_mean(&m.dwarfs_taken),
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
                .map(|(slot, r)| AgentSummary {
                    agent: agents.get(slot).cloned().unwrap_or_default(),
                    matches: r.record,
                    total_points: r.points.sum,
                    points_per_match: r.points.mean(),
                })
                .collect(),
            distributions: vec![Frequencies::new(
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
pub struct AgentSummary {
    pub agent: String,
    /// Matches won, drawn and lost.
    pub matches: Record,
    /// Points over every round it played, both sides.
    pub total_points: i64,
    pub points_per_match: f64,
}

/// What `summary.json` shows under `game_specific` for Thud.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThudSummary {
    pub rounds: u64,
    pub matches: u64,
    /// Means per round, with their 95% intervals over matches: the dwarf side's and the troll
    /// side's points, moves (plies, named as the report's game length is), trolls taken by the
    /// dwarfs, dwarfs taken by the trolls.
    pub dwarf_points: Estimate,
    pub troll_points: Estimate,
    pub moves: Estimate,
    pub trolls_taken: Estimate,
    pub dwarfs_taken: Estimate,
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
    pub agents: Vec<AgentSummary>,
    /// The dwarf − troll point margin of every round, for a histogram.
    pub distributions: Vec<Frequencies>,
}
