//! Text forms: moves (`keep 4 6 6 big`, `keep 3`, `victim 2`), the picture `koom play` shows, and
//! a one-line position (`seats=4 round=2 scores=30,12,-3,30 past=5,-3,-1,-2 turn=1 mover=1
//! first-dead=2 threshold=big kept=66 roll=1345`).

use core::fmt::{Display, Write as _};

use super::hand::{DICE, Hand, Threshold};
use super::rules::ROUNDS;
use super::{Move, TrenteDouze};
use crate::error::{ParseError, quote};
use crate::game::SeatSet;

/// Whom an attack hits in each round.
pub(super) const ROUND_RULE: [&str; ROUNDS] = [
    "attacks hit the next living player",
    "attacks hit the previous living player",
    "attacks hit a living player of the attacker's choice",
];

pub(super) fn threshold_rule(t: Threshold) -> &'static str {
    match t {
        Threshold::Small => "the sum must be 12 or less",
        Threshold::Big => "the sum must be 30 or more",
    }
}

/// `items` comma separated.
pub(super) fn list<T: Display>(items: impl Iterator<Item = T>) -> String {
    let mut out = String::new();
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{item}");
    }
    out
}

/// "seat 2" or "seats 0 and 3".
pub(super) fn seat_list(seats: SeatSet) -> String {
    let names: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
    match names.len() {
        1 => format!("seat {}", names[0]),
        _ => format!("seats {}", names.join(" and ")),
    }
}

pub(super) fn format_move(mv: Move) -> String {
    match mv {
        Move::Keep {
            dice,
            threshold: Some(t),
        } => format!("keep {dice} {}", t.name()),
        Move::Keep {
            dice,
            threshold: None,
        } => format!("keep {dice}"),
        Move::Victim(seat) => format!("victim {seat}"),
    }
}

/// Reads `keep 4 6 6 big` (also `466 big`, `keep 4,6,6`; the class may be left out when the dice
/// allow only one) or `victim 2` (also `2`). The caller names the input in the error.
pub(super) fn parse_move(game: &TrenteDouze, text: &str) -> Result<Move, ParseError> {
    if game.outcome.is_some() {
        return Err("the game is over: no move is legal".into());
    }
    let lower = text.trim().to_ascii_lowercase();
    let mut words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    if let Some(level) = game.pending {
        if matches!(words.first(), Some(&("victim" | "seat"))) {
            words.remove(0);
        }
        return parse_victim(game, level, &words);
    }
    if words.first() == Some(&"keep") {
        words.remove(0);
    }
    let (dice, class) = parse_keep(&words)?;
    keep(game, dice, class)
}

/// The victim named by `words` (one seat number) when the mover attacks at `level`.
fn parse_victim(game: &TrenteDouze, level: u8, words: &[&str]) -> Result<Move, ParseError> {
    let seat = match words {
        [seat] => seat.parse::<u8>().ok(),
        _ => None,
    };
    match seat {
        Some(seat) if game.is_legal(Move::Victim(seat)) => Ok(Move::Victim(seat)),
        _ => Err(format!(
            "seat {} attacks at level {level} and must name its victim, one of seats {} (e.g. `victim {}`)",
            game.mover,
            list(game.victims()),
            game.victims().next().unwrap_or(0)
        ).into()),
    }
}

/// The syntax of a keep: die faces (`4 6 6` or `466`) and at most one `small` or `big`.
fn parse_keep(words: &[&str]) -> Result<(Hand, Option<Threshold>), ParseError> {
    let mut dice = Hand::EMPTY;
    let mut class = None;
    for &word in words {
        let t = match word {
            "small" => Threshold::Small,
            "big" => Threshold::Big,
            digits => {
                for c in digits.chars() {
                    let face = c.to_digit(10).filter(|d| (1..=6).contains(d));
                    let Some(face) = face else {
                        return Err(format!(
                            "{} is not a die face: write the faces 1 to 6 to set aside, then `small` or `big` on the first roll (e.g. `keep 6 6 big`)",
                            quote(c.encode_utf8(&mut [0; 4]))
                        ).into());
                    };
                    if dice.len() as usize == DICE {
                        return Err("more than six dice".into());
                    }
                    dice = dice.with(face as u8);
                }
                continue;
            }
        };
        if class.replace(t).is_some() {
            return Err("name the threshold once".into());
        }
    }
    Ok((dice, class))
}

