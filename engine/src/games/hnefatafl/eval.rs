//! The evaluation and the move ordering the searching levels share.
//!
//! Every term is a count read off the bitboards in a few operations (no move generation beyond
//! the king's own look-ups), weighted by [`EvalWeights`]. The sum is from the attackers' point
//! of view, then signed for the side to move (negamax).

use core::cell::RefCell;

use super::board::{
    BOARD, Bits, Board, CORNERS, EDGE, FILE_A, RANK_1, RESTRICTED, SIZE, SQUARES, Side, Square,
    THRONE_BIT, bit, directed_fills, east, file_of, fill_lines, flood, line_bits, neighbours,
    north, rank_of, slide, south, squares, transposed_bit, west,
};
use super::{Hnefatafl, Move};
use crate::search::MATE;

crate::weight_set! {
    /// Evaluation weights, in hundredths of an attacker, positive for the side that profits.
    pub struct EvalWeights = "hnefatafl-eval" {
        /// Worth of each attacker on the board.
        attacker: 100.0, 0.0..=400.0, 5.0;
        /// Worth of each defender (the king apart) on the board.
        defender: 250.0, 0.0..=600.0, 5.0;
        /// For the defenders, per corner the king reaches in one move.
        escape_now: 500.0, 0.0..=2000.0, 20.0;
        /// For the defenders, once an escape cannot be stopped: the king sees a corner with the
        /// defenders to move, or two corners with the attackers to move.
        escape_certain: 5000.0, 0.0..=20000.0, 100.0;
        /// For the defenders, per further corner the king reaches in two moves.
        escape_two: 200.0, 0.0..=500.0, 5.0;
        /// For the attackers, per step of Manhattan distance between the king and his nearest
        /// corner.
        corner_distance: 10.0, 0.0..=100.0, 1.0;
        /// For the defenders, per square the king can move to.
        king_mobility: 12.0, 0.0..=50.0, 1.0;
        /// For the attackers, per hostile square (attacker or empty throne) beside the king.
        king_pressure: 100.0, 0.0..=300.0, 5.0;
        /// For the attackers, per attacker within two squares (both ways) of the king.
        attackers_near_king: 10.0, 0.0..=100.0, 1.0;
        /// For the defenders, per defender within two squares of the king.
        guards_near_king: 6.0, 0.0..=100.0, 1.0;
        /// For the attackers, per attacker on one of the twelve corner-blocking squares (two steps
        /// from a corner: a3, b2, c1 and their mirrors).
        corner_blocks: 5.0, 0.0..=200.0, 5.0;
        /// For the attackers, per attacker on an edge square: edge control.
        edge_attackers: 3.0, -50.0..=50.0, 1.0;
        /// For the defenders, per attacker with a hostile square on one side and an empty square
        /// on the other (one enemy move from capture).
        loose_attacker: 25.0, 0.0..=200.0, 5.0;
        /// For the attackers, per defender loose in the same way.
        loose_defender: 35.0, 0.0..=200.0, 5.0;
        /// For the defenders, per defender next to another defender or the king (structure).
        defender_links: 4.0, 0.0..=50.0, 1.0;
        /// For each side, per empty square next to its pieces (room to move, far cheaper to count
        /// than legal moves), as the difference of the two.
        room: 2.0, 0.0..=20.0, 0.5;
        /// For the side to move.
        tempo: 10.0, 0.0..=100.0, 5.0;
        /// For the attackers, per king move (1 to 4, 4 meaning four or more) between the king and
        /// his nearest corner over the squares free now: his distance counted in free moves.
        corner_moves: 30.0, 0.0..=300.0, 5.0;
        /// For the attackers, per square that no defender can reach through squares free of
        /// attackers: how far they have closed an encirclement.
        enclosure: 2.0, 0.0..=30.0, 0.5;
        /// For the defenders, per defender beside the king while he stands on the edge, where he
        /// cannot be captured: the makings of an exit fort.
        edge_fort: 20.0, 0.0..=200.0, 5.0;
        /// For the attackers, per defender on the edge beside an attacker on the edge: exposed
        /// to a shield-wall capture.
        shield_wall: 15.0, 0.0..=200.0, 5.0;
        /// For the defenders, per defender beside the king while he stands on or beside the
        /// throne, where fewer attackers capture him.
        throne_guard: 10.0, 0.0..=100.0, 2.0;
        /// For the defenders, per defender or king with an empty square beside him to step to.
        /// The attackers win when the defenders have no move left, so this is their gradient
        /// towards that win once the defenders are few: pin the last free pieces.
        mobile_defenders: 40.0, 0.0..=200.0, 5.0;
        /// For the attackers, per attacker within two squares (both ways) of a defender soldier
        /// that can move: the hunters of the free defenders. Without it the attackers cage the
        /// king's group and let its last free soldier roam, and the game shuffles to the cap.
        hunters: 15.0, 0.0..=100.0, 1.0;
        /// For the defenders, per defender or king connected to the edge through squares free
        /// of attackers: the pieces not yet encircled. The attackers win by encirclement once
        /// none is, so this is their gradient to seal the king's group and then the roaming
        /// soldiers (the enclosure term counts squares, which one free soldier keeps near zero).
        free_defenders: 30.0, 0.0..=200.0, 5.0;
        /// For the attackers, once the king is shut off from every corner: per square short of
        /// 40 that the soldiers still free can move to without being capturable on the
        /// attackers' next move. A soldier loose on the open board holds a sealed king's group
        /// from losing, and catching a piece that moves like a rook takes a net: this counts
        /// how far it is closed, so that each attacker move that closes a hole in it shows in
        /// the score long before the capture does. Zero while the king can reach a corner, so
        /// it changes no choice then, and shutting him off never costs the attackers. Counted
        /// in every position instead, it outweighed the king's escape routes (measured:
        /// `docs/findings/hnefatafl-levels.md`).
        roamer_net: 20.0, 0.0..=50.0, 1.0;
    }
}

