//! The session logic of the browser package, run natively: the same code the WebAssembly module
//! runs, checked against the engine's own seeded game loop (what `koom play` runs).
#![cfg(not(target_arch = "wasm32"))]

use engine::selfplay::SeededGame;
use std::cell::Cell;

use engine::{Clock, Game, GameVisitor, Level, NoClock, TimeControl, visit_game};
use web::session::{AnySession, Budget, Config, start};

const BATCH: Budget = Budget::Level(TimeControl::Batch);

fn config(json: &str) -> Config {
    Config::from_json(json).unwrap()
}

fn new(game: &str, json: &str) -> Box<dyn AnySession> {
    start(game, &config(json)).unwrap()
}

fn start_error(game: &str, json: &str) -> String {
    match Config::from_json(json).and_then(|c| start(game, &c)) {
        Ok(_) => panic!("{game} {json} started"),
        Err(e) => e.0,
    }
}

/// Plays a whole game through the session, seat `s` by `levels[s]`, returning the narration
/// and the moves.
fn session_game(game: &str, seed: u64, levels: &[&str]) -> (String, Vec<String>) {
    let seats = levels.len();
    let mut s = new(game, &format!(r#"{{"seed": {seed}, "seats": {seats}}}"#));
    while let Some(seat) = s.state().to_move {
        // Hints, asked of any level, leave no trace in the game.
        s.hint(levels[(seat + 1) % seats], BATCH, &NoClock).unwrap();
        let hint = s.hint(levels[seat], BATCH, &NoClock).unwrap();
        let played = s.play_level(levels[seat], BATCH, &NoClock).unwrap();
        assert_eq!(played.mv, *s.state().moves.last().unwrap());
        // The hint agent has seen the same positions and draws from a copy of the same
        // stream: the hint is the move.
        assert_eq!(hint.mv, played.mv, "{game}");
    }
    (s.take_narration(), s.state().moves)
}

/// The narration of the engine's seeded loop for the same game (master seed `seed`, seed group
/// 0, rotation 0): it names every roll and every move.
struct Reference<'a> {
    seed: u64,
    levels: &'a [&'a str],
}

impl GameVisitor for Reference<'_> {
    type Output = String;

    fn visit<G: Game>(self) -> String {
        let mut agents: Vec<_> = self
            .levels
            .iter()
            .map(|name| Level::<G>::named(name).unwrap().setup().agent())
            .collect();
        let mut narration = String::new();
        SeededGame::<G> {
            options: &G::Options::default(),
            seats: self.levels.len(),
            seed: engine::game_seed(self.seed, 0),
            clock: &NoClock,
            adjudication: Default::default(),
        }
        .play(&mut agents, |s| s, &mut narration, |_| {});
        narration
    }
}

#[test]
fn a_seeded_game_between_levels_is_the_engine_loops_game() {
    let cases: [(&str, u64, &[&str]); 4] = [
        ("ludo", 7, &["hard", "normal", "easy", "hard"]),
        ("thud", 7, &["balanced", "easy"]),
        ("trente-douze", 7, &["hard", "normal", "easy"]),
        ("hnefatafl", 7, &["normal", "easy"]),
    ];
    for (game, seed, levels) in cases {
        let (narration, moves) = session_game(game, seed, levels);
        let expected = visit_game(game, Reference { seed, levels }).unwrap();
        assert!(!moves.is_empty(), "{game}: no moves");
        assert_eq!(narration, expected, "{game}: the narration differs");
    }
}

