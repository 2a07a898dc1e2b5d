//! Reading a one-line position (`seats=4 round=2 scores=30,12,-3,30 past=5,-3,-1,-2 turn=1
//! mover=1 first-dead=2 threshold=big kept=66 roll=1345`) in two steps, as cozy-chess does:
//! [`parse`] reads each field on its own, [`validate`] checks the fields against each other and
//! the rules, and builds the game.

use super::hand::{DICE, Hand, Threshold};
use super::notation::digits;
use super::rules::{ROUNDS, START_SCORE, TurnResult, game_winners, round_winners, turn_result};
use super::{Reason, TrenteDouze};
use crate::error::{ParseError, quote};
use crate::game::{Ending, MAX_SEATS, Outcome};

const KEYS: &str = "seats, round, scores, past, turn, mover, first-dead, threshold, kept, roll";

/// Reads a position: parse, then validate.
pub(super) fn read(text: &str) -> Result<TrenteDouze, ParseError> {
    validate(parse(text)?)
}

/// Each field read on its own; `None` where the text leaves it out.
struct Fields {
    seats: usize,
    past: Vec<[i16; MAX_SEATS]>,
    round: Option<usize>,
    scores: Option<[i16; MAX_SEATS]>,
    turn: Option<usize>,
    mover: Option<usize>,
    first_dead: Option<usize>,
    threshold: Option<Threshold>,
    kept: Hand,
    roll: Hand,
}

/// The text's `key=value` words by key, each key at most once.
fn words(text: &str) -> Result<[Option<&str>; 10], ParseError> {
    let mut values = [None; 10];
    for word in text.split_whitespace() {
        let (key, value) = word.split_once('=').ok_or_else(|| {
            ParseError::new(format!("{} is not key=value (keys: {KEYS})", quote(word)))
        })?;
        let slot = KEYS
            .split(", ")
            .position(|k| k == key)
            .ok_or_else(|| ParseError::new(format!("unknown key {} (keys: {KEYS})", quote(key))))?;
        if values[slot].replace(value).is_some() {
            return Err(ParseError::at(key, "given twice"));
        }
    }
    Ok(values)
}

fn parse(text: &str) -> Result<Fields, ParseError> {
    let [
        seats,
        round,
        scores,
        past,
        turn,
        mover,
        first_dead,
        threshold,
        kept,
        roll,
    ] = words(text)?;
    let n = seats
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|n| (2..=MAX_SEATS).contains(n))
        .ok_or_else(|| ParseError::at("seats", format!("must be 2 to {MAX_SEATS}")))?;
    let seat = |key: &str, value: Option<&str>| value.map(|v| parse_seat(key, v, n)).transpose();
    Ok(Fields {
        seats: n,
        past: match past {
            None => Vec::new(),
            Some(v) => v
                .split('/')
                .map(|r| parse_scores("past", r, n))
                .collect::<Result<_, _>>()?,
        },
        round: round
            .map(|v| {
                v.parse::<usize>()
                    .ok()
                    .filter(|r| (1..=ROUNDS).contains(r))
                    .ok_or_else(|| ParseError::at("round", "must be 1, 2 or 3"))
            })
            .transpose()?,
        scores: scores.map(|v| parse_scores("scores", v, n)).transpose()?,
        turn: seat("turn", turn)?,
        mover: seat("mover", mover)?,
        first_dead: seat("first-dead", first_dead)?,
        threshold: match threshold {
            None => None,
            Some("small") => Some(Threshold::Small),
            Some("big") => Some(Threshold::Big),
            Some(other) => {
                return Err(ParseError::at(
                    "threshold",
                    format!("{} is not accepted: small or big", quote(other)),
                ));
            }
        },
        kept: parse_dice("kept", kept.unwrap_or(""))?,
        roll: parse_dice("roll", roll.unwrap_or(""))?,
    })
}

fn parse_dice(key: &str, value: &str) -> Result<Hand, ParseError> {
    let mut hand = Hand::EMPTY;
    for c in value.chars() {
        match c.to_digit(10) {
            Some(d @ 1..=6) if usize::from(hand.len()) < DICE => hand = hand.with(d as u8),
            _ => {
                return Err(ParseError::at(
                    key,
                    format!(
                        "{} is not accepted: write up to six die faces 1 to 6, e.g. {key}=1346",
                        quote(c.encode_utf8(&mut [0; 4]))
                    ),
                ));
            }
        }
    }
    Ok(hand)
}

fn parse_seat(key: &str, value: &str, n: usize) -> Result<usize, ParseError> {
    value
        .parse::<usize>()
        .ok()
        .filter(|&s| s < n)
        .ok_or_else(|| {
            ParseError::at(
                key,
                format!("{} is not a seat: seats are 0 to {}", quote(value), n - 1),
            )
        })
}

