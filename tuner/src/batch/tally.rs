//! What the runner accumulates: integer counts only, merged exactly whatever the thread count.

use std::collections::BTreeMap;

pub use engine::sample::Record;
use engine::sample::{Clustered, Moments};
use engine::selfplay::MoveScore;
use engine::{Ending, Forfeit, Game, GameStats, MAX_SEATS, Outcome, SeatResult, seat_agent};

use crate::config::{Design, Plan};
use crate::strength::stats::GroupScores;
use serde::{Deserialize, Serialize};

/// One finished game as a row of `games.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow<R> {
    pub index: u64,
    pub seed: u64,
    pub rotation: usize,
    pub outcome: Outcome<R>,
    /// `seat_agents[seat]` = agent slot.
    pub seat_agents: Vec<usize>,
    pub moves: u32,
    pub rolls: u32,
    pub captures: Vec<u32>,
    /// The index (in file order, from 0) of the opening the game started from.
    pub opening: Option<u64>,
    /// The position text the game (its opening) started from; `None`: the initial position.
    pub start: Option<String>,
    /// The moves in the game's notation from `start`, the opening's included, when the plan
    /// keeps records (empty otherwise).
    pub notation: Vec<String>,
    /// Each move's searched score, one per move of `notation` (`None` for an opening's moves and
    /// moves not searched), when the plan keeps scored records (empty otherwise).
    pub scores: Vec<Option<MoveScore>>,
}

/// The run's per-game counts summed per seed group: the counts behind every interval, since the
/// games of a group share their dice and seeds (see [`Clustered`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByGroup {
    /// Wins of each pooled agent (agents with one label pooled, in order of first seat).
    pub agent_wins: Vec<Clustered>,
    pub seat_wins: Vec<Clustered>,
    pub first_player_wins: Clustered,
    /// Games the first player drew or shared the win in.
    pub first_player_draws: Clustered,
    pub moves: Clustered,
    /// Games with a sole winner, drawn games, games cut off by a safety cap.
    pub decided: Clustered,
    pub draws: Clustered,
    pub timeouts: Clustered,
    /// Team A's half-points in each seat (2 a win, 1 a draw or no result, 0 a loss), two per
    /// game it played there: its score per side.
    pub team_a_points_by_seat: Vec<Clustered>,
    /// In games scored on points (Thud): team A's point margin over team B in each seat, one
    /// observation per game it played there (its round point margin per side). Empty otherwise.
    #[serde(default)]
    pub team_a_margin_by_seat: Vec<Clustered>,
    /// In games scored on points: the first player's points minus the best other seat's, one
    /// observation per game (Thud: the dwarfs' margin per round). Per seed group like the rest:
    /// the rounds of one match share their seeds, and a level playing itself plays the same
    /// round twice, so counted per round its interval was too narrow by up to √2.
    pub first_player_margin: Clustered,
    /// Groups whose games were all the same game (same moves, same length), as when
    /// one agent fills every seat on common dice: such a group carries one game's information.
    pub exact_replays: u64,
}

impl ByGroup {
    fn merge(&mut self, other: &Self) {
        for (a, b) in self.agent_wins.iter_mut().zip(&other.agent_wins) {
            a.merge(b);
        }
        for (a, b) in self.seat_wins.iter_mut().zip(&other.seat_wins) {
            a.merge(b);
        }
        for (a, b) in self
            .team_a_points_by_seat
            .iter_mut()
            .zip(&other.team_a_points_by_seat)
        {
            a.merge(b);
        }
        if self.team_a_margin_by_seat.is_empty() {
            self.team_a_margin_by_seat = other.team_a_margin_by_seat.clone();
        } else {
            for (a, b) in self
                .team_a_margin_by_seat
                .iter_mut()
                .zip(&other.team_a_margin_by_seat)
            {
                a.merge(b);
            }
        }
        for (a, b) in [
            (&mut self.first_player_wins, &other.first_player_wins),
            (&mut self.first_player_draws, &other.first_player_draws),
            (&mut self.first_player_margin, &other.first_player_margin),
            (&mut self.moves, &other.moves),
            (&mut self.decided, &other.decided),
            (&mut self.draws, &other.draws),
            (&mut self.timeouts, &other.timeouts),
        ] {
            a.merge(b);
        }
        self.exact_replays += other.exact_replays;
    }
}

