//! Thud perft: the fixtures of `data/thud-perft.txt` checked by the engine's fast generator and by
//! a naive generator written here only for this purpose. The naive one shares nothing with the
//! engine but the way a position is read: its own board (a 15×15 array of cells, the octagon
//! derived from the cut triangles), its own scans of the rules as `docs/rules/thud.md` words them
//! (shoves of every length, the step's duplicates removed by a set), its own notation.

mod common;

use std::collections::BTreeSet;

use common::perft_fixtures;

use engine::Notation;
use engine::Rules;
use engine::games::thud::{
    Board, Piece, Square, Thud, ThudOptions, TrollCapture, format_move, generate, parse_position,
    perft,
};
use engine::{NoLog, RandomStream};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Off,
    Empty,
    Dwarf,
    Troll,
    Stone,
}

/// A naive position: `grid[rank][file]`, rank 0 = rank 1, file 0 = A.
#[derive(Clone, Debug)]
struct Naive {
    grid: [[Cell; 15]; 15],
    dwarfs_to_move: bool,
    rule: TrollCapture,
}

/// A naive move: from, to, and the dwarfs captured by a troll as a mask over [`DIRECTIONS`]
/// around `to` (bit `i` set: the dwarf at `to + DIRECTIONS[i]` is taken).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct NaiveMove {
    from: (i32, i32),
    to: (i32, i32),
    captures: u8,
}

const FILES: &str = "ABCDEFGHJKLMNOP";
/// (rank, file) steps, in square order of the neighbours they reach.
const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The octagon: a 15×15 grid less a triangle of 5 + 4 + 3 + 2 + 1 squares in each corner.
fn on_octagon(rank: i32, file: i32) -> bool {
    let cut = |r: i32| (5 - r).max(0);
    let c = cut(rank).max(cut(14 - rank));
    (0..15).contains(&rank) && file >= c && file < 15 - c
}

fn name((rank, file): (i32, i32)) -> String {
    format!("{}{}", &FILES[file as usize..=file as usize], rank + 1)
}

impl NaiveMove {
    fn text(&self) -> String {
        let mut s = format!("{}-{}", name(self.from), name(self.to));
        for (i, (dr, df)) in DIRECTIONS.iter().enumerate() {
            if self.captures >> i & 1 == 1 {
                s += &format!("x{}", name((self.to.0 + dr, self.to.1 + df)));
            }
        }
        s
    }
}

impl Naive {
    fn from_board(board: &Board, rule: TrollCapture) -> Self {
        let mut grid = [[Cell::Off; 15]; 15];
        for (rank, row) in grid.iter_mut().enumerate() {
            for (file, cell) in row.iter_mut().enumerate() {
                if !on_octagon(rank as i32, file as i32) {
                    continue;
                }
                *cell = if (rank, file) == (7, 7) {
                    Cell::Stone
                } else {
                    match board.piece_at(Square::new(file, rank).expect("on the octagon")) {
                        Some(Piece::Dwarf) => Cell::Dwarf,
                        Some(Piece::Troll) => Cell::Troll,
                        None => Cell::Empty,
                    }
                };
            }
        }
        Self {
            grid,
            dwarfs_to_move: board.side() == engine::games::thud::Side::Dwarfs,
            rule,
        }
    }

    fn at(&self, (rank, file): (i32, i32)) -> Cell {
        if (0..15).contains(&rank) && (0..15).contains(&file) {
            self.grid[rank as usize][file as usize]
        } else {
            Cell::Off
        }
    }