/// The keep of `dice` checked against the roll and the round's threshold; `class` is the
/// threshold the text named, if any.
fn keep(game: &TrenteDouze, dice: Hand, class: Option<Threshold>) -> Result<Move, ParseError> {
    if dice.is_empty() {
        return Err(format!(
            "set aside at least one die of the roll {} (e.g. `keep {}`)",
            game.roll,
            game.roll.faces().next().unwrap_or(1)
        ).into());
    }
    if !dice.is_within(game.roll) {
        return Err(format!(
            "the dice {dice} are not all in the roll {}",
            game.roll
        ).into());
    }
    let threshold = match (game.threshold, class) {
        (Some(fixed), Some(t)) if t != fixed => {
            return Err(format!(
                "the threshold is already {}; leave out `{}`",
                fixed.name(),
                t.name()
            ).into());
        }
        (Some(_), _) => None,
        (None, Some(t)) if !dice.has_class(t) => {
            return Err(format!(
                "no die of {dice} is {}: the first die set aside must be one of them",
                t.name()
            ).into());
        }
        (None, Some(t)) => Some(t),
        (None, None) => match (
            dice.has_class(Threshold::Small),
            dice.has_class(Threshold::Big),
        ) {
            (true, true) => {
                return Err(format!(
                    "{dice} mixes small (1-3) and big (4-6) faces: add `small` or `big` to say which die is set aside first"
                ).into());
            }
            (true, false) => Some(Threshold::Small),
            _ => Some(Threshold::Big),
        },
    };
    Ok(Move::Keep { dice, threshold })
}

pub(super) fn render(game: &TrenteDouze) -> String {
    let n = game.seats();
    let mut out = String::new();
    let round = game.round();
    let _ = writeln!(
        out,
        "Trente-douze, {n} players, round {} of {ROUNDS}: {}",
        round + 1,
        ROUND_RULE[round]
    );
    for r in 0..round + usize::from(game.outcome.is_some()) {
        let _ = writeln!(
            out,
            "  round {}: {} (won by {})",
            r + 1,
            list(game.round_scores[r][..n].iter()),
            seat_list(game.round_winners[r])
        );
    }
    if let Some(outcome) = game.outcome {
        let _ = writeln!(out, "game over: {}", seat_list(outcome.winners));
        return out;
    }
    for seat in 0..n {
        let _ = writeln!(
            out,
            "  seat {seat}: {:>4}{}{}",
            game.scores[seat],
            if game.is_alive(seat) { "" } else { "  dead" },
            if seat == game.mover() {
                "  <- to move"
            } else {
                ""
            }
        );
    }
    let who = if game.in_vengeance() {
        format!("seat {} (vengeance)", game.mover)
    } else {
        format!("seat {}", game.mover)
    };
    let threshold = game.threshold.map_or(String::new(), |t| {
        format!(" ({}: {})", t.name(), threshold_rule(t))
    });
    match game.pending {
        Some(level) => {
            let _ = writeln!(
                out,
                "{who} set aside {}{threshold}: attack at level {level}, choose a victim among seats {}",
                game.kept,
                list(game.victims())
            );
        }
        None => {
            let _ = writeln!(
                out,
                "{who}: set aside {}{threshold}; roll {}",
                game.kept, game.roll
            );
        }
    }
    out
}

pub(super) fn digits(hand: Hand) -> String {
    hand.faces().map(|f| char::from(b'0' + f)).collect()
}

pub(super) fn position(game: &TrenteDouze) -> String {
    let n = game.seats();
    let past = |rounds: usize| {
        game.round_scores[..rounds]
            .iter()
            .map(|r| list(r[..n].iter()))
            .collect::<Vec<_>>()
            .join("/")
    };
    if game.outcome.is_some() {
        return format!("seats={n} past={}", past(ROUNDS));
    }
    let mut out = format!(
        "seats={n} round={} scores={}",
        game.round + 1,
        list(game.scores[..n].iter())
    );
    if game.round > 0 {
        let _ = write!(out, " past={}", past(game.round()));
    }
    let _ = write!(out, " turn={} mover={}", game.turn, game.mover);
    if let Some(seat) = game.first_dead {
        let _ = write!(out, " first-dead={seat}");
    }
    if let Some(t) = game.threshold {
        let _ = write!(out, " threshold={} kept={}", t.name(), digits(game.kept));
    }
    if game.pending.is_none() {
        let _ = write!(out, " roll={}", digits(game.roll));
    }
    out
}
