//! Tiny games whose values are known, for the searcher's tests and benchmarks (and as the
//! smallest example of plugging a game into [`SearchGame`] and [`Evaluator`]). Tic-tac-toe and
//! the random tree use the history heuristic, the subtraction game does not.

use arrayvec::ArrayVec;

use super::{Evaluator, MATE, SearchGame};
use crate::random::splitmix64;

/// The evaluator of the toy games: a neutral or pseudo-random evaluation and a simple ordering.
#[derive(Clone, Copy, Debug, Default)]
pub struct ToyEval;

/// A subtraction game: take 1, 2 or 3 counters from a pile; whoever cannot move (the pile is
/// empty) has lost. The side to move wins exactly when `pile % 4 != 0`, by taking `pile % 4`;
/// with best play the game then lasts `1 + 2 * (pile / 4)` plies, and a lost one `2 * (pile / 4)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subtraction {
    pub pile: u32,
}

impl SearchGame for Subtraction {
    /// How many counters to take.
    type Move = u32;
    type MoveList = ArrayVec<u32, 3>;

    fn generate(&self, out: &mut Self::MoveList) {
        out.clear();
        for take in 1..=self.pile.min(3) {
            out.push(take);
        }
    }

    fn after(&self, mv: u32) -> Self {
        Self {
            pile: self.pile - mv,
        }
    }

    fn hash(&self) -> u64 {
        // Impartial: the side to move does not change the value.
        splitmix64(u64::from(self.pile))
    }

    fn terminal(&self, ply: u32) -> Option<i32> {
        (self.pile == 0).then(|| ply as i32 - MATE)
    }
}

impl Evaluator<Subtraction> for ToyEval {
    fn evaluate(&self, _: &Subtraction) -> i32 {
        0
    }

    /// Smaller takes first (no knowledge).
    fn order(&self, _: &Subtraction, mv: u32) -> i32 {
        -(mv as i32)
    }
}

/// Tic-tac-toe: a draw with best play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    /// Cells 0..9 row by row: 0 empty, 1 X, 2 O.
    pub cells: [u8; 9],
    /// 1 (X) or 2 (O).
    pub to_move: u8,
}

/// The eight lines of three.
pub const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl TicTacToe {
    /// The empty board, X to move.
    #[must_use]
    pub fn start() -> Self {
        Self {
            cells: [0; 9],
            to_move: 1,
        }
    }

    /// A board from 9 cells row by row, `X`, `O` or `.`; X moves first, so the side to move
    /// follows from the counts.
    ///
    /// # Errors
    /// When the text is not 9 such cells or the counts are impossible.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut cells = [0; 9];
        let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        if chars.len() != 9 {
            return Err(format!("{} cells, expected 9 of X, O or .", chars.len()));
        }
        for (cell, c) in cells.iter_mut().zip(chars) {
            *cell = match c {
                '.' => 0,
                'X' => 1,
                'O' => 2,
                _ => return Err(format!("cell {c:?}: expected X, O or .")),
            };
        }
        let count = |p| cells.iter().filter(|&&c| c == p).count();
        let to_move = match count(1).checked_sub(count(2)) {
            Some(0) => 1,
            Some(1) => 2,
            _ => return Err("X must have as many marks as O, or one more".into()),
        };
        Ok(Self { cells, to_move })
    }

    fn has_line(&self, player: u8) -> bool {
        LINES
            .iter()
            .any(|line| line.iter().all(|&c| self.cells[c] == player))
    }
}

impl SearchGame for TicTacToe {
    /// The cell to mark.
    type Move = u8;
    type MoveList = ArrayVec<u8, 9>;

    fn generate(&self, out: &mut Self::MoveList) {
        out.clear();
        if self.has_line(3 - self.to_move) {
            return;
        }
        for (i, &c) in self.cells.iter().enumerate() {
            if c == 0 {
                out.push(i as u8);
            }
        }
    }

    fn after(&self, mv: u8) -> Self {
        let mut next = *self;
        next.cells[usize::from(mv)] = self.to_move;
        next.to_move = 3 - self.to_move;
        next
    }

    fn hash(&self) -> u64 {
        let code = self
            .cells
            .iter()
            .fold(u64::from(self.to_move), |h, &c| h * 3 + u64::from(c));
        splitmix64(code)
    }

    fn terminal(&self, ply: u32) -> Option<i32> {
        if self.has_line(3 - self.to_move) {
            Some(ply as i32 - MATE)
        } else if self.cells.iter().all(|&c| c != 0) {
            Some(0)
        } else {
            None
        }
    }

    const HISTORY_SLOTS: usize = 9;

    fn history_slot(&self, mv: u8) -> usize {
        usize::from(mv)
    }
}

impl Evaluator<TicTacToe> for ToyEval {
    fn evaluate(&self, _: &TicTacToe) -> i32 {
        0
    }

    /// Centre, then corners, then edges.
    fn order(&self, _: &TicTacToe, mv: u8) -> i32 {
        match mv {
            4 => 0,
            0 | 2 | 6 | 8 => -1,
            _ => -2,
        }
    }
}

/// A pseudo-random game tree: each node has 2 to 4 children, leaves `height` plies below the
/// root carry pseudo-random values, and about one node in 23 is a loss for the side to move
/// (so that wins at various distances occur). Every node is distinct: no transpositions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomTree {
    pub id: u64,
    pub depth: u32,
    pub height: u32,
}

impl RandomTree {
    /// The root of the tree of `seed`.
    #[must_use]
    pub fn new(seed: u64, height: u32) -> Self {
        Self {
            id: splitmix64(seed),
            depth: 0,
            height,
        }
    }

    /// A pseudo-random value in `-range..=range` drawn from bits `shift..` of the id.
    fn value(&self, shift: u32, range: u64) -> i32 {
        ((self.id >> shift) % (2 * range + 1)) as i32 - range as i32
    }
}

impl SearchGame for RandomTree {
    /// The child's number.
    type Move = u8;
    type MoveList = ArrayVec<u8, 4>;

    fn generate(&self, out: &mut Self::MoveList) {
        out.clear();
        for i in 0..2 + self.id % 3 {
            out.push(i as u8);
        }
    }

    fn after(&self, mv: u8) -> Self {
        Self {
            id: splitmix64(self.id ^ (u64::from(mv) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)),
            depth: self.depth + 1,
            height: self.height,
        }
    }

    fn hash(&self) -> u64 {
        self.id
    }

    fn terminal(&self, ply: u32) -> Option<i32> {
        if self.depth >= self.height {
            Some(self.value(8, 500))
        } else if self.depth > 0 && (self.id >> 40).is_multiple_of(23) {
            Some(ply as i32 - MATE)
        } else {
            None
        }
    }

    const HISTORY_SLOTS: usize = 4;

    fn history_slot(&self, mv: u8) -> usize {
        usize::from(mv)
    }
}

impl Evaluator<RandomTree> for ToyEval {
    fn evaluate(&self, pos: &RandomTree) -> i32 {
        pos.value(20, 300)
    }

    /// The child's evaluation (for the mover) plus noise: usually, not always, right.
    fn order(&self, pos: &RandomTree, mv: u8) -> i32 {
        let child = pos.after(mv);
        child.value(44, 100) - self.evaluate(&child)
    }
}