fn parse_scores(key: &str, value: &str, n: usize) -> Result<[i16; MAX_SEATS], ParseError> {
    let parts: Vec<&str> = value.split(',').collect();
    if parts.len() != n {
        return Err(ParseError::at(
            key,
            format!("has {} scores, the game has {n} seats", parts.len()),
        ));
    }
    let mut scores = [START_SCORE; MAX_SEATS];
    for (slot, part) in scores.iter_mut().zip(parts) {
        *slot = part
            .trim()
            .parse::<i16>()
            .ok()
            .filter(|&s| s <= START_SCORE)
            .ok_or_else(|| {
                ParseError::at(
                    key,
                    format!(
                        "{} is not a score (whole numbers up to {START_SCORE})",
                        quote(part)
                    ),
                )
            })?;
    }
    Ok(scores)
}

/// Checks the fields against each other and the rules, and builds the game.
fn validate(f: Fields) -> Result<TrenteDouze, ParseError> {
    let n = f.seats;
    let mut game = TrenteDouze::blank(n);
    for (r, scores) in f.past.iter().enumerate().take(ROUNDS) {
        game.round_scores[r] = *scores;
        game.round_winners[r] = round_winners(scores, n);
    }
    if f.past.len() == ROUNDS {
        let winners = game_winners(&game.round_scores, &game.round_winners, n);
        game.round = ROUNDS as u8 - 1;
        game.outcome = Some(Outcome {
            winners,
            no_result: false,
            reason: Ending::Rules(Reason::ThreeRounds),
        });
        return Ok(game);
    }
    let round = f
        .round
        .ok_or_else(|| ParseError::at("round", "must be 1, 2 or 3"))?;
    if f.past.len() != round - 1 {
        return Err(ParseError::at(
            "past",
            format!(
                "round {round} needs the final scores of {} earlier round(s) in past= (rounds separated by /), {} given",
                round - 1,
                f.past.len()
            ),
        ));
    }
    game.round = (round - 1) as u8;
    game.scores = f
        .scores
        .ok_or_else(|| ParseError::at("scores", "missing"))?;
    let turn = f.turn.ok_or_else(|| ParseError::at("turn", "missing"))?;
    let mover = f.mover.unwrap_or(turn);
    game.turn = turn as u8;
    game.mover = mover as u8;
    game.first_players = [turn as u8; ROUNDS];
    validate_deaths(&mut game, f.first_dead, mover, turn)?;
    game.kept = f.kept;
    game.roll = f.roll;
    game.threshold = f.threshold;
    validate_dice(&mut game, round)?;
    Ok(game)
}

/// `first-dead` names a dead seat whenever someone is dead; a living mover is the seat whose
/// turn it is, with another seat alive.
fn validate_deaths(
    game: &mut TrenteDouze,
    first_dead: Option<usize>,
    mover: usize,
    turn: usize,
) -> Result<(), ParseError> {
    let n = game.seats();
    let dead = (0..n).filter(|&s| !game.is_alive(s)).count();
    match first_dead {
        None if dead > 0 => {
            return Err(ParseError::at(
                "first-dead",
                "someone is dead, so first-dead= must say who died first",
            ));
        }
        None => {}
        Some(seat) if game.is_alive(seat) => {
            return Err(ParseError::at(
                "first-dead",
                format!("first-dead={seat} but seat {seat} is alive"),
            ));
        }
        Some(seat) => game.first_dead = Some(seat as u8),
    }
    if game.is_alive(mover) && (mover != turn || n - dead < 2) {
        return Err(ParseError::at(
            "mover",
            "a living mover must be the player whose turn it is, with another player alive",
        ));
    }
    Ok(())
}

/// The kept dice fit the threshold, and kept and rolled dice make six, or six kept dice make an
/// attack whose victim is still to be chosen.
fn validate_dice(game: &mut TrenteDouze, round: usize) -> Result<(), ParseError> {
    match game.threshold {
        None if !game.kept.is_empty() => {
            return Err(ParseError::at(
                "kept",
                "kept dice need threshold=small or threshold=big",
            ));
        }
        Some(t) if !game.kept.has_class(t) => {
            return Err(ParseError::at(
                "threshold",
                format!("threshold={} but no kept die is {}", t.name(), t.name()),
            ));
        }
        _ => {}
    }
    let kept = usize::from(game.kept.len());
    if kept == DICE {
        let threshold = game.threshold.unwrap_or(Threshold::Small);
        match turn_result(threshold, game.kept.sum()) {
            TurnResult::Attack(level) if game.in_vengeance() || round == ROUNDS => {
                if !game.roll.is_empty() {
                    return Err(ParseError::at(
                        "roll",
                        "all six dice are kept, so roll= must be empty",
                    ));
                }
                game.pending = Some(level);
            }
            _ => {
                return Err(ParseError::at(
                    "kept",
                    "six kept dice must make an attack whose victim the mover chooses (round 3 or a vengeance)",
                ));
            }
        }
    } else if kept + usize::from(game.roll.len()) != DICE {
        return Err(ParseError::new(format!(
            "kept={} and roll={} must make six dice",
            digits(game.kept),
            digits(game.roll)
        )));
    }
    Ok(())
}