/// Squares within two steps (Chebyshev distance) of each square.
static NEAR: [Bits; SQUARES] = {
    let mut table = [0; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % SIZE) as i32, (s / SIZE) as i32);
        let mut t = 0;
        while t < SQUARES {
            let (g, q) = ((t % SIZE) as i32, (t / SIZE) as i32);
            if t != s && (f - g).abs() <= 2 && (r - q).abs() <= 2 {
                table[s] |= 1 << t;
            }
            t += 1;
        }
        s += 1;
    }
    table
};

/// The twelve squares two steps from a corner along the edges or diagonally (a3, b2, c1 and
/// their mirrors), where three attackers shut a corner.
const CORNER_BLOCKS: Bits = {
    let mut bits: Bits = 0;
    let near = [(0, 2), (1, 1), (2, 0)];
    let mut i = 0;
    while i < 3 {
        let (f, r) = near[i];
        bits |= bit(Square::at(f, r));
        bits |= bit(Square::at(10 - f, r));
        bits |= bit(Square::at(f, 10 - r));
        bits |= bit(Square::at(10 - f, 10 - r));
        i += 1;
    }
    bits
};

/// The squares within two steps (both ways) of any square of `bits`, `bits` included.
fn within_two(bits: Bits) -> Bits {
    let mut near = bits;
    for _ in 0..2 {
        near |= east(near) | west(near);
    }
    for _ in 0..2 {
        near |= north(near) | south(near);
    }
    near
}

/// Soldiers of `victims` with a `hostile` square on one side and an `open` square opposite.
fn loose(victims: Bits, hostile: Bits, open: Bits) -> u32 {
    let exposed = (east(hostile) & west(open))
        | (west(hostile) & east(open))
        | (north(hostile) & south(open))
        | (south(hostile) & north(open));
    (victims & exposed).count_ones()
}

/// Where the king can go: his moves, the corners he reaches in one move, and the corners he
/// reaches only in two (through the edge square a rook move of his ends on), as sets of
/// [`CORNERS`].
struct KingRoutes {
    moves: u32,
    now: Bits,
    two: Bits,
}

impl KingRoutes {
    fn new(board: &Board) -> Self {
        let k = board.king;
        let (rank, file) = (rank_of(k), file_of(k));
        let occupied = board.occupied();
        let along_rank = slide(file, line_bits(occupied, rank));
        let along_file = slide(rank, line_bits(board.occupied_t, file));
        // The lines without the king, for his second move.
        let without = occupied & !bit(k);
        let without_t = board.occupied_t & !transposed_bit(k);
        let mut now = 0;
        let mut two = 0;
        for end in [0, SIZE - 1] {
            if along_rank & 1 << end != 0 {
                // On the edge file `end`: then up or down it.
                now |= bit(Square::at(end, rank)) & CORNERS;
                let run = slide(rank, line_bits(without_t, end));
                two |= line_ends(run, |cell| Square::at(end, cell));
            }
            if along_file & 1 << end != 0 {
                now |= bit(Square::at(file, end)) & CORNERS;
                let run = slide(file, line_bits(without, end));
                two |= line_ends(run, |cell| Square::at(cell, end));
            }
        }
        Self {
            moves: along_rank.count_ones() + along_file.count_ones(),
            now,
            two: two & !now,
        }
    }
}