/// The first player's points minus the best other seat's, in a game scored on points.
fn first_player_margin<G: Game>(game: &G) -> Option<i64> {
    let points = game.points()?;
    let first = game.first_player();
    let best_other = (0..points.len())
        .filter(|&s| s != first)
        .map(|s| points[s])
        .max()
        .unwrap_or(0);
    Some(i64::from(points[first] - best_other))
}

/// Per seat, team A's point margin (its points minus team B's) summed over the group's games
/// in which team A sat there, and the number of those games; `None` unless the game scores
/// points.
fn team_a_margins<G: Game>(games: &[G], teams: &[bool]) -> Option<Vec<(i64, u64)>> {
    let seats = teams.len();
    let mut margins = vec![(0i64, 0u64); seats];
    for (rotation, game) in games.iter().enumerate() {
        let points = game.points()?;
        let team_a = |seat: usize| teams[seat_agent(seat, rotation, seats)];
        let total = |a: bool| -> i64 {
            (0..seats)
                .filter(|&s| team_a(s) == a)
                .map(|s| i64::from(points[s]))
                .sum()
        };
        let margin = total(true) - total(false);
        for (seat, (sum, n)) in margins.iter_mut().enumerate() {
            if team_a(seat) {
                *sum += margin;
                *n += 1;
            }
        }
    }
    Some(margins)
}

/// Whether every game of a group is the same game. The games of a group share their dice seed,
/// so the same move sequence (compared by a hash of it, `fingerprints`) with the same length is the same game, whatever `position()` says of a finished game.
fn exact_replay<G: Game>(games: &[G], fingerprints: &[u64]) -> bool {
    let key = |(g, f): (&G, &u64)| (*f, g.counters().moves, g.counters().rolls);
    let mut keys = games.iter().zip(fingerprints).map(key);
    let first = keys.next();
    games.len() > 1 && fingerprints.len() == games.len() && keys.all(|k| Some(k) == first)
}

/// The counts of a run (or of any part of it).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct RunTally<G: Game> {
    /// `teams[slot]`: the slot plays for team A in head-to-head statistics.
    pub teams: Vec<bool>,
    /// How the seed groups were played (counts written before designs existed are rotations).
    #[serde(default)]
    pub design: Design,
    /// `pools[slot]`: the pooled agent (one per distinct label, in order of first seat).
    pub pools: Vec<usize>,
    pub games: u64,
    pub groups: u64,
    pub no_result: u64,
    /// Games that ended without a single winner (and with a result).
    pub draws: u64,
    /// Per agent slot: its games, or its matches where the game scores a seed group as one
    /// match on points (see [`Rules::points`](engine::Rules::points)).
    pub by_agent: Vec<Record>,
    /// Per seat: its games (its rounds, in games played in matches).
    pub by_seat: Vec<Record>,
    /// `by_agent_seat[slot * seats + seat]`: agent slot `slot`'s games in seat `seat`, e.g.
    /// whether Easy gains from moving first among three Hard players.
    #[serde(default)]
    pub by_agent_seat: Vec<Record>,
    /// The results of whoever moved first (see `Analytics::first_player`).
    pub first_player: Record,
    pub moves: Moments,
    /// Games by their exact length in moves: bounded by the longest game, not by the number of
    /// games, and merged exactly.
    pub length_counts: BTreeMap<u32, u64>,
    pub rolls: Moments,
    pub reasons: Vec<u64>,
    /// `wins_by_reason[reason * seats + seat]`: games `seat` won alone by that ending, so that
    /// every ending (an adjudication above all) is counted per side. Empty in counts written
    /// before it existed.
    #[serde(default)]
    pub wins_by_reason: Vec<u64>,
    pub captures_by_seat: Vec<u64>,
    /// Team A's score per seed group, in half-points (see [`group_half_points`]).
    pub group_scores: GroupScores,
    pub by_group: ByGroup,
    pub stats: G::Stats,
    /// `failures[slot]`: the games agent slot `slot`, an outside player, forfeited by failing,
    /// per kind in [`Forfeit::ALL`]'s order. Counted from the games like everything else here,
    /// so that they survive a resume and a merge, and leave out the games an interruption
    /// dropped. Empty until a failure: files of runs without one do not change.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<[u64; Forfeit::ALL.len()]>,
}

