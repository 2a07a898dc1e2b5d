//! `koom play`: one game (or one seed group), narrated.

use std::fmt;
use std::process::ExitCode;

use engine::{Game, GameVisitor, Log};
use tuner::batch::runner::{new_agents, play_game, row_of};
use tuner::config::{Experiment, ExperimentFile, Plan};

use super::args::PlayArgs;
use super::live::WallClock;

/// Narration straight to standard output.
struct Stdout;

impl Log for Stdout {
    fn line(&mut self, text: fmt::Arguments<'_>) {
        outln!("{text}");
    }
}

struct PlayGame<'a> {
    exp: &'a Experiment,
    args: &'a PlayArgs,
}

impl GameVisitor for PlayGame<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self) -> anyhow::Result<ExitCode> {
        if let Some(line) = &self.args.record {
            return narrate_record::<G>(line, self.args.boards);
        }
        let plan = Plan::<G>::new(self.exp)?;
        let per_group = plan.rotations() as u64;
        let group = self.args.index / per_group;
        // A match is the unit of games played in matches (Thud): replay all of it.
        let rotations = if self.args.group || G::GAMES_COUNT_GROUPS {
            0..plan.rotations()
        } else {
            let rotation = (self.args.index % per_group) as usize;
            rotation..rotation + 1
        };
        let mut agents = new_agents(&plan);
        let clock = WallClock::new();
        let header = reports::csv_line(&reports::GamesCsv::header(plan.seats()));
        // Each agent slot's points over the rounds, in games scored on points.
        let mut totals: Option<Vec<i64>> = None;
        for rotation in rotations {
            print_heading(&plan, group, rotation);
            let boards = self.args.boards;
            let mut first = true;
            let game = play_game(
                &plan,
                &mut agents,
                (group, rotation),
                &clock,
                &mut Stdout,
                |g: &G| {
                    // The start position always; every later one with --boards.
                    if boards || std::mem::take(&mut first) {
                        out!("{}", g.render());
                    }
                },
                |_, _, _| {},
            );
            out!("{}", game.render());
            print_result(&plan, &game, rotation);
            if let Some(points) = game.points() {
                let totals = totals.get_or_insert_with(|| vec![0; plan.seats()]);
                for (seat, &p) in points[..plan.seats()].iter().enumerate() {
                    totals[engine::seat_agent(seat, rotation, plan.seats())] += i64::from(p);
                }
            }
            let row = row_of(&plan, &game, group, rotation);
            outln!("{header}");
            outln!(
                "{}",
                reports::csv_line(&reports::GamesCsv::fields(&row, &plan.labels))
            );
        }
        if let Some(totals) = totals.filter(|_| G::GAMES_COUNT_GROUPS || self.args.group) {
            outln!("{}", match_line(&plan.labels, &totals));
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// The game's heading: its index, seed, group and rotation, who plays which seat, and the
/// opening it starts from.
fn print_heading<G: Game>(plan: &Plan<G>, group: u64, rotation: usize) {
    let seats = plan.seats();
    let seating: Vec<String> = (0..seats)
        .map(|s| {
            format!(
                "{}: {}",
                G::seat_name(s),
                plan.labels[engine::seat_agent(s, rotation, seats)]
            )
        })
        .collect();
    outln!(
        "== {} game {} (seed {}, group {group}, rotation {rotation}) ==",
        G::NAME,
        group * plan.rotations() as u64 + rotation as u64,
        plan.seed
    );
    outln!("{}", seating.join(", "));
    if let Some(suite) = &plan.openings {
        let opening = suite.for_group(group);
        outln!(
            "from opening {} (line {} of {}): {}{}",
            suite.index_of(group),
            opening.line,
            suite.info.path,
            opening.start.as_deref().unwrap_or("the initial position"),
            if opening.moves.is_empty() {
                String::new()
            } else {
                format!(", then {}", opening.moves.join(", "))
            }
        );
    }
}

/// `result: won by <seat>, <agent> (<reason>)`, a draw or no result, when the game ended.
fn print_result<G: Game>(plan: &Plan<G>, game: &G, rotation: usize) {
    let Some(outcome) = game.outcome() else {
        return;
    };
    let result = match outcome.sole_winner() {
        _ if outcome.no_result => "no result".to_owned(),
        Some(seat) => format!(
            "won by {}, {}",
            G::seat_name(seat),
            plan.labels[engine::seat_agent(seat, rotation, plan.seats())]
        ),
        None => "draw".to_owned(),
    };
    outln!("result: {result} ({})", outcome.reason.name());
}

/// `koom play --record LINE`: the recorded game move by move, checked against its result.
fn narrate_record<G: Game>(line: &str, boards: bool) -> anyhow::Result<ExitCode> {
    // The whole line is replayed first, so that a bad record prints nothing but its error.
    // Each ply: the seat, the move, and the board it is played on (the first, or all with
    // --boards).
    let mut plies: Vec<(usize, String, Option<String>)> = Vec::new();
    let (record, end) = tuner::batch::records::replay::<G>(line, |g, mv| {
        let board = (boards || plies.is_empty()).then(|| g.render());
        plies.push((g.to_move(), g.format_move(mv), board));
    })?;
    outln!(
        "== {} game {} (group {}, rotation {}, seed {}): {} ==",
        G::NAME,
        record.index,
        record.group,
        record.rotation,
        record.seed,
        record.agents.join(", ")
    );
    let last = end.render();
    let board_before = |ply: usize| plies.get(ply).and_then(|p| p.2.as_deref());
    out!("{}", board_before(0).unwrap_or(&last));
    for (ply, (seat, text, _)) in plies.iter().enumerate() {
        outln!(
            "{:>4}. seat {seat} ({}): {text}",
            ply + 1,
            record.agents.get(*seat).map_or("?", String::as_str),
        );
        if boards {
            out!("{}", board_before(ply + 1).unwrap_or(&last));
        }
    }
    if !boards && !plies.is_empty() {
        out!("{last}");
    }
    outln!("result: {} ({})", record.result, record.reason);
    Ok(ExitCode::SUCCESS)
}

/// `match: hard 48 points, balanced 35 points: hard wins the match`.
fn match_line(labels: &[String], totals: &[i64]) -> String {
    let scores: Vec<String> = labels
        .iter()
        .zip(totals)
        .map(|(label, points)| format!("{label} {points} points"))
        .collect();
    let best = totals.iter().copied().max().unwrap_or(0);
    let leaders: Vec<&String> = labels
        .iter()
        .zip(totals)
        .filter(|&(_, &t)| t == best)
        .map(|(l, _)| l)
        .collect();
    let verdict = match leaders.as_slice() {
        [one] => format!("{one} wins the match"),
        _ => "the match is drawn".to_owned(),
    };
    format!("match: {}: {verdict}", scores.join(", "))
}

pub fn play(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let exp = args
        .experiment
        .experiment(ExperimentFile::default())?
        .resolve();
    engine::visit_game(
        &exp.game,
        PlayGame {
            exp: &exp,
            args: &args,
        },
    )?
}
