//! Move ordering and the width selection.
//!
//! Each move of a node gets one `i64` sort key, so that ordering is a plain comparison with no
//! ties and needs no allocation beyond a scratch slice:
//!
//! ```text
//! bits 30..   primary: the evaluator's order score, or above any of them for the table move
//! bits 28..30 killer rank: 2 for the first killer, 1 for the second, 0 otherwise
//! bits 16..28 history score (0..4096), when the game has history slots
//! bits  0..16 (2^16 - 1) - generation index, so that equal scores keep generation order
//! ```
//!
//! Search order is therefore: the table move, moves with a positive (tactical) order score, the
//! killer moves, then the rest, each group by descending order score, then history score. The
//! width selection looks only at the table move and order scores (killers and history are applied
//! after it), so the set of moves searched at a position depends on the position alone, never on
//! the search's history.

use super::SearchGame;

/// Bits of the generation index in a key.
const INDEX_BITS: u32 = 16;
const INDEX_MASK: i64 = (1 << INDEX_BITS) - 1;
const HISTORY_BITS: u32 = 12;
const KILLER_SHIFT: u32 = INDEX_BITS + HISTORY_BITS;
const PRIMARY_SHIFT: u32 = KILLER_SHIFT + 2;
/// The primary of the table move: above every `i32` order score.
const TABLE_MOVE: i64 = i32::MAX as i64 + 1;

/// The most moves a node may have (the index must fit its field of the key).
pub(crate) const MAX_MOVES: usize = 1 << INDEX_BITS;

/// History scores saturate here (they must fit their field of the key).
const HISTORY_MAX: u32 = (1 << HISTORY_BITS) - 1;

fn key(primary: i64, killer_rank: i64, history: u32, index: usize) -> i64 {
    (primary << PRIMARY_SHIFT)
        | (killer_rank << KILLER_SHIFT)
        | (i64::from(history) << INDEX_BITS)
        | (INDEX_MASK - index as i64)
}

fn primary(key: i64) -> i64 {
    key >> PRIMARY_SHIFT
}

/// Whether `key` is a quiet move's: not the table move, not tactical, not a killer.
pub(crate) fn quiet(key: i64) -> bool {
    key < 1 << KILLER_SHIFT
}

fn index(key: i64) -> usize {
    (INDEX_MASK - (key & INDEX_MASK)) as usize
}

/// The history heuristic: how often (weighted by depth squared) each history slot's quiet move
/// caused a cutoff. Halved at every new search so that old knowledge fades, and halved whole
/// whenever a score would overflow its field, which keeps the ratios.
#[derive(Debug)]
pub(crate) struct History {
    scores: Vec<u32>,
}

impl History {
    pub fn new(slots: usize) -> Self {
        Self {
            scores: vec![0; slots],
        }
    }

    pub fn clear(&mut self) {
        self.scores.fill(0);
    }

    pub fn age(&mut self) {
        for s in &mut self.scores {
            *s /= 2;
        }
    }

    pub fn get(&self, slot: usize) -> u32 {
        self.scores.get(slot).copied().unwrap_or(0)
    }

    pub fn record(&mut self, slot: usize, depth: u32) {
        let bonus = depth.saturating_mul(depth).min(HISTORY_MAX);
        if let Some(&s) = self.scores.get(slot) {
            if s + bonus > HISTORY_MAX {
                self.age();
            }
            self.scores[slot] = (self.scores[slot] + bonus).min(HISTORY_MAX);
        }
    }
}

/// Two killer moves per ply: quiet moves that caused a beta cutoff at that distance from the
/// root, which often refute sibling positions too.
#[derive(Debug)]
pub(crate) struct Killers<M> {
    slots: Vec<[Option<M>; 2]>,
}

