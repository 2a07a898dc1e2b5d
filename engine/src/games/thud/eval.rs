//! What the computer levels think of a position and of a move.
//!
//! The score is the round's point margin (dwarf points minus troll points, which is what each
//! side maximises: a match is won on the points summed over both rounds) plus positional terms
//! in the same unit: dwarf cohesion, exposed dwarfs, the captures each side threatens (worth
//! more to the side about to move), troll mobility and troll lines. Every weight is a tunable
//! parameter, in points.

use super::board::{DIRS, DWARF, Side, TROLL};
use super::moves::ThudMove;
use super::node::{Node, POINT};
use crate::search::Evaluator;

crate::weight_set! {
    /// The evaluation's weights, in points (a dwarf is worth 1, a troll 4).
    pub struct EvalWeights = "thud-eval" {
        /// Per pair of neighbouring dwarfs: a block of dwarfs is hard to take and can hurl.
        cohesion: 0.15, 0.0..=2.0, 0.025;
        /// Per dwarf with no dwarf beside it: easy prey.
        isolated: 0.3, 0.0..=3.0, 0.05;
        /// Per dwarf a troll move could take next turn.
        exposed: 0.25, 0.0..=2.0, 0.05;
        /// Share of the trolls' best capture they get when it is their move.
        troll_threat_now: 0.8, 0.0..=1.0, 0.05;
        /// Share of the trolls' best capture still standing when the dwarfs move first.
        troll_threat_later: 0.3, 0.0..=1.0, 0.05;
        /// Share of a troll's 4 points the dwarfs get when one is in a hurl's reach on their move.
        hurl_threat_now: 0.8, 0.0..=1.0, 0.05;
        /// Per troll in a hurl's reach when the trolls move first, as a share of its 4 points.
        hurl_threat_later: 0.25, 0.0..=1.0, 0.05;
        /// Per troll step to an empty square: room to manoeuvre.
        troll_mobility: 0.03, 0.0..=0.5, 0.01;
        /// Per pair of neighbouring trolls: a line that can shove.
        troll_pairs: 0.1, 0.0..=1.0, 0.025;
        /// Move ordering, per dwarf a quiet dwarf move puts beside it (minus those it leaves).
        order_cohesion: 0.2, 0.0..=2.0, 0.05;
        /// Move ordering, for a quiet move onto a square the other side can take it on.
        order_danger: 1.0, 0.0..=5.0, 0.1;
        /// Move ordering, for a quiet move off a square the other side can take it on.
        order_escape: 1.0, 0.0..=5.0, 0.1;
        /// Move ordering, per dwarf within two squares of a troll's quiet destination.
        order_approach: 0.2, 0.0..=2.0, 0.05;
        /// Move ordering, per square a quiet dwarf move travels (negative: long moves first).
        order_distance: 0.0, -1.0..=1.0, 0.01;
    }
}

/// Quiet moves score below every capture in move ordering.
const QUIET: i32 = -100 * POINT;

/// The evaluation with its weights in evaluation units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eval {
    cohesion_half: i32,
    isolated: i32,
    exposed: i32,
    troll_threat_now: i32,
    troll_threat_later: i32,
    hurl_threat_now: i32,
    hurl_threat_later: i32,
    troll_mobility: i32,
    troll_pairs_half: i32,
    order_cohesion: i32,
    order_danger: i32,
    order_escape: i32,
    order_approach: i32,
    order_distance: i32,
}

/// `points` in evaluation units.
fn units(points: f64) -> i32 {
    (points * f64::from(POINT)).round() as i32
}