/// The end squares of an edge line that a rook run `run` along it reaches: its corners.
fn line_ends(run: u16, square: impl Fn(usize) -> Square) -> Bits {
    [0, SIZE - 1]
        .iter()
        .filter(|&&cell| run & 1 << cell != 0)
        .fold(0, |bits, &cell| bits | bit(square(cell)))
}

/// Whether the king sees a corner along his rank or file: a threat to escape next move.
#[must_use]
pub fn king_sees_corner(board: &Board) -> bool {
    KingRoutes::new(board).now != 0
}

/// The squares between the king and the corners he sees: where a piece must land to stop his
/// escape next move (none when he sees no corner). A corner shares an edge line with a king
/// who sees it, so these are edge squares.
#[must_use]
pub fn corner_sight(board: &Board) -> Bits {
    let k = board.king;
    let (file, rank) = (file_of(k), rank_of(k));
    squares(KingRoutes::new(board).now).fold(0, |sight, corner| {
        let (f, r) = (file_of(corner), rank_of(corner));
        let between: Bits = if r == rank {
            (file.min(f) + 1..file.max(f)).fold(0, |b, x| b | bit(Square::at(x, rank)))
        } else {
            (rank.min(r) + 1..rank.max(r)).fold(0, |b, y| b | bit(Square::at(file, y)))
        };
        sight | between
    })
}

/// The squares a rook on any square of `from` reaches through `empty` squares.
fn rook_reach(from: Bits, empty: Bits) -> Bits {
    fill_lines(from, empty) & empty
}

/// The king's distance to his nearest corner in moves over the squares free now, 4 meaning
/// four or more (the pieces are taken to stay where they are).
fn corner_moves(board: &Board) -> u32 {
    let empty = BOARD & !board.occupied();
    let mut reached = board.king_bit();
    for moves in 1..=3 {
        reached |= rook_reach(reached, empty);
        if reached & CORNERS != 0 {
            return moves;
        }
    }
    4
}

/// The squares where a defender soldier landing now could be taken on the attackers' next
/// move: a hostile square on one side and, opposite, an empty square that an attacker reaches
/// without passing the landing square itself. (The square the soldier leaves is taken to stay
/// occupied.)
fn defender_traps(board: &Board, empty: Bits) -> Bits {
    let hostile = board.attackers | CORNERS | (THRONE_BIT & empty);
    let [e, w, n, s] =
        directed_fills(board.attackers, empty).map(|reach| reach & empty & !RESTRICTED);
    // A square is in `west(x)` when its east neighbour is in `x`: an attacker arriving east of
    // the soldier closes a hostile square west of him, unless it came through him, eastward.
    (east(hostile) & west(w | n | s))
        | (west(hostile) & east(e | n | s))
        | (south(hostile) & north(e | w | n))
        | (north(hostile) & south(e | w | s))
}

/// The safe squares of the free soldiers at which [`EvalWeights::roamer_net`] starts counting:
/// more than one roaming soldier usually has.
const ROAMER_ROOM: u32 = 40;

/// The [`EvalWeights::roamer_net`] count: with the king shut off from every corner, how many
/// squares short of [`ROAMER_ROOM`] the defender soldiers of `free` (not yet encircled) can
/// move to without landing in a trap; 0 while the king can still reach a corner. The squares
/// are counted once for all the soldiers, which costs one sweep of rook rays, not one a
/// soldier.
///
/// The king is shut off when no path free of attackers leads from him to a corner (his
/// `king_region` holds none): sealed off from the edge, or on the edge with every corner walled
/// off. The second is the edge fort that no attacker can break (a king on the edge cannot be
/// captured) while one soldier roams: Hard's self-play shuffled it to the ply cap while the
/// term waited for an edge seal.
///
/// A soldier that can never move walls the king in as surely as an attacker: the king on c11
/// with a soldier on b11, attackers on b10, c10 and d11, never reaches a11, although the flood
/// over squares free of attackers passes b11 to the corner. Expert's self-play shuffled that
/// fort to the ply cap with the term at zero, so the corner test floods again without the
/// [`frozen`] soldiers whenever one stands in the king's region.
fn roamer_net(board: &Board, free: Bits, king_region: Bits) -> u32 {
    let empty = BOARD & !board.occupied();
    if king_region & CORNERS != 0 {
        // A frozen king has only walls beside him, so this flood stays on his square.
        let walls = frozen(board, empty);
        if walls & king_region == 0 || flood(board.king_bit(), king_region & !walls) & CORNERS != 0
        {
            return 0;
        }
    }
    let safe = empty & !RESTRICTED & !defender_traps(board, empty);
    let room = (rook_reach(board.defenders & free, empty) & safe).count_ones();
    ROAMER_ROOM.saturating_sub(room)
}

