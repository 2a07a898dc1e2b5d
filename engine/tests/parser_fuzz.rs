//! Seeded fuzzing of every game's position and move readers (issue: no panic on hostile input).
//!
//! Real texts are taken from games played by random moves, then mutated byte by byte (replaced,
//! deleted, duplicated, or a digit run made huge) and fed back, together with random garbage.
//! Every reader must either refuse the text with an error of one line, or accept it; an accepted
//! position must write back a text that reads as the very same position (round trip). Record lines
//! of random games must replay, and mutated ones be refused in one line or replay. The budget
//! is fixed, so the test is reproducible and quick.

use engine::record::{Record, result_text};
use engine::{GAME_NAMES, Game, GameVisitor, NoLog, RandomStream, visit_game};

/// Mutations per game (positions and moves each).
const MUTATIONS: usize = 3000;

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Positions met along a few games of random moves (the start included).
fn sample_positions<G: Game>(state: &mut u64) -> Vec<G> {
    let mut out = Vec::new();
    for game_no in 0..4u64 {
        let mut dice = RandomStream::dice(game_no + 1);
        let seats = G::SEATS.0;
        let mut game = G::new(&G::Options::default(), seats, &mut dice, &mut NoLog);
        let mut moves = G::MoveList::default();
        for _ in 0..60 {
            out.push(game.clone());
            if game.outcome().is_some() {
                break;
            }
            game.legal_moves(&mut moves);
            let mv = moves[(xorshift(state) % moves.len() as u64) as usize];
            game.play(mv, &mut dice, &mut NoLog);
        }
    }
    out
}

