//! Text forms of Ludo: a move is `pawn N` (also read as plain `N`, or as the full narration
//! `pawn 0 yard->0`), and a position is one line such as
//! `pawns=y,y,y,y/12,y,57,y/y,y,y,y/3,y,y,y mover=1 roll=6 sixes=1`: each seat's four pawns
//! (`y` in the yard, else the progress 0..=57), the seat to move, its roll and the sixes rolled
//! in a row this turn (the current roll included; when absent, 1 for a 6 and 0 otherwise).

use super::board::{FINISH, SEATS};
use super::{Ludo, Move, YARD};
use crate::error::ParseError;

const KEYS: &str = "pawns, mover, roll, sixes";

fn pawn_text(p: i8) -> String {
    if p == YARD {
        "y".to_owned()
    } else {
        p.to_string()
    }
}

pub(super) fn position(game: &Ludo) -> String {
    let seats: Vec<String> = game
        .progress
        .iter()
        .map(|pawns| pawns.map(pawn_text).join(","))
        .collect();
    format!(
        "pawns={} mover={} roll={} sixes={}",
        seats.join("/"),
        game.to_move,
        game.roll,
        game.sixes
    )
}

fn parse_pawns(text: &str) -> Result<[[i8; 4]; SEATS], ParseError> {
    let seats: Vec<&str> = text.split('/').collect();
    if seats.len() != SEATS {
        return Err(format!(
            "position: pawns= needs {SEATS} seats separated by `/`, found {}",
            seats.len()
        ).into());
    }
    let mut progress = [[YARD; 4]; SEATS];
    for (seat, pawns) in seats.iter().enumerate() {
        let values: Vec<&str> = pawns.split(',').collect();
        if values.len() != 4 {
            return Err(format!(
                "position: seat {seat} needs 4 pawns separated by `,`, found {}",
                values.len()
            ).into());
        }
        for (pawn, value) in values.iter().enumerate() {
            progress[seat][pawn] = match *value {
                "y" => YARD,
                v => v
                    .parse::<i8>()
                    .ok()
                    .filter(|p| (0..=FINISH).contains(p))
                    .ok_or_else(|| {
                        format!("position: pawn `{v}` of seat {seat} is not `y` or 0..={FINISH}")
                    })?,
            };
        }
    }
    Ok(progress)
}

fn number(
    key: &str,
    value: Option<&str>,
    range: core::ops::RangeInclusive<u8>,
) -> Result<u8, ParseError> {
    let value = value.ok_or_else(|| format!("position: `{key}=` is missing"))?;
    value
        .parse::<u8>()
        .ok()
        .filter(|v| range.contains(v))
        .ok_or_else(|| {
            ParseError::new(format!(
                "position: {key}={value} is not in {}..={}",
                range.start(),
                range.end()
            ))
        })
}

pub(super) fn from_position(text: &str) -> Result<Ludo, ParseError> {
    let (mut pawns, mut mover, mut roll, mut sixes) = (None, None, None, None);
    for word in text.split_whitespace() {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("position: `{word}` is not key=value (keys: {KEYS})"))?;
        let slot = match key {
            "pawns" => &mut pawns,
            "mover" => &mut mover,
            "roll" => &mut roll,
            "sixes" => &mut sixes,
            _ => return Err(format!("position: unknown key `{key}` (keys: {KEYS})").into()),
        };
        if slot.replace(value).is_some() {
            return Err(format!("position: `{key}` is given twice").into());
        }
    }
    let progress = parse_pawns(pawns.ok_or("position: `pawns=` is missing")?)?;
    let mover = number("mover", mover, 0..=SEATS as u8 - 1)?;
    let roll = number("roll", roll, 1..=6)?;
    let sixes = number(
        "sixes",
        sixes.or(Some(if roll == 6 { "1" } else { "0" })),
        0..=2,
    )?;
    if roll == 6 && sixes == 0 {
        return Err("position: sixes= counts the current roll, so it is 1 or 2 when roll=6".into());
    }
    if progress
        .iter()
        .any(|pawns| pawns.iter().all(|&p| p == FINISH))
    {
        return Err("position: a seat has all four pawns home, so the game is over".into());
    }
    let game = Ludo::from_parts(progress, usize::from(mover), roll, sixes);
    if !game.has_legal_move() {
        return Err(format!(
            "position: seat {mover} has no legal move with a {roll}, so it is not a decision"
        ).into());
    }
    Ok(game)
}

/// Reads `pawn N`, `N`, or the full text [`Ludo::format_move`] writes.
pub(super) fn parse_move(game: &Ludo, text: &str) -> Result<Move, ParseError> {
    let text = text.trim().to_ascii_lowercase();
    let number = text.strip_prefix("pawn").unwrap_or(&text).trim_start();
    let digits = number.split(' ').next().unwrap_or("");
    let pawn: usize = digits
        .parse()
        .ok()
        .filter(|&p| p < 4)
        .ok_or_else(|| "not a pawn: write `pawn N` with N in 0..=3".to_owned())?;
    if game.outcome.is_some() {
        return Err("the game is over: no move is legal".into());
    }
    let mv = Move(pawn as u8);
    if game.destination(pawn).is_none() {
        return Err(format!("pawn {pawn} cannot move with a {}", game.roll).into());
    }
    if number.len() > digits.len() && game.format_move_text(mv) != text {
        return Err(format!(
            "does not match the move of pawn {pawn}: `{}`",
            game.format_move_text(mv)
        ).into());
    }
    Ok(mv)
}

/// Sets the roll the seat to move chooses with, keeping the count of sixes in a row.
pub(super) fn set_roll(game: &mut Ludo, text: &str) -> Result<(), ParseError> {
    let roll = text
        .trim()
        .parse::<u8>()
        .ok()
        .filter(|r| (1..=6).contains(r))
        .ok_or_else(|| {
            format!(
                "{} is not a roll of one die (1 to 6)",
                crate::error::quote(text.trim())
            )
        })?;
    let before = (game.roll == 6, game.sixes);
    let sixes = match (before, roll == 6) {
        ((true, s), false) => s - 1,
        ((false, s), true) => s + 1,
        ((_, s), _) => s,
    };
    if roll == 6 && sixes > 2 {
        return Err("a third six in a row is void: the turn would pass".into());
    }
    let mut next = game.clone();
    (next.roll, next.sixes) = (roll, sixes);
    if !next.has_legal_move() {
        return Err(format!(
            "seat {} has no legal move with a {roll}: the turn would pass",
            game.to_move
        ).into());
    }
    *game = next;
    Ok(())
}