/// The defenders that cannot move while the attackers stand still: no square beside them they
/// may enter is empty, and every defender beside them is frozen too. (A soldier boxed in by
/// his own side is not frozen: the outer ones move and make room.) The largest such set, found
/// by thawing every piece beside a defender that can move until nothing changes.
fn frozen(board: &Board, empty: Bits) -> Bits {
    let defenders = board.defenders_and_king();
    let mut frozen =
        (board.defenders & !neighbours(empty & !CORNERS)) | (board.king_bit() & !neighbours(empty));
    loop {
        let thawed = frozen & !neighbours(defenders & !frozen);
        if thawed == frozen {
            return frozen;
        }
        frozen = thawed;
    }
}

/// Where the defenders can go through squares free of attackers: `(king_region, region,
/// free)`, the king's region, the region of all the defenders, and the defenders connected to
/// the edge (not yet encircled). Flooding from the king first settles most positions with one
/// flood: until the attackers cut the defenders apart, every soldier is in the king's region,
/// which is then the whole region, and either all of them reach the edge or none does.
fn regions(board: &Board, open: Bits) -> (Bits, Bits, Bits) {
    let defenders = board.defenders_and_king();
    let king_region = flood(board.king_bit(), open);
    let rest = defenders & !king_region;
    if rest == 0 {
        let free = if king_region & EDGE != 0 {
            defenders
        } else {
            0
        };
        return (king_region, king_region, free);
    }
    let region = king_region | flood(rest, open);
    let free = flood(EDGE & open, open) & defenders;
    (king_region, region, free)
}

/// The terms of the king's surroundings and of the encirclement, as counts: `(enclosure,
/// free_defenders, edge_fort, shield_wall, throne_guard, roamer_net)`.
fn structure(board: &Board) -> (u32, u32, u32, u32, u32, u32) {
    let king = board.king_bit();
    let guards_beside = (board.defenders & neighbours(king)).count_ones();
    let open = BOARD & !board.attackers;
    let (king_region, region, free) = regions(board, open);
    let enclosure = (BOARD & !region & open).count_ones();
    let edge_fort = if king & EDGE != 0 { guards_beside } else { 0 };
    let shield_wall = (board.defenders & EDGE & neighbours(board.attackers & EDGE)).count_ones();
    let near_throne = (THRONE_BIT | neighbours(THRONE_BIT)) & king != 0;
    let throne_guard = if near_throne { guards_beside } else { 0 };
    let roamer_net = roamer_net(board, free, king_region);
    (
        enclosure,
        free.count_ones(),
        edge_fort,
        shield_wall,
        throne_guard,
        roamer_net,
    )
}

/// Manhattan distance from `square` to the nearest corner.
fn corner_distance(square: Square) -> u32 {
    let (f, r) = (file_of(square) as u32, rank_of(square) as u32);
    f.min(10 - f) + r.min(10 - r)
}

/// What move ordering needs of a position, computed once for all of its moves.
#[derive(Clone, Copy, Debug, Default)]
struct OrderInfo {
    /// The position it was computed for ([`Hnefatafl::hash`]).
    hash: u64,
    /// Per direction, the squares from which a soldier of the side to move, arriving there,
    /// sandwiches an enemy soldier in that direction (against the current board).
    captures: [Bits; 4],
    /// The union of `captures`: where a soldier's move is tactical.
    capture_squares: Bits,
    /// The king's neighbours.
    ring: Bits,
    /// The king's rank and file.
    lines: Bits,
}