/// The seat that forfeited `outcome` by failing, and how; `None` for any other ending.
fn failure<R>(outcome: &Outcome<R>, seats: usize) -> Option<(usize, Forfeit)> {
    match outcome.reason {
        Ending::Forfeit(why) if why.is_failure() => (0..seats)
            .find(|&s| !outcome.winners.contains(s))
            .map(|s| (s, why)),
        _ => None,
    }
}

/// `pools[slot]` for agent labels: slots with one label share one index, in order of first seat.
#[must_use]
pub fn pools(labels: &[String]) -> Vec<usize> {
    let mut distinct: Vec<&String> = Vec::new();
    labels
        .iter()
        .map(|label| {
            distinct
                .iter()
                .position(|d| *d == label)
                .unwrap_or_else(|| {
                    distinct.push(label);
                    distinct.len() - 1
                })
        })
        .collect()
}

/// Team A's half-points in one seed group. Games scored in points (Thud) make the group one
/// match, won on the points summed over its rounds: 2R half-points for a win, R for a draw.
/// Otherwise each game gives 2 when team A holds the win, 0 when team B does, and 1 for a draw,
/// a win shared across the teams, or no result.
#[must_use]
pub fn group_half_points<G: Game>(games: &[G], teams: &[bool]) -> usize {
    let seats = teams.len();
    let rotations = games.len();
    let team_of = |seat: usize, rotation: usize| teams[seat_agent(seat, rotation, seats)];
    if games.first().and_then(G::points).is_some() {
        let mut margin = 0i64;
        for (rotation, game) in games.iter().enumerate() {
            let points = game.points().unwrap_or([0; MAX_SEATS]);
            for (seat, &p) in points[..seats].iter().enumerate() {
                margin += if team_of(seat, rotation) {
                    i64::from(p)
                } else {
                    -i64::from(p)
                };
            }
        }
        return rotations * (1 + margin.signum()) as usize;
    }
    games
        .iter()
        .enumerate()
        .map(|(rotation, game)| {
            let outcome = game.outcome().expect("finished game");
            let mut a = false;
            let mut b = false;
            for seat in outcome.winners.iter() {
                if team_of(seat, rotation) {
                    a = true;
                } else {
                    b = true;
                }
            }
            if outcome.no_result || a == b {
                1
            } else if a {
                2
            } else {
                0
            }
        })
        .sum()
}

/// Each agent slot's result in a seed group played as one match on points: the slot with the
/// most points summed over the rounds wins, slots tied at the top draw, the others lose. A
/// mirror's one round stands for every rotation, as each would replay it.
fn match_results<G: Game>(games: &[G], seats: usize) -> Vec<SeatResult> {
    let mut totals = vec![0i64; seats];
    for rotation in 0..seats {
        let game = &games[rotation % games.len()];
        let points = game.points().unwrap_or([0; MAX_SEATS]);
        for (seat, &p) in points[..seats].iter().enumerate() {
            totals[seat_agent(seat, rotation, seats)] += i64::from(p);
        }
    }
    let best = totals.iter().copied().max().unwrap_or(0);
    let leaders = totals.iter().filter(|&&t| t == best).count();
    totals
        .iter()
        .map(|&t| match (t == best, leaders) {
            (true, 1) => SeatResult::Win,
            (true, _) => SeatResult::Draw,
            (false, _) => SeatResult::Loss,
        })
        .collect()
}

impl<G: Game> RunTally<G> {
    /// Empty counts for a run of `plan`.
    #[must_use]
    /// No group scores yet: a group is one match in games played in matches (Thud), else
    /// `seats` games.
    fn group_scores(seats: usize) -> GroupScores {
        GroupScores::new(if G::GAMES_COUNT_GROUPS { 1 } else { seats })
    }