#[test]
fn bad_input_is_one_clear_error() {
    assert_eq!(
        start_error("chess", r#"{"seed": 1}"#),
        format!(
            "unknown game `chess` (accepted: {})",
            engine::GAME_NAMES.join(", ")
        )
    );
    assert!(start_error("thud", r#"{"seed": 1, "speed": 3}"#).contains("unknown field `speed`"));
    assert!(start_error("thud", r#"{"seats": 2}"#).contains("missing field `seed`"));
    assert_eq!(
        start_error("thud", r#"{"seed": "x1"}"#),
        "seed `x1` is not a whole number from 0 to 2^64-1"
    );
    assert_eq!(
        start_error("thud", r#"{"seed": 1, "seats": 3}"#),
        "thud is played by 2 seats, not 3"
    );
    assert_eq!(
        start_error("trente-douze", r#"{"seed": 1, "seats": 9}"#),
        "trente-douze is played by 2 to 8 seats, not 9"
    );
    assert!(
        start_error("thud", r#"{"seed": 1, "options": {"ply_cap": "long"}}"#)
            .starts_with("malformed thud options: invalid type: string \"long\"")
    );
    assert!(
        start_error("ludo", r#"{"seed": 1, "options": {"roll_cap": 0}}"#)
            .starts_with("ludo: options.roll_cap must be at least 1")
    );
    assert!(
        start_error("hnefatafl", r#"{"seed": 1, "position": "/11/ a"}"#)
            .starts_with("hnefatafl position `/11/ a`: ")
    );
    assert!(start_error("ludo", "[1, 2").starts_with("malformed game config: "));

    let mut thud = new("thud", r#"{"seed": 1}"#);
    let err = thud.play("A1-A2").unwrap_err().0;
    assert_eq!(
        err,
        "illegal thud move `A1-A2` for seat 0 (656 legal moves here)"
    );
    let err = thud.hint("grandmaster", BATCH, &NoClock).unwrap_err().0;
    assert_eq!(
        err,
        "unknown thud level `grandmaster` (accepted: beginner, easy, balanced, hard, expert)"
    );
    assert!(thud.state().moves.is_empty(), "nothing was played");
}

#[test]
fn a_finished_game_refuses_moves_and_names_its_result() {
    let mut s = new(
        "hnefatafl",
        r#"{"seed": 1, "position": "/11/11/11/11/11/11/5t5/11/11/K10/11/ d"}"#,
    );
    s.play("a2-a1").unwrap();
    let state = s.state();
    let result = state.result.expect("the king reached a corner");
    assert_eq!(state.to_move, None);
    assert!(state.legal_moves.is_empty());
    assert_eq!(result.winners, vec![1], "the defenders win");
    let err = s.play("a1-a2").unwrap_err().0;
    assert_eq!(err, "the hnefatafl game is over (corner): no more moves");
    assert_eq!(result.reason, "corner");
}

#[test]
fn legal_moves_match_koom_perft_at_depth_one() {
    // `koom perft --game G --depth 1 --position P` (the positions come from engine/tests/data).
    let cases = [
        (
            "thud",
            "5/3d3/3d5/3d2T4/2d3T6/3d5T5/3d8d2/7R3d3/3T2TTT1d4/13d1/1ddd2T6/7d3/6d2/1d5/5 t",
            90,
        ),
        (
            "hnefatafl",
            "/11/7T2t/9t1/11/11/2T8/1t9/11/1KT8/3t4t2/4t6/ d",
            51,
        ),
        (
            "trente-douze",
            "seats=4 round=2 scores=30,12,-3,30 past=5,-3,-1,-2 turn=1 mover=1 first-dead=2 threshold=big kept=66 roll=1345",
            15,
        ),
    ];
    for (game, position, count) in cases {
        let s = new(
            game,
            &format!(
                r#"{{"seed": 1, "position": {}}}"#,
                serde_json::json!(position)
            ),
        );
        let state = s.state();
        assert_eq!(state.legal_moves.len(), count, "{game} {position}");
        assert_eq!(state.position, position, "{game}: the position reads back");
    }
}

#[test]
fn undo_restores_the_position_and_the_dice() {
    let mut s = new("ludo", r#"{"seed": "18446744073709551615"}"#);
    let start = s.state();
    let first = s.take_narration();
    let mv = start.legal_moves[0].clone();
    s.play(&mv).unwrap();
    let after = (s.state().position, s.take_narration());
    assert!(s.undo());
    assert_eq!(s.state().position, start.position);
    assert!(s.state().moves.is_empty());
    s.play(&mv).unwrap();
    assert_eq!(
        (s.state().position, s.take_narration()),
        after,
        "the same dice after undo"
    );
    assert!(s.undo() && !s.undo(), "nothing before the first move");
    assert!(first.contains("rolls"), "{first}");
}

/// A clock that advances one millisecond each time a search reads it.
#[derive(Default)]
struct TickingClock(Cell<u64>);

impl Clock for TickingClock {
    fn now_ms(&self) -> u64 {
        self.0.set(self.0.get() + 1);
        self.0.get()
    }
}

#[test]
fn node_and_time_budgets_set_the_levels_search_parameters() {
    let budget = |json: &str| Budget::from_json(json);
    assert_eq!(
        budget(r#""player""#),
        Ok(Budget::Level(TimeControl::Player))
    );
    assert_eq!(budget(r#"{"nodes": 5000}"#), Ok(Budget::Nodes(5000.0)));
    assert_eq!(budget(r#"{"timeMs": 250}"#), Ok(Budget::TimeMs(250.0)));
    assert_eq!(
        budget(r#""blitz""#).unwrap_err().0,
        r#"budget `"blitz"` is not "batch", "player", {"nodes": N} or {"timeMs": N}"#
    );
    assert!(budget(r#"{"nodes": 1, "timeMs": 1}"#).is_err());

    let mut ludo = new("ludo", r#"{"seed": 1}"#);
    assert_eq!(
        ludo.hint("hard", Budget::Nodes(1000.0), &NoClock)
            .unwrap_err()
            .0,
        "ludo level `hard` has no `nodes` budget"
    );
    let mut hnef = new("hnefatafl", r#"{"seed": 1}"#);
    let err = hnef
        .hint("expert", Budget::Nodes(-1.0), &NoClock)
        .unwrap_err()
        .0;
    assert!(err.starts_with("hnefatafl level `expert`: "), "{err}");
    // Under a time budget the search stops on the injected clock: Expert's 12-ply player depth
    // would take minutes, a 40 ms budget on a clock that ticks at each reading stops it at once.
    let clock = TickingClock::default();
    let hint = hnef.hint("expert", Budget::TimeMs(40.0), &clock).unwrap();
    assert!(hnef.state().legal_moves.contains(&hint.mv));
    assert!(
        clock.0.get() < 1000,
        "the clock was read {} times",
        clock.0.get()
    );
}

/// The hint of every level, at a mid-game position reached by human moves, computed natively:
/// a fresh agent of the level (batch budget, default weights) analysing the same position with
/// the seat's tie-break stream, as `koom analyse` does.
struct NativeHints {
    seed: u64,
    seats: usize,
    moves: Vec<String>,
}

/// (level, move, score, pv, depth, nodes) for every level.
type HintRow = (String, String, Option<f64>, Vec<String>, u32, u64);

impl GameVisitor for NativeHints {
    type Output = Vec<HintRow>;

    fn visit<G: Game>(self) -> Vec<HintRow> {
        let seed = engine::game_seed(self.seed, 0);
        let mut dice = engine::RandomStream::dice(seed);
        let mut game = G::new(
            &G::Options::default(),
            self.seats,
            &mut dice,
            &mut engine::NoLog,
        );
        for text in &self.moves {
            let mv = game.parse_move(text).unwrap();
            game.play(mv, &mut dice, &mut engine::NoLog);
        }
        let mut legal = G::MoveList::default();
        game.legal_moves(&mut legal);
        G::levels()
            .iter()
            .map(|l| {
                let mut agent = l.setup().agent();
                agent.new_game();
                let mut rng = engine::RandomStream::tie_break(seed, game.to_move());
                let a = agent.analyse(
                    &game,
                    &legal,
                    &mut engine::Context {
                        rng: &mut rng,
                        clock: &NoClock,
                    },
                );
                let mut pv = Vec::new();
                let mut line = game.clone();
                let mut d = engine::RandomStream::dice(0);
                for &mv in &a.pv {
                    if line.outcome().is_some() {
                        break;
                    }
                    pv.push(line.format_move(mv));
                    line.play(mv, &mut d, &mut engine::NoLog);
                }
                (
                    l.name.to_owned(),
                    game.format_move(a.best),
                    a.score,
                    pv,
                    a.depth,
                    a.nodes,
                )
            })
            .collect()
    }
}

#[test]
fn the_hint_carries_the_score_of_agent_analyse() {
    for (game, seats) in [
        ("ludo", 4),
        ("thud", 2),
        ("trente-douze", 3),
        ("hnefatafl", 2),
    ] {
        let seed = 5;
        let mut s = new(game, &format!(r#"{{"seed": {seed}, "seats": {seats}}}"#));
        // Human moves (no tie-break draws) to a mid-game position.
        for _ in 0..6 {
            let mv = s.state().legal_moves[0].clone();
            s.play(&mv).unwrap();
        }
        let before = s.state();
        let expected = visit_game(
            game,
            NativeHints {
                seed,
                seats,
                moves: before.moves.clone(),
            },
        )
        .unwrap();
        let mut scored = 0;
        for (level, mv, score, pv, depth, nodes) in expected {
            let hint = s.hint(&level, BATCH, &NoClock).unwrap();
            assert_eq!(hint.mv, mv, "{game} {level}");
            assert_eq!(hint.score, score, "{game} {level}: the score");
            assert_eq!(hint.pv, pv, "{game} {level}: the pv");
            assert_eq!(hint.pv.first(), Some(&hint.mv), "{game} {level}");
            assert_eq!((hint.depth, hint.nodes), (depth, nodes), "{game} {level}");
            scored += usize::from(hint.score.is_some());
        }
        // Every game has a level that scores its moves; the hints left no trace.
        assert!(scored > 0, "{game}: no level gave a score");
        assert_eq!(s.state(), before, "{game}: a hint changed the game");
    }
}

#[test]
fn a_record_line_or_a_move_list_is_read() {
    use web::session::parse_record;
    let list = parse_record("d1-b1, e5-e2\nf1-f3\n").unwrap();
    assert_eq!(list.moves, ["d1-b1", "e5-e2", "f1-f3"]);
    assert_eq!((list.group, list.start, list.agents.len()), (None, None, 0));
    // A line as `koom run --records` writes it (engine/src/record.rs).
    let line = "7\t3\t1\t99\tcmd:x y,hard\tseat 1 wins\tcorner\tdefault\tstart\td1-b1,e5-e2\t-\n";
    let record = parse_record(line).unwrap();
    assert_eq!(record.group, Some(3));
    assert_eq!(record.agents, ["cmd:x y", "hard"]);
    assert_eq!(record.result.as_deref(), Some("seat 1 wins"));
    assert_eq!(record.reason.as_deref(), Some("corner"));
    assert_eq!(record.start, None);
    assert_eq!(record.moves, ["d1-b1", "e5-e2"]);
    let started = parse_record("0\t0\t0\t5\ta,b\tdraw\tcap\tdefault\tPOS 1\t\t-").unwrap();
    assert_eq!(started.start.as_deref(), Some("POS 1"));
    assert!(started.moves.is_empty());
    assert_eq!(
        parse_record("1\t2\t3").unwrap_err().0,
        "bad record `1\\t2\\t3`: a record has 11 tab-separated fields (index, group, rotation, seed, agents, result, reason, rules, start, moves, opening) and an optional scores, this one has 3"
    );
    assert!(
        parse_record("1\tx\t0\t5\ta,b\tdraw\tcap\tdefault\tstart\t\t-")
            .unwrap_err()
            .0
            .ends_with(": group `x` is not a number")
    );
}

/// A `koom run --records` line (its format, tuner/src/batch/records.rs) of a game without dice replays
/// in a session whatever the page's seed: the record's group, then its moves.
#[test]
fn a_recorded_game_replays_in_the_session() {
    for (game, seats) in [("thud", 2), ("hnefatafl", 2)] {
        let mut s = new(game, &format!(r#"{{"seed": 9, "seats": {seats}}}"#));
        for _ in 0..10 {
            let mv = s.state().legal_moves[0].clone();
            s.play(&mv).unwrap();
        }
        let moves = s.state().moves;
        let line = format!(
            "0\t4\t0\t7\teasy,hard\tnone\tnone\tdefault\tstart\t{}\t-",
            moves.join(",")
        );
        let record = web::session::parse_record(&line).unwrap();
        let mut r = new(
            game,
            &format!(r#"{{"seed": 1, "group": 4, "seats": {seats}}}"#),
        );
        for mv in &record.moves {
            r.play(mv).unwrap();
        }
        assert_eq!(r.state().position, s.state().position, "{game}");
    }
}
