//! Trente-douze's own statistics: per agent the rounds and games won, deaths and vengeances, and
//! what its turns come to (points lost, damage dealt, the share of misses, exact hits and
//! attacks); the turns per round; and how often the player who started round 1 wins the game
//! against the fair share `1/n`.
//!
//! Everything is kept as integer counts so that merging shards is exact in any order; draws are
//! shared in units of 1/840 of a game (840 is divisible by every seat count 1..=8).

use serde::{Deserialize, Serialize};

use super::TrenteDouze;
use super::record::TurnSums;
use super::rules::ROUNDS;
use crate::game::{GameStats, seat_agent};
use crate::sample::{Clustered, Estimate, Moments, ratio};

/// One game's share in units that divide evenly among 1..=8 players.
const SHARE: u64 = 840;

impl TurnSums {
    /// The moments of `n` turns whose values these are the sums of.
    fn moments(&self, n: u32) -> Moments {
        Moments {
            n: u64::from(n),
            sum: i64::from(self.sum),
            sum_sq: i128::from(self.sum_sq),
            min: (n > 0).then_some(i64::from(self.min)),
            max: (n > 0).then_some(i64::from(self.max)),
        }
    }
}

/// The counts of one agent slot.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AgentCounts {
    pub games: u64,
    pub game_wins: u64,
    pub game_draws: u64,
    /// Games won, a draw among `k` counting `1/k`, in 840ths.
    pub game_score: u64,
    pub round_wins: u64,
    /// Per game.
    pub deaths: Moments,
    /// Per game.
    pub vengeances: Moments,
    pub turns: u64,
    pub misses: u64,
    pub exacts: u64,
    pub attacks: u64,
    /// Per turn.
    pub lost: Moments,
    /// Per turn.
    pub dealt: Moments,
    /// The same quantities summed per seed group, for intervals over groups.
    pub by_group: AgentClusters,
}

/// An agent slot's figures summed per seed group (see [`Clustered`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentClusters {
    /// Per game.
    pub game_wins: Clustered,
    /// Per game, in 840ths.
    pub game_score: Clustered,
    /// Per round.
    pub round_wins: Clustered,
    /// Per game.
    pub deaths: Clustered,
    pub vengeances: Clustered,
    /// Per turn.
    pub misses: Clustered,
    pub exacts: Clustered,
    pub attacks: Clustered,
    pub lost: Clustered,
    pub dealt: Clustered,
}

impl AgentClusters {
    fn merge(&mut self, o: &Self) {
        for (a, b) in self.fields_mut().into_iter().zip(o.fields()) {
            a.merge(&b);
        }
    }

    fn fields(&self) -> [Clustered; 10] {
        [
            self.game_wins,
            self.game_score,
            self.round_wins,
            self.deaths,
            self.vengeances,
            self.misses,
            self.exacts,
            self.attacks,
            self.lost,
            self.dealt,
        ]
    }

    fn fields_mut(&mut self) -> [&mut Clustered; 10] {
        [
            &mut self.game_wins,
            &mut self.game_score,
            &mut self.round_wins,
            &mut self.deaths,
            &mut self.vengeances,
            &mut self.misses,
            &mut self.exacts,
            &mut self.attacks,
            &mut self.lost,
            &mut self.dealt,
        ]
    }

    /// Adds the group that took a slot's counts from `before` to `after`.
    fn add_group(&mut self, before: &AgentCounts, after: &AgentCounts) {
        let d = |a: u64, b: u64| (a - b) as i64;
        let games = after.games - before.games;
        let turns = after.turns - before.turns;
        self.game_wins
            .add_group(d(after.game_wins, before.game_wins), games);
        self.game_score
            .add_group(d(after.game_score, before.game_score), games);
        self.round_wins.add_group(
            d(after.round_wins, before.round_wins),
            games * ROUNDS as u64,
        );
        self.deaths
            .add_group(after.deaths.sum - before.deaths.sum, games);
        self.vengeances
            .add_group(after.vengeances.sum - before.vengeances.sum, games);
        self.misses.add_group(d(after.misses, before.misses), turns);
        self.exacts.add_group(d(after.exacts, before.exacts), turns);
        self.attacks
            .add_group(d(after.attacks, before.attacks), turns);
        self.lost.add_group(after.lost.sum - before.lost.sum, turns);
        self.dealt
            .add_group(after.dealt.sum - before.dealt.sum, turns);
    }
}