    pub fn new(plan: &Plan<G>) -> Self {
        let teams = &plan.teams;
        let seats = teams.len();
        let pools = pools(&plan.labels);
        let pooled = pools.iter().max().map_or(0, |m| m + 1);
        Self {
            teams: teams.to_vec(),
            design: plan.design,
            pools,
            games: 0,
            groups: 0,
            no_result: 0,
            draws: 0,
            by_agent: vec![Record::default(); seats],
            by_seat: vec![Record::default(); seats],
            by_agent_seat: vec![Record::default(); seats * seats],
            first_player: Record::default(),
            moves: Moments::default(),
            length_counts: BTreeMap::new(),
            rolls: Moments::default(),
            reasons: vec![0; Ending::<G::Reason>::COUNT],
            wins_by_reason: vec![0; Ending::<G::Reason>::COUNT * seats],
            captures_by_seat: vec![0; seats],
            group_scores: Self::group_scores(seats),
            by_group: ByGroup {
                agent_wins: vec![Clustered::default(); pooled],
                seat_wins: vec![Clustered::default(); seats],
                team_a_points_by_seat: vec![Clustered::default(); seats],
                ..ByGroup::default()
            },
            stats: G::Stats::default(),
            failures: Vec::new(),
        }
    }

    /// Adds the finished games of one seed group, game `r` being rotation `r`, with a hash of
    /// each game's move sequence (the replay check compares them).
    pub fn add_group(&mut self, games: &[G], fingerprints: &[u64]) {
        let seats = self.by_seat.len();
        let matches = games.first().and_then(G::points).is_some();
        if matches {
            for (slot, result) in match_results(games, seats).into_iter().enumerate() {
                self.by_agent[slot].add(result);
            }
        }
        self.add_group_sums(games);
        self.by_group.exact_replays += u64::from(exact_replay(games, fingerprints));
        for (rotation, game) in games.iter().enumerate() {
            let outcome = game
                .outcome()
                .expect("the runner only tallies finished games");
            self.games += 1;
            self.no_result += u64::from(outcome.no_result);
            self.draws += u64::from(!outcome.no_result && outcome.sole_winner().is_none());
            for seat in 0..seats {
                let result = outcome.result_of(seat);
                self.by_seat[seat].add(result);
                let slot = seat_agent(seat, rotation, seats);
                self.by_agent_seat[slot * seats + seat].add(result);
                if !matches {
                    self.by_agent[slot].add(result);
                }
            }
            self.first_player
                .add(outcome.result_of(game.first_player()));
            let counters = game.counters();
            self.moves.add(i64::from(counters.moves));
            *self.length_counts.entry(counters.moves).or_default() += 1;
            self.rolls.add(i64::from(counters.rolls));
            self.reasons[outcome.reason.index()] += 1;
            if let (Some(winner), false) = (outcome.sole_winner(), self.wins_by_reason.is_empty()) {
                self.wins_by_reason[outcome.reason.index() * seats + winner] += 1;
            }
            if let Some((seat, why)) = failure(&outcome, seats) {
                self.failures.resize(seats, [0; Forfeit::ALL.len()]);
                self.failures[seat_agent(seat, rotation, seats)][why as usize] += 1;
            }
            for (total, &c) in self
                .captures_by_seat
                .iter_mut()
                .zip(&counters.captures[..seats.min(MAX_SEATS)])
            {
                *total += u64::from(c);
            }
        }
        self.groups += 1;
        let half_points = group_half_points(games, &self.teams);
        self.group_scores.add(if G::GAMES_COUNT_GROUPS {
            half_points / games.len().max(1)
        } else {
            half_points
        });
        self.stats.add_group(games);
    }