impl<M: Copy + Eq> Killers<M> {
    pub fn new(plies: usize) -> Self {
        Self {
            slots: vec![[None; 2]; plies],
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill([None; 2]);
    }

    pub fn at(&self, ply: u32) -> [Option<M>; 2] {
        self.slots.get(ply as usize).copied().unwrap_or([None; 2])
    }

    /// Records a quiet move that caused a cutoff at `ply`; the older killer is demoted.
    pub fn record(&mut self, ply: u32, mv: M) {
        if let Some(slot) = self.slots.get_mut(ply as usize)
            && slot[0] != Some(mv)
        {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
    }
}

/// The history and killer knowledge of one node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hints<'a, M> {
    /// The move to search first (from the table), kept by the width selection.
    pub first: Option<M>,
    pub killers: [Option<M>; 2],
    pub history: &'a History,
}

/// Writes the sort keys of `moves` into `keys[..moves.len()]` (`order(i, moves[i])`: the
/// evaluator's order score), keeps the `width` most promising (`hints.first` counts as the most
/// promising of all), then adds the killer and history bonuses
/// of those kept. Returns how many moves are to be searched: they are `keys[..count]`, to be
/// taken in order with [`next`].
pub(crate) fn prepare<G: SearchGame>(
    keys: &mut [i64],
    pos: &G,
    moves: &[G::Move],
    order: impl Fn(usize, G::Move) -> i32,
    width: Option<usize>,
    hints: &Hints<'_, G::Move>,
) -> usize {
    debug_assert!(
        moves.len() <= MAX_MOVES,
        "{} moves at one node",
        moves.len()
    );
    let keys = &mut keys[..moves.len()];
    for (i, (k, &mv)) in keys.iter_mut().zip(moves).enumerate() {
        let primary = if Some(mv) == hints.first {
            TABLE_MOVE
        } else {
            i64::from(order(i, mv))
        };
        *k = key(primary, 0, 0, i);
    }
    let count = match width {
        Some(w) if w.max(1) < keys.len() => {
            let w = w.max(1);
            keys.select_nth_unstable_by(w - 1, |a, b| b.cmp(a));
            w
        }
        _ => keys.len(),
    };
    let killers = hints.killers.iter().any(Option::is_some);
    if G::HISTORY_SLOTS == 0 && !killers {
        return count;
    }
    for k in &mut keys[..count] {
        let (i, p) = (index(*k), primary(*k));
        let mv = moves[i];
        let history = if G::HISTORY_SLOTS > 0 {
            hints.history.get(pos.history_slot(mv))
        } else {
            0
        };
        let rank = hints.killers.iter().position(|&x| x == Some(mv));
        *k = match rank {
            Some(r) if p <= 0 => key(0, 2 - r as i64, history, i),
            _ => key(p, 0, history, i),
        };
    }
    count
}

/// How many moves of a node are picked by selection before the rest is sorted at once.
///
/// Cut nodes mostly cut off within their first few moves, so selecting those costs O(n) each
/// and sorting is never needed; a node that gets further (an all-node) is likely to search
/// everything, and for a wide node (Thud has over 600 moves) one O(n log n) sort beats O(n^2)
/// selection.
const SELECTED_PICKS: usize = 6;

/// The generation index of the `i`-th move to search, `keys` holding the node's kept keys.
/// Must be called for `i = 0, 1, 2...` in turn: it reorders `keys` as it goes.
pub(crate) fn next(keys: &mut [i64], i: usize) -> usize {
    if i < SELECTED_PICKS {
        let mut best = i;
        for j in i + 1..keys.len() {
            if keys[j] > keys[best] {
                best = j;
            }
        }
        keys.swap(i, best);
    } else if i == SELECTED_PICKS {
        keys[i..].sort_unstable_by(|a, b| b.cmp(a));
    }
    index(keys[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_sort_table_move_tactical_killers_quiet_then_history_then_generation_order() {
        let ordered = [
            key(TABLE_MOVE, 0, 0, 9),
            key(5, 0, 0, 3),
            key(1, 0, HISTORY_MAX, 5),
            key(1, 0, 0, 0),
            key(1, 0, 0, 4),
            key(0, 2, 0, 7),
            key(0, 1, 3, 2),
            key(0, 0, HISTORY_MAX, 8),
            key(0, 0, 2, 10),
            key(0, 0, 0, 1),
            key(0, 0, 0, 11),
            key(-3, 0, 0, 6),
            key(i64::from(i32::MIN), 0, 0, MAX_MOVES - 1),
        ];
        assert!(ordered.windows(2).all(|w| w[0] > w[1]), "{ordered:?}");
        let indices = [9, 3, 5, 0, 4, 7, 2, 8, 10, 1, 11, 6, MAX_MOVES - 1];
        for (k, i) in ordered.iter().zip(indices) {
            assert_eq!(index(*k), i);
        }
        assert_eq!(primary(key(-3, 1, 7, 6)), -3);
        assert_eq!(primary(key(TABLE_MOVE, 0, HISTORY_MAX, 0)), TABLE_MOVE);
    }

    #[test]
    fn history_saturates_by_halving_everything() {
        let mut h = History::new(3);
        h.record(0, 10);
        h.record(1, 2);
        assert_eq!((h.get(0), h.get(1), h.get(2)), (100, 4, 0));
        h.record(0, 200); // the bonus is capped, the others halve, the score saturates
        assert_eq!((h.get(0), h.get(1), h.get(2)), (HISTORY_MAX, 2, 0));
        h.age();
        assert_eq!(h.get(0), HISTORY_MAX / 2);
        h.record(9, 1); // no such slot: ignored
        assert_eq!(h.get(9), 0);
        h.clear();
        assert_eq!(h.get(0), 0);
    }

    #[test]
    fn next_takes_keys_in_descending_order() {
        let mut keys = [
            key(0, 0, 0, 0),
            key(3, 0, 0, 1),
            key(-1, 0, 0, 2),
            key(3, 0, 0, 3),
        ];
        let order: Vec<usize> = (0..keys.len()).map(|i| next(&mut keys, i)).collect();
        assert_eq!(order, [1, 3, 0, 2]);
    }

    #[test]
    fn killers_demote_and_ignore_repeats() {
        let mut k = Killers::new(2);
        k.record(1, 5u8);
        k.record(1, 5);
        assert_eq!(k.at(1), [Some(5), None]);
        k.record(1, 6);
        assert_eq!(k.at(1), [Some(6), Some(5)]);
        k.record(7, 1); // beyond the table: ignored
        assert_eq!(k.at(7), [None, None]);
        k.clear();
        assert_eq!(k.at(1), [None, None]);
    }
}