impl AgentCounts {
    fn merge(&mut self, o: &Self) {
        self.games += o.games;
        self.game_wins += o.game_wins;
        self.game_draws += o.game_draws;
        self.game_score += o.game_score;
        self.round_wins += o.round_wins;
        self.deaths.merge(&o.deaths);
        self.vengeances.merge(&o.vengeances);
        self.turns += o.turns;
        self.misses += o.misses;
        self.exacts += o.exacts;
        self.attacks += o.attacks;
        self.lost.merge(&o.lost);
        self.dealt.merge(&o.dealt);
        self.by_group.merge(&o.by_group);
    }
}

/// The counts behind the first-player advantage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstPlayerCounts {
    pub games: u64,
    pub wins: u64,
    /// The round-1 first player's game score (a draw among `k` counts `1/k`), in 840ths.
    pub score: u64,
    /// The fair share `1/n` summed over games, in 840ths.
    pub fair: u64,
    /// Sole wins and score (in 840ths) summed per seed group.
    pub wins_by_group: Clustered,
    pub score_by_group: Clustered,
}

/// The accumulated counts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrenteDouzeStats {
    /// Indexed by agent slot.
    pub agents: Vec<AgentCounts>,
    /// Turns per round (vengeances included), one observation per game.
    pub turns_per_round: [Moments; ROUNDS],
    /// The same summed per seed group.
    pub turns_per_round_by_group: [Clustered; ROUNDS],
    pub first_player: FirstPlayerCounts,
}

impl TrenteDouzeStats {
    fn slot(&mut self, slot: usize) -> &mut AgentCounts {
        if self.agents.len() <= slot {
            self.agents.resize_with(slot + 1, AgentCounts::default);
        }
        &mut self.agents[slot]
    }

    /// Adds one game in which seat `s` is played by agent slot `slot_of(s)`.
    fn add_game(&mut self, game: &TrenteDouze, slot_of: impl Fn(usize) -> usize) {
        let Some(outcome) = game.outcome else {
            return;
        };
        let n = game.seats();
        let winners = outcome.winners;
        let share = |seat: usize| {
            if winners.contains(seat) {
                SHARE / u64::from(winners.len())
            } else {
                0
            }
        };
        for (round, turns) in game.record.turns_per_round.iter().enumerate() {
            self.turns_per_round[round].add(i64::from(*turns));
        }
        let first = usize::from(game.first_players[0]);
        let fp = &mut self.first_player;
        fp.games += 1;
        fp.wins += u64::from(outcome.sole_winner() == Some(first));
        fp.score += share(first);
        fp.fair += SHARE / n as u64;
        for seat in 0..n {
            let r = &game.record.seats[seat];
            let round_wins = game
                .round_winners
                .iter()
                .filter(|w| w.contains(seat))
                .count() as u64;
            let a = self.slot(slot_of(seat));
            a.games += 1;
            a.game_wins += u64::from(outcome.sole_winner() == Some(seat));
            a.game_draws += u64::from(winners.len() > 1 && winners.contains(seat));
            a.game_score += share(seat);
            a.round_wins += round_wins;
            a.deaths.add(i64::from(r.deaths));
            a.vengeances.add(i64::from(r.vengeances));
            a.turns += u64::from(r.turns);
            a.misses += u64::from(r.misses);
            a.exacts += u64::from(r.exacts);
            a.attacks += u64::from(r.attacks);
            a.lost.merge(&r.lost.moments(r.turns));
            a.dealt.merge(&r.dealt.moments(r.turns));
        }
    }
}

/// A mean per unit with its spread, and its 95% interval over seed groups.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Mean {
    pub mean: Estimate,
    pub sd: f64,
    pub min: Option<i64>,
    pub max: Option<i64>,
}

impl Mean {
    fn new(m: &Moments, by_group: &Clustered) -> Self {
        Self {
            mean: Estimate::clustered_mean(by_group),
            sd: m.sd(),
            min: m.min,
            max: m.max,
        }
    }
}

/// One agent's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentSummary {
    pub agent: String,
    pub games: u64,
    pub game_wins: u64,
    pub game_draws: u64,
    /// Sole wins per game.
    pub game_win_rate: Estimate,
    /// Wins plus shared draws (1/k each) per game; the fair share is 1/n.
    pub game_score: Estimate,
    pub round_wins: u64,
    /// Rounds won (ties credit every tied player) per round played.
    pub round_win_rate: Estimate,
    pub deaths_per_game: Mean,
    pub vengeances_per_game: Mean,
    pub turns: u64,
    pub points_lost_per_turn: Mean,
    pub damage_dealt_per_turn: Mean,
    pub miss_share: Estimate,
    pub exact_share: Estimate,
    pub attack_share: Estimate,
}

