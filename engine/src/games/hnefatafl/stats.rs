//! What a batch of Hnefatafl games yields (`docs/rules/hnefatafl.md`, "What statistics a game must
//! yield"): the seed's own statistics page (games, wins and draws, moves per game with mean, max
//! and min, first-player wins against the other's) plus how each game ended, captures, each
//! agent's results by side, and the attackers' advantage with its 95% interval.

use serde::{Deserialize, Serialize};

use super::{Hnefatafl, Reason, Side};
use crate::game::{self, EndReason, GameStats, Rules, SeatResult, seat_agent};
use crate::sample::{Clustered, Estimate, Moments, Record, ratio};

/// The counts; every figure of the summary is computed from them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HnefataflStats {
    /// Games from the attackers' point of view.
    pub attackers: Record,
    /// Plies per game.
    pub plies: Moments,
    /// Plies summed per seed group, for the mean's interval over groups.
    #[serde(default)]
    pub plies_by_group: Clustered,
    /// Games per end reason, in [`game::Ending::index`] order.
    #[serde(deserialize_with = "game::deserialize_endings")]
    pub endings: [u64; game::Ending::<Reason>::COUNT],
    /// Pieces captured over all games, by side (the king counts one).
    pub captures: [u64; 2],
    /// Per seed group, the attackers' half points summed over its games (the side-swapped pair):
    /// the unit of the advantage's interval, since the two games of a pair share their seed.
    pub group_attacker_points: Moments,
    /// Games per group (2 when sides are swapped on each seed).
    pub games_per_group: u64,
    /// Per seed group, the attackers' wins over the group's decisive games.
    pub decisive_by_group: Clustered,
    /// Per agent slot, its record as attackers then as defenders.
    pub agents: Vec<[Record; 2]>,
}

/// Half points of `side` in a finished game: 2 a win, 1 a draw, 0 a loss.
fn half_points(game: &Hnefatafl, side: Side) -> u8 {
    match game.outcome().and_then(|o| o.sole_winner()) {
        Some(winner) if winner == side.seat() => 2,
        Some(_) => 0,
        None => 1,
    }
}

/// `side`'s result in a finished game.
fn result(game: &Hnefatafl, side: Side) -> SeatResult {
    game.outcome()
        .map_or(SeatResult::NoResult, |o| o.result_of(side.seat()))
}

impl GameStats<Hnefatafl> for HnefataflStats {
    type Summary = HnefataflSummary;

    fn add_group(&mut self, games: &[Hnefatafl]) {
        let mut group_points = 0;
        let (mut attacker_wins, mut decisive, mut plies, mut played) = (0, 0, 0, 0);
        for (rotation, game) in games.iter().enumerate() {
            let Some(outcome) = game.outcome() else {
                continue;
            };
            let points = half_points(game, Side::Attackers);
            group_points += i64::from(points);
            attacker_wins += i64::from(points == 2);
            decisive += u64::from(points != 1);
            self.attackers.add(result(game, Side::Attackers));
            let counters = game.counters();
            self.plies.add(i64::from(counters.moves));
            plies += i64::from(counters.moves);
            played += 1;
            self.endings[outcome.reason.index()] += 1;
            for side in [Side::Attackers, Side::Defenders] {
                self.captures[side.seat()] += u64::from(counters.captures[side.seat()]);
                let slot = seat_agent(side.seat(), rotation, 2);
                if self.agents.len() <= slot {
                    self.agents.resize(slot + 1, [Record::default(); 2]);
                }
                self.agents[slot][side.seat()].add(result(game, side));
            }
        }
        self.group_attacker_points.add(group_points);
        self.decisive_by_group.add_group(attacker_wins, decisive);
        self.plies_by_group.add_group(plies, played);
        self.games_per_group = self.games_per_group.max(games.len() as u64);
    }

