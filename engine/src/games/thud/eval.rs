//! What the computer levels think of a position and of a move.
//!
//! The score is the round's point margin (dwarf points minus troll points, which is what each
//! side maximises: a match is won on the points summed over both rounds) plus positional terms
//! in the same unit. For the dwarfs: a little more than its point for each dwarf, cohesion,
//! lines of three that can hurl far, no dwarf alone or within a troll's reach, and dwarfs
//! closing on a troll that stands alone; for the trolls: pairs that can shove and safe room to
//! step. The captures each side threatens are resolved by a capture search of `capture_plies`
//! plies beyond the horizon (stand pat allowed), and only guessed, by the `*_threat_now` shares,
//! where it stops. Every weight is a tunable parameter, in points.

use core::cmp::Reverse;

use super::board::{DIRS, DWARF, Side, SquareSet, TROLL};
use super::moves::{Move, TakeAllMoveList, generate_captures};
use super::node::{Node, POINT};
use crate::nnue::{NetEvaluation, NetNode};
use crate::search::{Evaluator, SearchGame};

crate::weight_set! {
    /// The evaluation's weights, in points (a dwarf is worth 1, a troll 4).
    pub struct EvalWeights = "thud-eval" {
        /// Per dwarf on the board, on top of its point. The per-dwarf penalties (`isolated`,
        /// `exposed`) make a dwarf in a bad spot worth less than its point, so that without this
        /// term feeding it to a troll costs the search little; at 0.3 a dwarf alone is worth its
        /// point again. It counts the dwarfs standing, so the trolls search for the last capture.
        dwarf_material: 0.3, 0.0..=2.0, 0.05;
        /// Per pair of neighbouring dwarfs: a block of dwarfs is hard to take and can hurl.
        cohesion: 0.15, 0.0..=2.0, 0.025;
        /// Per line of three dwarfs in a row: a block that can hurl two squares and more.
        lines: 0.1, 0.0..=2.0, 0.025;
        /// Per dwarf with no dwarf beside it: easy prey.
        isolated: 0.3, 0.0..=3.0, 0.05;
        /// Per dwarf a troll move could take next turn.
        exposed: 0.4, 0.0..=2.0, 0.05;
        /// Per troll with no troll beside it: the dwarfs can hunt it.
        lone_troll: 0.3, 0.0..=2.0, 0.05;
        /// Per dwarf within two squares of a troll that stands alone.
        hunt: 0.05, 0.0..=1.0, 0.01;
        /// Share of the trolls' best capture they get when it is their move and the capture
        /// search has stopped.
        troll_threat_now: 0.8, 0.0..=1.0, 0.05;
        /// Share of the trolls' best capture still standing when the dwarfs move first.
        troll_threat_later: 0.3, 0.0..=1.0, 0.05;
        /// Share of a troll's 4 points the dwarfs get when one is in a hurl's reach on their move
        /// and the capture search has stopped.
        hurl_threat_now: 0.8, 0.0..=1.0, 0.05;
        /// Per troll in a hurl's reach when the trolls move first, as a share of its 4 points.
        /// Default 0: the trolls move the troll away or take the dwarf that threatens it, and a
        /// price makes the dwarfs step lone dwarfs beside trolls for the threat.
        hurl_threat_later: 0.0, 0.0..=1.0, 0.05;
        /// `isolated` when the level plays the dwarfs.
        dwarfs_isolated: 0.3, 0.0..=3.0, 0.05;
        /// `exposed` when the level plays the dwarfs.
        dwarfs_exposed: 0.4, 0.0..=2.0, 0.05;
        /// `lone_troll` when the level plays the dwarfs.
        dwarfs_lone_troll: 0.3, 0.0..=2.0, 0.05;
        /// `hunt` when the level plays the dwarfs.
        dwarfs_hunt: 0.05, 0.0..=1.0, 0.01;
        /// `troll_threat_later` when the level plays the dwarfs.
        dwarfs_troll_threat_later: 0.3, 0.0..=1.0, 0.05;
        /// `dwarfs_hunt` once at most `FEW_TROLLS` (5) trolls stand. Late in a round a lone troll
        /// can stand out of every hurl's reach while the window runs out, and a line that can
        /// reach it takes more moves than the search sees; raised early, the dwarfs feed dwarfs
        /// to make trolls stand alone.
        dwarfs_hunt_few: 0.05, 0.0..=1.0, 0.01;
        /// Per troll step to an empty square that no hurl reaches: safe room to manoeuvre.
        troll_mobility: 0.03, 0.0..=0.5, 0.01;
        /// Per pair of neighbouring trolls: a line that can shove.
        troll_pairs: 0.1, 0.0..=1.0, 0.025;
        /// Plies of captures searched beyond the horizon (0: none, the threat shares guess).
        capture_plies: 4.0, 0.0..=8.0, 1.0;
        /// Share of the standing terms (`dwarf_material` and both sides' shapes) that a round
        /// ended on its no-capture window or ply cap still scores on top of its points when the
        /// dwarfs lead. Without it the window's end looks to a leading side like the loss of
        /// those terms, and a side ahead gives away a dwarf to play on; scored at every end, the
        /// dwarfs shuffle the window out from the start position instead of opening the game.
        end_shape: 1.0, 0.0..=1.0, 0.05;
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

/// Above every score the capture search returns.
const INF: i32 = i32::MAX / 2;

/// The evaluation with its weights in evaluation units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluation {
    dwarf_material: i32,
    cohesion_half: i32,
    lines: i32,
    /// The terms that price a weakness, as the level sees them playing each side (indexed by
    /// [`Side::seat`]).
    weakness: [Weakness; 2],
    troll_threat_now: i32,
    hurl_threat_now: i32,
    hurl_threat_later: i32,
    troll_mobility: i32,
    troll_pairs_half: i32,
    capture_plies: u32,
    end_shape: i32,
    order_cohesion: i32,
    order_danger: i32,
    order_escape: i32,
    order_approach: i32,
    order_distance: i32,
}

/// The terms that put a price on a weakness of either side: the ones a level may weigh
/// differently when it plays the dwarfs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Weakness {
    isolated: i32,
    exposed: i32,
    lone_troll: i32,
    hunt: i32,
    /// `hunt` once at most [`FEW_TROLLS`] trolls stand.
    hunt_few: i32,
    troll_threat_later: i32,
}