impl OrderInfo {
    fn new(pos: &Hnefatafl) -> Self {
        let board = pos.board();
        let (victims, anvils) = match pos.side_to_move() {
            Side::Attackers => (
                board.defenders,
                board.attackers | CORNERS | (THRONE_BIT & !board.king_bit()),
            ),
            Side::Defenders => (
                board.attackers,
                board.defenders_and_king() | CORNERS | THRONE_BIT,
            ),
        };
        // A square is in `west(x)` when its east neighbour is in `x`, and so on.
        let captures = [
            west(victims & west(anvils)),
            east(victims & east(anvils)),
            south(victims & south(anvils)),
            north(victims & north(anvils)),
        ];
        let k = board.king;
        Self {
            hash: pos.hash(),
            captures,
            capture_squares: captures.iter().fold(0, |all, &c| all | c),
            ring: neighbours(board.king_bit()),
            lines: (RANK_1 << (rank_of(k) * SIZE)) | (FILE_A << file_of(k)),
        }
    }
}

/// The evaluation of one level: its weights read once into a plain struct, and the ordering
/// facts of the last position whose moves it ordered (the searcher orders all the moves of a
/// node in a row).
#[derive(Clone, Debug)]
pub struct Evaluation {
    pub weights: EvalWeights,
    /// The weights in table order, the order of [`features`].
    values: [f64; TERMS],
    order_info: RefCell<OrderInfo>,
}

impl Evaluation {
    #[must_use]
    pub fn new(weights: EvalWeights) -> Self {
        let mut values = [0.0; TERMS];
        values.copy_from_slice(&weights.values());
        Self {
            weights,
            values,
            order_info: RefCell::default(),
        }
    }

    /// The score from the attackers' point of view, in hundredths of an attacker: the dot
    /// product of the weights with the position's [`features`].
    #[must_use]
    pub fn attackers_view(&self, game: &Hnefatafl) -> f64 {
        features(game)
            .iter()
            .zip(&self.values)
            .map(|(f, w)| f * w)
            .sum()
    }
}

/// The number of evaluation terms: one per weight of [`EvalWeights`].
pub const TERMS: usize = EvalWeights::SET.params.len();

/// The evaluation's terms for `game`, in [`EvalWeights`] order and from the attackers' point of
/// view (a term that profits the defenders is counted negative): the evaluation is linear in
/// its weights, which is what Texel-style fitting (`koom fit`, through
/// [`Players::evaluation_terms`](crate::Players::evaluation_terms)) relies on.
#[must_use]
pub fn features(game: &Hnefatafl) -> [f64; TERMS] {
    let board = game.board();
    let king = board.king_bit();
    let empty = BOARD & !board.occupied();
    let stops = empty & !RESTRICTED;
    let guards = board.defenders_and_king();
    let routes = KingRoutes::new(board);
    let pressure = (neighbours(king) & (board.attackers | (THRONE_BIT & empty))).count_ones();
    let near = NEAR[board.king.index()];
    let hostile_to_defenders = board.attackers | CORNERS | (THRONE_BIT & empty);
    let hostile_to_attackers = guards | CORNERS | THRONE_BIT;
    let room = f64::from((neighbours(board.attackers) & stops).count_ones())
        - f64::from((neighbours(guards) & stops).count_ones());
    let count = |x: Bits| f64::from(x.count_ones());
    let (tempo, routes_to_block) = match game.side_to_move() {
        Side::Attackers => (1.0, 2),
        Side::Defenders => (-1.0, 1),
    };
    let certain = routes.now.count_ones() >= routes_to_block;
    let (enclosure, free, edge_fort, shield_wall, throne_guard, roamer_net) = structure(board);
    [
        count(board.attackers),
        -count(board.defenders),
        -count(routes.now),
        -f64::from(u8::from(certain)),
        -count(routes.two),
        f64::from(corner_distance(board.king)),
        -f64::from(routes.moves),
        f64::from(pressure),
        count(board.attackers & near),
        -count(board.defenders & near),
        count(board.attackers & CORNER_BLOCKS),
        count(board.attackers & EDGE),
        -f64::from(loose(board.attackers, hostile_to_attackers, stops)),
        f64::from(loose(board.defenders, hostile_to_defenders, stops)),
        -count(board.defenders & neighbours(guards)),
        room,
        tempo,
        f64::from(corner_moves(board)),
        f64::from(enclosure),
        -f64::from(edge_fort),
        f64::from(shield_wall),
        -f64::from(throne_guard),
        -count(guards & neighbours(stops)),
        count(board.attackers & within_two(board.defenders & neighbours(stops))),
        -f64::from(free),
        f64::from(roamer_net),
    ]
}

/// The ordering score of each soldier a move sandwiches (above any quiet move's score).
const CAPTURE_ORDER: i32 = 1_000;