    /// Adds one group's sums to [`ByGroup`].
    fn add_group_sums(&mut self, games: &[G]) {
        let seats = self.by_seat.len();
        let mut agent_wins = vec![0i64; self.by_group.agent_wins.len()];
        let mut seat_wins = vec![0i64; seats];
        let mut team_a = vec![(0i64, 0u64); seats];
        let (mut first, mut first_draws) = (0, 0);
        let (mut moves, mut decided, mut draws, mut timeouts) = (0, 0, 0, 0);
        for (rotation, game) in games.iter().enumerate() {
            let outcome = game.outcome().expect("finished game");
            if let Some(winner) = outcome.sole_winner() {
                seat_wins[winner] += 1;
                agent_wins[self.pools[seat_agent(winner, rotation, seats)]] += 1;
                decided += 1;
            } else if !outcome.no_result {
                draws += 1;
            }
            let first_result = outcome.result_of(game.first_player());
            first += i64::from(first_result == SeatResult::Win);
            first_draws += i64::from(first_result == SeatResult::Draw);
            for (seat, (points, n)) in team_a.iter_mut().enumerate() {
                if self.teams[seat_agent(seat, rotation, seats)] {
                    *points += match outcome.result_of(seat) {
                        SeatResult::Win => 2,
                        SeatResult::Loss => 0,
                        SeatResult::Draw | SeatResult::NoResult => 1,
                    };
                    *n += 2;
                }
            }
            moves += i64::from(game.counters().moves);
            timeouts += i64::from(outcome.reason.is_timeout());
        }
        let n = games.len() as u64;
        // Where a seed group is one match on points, each agent's unit is its match.
        let per_slot = if games.first().and_then(G::points).is_some() {
            agent_wins.iter_mut().for_each(|w| *w = 0);
            for (slot, result) in match_results(games, seats).into_iter().enumerate() {
                agent_wins[self.pools[slot]] += i64::from(result == SeatResult::Win);
            }
            1
        } else {
            n
        };
        let pool_games =
            |pool: usize| per_slot * self.pools.iter().filter(|&&p| p == pool).count() as u64;
        let b = &mut self.by_group;
        for (pool, (c, &y)) in b.agent_wins.iter_mut().zip(&agent_wins).enumerate() {
            c.add_group(y, pool_games(pool));
        }
        for (c, &y) in b.seat_wins.iter_mut().zip(&seat_wins) {
            c.add_group(y, n);
        }
        for (c, &(y, k)) in b.team_a_points_by_seat.iter_mut().zip(&team_a) {
            c.add_group(y, k);
        }
        let first_margins: Option<i64> = games.iter().map(first_player_margin).sum();
        if let Some(margin) = first_margins {
            b.first_player_margin.add_group(margin, n);
        }
        if let Some(margins) = team_a_margins(games, &self.teams) {
            b.team_a_margin_by_seat.resize(seats, Clustered::default());
            for (c, &(y, k)) in b.team_a_margin_by_seat.iter_mut().zip(&margins) {
                c.add_group(y, k);
            }
        }
        b.first_player_wins.add_group(first, n);
        b.first_player_draws.add_group(first_draws, n);
        b.moves.add_group(moves, n);
        b.decided.add_group(decided, n);
        b.draws.add_group(draws, n);
        b.timeouts.add_group(timeouts, n);
    }

