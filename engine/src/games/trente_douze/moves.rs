//! The legal set-asides of every possible roll, listed once per process.
//!
//! A roll's legal moves depend only on the roll: a roll of six dice is the turn's first (where
//! the player also names the threshold), any other a later one. There are only 923 rolls, so
//! `legal_moves` copies a precomputed slice (24,472 moves in all, 191 KB) instead of walking the
//! sub-multisets at every decision, which was the largest cost of a batch game.

use std::sync::OnceLock;

use super::Move;
use super::hand::{DICE, HANDS, Hand, Threshold};

/// Calls `push` with each legal set-aside from `roll`: every non-empty sub-multiset, and on the
/// first roll of a turn once per class among its dice (the class of the die set aside first).
pub(super) fn for_each_keep(roll: Hand, first: bool, mut push: impl FnMut(Move)) {
    roll.for_each_part(|dice| {
        if first {
            for t in Threshold::BOTH {
                if dice.has_class(t) {
                    push(Move::Keep {
                        dice,
                        threshold: Some(t),
                    });
                }
            }
        } else {
            push(Move::Keep {
                dice,
                threshold: None,
            });
        }
    });
}

/// All lists end to end, and where each roll's list lies, by roll index.
#[derive(Debug)]
struct Lists {
    moves: Vec<Move>,
    spans: Vec<(u32, u32)>,
}

impl Lists {
    fn build() -> Self {
        let mut moves = Vec::new();
        let mut spans = vec![(0, 0); HANDS];
        for k in 1..=DICE as u8 {
            for roll in Hand::all_of_size(k) {
                let start = moves.len() as u32;
                for_each_keep(roll, usize::from(k) == DICE, |mv| moves.push(mv));
                spans[roll.index()] = (start, moves.len() as u32);
            }
        }
        Self { moves, spans }
    }
}

/// The legal set-asides from `roll`: six dice are a turn's first roll, fewer a later one.
#[inline]
pub(super) fn keeps(roll: Hand) -> &'static [Move] {
    static LISTS: OnceLock<Lists> = OnceLock::new();
    let lists = LISTS.get_or_init(Lists::build);
    let (start, end) = lists.spans[roll.index()];
    &lists.moves[start as usize..end as usize]
}