fn mutate(text: &str, state: &mut u64) -> String {
    let mut bytes = text.as_bytes().to_vec();
    if bytes.is_empty() {
        return String::from_utf8_lossy(&[(xorshift(state) % 256) as u8]).into_owned();
    }
    for _ in 0..=(xorshift(state) % 3) {
        let len = bytes.len();
        let at = (xorshift(state) % (len as u64 + 1)) as usize;
        match xorshift(state) % 5 {
            0 if at < len => bytes[at] = (xorshift(state) % 256) as u8,
            1 if at < len => {
                bytes.remove(at);
            }
            2 => bytes.insert(at, b"0123456789/xX- \n"[(xorshift(state) % 16) as usize]),
            3 => {
                bytes.splice(at..at, b"18446744073709551617".iter().copied());
            }
            _ => bytes.truncate(at),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A refusal must be one bounded line, whatever the input held.
fn assert_one_line<G: Game>(e: &impl std::fmt::Display, bad: &str) {
    let text = e.to_string();
    assert!(
        !text.contains('\n') && text.len() < 400,
        "{}: a multi-line or huge error for {bad:?}",
        G::NAME
    );
}

struct Fuzz;

impl GameVisitor for Fuzz {
    type Output = (usize, usize);

    fn visit<G: Game>(self) -> (usize, usize) {
        let mut state = 0x2545_f491_4f6c_dd1d ^ G::NAME.len() as u64;
        let samples = sample_positions::<G>(&mut state);
        let options = G::Options::default();
        let (mut refused, mut accepted) = (0, 0);
        for i in 0..MUTATIONS {
            let base = &samples[i % samples.len()];
            // Positions: mutated real texts, for games that have a notation.
            if let Some(text) = base.position() {
                let bad = mutate(&text, &mut state);
                match G::from_position(&bad, &options) {
                    Err(e) => {
                        assert_one_line::<G>(&e, &bad);
                        refused += 1;
                    }
                    Ok(pos) => {
                        let again = pos
                            .position()
                            .expect("a position that was read writes back");
                        let reread = G::from_position(&again, &options).unwrap_or_else(|e| {
                            panic!("{}: {again:?} does not read back: {e}", G::NAME)
                        });
                        assert_eq!(reread.position(), Some(again), "{}: round trip", G::NAME);
                        accepted += 1;
                    }
                }
            }
            // Moves: mutated texts of legal moves, read in that position.
            let mut moves = G::MoveList::default();
            if base.outcome().is_none() {
                base.legal_moves(&mut moves);
                let mv = moves[(xorshift(&mut state) % moves.len() as u64) as usize];
                let bad = mutate(&base.format_move(mv), &mut state);
                match base.parse_move(&bad) {
                    Err(e) => {
                        assert_one_line::<G>(&e, &bad);
                        refused += 1;
                    }
                    Ok(parsed) => {
                        assert!(
                            moves.contains(&parsed),
                            "{}: {bad:?} read as an illegal move",
                            G::NAME
                        );
                        accepted += 1;
                    }
                }
            }
        }
        (refused, accepted)
    }
}

#[test]
fn every_reader_refuses_or_round_trips_mutated_input_without_panicking() {
    for name in GAME_NAMES {
        let (refused, accepted) = visit_game(name, Fuzz).unwrap();
        // Most mutations break the text; the test would prove nothing if none did.
        assert!(
            refused > MUTATIONS / 2,
            "{name}: only {refused} of the mutated texts refused ({accepted} accepted)"
        );
    }
}

/// Mutations of record lines per game.
const RECORD_MUTATIONS: usize = 600;

/// The record of a game of random moves on the dice of `seed`, to its end (or `None` when a
/// random game does not end within the plies a test can afford).
fn random_record<G: Game>(seed: u64, state: &mut u64) -> Option<Record> {
    let seats = G::SEATS.0;
    let mut dice = RandomStream::dice(seed);
    let mut game = G::new(&G::Options::default(), seats, &mut dice, &mut NoLog);
    let mut moves = G::MoveList::default();
    let mut texts = Vec::new();
    while game.outcome().is_none() {
        if texts.len() == 3000 {
            return None;
        }
        game.legal_moves(&mut moves);
        let mv = moves[(xorshift(state) % moves.len() as u64) as usize];
        texts.push(game.format_move(mv));
        game.play(mv, &mut dice, &mut NoLog);
    }
    let outcome = game.outcome()?;
    Some(Record {
        index: seed,
        group: seed,
        rotation: 0,
        seed,
        agents: vec!["easy".to_owned(); seats],
        result: result_text(&outcome),
        reason: outcome.reason.name().to_owned(),
        rules: None,
        start: None,
        moves: texts,
        opening: None,
        scores: None,
    })
}

struct FuzzRecords;

impl GameVisitor for FuzzRecords {
    type Output = (usize, usize);

    fn visit<G: Game>(self) -> (usize, usize) {
        let mut state = 0x9e37_79b9_7f4a_7c15 ^ G::NAME.len() as u64;
        let records: Vec<Record> = (1..=6)
            .filter_map(|seed| random_record::<G>(seed, &mut state))
            .collect();
        assert!(records.len() >= 3, "{}: too few random games end", G::NAME);
        let options = G::Options::default();
        for record in &records {
            let line = record.to_string();
            assert_eq!(Record::parse(&line).as_ref(), Ok(record), "{line}");
            record
                .replay::<G>(&options)
                .unwrap_or_else(|e| panic!("{}: {e}: {line}", G::NAME));
        }
        let (mut refused, mut accepted) = (0, 0);
        for i in 0..RECORD_MUTATIONS {
            let bad = mutate(&records[i % records.len()].to_string(), &mut state);
            let replayed = Record::parse(&bad)
                .map_err(|e| e.to_string())
                .and_then(|r| r.replay::<G>(&options).map_err(|e| e.to_string()));
            match replayed {
                Err(e) => {
                    assert_one_line::<G>(&e, &bad);
                    refused += 1;
                }
                Ok(_) => accepted += 1,
            }
        }
        (refused, accepted)
    }
}

#[test]
fn record_lines_replay_and_mutated_ones_are_refused_in_one_line_without_panicking() {
    for name in GAME_NAMES {
        let (refused, accepted) = visit_game(name, FuzzRecords).unwrap();
        assert!(
            refused > RECORD_MUTATIONS / 2,
            "{name}: only {refused} of the mutated records refused ({accepted} accepted)"
        );
    }
}