/// Bound of a static evaluation, well inside the searcher's win scores.
const EVAL_BOUND: f64 = (MATE / 2) as f64;

impl Evaluation {
    /// The static score from the side to move's point of view (negamax).
    #[must_use]
    pub fn for_side_to_move(&self, pos: &Hnefatafl) -> i32 {
        let score = self.attackers_view(pos).clamp(-EVAL_BOUND, EVAL_BOUND) as i32;
        match pos.side_to_move() {
            Side::Attackers => score,
            Side::Defenders => -score,
        }
    }

    /// Whether `mv` is searched beyond the horizon: a capture, or a king move to a corner or to
    /// a square from which he sees one (a threat the other side must answer).
    #[must_use]
    pub fn tactical(&self, pos: &Hnefatafl, mv: Move) -> bool {
        if mv.from == pos.board().king {
            let mut next = *pos;
            next.apply(mv);
            return CORNERS & bit(mv.to) != 0 || king_sees_corner(next.board());
        }
        // A soldier's order score reaches `CAPTURE_ORDER` exactly when it captures.
        self.with_order_info(pos, |info| info.capture_squares & bit(mv.to) != 0)
    }

    /// `read` applied to the ordering facts of `pos`, computed when they are not those of the
    /// last position asked about. Borrowed, not copied: the searcher asks once per move.
    fn with_order_info<R>(&self, pos: &Hnefatafl, read: impl FnOnce(&OrderInfo) -> R) -> R {
        if self.order_info.borrow().hash != pos.hash() {
            *self.order_info.borrow_mut() = OrderInfo::new(pos);
        }
        read(&self.order_info.borrow())
    }

    /// The move-ordering score (positive for tactical moves): captures first, by the number of
    /// soldiers sandwiched on the current board (the square left is not taken into account);
    /// then king moves to a corner or the edge and attacker moves beside the king or across
    /// his lines. Quiet moves score by closeness to the king (attackers) or whether they stay
    /// near him (defenders).
    #[must_use]
    pub fn move_order(&self, pos: &Hnefatafl, mv: Move) -> i32 {
        let board = pos.board();
        let to = bit(mv.to);
        if mv.from == board.king {
            if CORNERS & to != 0 {
                return 10_000;
            }
            let edge = if EDGE & to != 0 { 200 } else { 0 };
            return edge - 10 * corner_distance(mv.to) as i32;
        }
        let (captures, ring, lines) = self.with_order_info(pos, |info| {
            let captures: u32 = info.captures.iter().map(|&c| u32::from(c & to != 0)).sum();
            (captures, info.ring, info.lines)
        });
        let mut score = CAPTURE_ORDER * captures as i32;
        if pos.side_to_move() == Side::Attackers {
            if ring & to != 0 {
                score += 300;
            } else if lines & to != 0 {
                score += 100;
            }
            if score == 0 {
                let (k, t) = (board.king, mv.to);
                let distance = file_of(k).abs_diff(file_of(t)) + rank_of(k).abs_diff(rank_of(t));
                score = -(distance as i32);
            }
        } else if score == 0 {
            score = -i32::from(NEAR[board.king.index()] & to == 0);
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::random_squares;
    use super::*;
    use crate::random::RandomStream;

    #[test]
    fn regions_match_flooding_each_region_on_its_own() {
        let mut rng = RandomStream::from_seed(21, 0);
        let mut bits = || random_squares(&mut rng);
        let (mut whole, mut split) = (0, 0);
        for round in 0..4_000 {
            // Attackers on a quarter or a half of the board, a few defenders among the rest.
            let attackers = if round % 2 == 0 {
                bits() & bits()
            } else {
                bits()
            };
            let defenders = bits() & bits() & bits() & !attackers;
            let Some(king) = squares(BOARD & !attackers & !defenders).next() else {
                continue;
            };
            let mut board = Board::with_king(king);
            board.attackers = attackers;
            board.defenders = defenders;
            let open = BOARD & !attackers;
            let all = board.defenders_and_king();
            let expected = (
                flood(bit(king), open),
                flood(all, open),
                flood(EDGE & open, open) & all,
            );
            assert_eq!(regions(&board, open), expected);
            if all & !expected.0 == 0 {
                whole += 1;
            } else {
                split += 1;
            }
        }
        // Both of `regions`' paths were taken.
        assert!(whole > 100 && split > 100, "{whole} whole, {split} split");
    }
}
