//! The transposition table: a fixed-size array allocated once, in buckets of two entries.
//!
//! Replacement scheme: an entry for the same position is overwritten in place. Otherwise the
//! first slot of a bucket is depth-preferred: the new entry takes it when it is at least as deep
//! as the resident or the resident was written by an earlier search (an older generation), and
//! the resident is then demoted to the second slot; failing that, the new entry takes the second
//! slot, which is always-replace. Deep results of the current search therefore survive, while
//! recent shallow ones still find a home.

use super::MATE_BOUND;

/// What the stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The slot holds nothing.
    Empty,
    /// The value is exactly the score.
    Exact,
    /// The value is at least the score (the search failed high).
    Lower,
    /// The value is at most the score (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<M> {
    /// The full hash, checked on every probe.
    key: u64,
    /// The best move found, kept for ordering (none after a fail-low).
    pub mv: Option<M>,
    /// The score, with wins and losses counted from this node rather than from the root.
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    /// The search that wrote it (see [`Table::new_search`]).
    generation: u8,
}

impl<M: Copy> Entry<M> {
    const EMPTY: Self = Self {
        key: 0,
        mv: None,
        score: 0,
        depth: 0,
        bound: Bound::Empty,
        generation: 0,
    };
}

/// A score as stored: wins and losses measured from the node, so that an entry is valid at any
/// distance from the root.
fn to_table(score: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if score > MATE_BOUND {
        score + ply
    } else if score < -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// The inverse of [`to_table`].
fn from_table(score: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if score > MATE_BOUND {
        score - ply
    } else if score < -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[derive(Debug)]
pub(crate) struct Table<M> {
    /// Two entries per bucket; empty when the table is disabled.
    entries: Vec<Entry<M>>,
    /// Buckets minus one (the bucket count is a power of two).
    mask: usize,
    generation: u8,
}

impl<M: Copy + Eq> Table<M> {
    /// A table of `2^log2_entries` entries; 0 disables the table (every probe misses).
    pub fn new(log2_entries: u8) -> Self {
        let len = if log2_entries == 0 {
            0
        } else {
            1usize << log2_entries
        };
        Self {
            entries: vec![Entry::EMPTY; len],
            mask: (len / 2).saturating_sub(1),
            generation: 0,
        }
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::EMPTY);
        self.generation = 0;
    }

    /// Marks the start of a new search, so that older entries give way first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize & self.mask) * 2
    }

    /// The entry stored for `key`, its score seen from `ply`.
    pub fn probe(&self, key: u64, ply: u32) -> Option<Entry<M>> {
        if self.entries.is_empty() {
            return None;
        }
        let b = self.bucket(key);
        self.entries[b..b + 2]
            .iter()
            .find(|e| e.key == key && e.bound != Bound::Empty)
            .map(|e| Entry {
                score: from_table(e.score, ply),
                ..*e
            })
    }

    /// Records a search result for `key` found `ply` plies from the root.
    pub fn store(
        &mut self,
        key: u64,
        ply: u32,
        depth: u32,
        score: i32,
        bound: Bound,
        mv: Option<M>,
    ) {
        if self.entries.is_empty() {
            return;
        }
        let b = self.bucket(key);
        let generation = self.generation;
        let mut entry = Entry {
            key,
            mv,
            score: to_table(score, ply),
            depth: depth.min(u32::from(u8::MAX)) as u8,
            bound,
            generation,
        };
        let slot = if let Some(i) = (b..b + 2)
            .find(|&i| self.entries[i].key == key && self.entries[i].bound != Bound::Empty)
        {
            // Same position: a fail-low has no best move, keep the one we had.
            if entry.mv.is_none() {
                entry.mv = self.entries[i].mv;
            }
            i
        } else {
            let first = self.entries[b];
            if first.bound == Bound::Empty
                || first.generation != generation
                || entry.depth >= first.depth
            {
                self.entries[b + 1] = first;
                b
            } else {
                b + 1
            }
        };
        self.entries[slot] = entry;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let mut t = Table::<u8>::new(4);
        // A win 5 plies from the root found at ply 2 is a win in 3 from the node.
        t.store(77, 2, 3, MATE - 5, Bound::Exact, Some(1));
        assert_eq!(t.probe(77, 2).unwrap().score, MATE - 5);
        // Reached again at ply 4 it is still a win in 3 from there: 7 from the root.
        assert_eq!(t.probe(77, 4).unwrap().score, MATE - 7);
        t.store(78, 1, 3, -MATE + 4, Bound::Upper, None);
        assert_eq!(t.probe(78, 3).unwrap().score, -MATE + 6);
        t.store(79, 6, 3, 123, Bound::Lower, Some(2));
        assert_eq!(t.probe(79, 0).unwrap().score, 123);
    }

    #[test]
    fn probes_check_the_full_key() {
        let mut t = Table::<u8>::new(1); // one bucket: every key collides
        t.store(5, 0, 1, 10, Bound::Exact, Some(3));
        assert!(t.probe(6, 0).is_none());
        let e = t.probe(5, 0).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Some(3), 10, 1, Bound::Exact)
        );
    }

    #[test]
    fn deep_entries_of_the_current_search_survive_shallow_ones() {
        let mut t = Table::<u8>::new(1);
        t.store(1, 0, 9, 1, Bound::Exact, Some(1));
        t.store(2, 0, 2, 2, Bound::Exact, Some(2));
        t.store(3, 0, 3, 3, Bound::Exact, Some(3));
        // The deep entry keeps the first slot; the second slot always takes the newest.
        assert_eq!(t.probe(1, 0).unwrap().depth, 9);
        assert!(t.probe(2, 0).is_none());
        assert_eq!(t.probe(3, 0).unwrap().depth, 3);
        // A later search replaces stale entries even when shallower, demoting the old one.
        t.new_search();
        t.store(4, 0, 1, 4, Bound::Exact, Some(4));
        assert_eq!(t.probe(4, 0).unwrap().depth, 1);
        assert_eq!(t.probe(1, 0).unwrap().depth, 9);
        assert!(t.probe(3, 0).is_none());
    }

    #[test]
    fn a_fail_low_keeps_the_known_best_move() {
        let mut t = Table::<u8>::new(4);
        t.store(9, 0, 2, 50, Bound::Lower, Some(7));
        t.store(9, 0, 3, 20, Bound::Upper, None);
        let e = t.probe(9, 0).unwrap();
        assert_eq!((e.mv, e.depth, e.bound), (Some(7), 3, Bound::Upper));
    }

    #[test]
    fn a_disabled_table_stores_nothing() {
        let mut t = Table::<u8>::new(0);
        t.store(1, 0, 1, 1, Bound::Exact, Some(1));
        assert!(t.probe(1, 0).is_none());
    }
}