    fn squares_of(&self, cell: Cell) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        for rank in 0..15 {
            for file in 0..15 {
                if self.at((rank, file)) == cell {
                    out.push((rank, file));
                }
            }
        }
        out
    }

    /// The legal moves, each once, in order.
    fn moves(&self) -> Vec<NaiveMove> {
        let mut out = Vec::new();
        if self.dwarfs_to_move {
            for from in self.squares_of(Cell::Dwarf) {
                for (dr, df) in DIRECTIONS {
                    // The line behind the dwarf, the dwarf included.
                    let line = (0..)
                        .take_while(|&j| self.at((from.0 - j * dr, from.1 - j * df)) == Cell::Dwarf)
                        .count() as i32;
                    for k in 1..15 {
                        let to = (from.0 + k * dr, from.1 + k * df);
                        match self.at(to) {
                            Cell::Empty => out.push(NaiveMove {
                                from,
                                to,
                                captures: 0,
                            }),
                            Cell::Troll if k <= line => out.push(NaiveMove {
                                from,
                                to,
                                captures: 0,
                            }),
                            _ => {}
                        }
                        if self.at(to) != Cell::Empty {
                            break;
                        }
                    }
                }
            }
        } else {
            for from in self.squares_of(Cell::Troll) {
                for (dr, df) in DIRECTIONS {
                    let line = (0..)
                        .take_while(|&j| self.at((from.0 - j * dr, from.1 - j * df)) == Cell::Troll)
                        .count() as i32;
                    for k in 1..=line {
                        let to = (from.0 + k * dr, from.1 + k * df);
                        if !(1..=k)
                            .all(|j| self.at((from.0 + j * dr, from.1 + j * df)) == Cell::Empty)
                        {
                            continue;
                        }
                        let near = (0..8).fold(0u8, |m, i| {
                            let (a, b) = DIRECTIONS[i];
                            m | u8::from(self.at((to.0 + a, to.1 + b)) == Cell::Dwarf) << i
                        });
                        // Every subset of the neighbouring dwarfs, or only all of them.
                        let mut subsets = vec![near];
                        if self.rule == TrollCapture::Choose {
                            let mut c = near;
                            while c != 0 {
                                c = (c - 1) & near;
                                subsets.push(c);
                            }
                        }
                        for captures in subsets {
                            // The step may capture nothing; a shove (of any length) must.
                            let step = k == 1;
                            let shove = captures != 0;
                            if step || shove {
                                out.push(NaiveMove { from, to, captures });
                            }
                        }
                    }
                }
            }
            // A shove of one square is the step with the same captures: one move. (A dwarf's
            // moves are distinct (from, to) pairs by construction.)
            out.sort();
            out.dedup();
        }
        out
    }

    fn play(&self, mv: &NaiveMove) -> Self {
        let mut next = self.clone();
        let piece = self.at(mv.from);
        next.grid[mv.from.0 as usize][mv.from.1 as usize] = Cell::Empty;
        next.grid[mv.to.0 as usize][mv.to.1 as usize] = piece;
        for (i, (dr, df)) in DIRECTIONS.iter().enumerate() {
            if mv.captures >> i & 1 == 1 {
                next.grid[(mv.to.0 + dr) as usize][(mv.to.1 + df) as usize] = Cell::Empty;
            }
        }
        next.dwarfs_to_move = !self.dwarfs_to_move;
        next
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}

/// The fast generator's moves as text, checking it lists none twice.
fn fast_moves(board: &Board, rule: TrollCapture) -> BTreeSet<String> {
    let mut list = <Thud as Rules>::MoveList::default();
    generate(board, rule, &mut list);
    let set: BTreeSet<String> = list.iter().map(|&m| format_move(m)).collect();
    assert_eq!(
        set.len(),
        list.len(),
        "the fast generator lists a move twice"
    );
    set
}

fn naive_moves(naive: &Naive) -> BTreeSet<String> {
    naive.moves().iter().map(NaiveMove::text).collect()
}

#[test]
fn fixtures_agree_with_both_generators() {
    let fixtures = perft_fixtures::<Thud>(include_str!("data/thud-perft.txt"));
    assert!(fixtures.len() >= 10);
    for f in &fixtures {
        let rule = f.options.troll_capture;
        let board = parse_position(&f.position).unwrap();
        let naive = Naive::from_board(&board, rule);
        assert_eq!(fast_moves(&board, rule), naive_moves(&naive), "{}", f.id);
        let game = Thud::from_position(&f.position, &f.options).unwrap();
        for &(depth, expected) in &f.counts {
            assert_eq!(
                perft(&board, rule, depth),
                expected,
                "{} fast perft {depth}",
                f.id
            );
            assert_eq!(game.perft(depth), expected, "{} Game::perft {depth}", f.id);
            assert_eq!(naive.perft(depth), expected, "{} naive perft {depth}", f.id);
        }
    }
}

#[test]
fn start_has_the_published_656_dwarf_moves() {
    let game = Thud::new(
        &ThudOptions::default(),
        2,
        &mut RandomStream::dice(0),
        &mut NoLog,
    );
    let mut moves = <Thud as Rules>::MoveList::default();
    game.legal_moves(&mut moves);
    assert_eq!(moves.len(), 656);
}

#[test]
fn both_generators_agree_along_random_games() {
    for (seed, rule) in [
        (1, TrollCapture::Choose),
        (2, TrollCapture::All),
        (3, TrollCapture::Choose),
    ] {
        let options = ThudOptions {
            troll_capture: rule,
            no_capture_plies: 400,
            ply_cap: 300,
        };
        let mut dice = RandomStream::dice(seed);
        let mut rng = RandomStream::from_seed(seed, 7);
        let mut game = Thud::new(&options, 2, &mut dice, &mut NoLog);
        let mut list = <Thud as Rules>::MoveList::default();
        while game.outcome().is_none() {
            let naive = Naive::from_board(game.board(), rule);
            assert_eq!(fast_moves(game.board(), rule), naive_moves(&naive));
            // Perft 2 with the dwarfs to move takes a shortcut over the trolls' replies.
            if game.counters().moves.is_multiple_of(5) {
                assert_eq!(perft(game.board(), rule, 2), naive.perft(2));
            }
            game.legal_moves(&mut list);
            // Favour captures so that the armies meet and thin out.
            let captures: Vec<_> = list
                .iter()
                .copied()
                .filter(|m| m.captures != 0 || game.board().piece_at(m.to).is_some())
                .collect();
            let pool = if !captures.is_empty() && rng.below(2) == 0 {
                &captures[..]
            } else {
                &list[..]
            };
            let mv = pool[rng.below(pool.len() as u32) as usize];
            game.play(mv, &mut dice, &mut NoLog);
        }
    }
}