/// The most trolls standing at which `hunt_few` prices the hunt instead of `hunt`.
const FEW_TROLLS: u32 = 5;

/// `points` in evaluation units.
fn units(points: f64) -> i32 {
    (points * f64::from(POINT)).round() as i32
}

impl Evaluation {
    #[must_use]
    pub fn new(w: &EvalWeights) -> Self {
        let troll = f64::from(super::TROLL_POINTS);
        Self {
            dwarf_material: units(w.dwarf_material),
            // Pairs are counted from both ends.
            cohesion_half: units(w.cohesion / 2.0),
            lines: units(w.lines),
            weakness: [
                Weakness {
                    isolated: units(w.dwarfs_isolated),
                    exposed: units(w.dwarfs_exposed),
                    lone_troll: units(w.dwarfs_lone_troll),
                    hunt: units(w.dwarfs_hunt),
                    hunt_few: units(w.dwarfs_hunt_few),
                    troll_threat_later: units(w.dwarfs_troll_threat_later),
                },
                Weakness {
                    isolated: units(w.isolated),
                    exposed: units(w.exposed),
                    lone_troll: units(w.lone_troll),
                    hunt: units(w.hunt),
                    hunt_few: units(w.hunt),
                    troll_threat_later: units(w.troll_threat_later),
                },
            ],
            troll_threat_now: units(w.troll_threat_now),
            hurl_threat_now: units(w.hurl_threat_now * troll),
            hurl_threat_later: units(w.hurl_threat_later * troll),
            troll_mobility: units(w.troll_mobility),
            troll_pairs_half: units(w.troll_pairs / 2.0),
            capture_plies: w.capture_plies.round() as u32,
            end_shape: (w.end_shape * 1000.0).round() as i32,
            order_cohesion: units(w.order_cohesion),
            order_danger: units(w.order_danger),
            order_escape: units(w.order_escape),
            order_approach: units(w.order_approach),
            order_distance: units(w.order_distance),
        }
    }

