//! Tournaments: several agents in one experiment, every pair (`round-robin`) or the first
//! against each other (`gauntlet`), each pairing a two-agent match on common seeds (sides swapped
//! or seats rotated as the game requires), one summary holding every pairing and the ratings.

use engine::Game;
use serde::{Deserialize, Serialize};

use crate::InputError;
use crate::batch::summary::{Estimate, Summary, summarize};
use crate::config::{Experiment, Format};
use crate::strength::{Matches, match_plan};

/// One agent's fitted rating.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Rating {
    pub agent: String,
    pub elo: Estimate,
}

/// One pairing of a tournament, with the full summary of its match.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PairingSummary<R> {
    pub agent: String,
    pub opponent: String,
    pub summary: Summary<R>,
}

/// What a tournament writes to `summary.json` (the writer adds `run`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TournamentSummary<R> {
    pub game: String,
    pub seed: u64,
    pub format: Format,
    pub agents: Vec<String>,
    pub games_per_pairing: u64,
    pub partial: bool,
    /// Bradley–Terry ratings, the first agent anchored at 0. After an interruption, agents
    /// that never played have none (they are left out).
    pub ratings: Vec<Rating>,
    /// What the fit adds to the counts (see [`crate::strength::stats::ladder::PRIOR`]).
    pub prior: String,
    /// `score_matrix[i][j]`: agent `i`'s mean score per game against agent `j`; null where they
    /// did not meet.
    pub score_matrix: Vec<Vec<Option<f64>>>,
    pub pairings: Vec<PairingSummary<R>>,
}

/// Checks a tournament's agents: at least two, no duplicates.
pub fn check_agents(agents: &[String]) -> Result<(), InputError> {
    if agents.len() < 2 {
        return Err(InputError::new(format!(
            "a tournament needs at least two agents, got {}",
            agents.len()
        )));
    }
    if let Some((i, a)) = agents
        .iter()
        .enumerate()
        .find(|(i, a)| agents[..*i].contains(a))
    {
        return Err(InputError::new(format!(
            "agent `{a}` is listed twice (position {})",
            i + 1
        )));
    }
    Ok(())
}

/// The pairs of a tournament of `exp.agents` in `format`, with every agent checked before
/// anything is played, and the games the pairs play in all.
pub fn tournament_pairs<G: Game>(
    exp: &Experiment,
    format: Format,
) -> Result<(Vec<(usize, usize)>, u64), InputError> {
    check_agents(&exp.agents)?;
    let pairs = format.pairs(exp.agents.len());
    for &(a, b) in &pairs {
        match_plan::<G>(exp, &exp.agents[a], &exp.agents[b])?;
    }
    let per_pairing = match_plan::<G>(exp, &exp.agents[0], &exp.agents[1])?.games();
    let games = per_pairing * pairs.len() as u64;
    Ok((pairs, games))
}

/// The summary of a played tournament.
pub fn summarize_tournament<G: Game>(
    base: &Experiment,
    format: Format,
    matches: &Matches<G>,
) -> Result<TournamentSummary<<G::Stats as engine::GameStats<G>>::Summary>, InputError> {
    let agents = &base.agents;
    let mut score_matrix = vec![vec![None; agents.len()]; agents.len()];
    let mut pairings = Vec::new();
    for (k, (a, b, tally)) in matches.results.iter().enumerate() {
        // Only the last pairing can have been cut short.
        let partial = matches.partial && k + 1 == matches.results.len();
        let plan = match_plan::<G>(base, &agents[*a], &agents[*b])?;
        let score = tally.group_scores.estimate().score.value;
        score_matrix[*a][*b] = Some(score);
        score_matrix[*b][*a] = Some(1.0 - score);
        pairings.push(PairingSummary {
            agent: agents[*a].clone(),
            opponent: agents[*b].clone(),
            summary: summarize(&plan, base.time_control, tally, partial),
        });
    }
    Ok(TournamentSummary {
        game: G::NAME.to_owned(),
        seed: base.seed,
        format,
        agents: agents.clone(),
        games_per_pairing: base.games,
        partial: matches.partial,
        ratings: agents
            .iter()
            .zip(matches.played_ratings(agents.len()))
            .filter_map(|(agent, rating)| rating.map(|r| (agent, r)))
            .map(|(agent, elo)| Rating {
                agent: agent.clone(),
                elo,
            })
            .collect(),
        prior: crate::strength::stats::ladder::PRIOR.to_owned(),
        score_matrix,
        pairings,
    })
}

#[cfg(test)]
mod tests {
    use engine::games::ludo::Ludo;

    use super::*;
    use crate::config::ExperimentFile;
    use crate::observer::Quiet;
    use crate::strength::play_matches;

    #[test]
    fn formats_pair_agents() {
        assert_eq!(Format::RoundRobin.pairs(3), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(Format::Gauntlet.pairs(3), vec![(0, 1), (0, 2)]);
        assert!(
            Format::parse("swiss")
                .unwrap_err()
                .to_string()
                .contains("accepted: round-robin, gauntlet")
        );
        assert!(
            check_agents(&["hard".into(), "hard".into()])
                .unwrap_err()
                .to_string()
                .contains("listed twice")
        );
    }

    #[test]
    fn tournaments_check_every_agent_and_count_every_pairing() {
        let exp = |agents: &[&str]| {
            ExperimentFile {
                agents: Some(agents.iter().map(|a| (*a).to_owned()).collect()),
                games: Some(80),
                ..ExperimentFile::default()
            }
            .resolve()
        };
        let three = exp(&["easy", "normal", "hard"]);
        let per_pair = match_plan::<Ludo>(&three, "easy", "normal")
            .unwrap()
            .games();
        let (pairs, games) = tournament_pairs::<Ludo>(&three, Format::RoundRobin).unwrap();
        assert_eq!((pairs.len(), games), (3, 3 * per_pair));
        let (pairs, games) = tournament_pairs::<Ludo>(&three, Format::Gauntlet).unwrap();
        assert_eq!((pairs.len(), games), (2, 2 * per_pair));
        // An unknown level in the last pairing is refused before anything is played.
        let bad = exp(&["easy", "normal", "no-such-level"]);
        assert!(tournament_pairs::<Ludo>(&bad, Format::RoundRobin).is_err());
    }

    #[test]
    fn a_round_robin_of_three_ludo_levels_fills_the_matrix() {
        let agents: Vec<String> = ["easy", "normal", "hard"].map(String::from).to_vec();
        let base = ExperimentFile {
            agents: Some(agents.clone()),
            games: Some(800),
            seed: Some(4),
            ..ExperimentFile::default()
        }
        .resolve();
        let pairs = Format::RoundRobin.pairs(3);
        let matches = play_matches::<Ludo>(&base, &agents, &pairs, 0, &mut Quiet::new()).unwrap();
        let summary = summarize_tournament(&base, Format::RoundRobin, &matches).unwrap();
        for i in 0..3 {
            for j in 0..3 {
                let cell = summary.score_matrix[i][j];
                assert_eq!(cell.is_some(), i != j, "{i} {j}");
                if let (Some(x), Some(y)) = (cell, summary.score_matrix[j][i]) {
                    assert!((x + y - 1.0).abs() < 1e-12);
                }
            }
        }
        assert_eq!(summary.pairings.len(), 3);
        assert_eq!(summary.pairings[2].summary.games_played, 800);
        assert!(
            summary.ratings[2].elo.value > summary.ratings[1].elo.value
                && summary.ratings[1].elo.value > 0.0
        );
    }
}