impl Eval {
    #[must_use]
    pub fn new(w: &EvalWeights) -> Self {
        let troll = f64::from(super::TROLL_POINTS);
        Self {
            // Pairs are counted from both ends.
            cohesion_half: units(w.cohesion / 2.0),
            isolated: units(w.isolated),
            exposed: units(w.exposed),
            troll_threat_now: units(w.troll_threat_now),
            troll_threat_later: units(w.troll_threat_later),
            hurl_threat_now: units(w.hurl_threat_now * troll),
            hurl_threat_later: units(w.hurl_threat_later * troll),
            troll_mobility: units(w.troll_mobility),
            troll_pairs_half: units(w.troll_pairs / 2.0),
            order_cohesion: units(w.order_cohesion),
            order_danger: units(w.order_danger),
            order_escape: units(w.order_escape),
            order_approach: units(w.order_approach),
            order_distance: units(w.order_distance),
        }
    }

    /// The score from the dwarfs' side.
    #[must_use]
    pub fn dwarf_score(&self, node: &Node) -> i32 {
        let board = node.board();
        let zones = node.zones();
        let mut score = POINT * node.margin();
        let mut neighbours = 0;
        let mut isolated = 0;
        for sq in board.dwarfs().iter() {
            let n = board.adjacent_dwarfs(sq.cell()) as i32;
            neighbours += n;
            isolated += i32::from(n == 0);
        }
        score += self.cohesion_half * neighbours - self.isolated * isolated;
        score -= self.exposed * zones.dwarf_danger.and(board.dwarfs()).len() as i32;
        let mut troll_neighbours = 0;
        for sq in board.trolls().iter() {
            troll_neighbours += DIRS
                .iter()
                .filter(|&&d| board.kind(sq.cell().wrapping_add_signed(d)) == TROLL)
                .count() as i32;
        }
        score -= self.troll_pairs_half * troll_neighbours;
        score -= self.troll_mobility * zones.troll_steps as i32;
        let attacked = zones.troll_danger.and(board.trolls()).len() as i32;
        let best = zones.troll_best as i32;
        match board.side() {
            Side::Dwarfs => {
                score += self.hurl_threat_now * i32::from(attacked > 0);
                score -= self.troll_threat_later * best;
            }
            Side::Trolls => {
                score += self.hurl_threat_later * attacked;
                score -= self.troll_threat_now * best;
            }
        }
        score
    }
}

impl Evaluator<Node> for Eval {
    fn evaluate(&self, node: &Node) -> i32 {
        node.for_side_to_move(self.dwarf_score(node))
    }

    /// Captures by the points they take; quiet moves below them, by what they do to cohesion,
    /// danger and contact.
    fn order(&self, node: &Node, mv: ThudMove) -> i32 {
        let board = node.board();
        let (from, to) = (mv.from.cell(), mv.to.cell());
        match board.side() {
            Side::Dwarfs => {
                if board.kind(to) == TROLL {
                    return POINT * super::TROLL_POINTS;
                }
                let zones = node.zones();
                // The mover itself counts among `to`'s neighbours when it steps one square.
                let beside_to = board.adjacent_dwarfs(to) as i32
                    - i32::from(DIRS.iter().any(|&d| from.wrapping_add_signed(d) == to));
                let beside_from = board.adjacent_dwarfs(from) as i32;
                let distance = mv.from.distance(mv.to) as i32;
                let danger = |c| i32::from(zones.dwarf_danger.has_cell(c));
                QUIET
                    + self.order_cohesion * (beside_to - beside_from)
                    + self.order_escape * danger(from)
                    - self.order_danger * danger(to)
                    - self.order_distance * distance
            }
            Side::Trolls => {
                if mv.captures != 0 {
                    return POINT * mv.captures.count_ones() as i32;
                }
                let zones = node.zones();
                let near: u32 = DIRS
                    .iter()
                    .map(|&d| to.wrapping_add_signed(d))
                    .filter(|&n| board.kind(n) != DWARF)
                    .map(|n| board.adjacent_dwarfs(n))
                    .sum();
                let danger = |c| i32::from(zones.troll_danger.has_cell(c));
                QUIET + self.order_approach * near as i32 + self.order_escape * danger(from)
                    - self.order_danger * danger(to)
            }
        }
    }
}