    /// The weakness terms of the side the searching level plays.
    fn weakness(&self, node: &Node) -> &Weakness {
        &self.weakness[node.root_side().seat()]
    }

    /// The static score from the dwarfs' side, the side to move's threats guessed by their
    /// shares (what a capture search that stops here leaves unresolved).
    #[must_use]
    pub fn dwarf_score(&self, node: &Node) -> i32 {
        self.static_score(node, true)
    }

    /// The static score from the dwarfs' side; `guess_now` adds the shares of the side to move's
    /// captures.
    fn static_score(&self, node: &Node, guess_now: bool) -> i32 {
        let board = node.board();
        let zones = node.zones();
        let mut score = POINT * node.margin() + self.dwarf_shape(node) - self.troll_shape(node);
        score += self.dwarf_material * board.dwarf_count() as i32;
        let weak = self.weakness(node);
        score -= weak.exposed * zones.dwarf_danger.and(board.dwarfs()).len() as i32;
        score -= self.troll_mobility * zones.troll_safe_steps as i32;
        let attacked = zones.troll_danger.and(board.trolls()).len() as i32;
        let best = zones.troll_best as i32;
        let now = i32::from(guess_now);
        match board.side() {
            Side::Dwarfs => {
                score += now * self.hurl_threat_now * i32::from(attacked > 0);
                score -= weak.troll_threat_later * best;
            }
            Side::Trolls => {
                score += self.hurl_threat_later * attacked;
                score -= now * self.troll_threat_now * best;
            }
        }
        score
    }

    /// Cohesion, lines of three and lone dwarfs.
    fn dwarf_shape(&self, node: &Node) -> i32 {
        let board = node.board();
        let (mut neighbours, mut isolated, mut lines) = (0, 0, 0);
        for sq in board.dwarfs().iter() {
            let c = sq.cell();
            let n = board.adjacent_dwarfs(c) as i32;
            neighbours += n;
            isolated += i32::from(n == 0);
            // Each line of three counted once, at its middle dwarf, in the 4 forward directions.
            lines += DIRS[4..]
                .iter()
                .filter(|&&d| {
                    board.kind(c.wrapping_add_signed(d)) == DWARF
                        && board.kind(c.wrapping_add_signed(-d)) == DWARF
                })
                .count() as i32;
        }
        self.cohesion_half * neighbours + self.lines * lines
            - self.weakness(node).isolated * isolated
    }

    /// Troll pairs, less the trolls standing alone and the dwarfs closing on them.
    fn troll_shape(&self, node: &Node) -> i32 {
        let board = node.board();
        let mut troll_neighbours = 0;
        let mut shape = 0;
        let weak = self.weakness(node);
        let hunt = if board.troll_count() <= FEW_TROLLS {
            weak.hunt_few
        } else {
            weak.hunt
        };
        for sq in board.trolls().iter() {
            let n = DIRS
                .iter()
                .filter(|&&d| board.kind(sq.cell().wrapping_add_signed(d)) == TROLL)
                .count() as i32;
            troll_neighbours += n;
            if n == 0 {
                let hunters = SquareSet::within_two(sq).and(board.dwarfs()).len();
                shape -= weak.lone_troll + hunt * hunters as i32;
            }
        }
        shape + self.troll_pairs_half * troll_neighbours
    }