/// The round-1 first player's results against the fair share.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FirstPlayerSummary {
    pub games: u64,
    pub sole_win_rate: Estimate,
    /// Wins plus shared draws per game.
    pub score: Estimate,
    /// The mean of `1/n` over the games.
    pub fair_share: f64,
    /// `score − fair_share`, with the score's interval shifted alike.
    pub advantage: Estimate,
}

/// What `summary.json` shows under "game_specific".
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrenteDouzeSummary {
    pub agents: Vec<AgentSummary>,
    /// Turns per round (vengeances included), rounds 1 to 3.
    pub turns_per_round: Vec<Mean>,
    pub first_player: FirstPlayerSummary,
}

impl GameStats<TrenteDouze> for TrenteDouzeStats {
    type Summary = TrenteDouzeSummary;

    fn add_group(&mut self, games: &[TrenteDouze]) {
        let before = self.clone();
        for (rotation, game) in games.iter().enumerate() {
            let n = game.seats();
            self.add_game(game, |seat| seat_agent(seat, rotation, n));
        }
        for (slot, after) in self.agents.iter_mut().enumerate() {
            let start = before.agents.get(slot).cloned().unwrap_or_default();
            let mut clusters = after.by_group;
            clusters.add_group(&start, after);
            after.by_group = clusters;
        }
        let games = self.first_player.games - before.first_player.games;
        for (round, c) in self.turns_per_round_by_group.iter_mut().enumerate() {
            let turns = self.turns_per_round[round].sum - before.turns_per_round[round].sum;
            c.add_group(turns, games);
        }
        let (fp, old) = (&mut self.first_player, &before.first_player);
        fp.wins_by_group
            .add_group((fp.wins - old.wins) as i64, games);
        fp.score_by_group
            .add_group((fp.score - old.score) as i64, games);
    }

    fn merge(&mut self, other: &Self) {
        for (slot, counts) in other.agents.iter().enumerate() {
            self.slot(slot).merge(counts);
        }
        for (mine, theirs) in self.turns_per_round.iter_mut().zip(&other.turns_per_round) {
            mine.merge(theirs);
        }
        for (mine, theirs) in self
            .turns_per_round_by_group
            .iter_mut()
            .zip(&other.turns_per_round_by_group)
        {
            mine.merge(theirs);
        }
        let (fp, o) = (&mut self.first_player, &other.first_player);
        fp.games += o.games;
        fp.wins += o.wins;
        fp.score += o.score;
        fp.fair += o.fair;
        fp.wins_by_group.merge(&o.wins_by_group);
        fp.score_by_group.merge(&o.score_by_group);
    }

    fn summary(&self, agents: &[String]) -> TrenteDouzeSummary {
        let shares = |score: Estimate| score.scaled(1.0 / SHARE as f64);
        let agents = self
            .agents
            .iter()
            .enumerate()
            .map(|(slot, a)| AgentSummary {
                agent: agents
                    .get(slot)
                    .cloned()
                    .unwrap_or_else(|| format!("slot {slot}")),
                games: a.games,
                game_wins: a.game_wins,
                game_draws: a.game_draws,
                game_win_rate: Estimate::clustered_proportion(&a.by_group.game_wins),
                game_score: shares(Estimate::clustered_mean(&a.by_group.game_score)),
                round_wins: a.round_wins,
                round_win_rate: Estimate::clustered_proportion(&a.by_group.round_wins),
                deaths_per_game: Mean::new(&a.deaths, &a.by_group.deaths),
                vengeances_per_game: Mean::new(&a.vengeances, &a.by_group.vengeances),
                turns: a.turns,
                points_lost_per_turn: Mean::new(&a.lost, &a.by_group.lost),
                damage_dealt_per_turn: Mean::new(&a.dealt, &a.by_group.dealt),
                miss_share: Estimate::clustered_proportion(&a.by_group.misses),
                exact_share: Estimate::clustered_proportion(&a.by_group.exacts),
                attack_share: Estimate::clustered_proportion(&a.by_group.attacks),
            })
            .collect();
        let fp = &self.first_player;
        let score = shares(Estimate::clustered_mean(&fp.score_by_group));
        let fair_share = ratio(fp.fair, fp.games * SHARE);
        let first_player = FirstPlayerSummary {
            games: fp.games,
            sole_win_rate: Estimate::clustered_proportion(&fp.wins_by_group),
            score,
            fair_share,
            advantage: score.shifted(-fair_share),
        };
        TrenteDouzeSummary {
            agents,
            turns_per_round: self
                .turns_per_round
                .iter()
                .zip(&self.turns_per_round_by_group)
                .map(|(m, c)| Mean::new(m, c))
                .collect(),
            first_player,
        }
    }
}