    /// Checks that counts read from a file add up, for a run of `plan`: one record per slot and
    /// seat, every game counted once in each, the plan's rotations a group.
    pub fn check(&self, plan: &Plan<G>) -> Result<(), String> {
        let seats = plan.seats();
        let bad = |what: &str| Err(format!("its counts do not add up ({what})"));
        if self.teams != plan.teams {
            return bad("teams");
        }
        if self.design != plan.design {
            return bad("one game or a seat rotation per seed group");
        }
        if self.by_agent.len() != seats
            || self.by_seat.len() != seats
            || self.captures_by_seat.len() != seats
            || self.reasons.len() != Ending::<G::Reason>::COUNT
            || ![0, Ending::<G::Reason>::COUNT * seats].contains(&self.wins_by_reason.len())
            || self.group_scores.counts.len() != Self::group_scores(seats).counts.len()
        {
            return bad("table sizes");
        }
        if u128::from(self.games) != u128::from(self.groups) * plan.rotations() as u128 {
            return bad("games against seed groups");
        }
        let sum = |counts: &mut dyn Iterator<Item = u64>| -> u128 { counts.map(u128::from).sum() };
        let games = u128::from(self.games);
        // Games played in matches count matches (one a seed group) per agent.
        let agent_games = if G::GAMES_COUNT_GROUPS {
            u128::from(self.groups)
        } else {
            games
        };
        let records = (self.by_agent.iter().map(|r| (r, agent_games)))
            .chain(self.by_seat.iter().map(|r| (r, games)))
            .chain(std::iter::once((&self.first_player, games)));
        for (r, expected) in records {
            let results = sum(&mut [r.wins, r.draws, r.losses, r.no_result].into_iter());
            if u128::from(r.games) != expected || results != expected {
                return bad("win/draw/loss records");
            }
        }
        if u128::from(self.moves.n) != games
            || u128::from(self.rolls.n) != games
            || sum(&mut self.length_counts.values().copied()) != games
            || sum(&mut self.reasons.iter().copied()) != games
            || u128::from(self.draws) + u128::from(self.no_result) > games
        {
            return bad("game lengths, reasons or draws");
        }
        if !self.wins_by_reason.is_empty() {
            // Each seat's wins, ending by ending, add up to its wins, and no ending gave more
            // wins than it ended games.
            let cell = |reason: usize, seat: usize| self.wins_by_reason[reason * seats + seat];
            let by_seat = (0..seats).all(|seat| {
                let wins = sum(&mut (0..self.reasons.len()).map(|r| cell(r, seat)));
                wins == u128::from(self.by_seat[seat].wins)
            });
            let by_reason = self.reasons.iter().enumerate().all(|(r, &games)| {
                sum(&mut (0..seats).map(|seat| cell(r, seat))) <= u128::from(games)
            });
            if !by_seat || !by_reason {
                return bad("wins per ending");
            }
        }
        if sum(&mut self.group_scores.counts.iter().copied()) != u128::from(self.groups) {
            return bad("group scores");
        }
        let firsts = &self.by_group;
        if u128::from(firsts.first_player_wins.n) != games
            || u128::from(firsts.first_player_draws.n) != games
            || firsts.first_player_wins.sum != self.first_player.wins as i64
            || firsts.first_player_draws.sum != self.first_player.draws as i64
        {
            return bad("the first player's results");
        }
        // Files written before the failures were counted here have none (and may have forfeits).
        let forfeits = Forfeit::ALL.iter().filter(|f| f.is_failure());
        let forfeited = forfeits.map(|&f| self.reasons[Ending::<G::Reason>::Forfeit(f).index()]);
        let forfeited = sum(&mut forfeited.into_iter());
        let failed = sum(&mut self.failures.iter().flatten().copied());
        let resigned = self
            .failures
            .iter()
            .any(|f| f[Forfeit::Resigned as usize] != 0);
        if !self.failures.is_empty()
            && (self.failures.len() != seats || failed != forfeited || resigned)
        {
            return bad("outside players' failures");
        }
        let margins = &self.by_group.first_player_margin;
        if margins.n != 0 && (u128::from(margins.n) != games || margins.groups != self.groups) {
            return bad("the first player's margins");
        }
        Ok(())
    }

    pub fn merge(&mut self, other: &Self) {
        self.games += other.games;
        self.groups += other.groups;
        self.no_result += other.no_result;
        self.draws += other.draws;
        self.by_agent
            .iter_mut()
            .zip(&other.by_agent)
            .for_each(|(a, b)| a.merge(b));
        self.by_seat
            .iter_mut()
            .zip(&other.by_seat)
            .for_each(|(a, b)| a.merge(b));
        if self.by_agent_seat.len() < other.by_agent_seat.len() {
            self.by_agent_seat
                .resize(other.by_agent_seat.len(), Record::default());
        }
        self.by_agent_seat
            .iter_mut()
            .zip(&other.by_agent_seat)
            .for_each(|(a, b)| a.merge(b));
        self.first_player.merge(&other.first_player);
        self.moves.merge(&other.moves);
        for (&length, &count) in &other.length_counts {
            *self.length_counts.entry(length).or_default() += count;
        }
        self.rolls.merge(&other.rolls);
        self.reasons
            .iter_mut()
            .zip(&other.reasons)
            .for_each(|(a, b)| *a += b);
        // Per-side counts only where both parts kept them.
        if other.wins_by_reason.is_empty() {
            self.wins_by_reason.clear();
        }
        self.wins_by_reason
            .iter_mut()
            .zip(&other.wins_by_reason)
            .for_each(|(a, b)| *a += b);
        self.captures_by_seat
            .iter_mut()
            .zip(&other.captures_by_seat)
            .for_each(|(a, b)| *a += b);
        self.group_scores.merge(&other.group_scores);
        self.by_group.merge(&other.by_group);
        self.stats.merge(&other.stats);
        if self.failures.len() < other.failures.len() {
            self.failures
                .resize(other.failures.len(), [0; Forfeit::ALL.len()]);
        }
        for (a, b) in self.failures.iter_mut().zip(&other.failures) {
            a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
        }
    }
}