    /// The side to move's score after resolving captures `plies` deep: each side may stand
    /// pat or capture, best captures first, within the window `alpha..beta`. `stand` scores a
    /// position from the dwarfs' side where the search stands pat (its flag: whether the
    /// capture search stops there): the hand-made [`Self::static_score`], or a network's.
    fn quiesce(
        &self,
        node: &Node,
        mut alpha: i32,
        beta: i32,
        plies: u32,
        stand: &impl Fn(&Node, bool) -> i32,
    ) -> i32 {
        let board = node.board();
        if board.dwarf_count() == 0 || board.troll_count() == 0 {
            return node.for_side_to_move(POINT * node.margin());
        }
        if node.out_of_plies() {
            return node.for_side_to_move(self.end_score(node));
        }
        let pat = node.for_side_to_move(stand(node, plies == 0));
        if plies == 0 || pat >= beta {
            return pat;
        }
        let mut captures = TakeAllMoveList::new();
        generate_captures(board, &mut captures);
        captures.sort_unstable_by_key(|&mv| Reverse(self.order(node, mv)));
        let mut best = pat;
        alpha = alpha.max(pat);
        for &mv in &captures {
            let score = -self.quiesce(&node.after(mv), -beta, -alpha, plies - 1, stand);
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The score of a round ended on its window or cap, from the dwarfs' side: its points, and
    /// the `end_shape` share of the terms that a standing position scores beyond them.
    fn end_score(&self, node: &Node) -> i32 {
        let standing = self.dwarf_material * node.board().dwarf_count() as i32
            + self.dwarf_shape(node)
            - self.troll_shape(node);
        let lead = i32::from(node.margin() > 0);
        POINT * node.margin() + lead * self.end_shape * standing / 1000
    }
}

impl Evaluation {
    /// The hand-made static score where the capture search stands pat.
    fn hand_stand(&self) -> impl Fn(&Node, bool) -> i32 + '_ {
        |node, guess_now| self.static_score(node, guess_now)
    }

    /// The capture search within `alpha..beta` from `node`, standing pat on `stand`.
    fn resolve(&self, node: &Node, alpha: i32, beta: i32, stand: &impl Fn(&Node, bool) -> i32) -> i32 {
        self.quiesce(node, alpha, beta, self.capture_plies, stand)
    }
}

/// The position after `mv` from the mover's side, evaluated with its captures resolved (its
/// final points when `mv` ends the round): the root keeps the moves that do not lose a dwarf
/// or a troll outright, among a dwarf's six hundred moves that [`Evaluation::order`] scores
/// alike.
fn after_move<N: SearchGame<Move = Move>>(eval: &impl Evaluator<N>, node: &N, mv: Move) -> i32 {
    let next = node.after(mv);
    -next.terminal(1).unwrap_or_else(|| eval.evaluate(&next))
}

impl Evaluator<Node> for Evaluation {
    /// The static score after the capture search.
    fn evaluate(&self, node: &Node) -> i32 {
        self.resolve(node, -INF, INF, &self.hand_stand())
    }

    /// The capture search within the searcher's window: most leaves stand pat above it, and
    /// leave their captures unsearched.
    fn evaluate_within(&self, node: &Node, alpha: i32, beta: i32) -> i32 {
        self.resolve(node, alpha, beta, &self.hand_stand())
    }

    fn root_order(&self, node: &Node, mv: Move) -> i32 {
        after_move(self, node, mv)
    }

    /// Captures by the points they take; quiet moves below them, by what they do to cohesion,
    /// danger and contact.
    fn order(&self, node: &Node, mv: Move) -> i32 {
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

/// A network's score where the capture search stands pat: the same capture search, the same
/// ends of the round, the same move ordering; only the standing position's score is learned
/// (the network sees the side to move, so it needs no guess of the threats), or, for a network
/// that reads the hand-made score, the hand-made stand-pat score plus its learned correction. The searched
/// position itself scores from its node's accumulator, the captures beyond it from their
/// inputs.
impl Evaluator<NetNode<Node>> for NetEvaluation<Evaluation> {
    fn evaluate(&self, node: &NetNode<Node>) -> i32 {
        self.evaluate_within(node, -INF, INF)
    }

    fn evaluate_within(&self, node: &NetNode<Node>, alpha: i32, beta: i32) -> i32 {
        let stand = |n: &Node, guess_now| {
            let hand = || self.hand.static_score(n, guess_now);
            if core::ptr::eq(n, &node.inner) {
                node.first_side_score(hand)
            } else {
                self.first_side_score(n, hand)
            }
        };
        self.hand.resolve(&node.inner, alpha, beta, &stand)
    }

    fn root_order(&self, node: &NetNode<Node>, mv: Move) -> i32 {
        after_move(self, node, mv)
    }

    fn order(&self, node: &NetNode<Node>, mv: Move) -> i32 {
        self.hand.order(&node.inner, mv)
    }
}