    fn merge(&mut self, other: &Self) {
        self.attackers.merge(&other.attackers);
        self.plies.merge(&other.plies);
        self.plies_by_group.merge(&other.plies_by_group);
        for (a, b) in self.endings.iter_mut().zip(other.endings) {
            *a += b;
        }
        for (a, b) in self.captures.iter_mut().zip(other.captures) {
            *a += b;
        }
        self.group_attacker_points
            .merge(&other.group_attacker_points);
        self.games_per_group = self.games_per_group.max(other.games_per_group);
        self.decisive_by_group.merge(&other.decisive_by_group);
        if self.agents.len() < other.agents.len() {
            self.agents
                .resize(other.agents.len(), [Record::default(); 2]);
        }
        for (mine, theirs) in self.agents.iter_mut().zip(&other.agents) {
            mine[0].merge(&theirs[0]);
            mine[1].merge(&theirs[1]);
        }
    }

    fn summary(&self, agents: &[String]) -> HnefataflSummary {
        let games = self.plies.n;
        let wins = self.attackers;
        // Half points per group → attackers' score per game, minus one half.
        let scale = 1.0 / (2.0 * self.games_per_group.max(1) as f64);
        HnefataflSummary {
            games,
            attacker_wins: wins.wins,
            defender_wins: wins.losses,
            draws: wins.draws,
            timeouts: self.endings[Reason::Cap.index()],
            attacker_share_of_decisive: Estimate::clustered_proportion(&self.decisive_by_group),
            attackers_score_minus_half: Estimate::mean(&self.group_attacker_points)
                .scaled(scale)
                .shifted(-0.5),
            moves: Estimate::clustered_mean(&self.plies_by_group),
            moves_sd: self.plies.sd(),
            moves_min: self.plies.min.unwrap_or(0),
            moves_max: self.plies.max.unwrap_or(0),
            endings: game::Ending::<Reason>::names()
                .zip(self.endings)
                .map(|(reason, count)| Ending {
                    reason,
                    games: count,
                    share: ratio(count, games),
                })
                .collect(),
            attacker_captures_per_game: ratio(self.captures[Side::Attackers.seat()], games),
            defender_captures_per_game: ratio(self.captures[Side::Defenders.seat()], games),
            agents: self
                .agents
                .iter()
                .enumerate()
                .map(|(slot, [attacking, defending])| AgentRecord {
                    agent: agents
                        .get(slot)
                        .cloned()
                        .unwrap_or_else(|| format!("agent {slot}")),
                    as_attackers: *attacking,
                    as_defenders: *defending,
                    score_as_attackers: attacking.score_of_decided(),
                    score_as_defenders: defending.score_of_decided(),
                })
                .collect(),
        }
    }
}

/// How many games ended one way.
#[derive(Clone, Debug, Serialize)]
pub struct Ending {
    pub reason: &'static str,
    pub games: u64,
    pub share: f64,
}

/// One agent's results by side.
#[derive(Clone, Debug, Serialize)]
pub struct AgentRecord {
    pub agent: String,
    pub as_attackers: Record,
    pub as_defenders: Record,
    /// Wins plus half the draws over the games with a result, per side.
    pub score_as_attackers: f64,
    pub score_as_defenders: f64,
}

/// The figures shown under "game_specific".
#[derive(Clone, Debug, Serialize)]
pub struct HnefataflSummary {
    pub games: u64,
    /// First-player (attacker) wins.
    pub attacker_wins: u64,
    pub defender_wins: u64,
    /// Draws; in this game only the ply cap draws, so these equal `timeouts`.
    pub draws: u64,
    pub timeouts: u64,
    /// Attacker wins over decisive games, with its 95% interval over seed groups.
    pub attacker_share_of_decisive: Estimate,
    /// The attackers' advantage as a score: their score per game (a draw is half a point) minus
    /// 0.5, so 0 is balance and +0.5 every game won by the attackers. It differs from the
    /// report's first-player advantage (outright win rate minus the fair share) by half the
    /// draw rate, and its name says which it is. Its 95% interval is the normal approximation
    /// over seed groups (each group's side-swapped games are one observation).
    pub attackers_score_minus_half: Estimate,
    /// Moves per game (one player's turn, a ply), with its 95% interval over seed groups: named
    /// as the report's game length is, so that one figure has one name.
    pub moves: Estimate,
    pub moves_sd: f64,
    pub moves_min: i64,
    pub moves_max: i64,
    pub endings: Vec<Ending>,
    /// Pieces captured per game by the attackers and by the defenders (the king counts one), each
    /// under its side's name.
    pub attacker_captures_per_game: f64,
    pub defender_captures_per_game: f64,
    pub agents: Vec<AgentRecord>,
}
