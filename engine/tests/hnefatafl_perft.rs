//! Perft fixtures for Copenhagen Hnefatafl, checked against the engine's fast generator and
//! against a second, naive generator written only for this test: a plain 11×11 array, moves by
//! walking each ray, captures and end conditions read directly off the rules text
//! (`docs/rules/hnefatafl.md`), its own position reader and writer. It shares no code with the engine.

mod common;

use common::perft_fixtures;
use engine::Ending;
use engine::Notation;
use engine::Rules;
use engine::games::hnefatafl::{Hnefatafl, HnefataflOptions, MoveList, Reason, START};
use engine::{NoLog, RandomStream};

const N: i32 = 11;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Empty,
    Attacker,
    Defender,
    King,
}

#[derive(Clone, Debug)]
struct Naive {
    /// `cells[rank][file]`, rank 0 = rank 1.
    cells: [[Cell; 11]; 11],
    attackers_to_move: bool,
    over: bool,
}

fn on_board(r: i32, f: i32) -> bool {
    (0..N).contains(&r) && (0..N).contains(&f)
}

fn is_corner(r: i32, f: i32) -> bool {
    (r == 0 || r == N - 1) && (f == 0 || f == N - 1)
}

fn is_throne(r: i32, f: i32) -> bool {
    r == 5 && f == 5
}

fn on_edge(r: i32, f: i32) -> bool {
    r == 0 || f == 0 || r == N - 1 || f == N - 1
}

const DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

impl Naive {
    fn at(&self, r: i32, f: i32) -> Cell {
        self.cells[r as usize][f as usize]
    }

    fn set(&mut self, r: i32, f: i32, c: Cell) {
        self.cells[r as usize][f as usize] = c;
    }

    fn parse(text: &str) -> Self {
        let (board, side) = text.trim().split_once(' ').unwrap();
        let ranks: Vec<&str> = board.trim_matches('/').split('/').collect();
        assert_eq!(ranks.len(), 11);
        let mut cells = [[Cell::Empty; 11]; 11];
        for (i, rank) in ranks.iter().enumerate() {
            let r = 10 - i;
            let mut f = 0;
            let mut digits = String::new();
            for ch in rank.chars().chain(std::iter::once('.')) {
                if ch.is_ascii_digit() {
                    digits.push(ch);
                    continue;
                }
                if !digits.is_empty() {
                    f += digits.parse::<usize>().unwrap();
                    digits.clear();
                }
                let cell = match ch {
                    't' => Cell::Attacker,
                    'T' => Cell::Defender,
                    'K' => Cell::King,
                    _ => continue,
                };
                cells[r][f] = cell;
                f += 1;
            }
            assert_eq!(f, 11);
        }
        let mut pos = Self {
            cells,
            attackers_to_move: side == "a",
            over: false,
        };
        // The end conditions a placement alone decides.
        let (kr, kf) = pos.king();
        pos.over = is_corner(kr, kf) || pos.fort() || pos.encircled() || pos.moves().is_empty();
        pos
    }

    fn write(&self) -> String {
        let mut out = String::new();
        for r in (0..11).rev() {
            out.push('/');
            let mut empty = 0;
            for f in 0..11 {
                let ch = match self.cells[r][f] {
                    Cell::Empty => {
                        empty += 1;
                        continue;
                    }
                    Cell::Attacker => 't',
                    Cell::Defender => 'T',
                    Cell::King => 'K',
                };
                if empty > 0 {
                    out += &empty.to_string();
                    empty = 0;
                }
                out.push(ch);
            }
            if empty > 0 {
                out += &empty.to_string();
            }
        }
        out + if self.attackers_to_move { "/ a" } else { "/ d" }
    }

    fn king(&self) -> (i32, i32) {
        for r in 0..N {
            for f in 0..N {
                if self.at(r, f) == Cell::King {
                    return (r, f);
                }
            }
        }
        panic!("no king")
    }

    fn mine(&self, c: Cell, attackers: bool) -> bool {
        if attackers {
            c == Cell::Attacker
        } else {
            c == Cell::Defender || c == Cell::King
        }
    }

    /// Legal moves of the side to move as ((rank, file), (rank, file)).
    fn moves(&self) -> Vec<((i32, i32), (i32, i32))> {
        let mut out = Vec::new();
        for r in 0..N {
            for f in 0..N {
                let c = self.at(r, f);
                if !self.mine(c, self.attackers_to_move) {
                    continue;
                }
                for (dr, df) in DIRS {
                    let (mut tr, mut tf) = (r + dr, f + df);
                    while on_board(tr, tf) && self.at(tr, tf) == Cell::Empty {
                        let restricted = is_corner(tr, tf) || is_throne(tr, tf);
                        if !restricted || c == Cell::King {
                            out.push(((r, f), (tr, tf)));
                        }
                        if is_corner(tr, tf) {
                            break;
                        }
                        tr += dr;
                        tf += df;
                    }
                }
            }
        }
        out
    }

    /// Does square (r, f) close a sandwich on a soldier of the side opposing the mover?
    fn hostile(&self, r: i32, f: i32, mover_attackers: bool) -> bool {
        if !on_board(r, f) {
            return false;
        }
        let c = self.at(r, f);
        if self.mine(c, mover_attackers) || is_corner(r, f) {
            return true;
        }
        if is_throne(r, f) {
            // Hostile to attackers always; to defenders only while empty.
            return !mover_attackers || c == Cell::Empty;
        }
        false
    }

    fn play(&self, from: (i32, i32), to: (i32, i32)) -> Self {
        let mut next = self.clone();
        let piece = self.at(from.0, from.1);
        next.set(from.0, from.1, Cell::Empty);
        next.set(to.0, to.1, piece);
        let att = self.attackers_to_move;
        let victim = if att { Cell::Defender } else { Cell::Attacker };
        let mut taken = Vec::new();
        // Custodial captures.
        for (dr, df) in DIRS {
            let (vr, vf) = (to.0 + dr, to.1 + df);
            if on_board(vr, vf) && next.at(vr, vf) == victim && next.hostile(vr + dr, vf + df, att)
            {
                taken.push((vr, vf));
            }
        }
        // Shield walls: the mover closes a row along the edge it stands on.
        if on_edge(to.0, to.1) && !is_corner(to.0, to.1) {
            let (along, inward): ([(i32, i32); 2], (i32, i32)) = if to.0 == 0 {
                ([(0, 1), (0, -1)], (1, 0))
            } else if to.0 == N - 1 {
                ([(0, 1), (0, -1)], (-1, 0))
            } else if to.1 == 0 {
                ([(1, 0), (-1, 0)], (0, 1))
            } else {
                ([(1, 0), (-1, 0)], (0, -1))
            };
            for (dr, df) in along {
                let mut row = Vec::new();
                let (mut r, mut f) = (to.0 + dr, to.1 + df);
                let mut fronted = true;
                while on_board(r, f)
                    && !next.mine(next.at(r, f), att)
                    && next.at(r, f) != Cell::Empty
                {
                    let (fr, ff) = (r + inward.0, f + inward.1);
                    if !next.mine(next.at(fr, ff), att) {
                        fronted = false;
                    }
                    row.push((r, f));
                    r += dr;
                    f += df;
                }
                let closed = on_board(r, f) && (next.mine(next.at(r, f), att) || is_corner(r, f));
                if fronted && closed && row.len() >= 2 {
                    taken.extend(
                        row.into_iter()
                            .filter(|&(r, f)| next.at(r, f) != Cell::King),
                    );
                }
            }
        }
        // The king.
        let (kr, kf) = next.king();
        let mut king_taken = false;
        if att && (kr - to.0).abs() + (kf - to.1).abs() == 1 && !on_edge(kr, kf) {
            king_taken = DIRS.iter().all(|(dr, df)| {
                let (r, f) = (kr + dr, kf + df);
                next.at(r, f) == Cell::Attacker || is_throne(r, f)
            });
        }
        for (r, f) in taken {
            next.set(r, f, Cell::Empty);
        }
        next.attackers_to_move = !att;
        next.over = if att {
            king_taken || next.encircled()
        } else {
            is_corner(kr, kf) || next.fort()
        } || next.moves().is_empty();
        next
    }

    fn neighbours(r: i32, f: i32) -> impl Iterator<Item = (i32, i32)> {
        DIRS.iter()
            .map(move |(dr, df)| (r + dr, f + df))
            .filter(|&(r, f)| on_board(r, f))
    }

    /// Squares reached from `start` through empty squares.
    fn region(&self, start: Vec<(i32, i32)>) -> Vec<Vec<bool>> {
        let mut seen = vec![vec![false; 11]; 11];
        let mut stack = start;
        while let Some((r, f)) = stack.pop() {
            if seen[r as usize][f as usize] {
                continue;
            }
            seen[r as usize][f as usize] = true;
            for (nr, nf) in Self::neighbours(r, f) {
                if self.at(nr, nf) == Cell::Empty {
                    stack.push((nr, nf));
                }
            }
        }
        seen
    }

    fn encircled(&self) -> bool {
        let mut starts = Vec::new();
        for r in 0..N {
            for f in 0..N {
                if on_edge(r, f) {
                    match self.at(r, f) {
                        Cell::Empty => starts.push((r, f)),
                        Cell::Defender | Cell::King => return false,
                        Cell::Attacker => {}
                    }
                }
            }
        }
        let outside = self.region(starts);
        for r in 0..N {
            for f in 0..N {
                if outside[r as usize][f as usize]
                    && Self::neighbours(r, f)
                        .any(|(nr, nf)| matches!(self.at(nr, nf), Cell::Defender | Cell::King))
                {
                    return false;
                }
            }
        }
        true
    }

    fn fort(&self) -> bool {
        let (kr, kf) = self.king();
        if !on_edge(kr, kf) || !Self::neighbours(kr, kf).any(|(r, f)| self.at(r, f) == Cell::Empty)
        {
            return false;
        }
        let inside = self.region(vec![(kr, kf)]);
        let in_r = |r: i32, f: i32| inside[r as usize][f as usize];
        let mut wall = Vec::new();
        for r in 0..N {
            for f in 0..N {
                if in_r(r, f) {
                    continue;
                }
                if Self::neighbours(r, f).any(|(nr, nf)| in_r(nr, nf)) {
                    match self.at(r, f) {
                        Cell::Attacker => return false,
                        Cell::Defender => wall.push((r, f)),
                        _ => {}
                    }
                }
            }
        }
        let mut safe = vec![vec![false; 11]; 11];
        for r in 0..N {
            for f in 0..N {
                safe[r as usize][f as usize] = self.at(r, f) == Cell::Defender;
            }
        }
        // A neighbour protects when off the board, or inside the region and not restricted, or
        // a defender still believed safe.
        loop {
            let protects = |safe: &Vec<Vec<bool>>, r: i32, f: i32| {
                !on_board(r, f)
                    || (in_r(r, f) && !is_corner(r, f) && !is_throne(r, f))
                    || safe[r as usize][f as usize]
            };
            let mut changed = false;
            for r in 0..N {
                for f in 0..N {
                    if !safe[r as usize][f as usize] {
                        continue;
                    }
                    let across = protects(&safe, r, f - 1) || protects(&safe, r, f + 1);
                    let up_down = protects(&safe, r - 1, f) || protects(&safe, r + 1, f);
                    let front = if r == 0 {
                        protects(&safe, 1, f)
                    } else if r == N - 1 {
                        protects(&safe, N - 2, f)
                    } else if f == 0 {
                        protects(&safe, r, 1)
                    } else if f == N - 1 {
                        protects(&safe, r, N - 2)
                    } else {
                        true
                    };
                    if !(across && up_down && front) {
                        safe[r as usize][f as usize] = false;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        wall.iter().all(|&(r, f)| safe[r as usize][f as usize])
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over {
            return 0;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|&(from, to)| self.play(from, to).perft(depth - 1))
            .sum()
    }
}

fn fast(text: &str) -> Hnefatafl {
    Hnefatafl::from_position(text, &HnefataflOptions::default()).unwrap()
}

fn square(r: i32, f: i32) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

#[test]
fn fixtures_agree_with_both_generators() {
    let fixtures = perft_fixtures::<Hnefatafl>(include_str!("data/hnefatafl-perft.txt"));
    assert!(fixtures.len() >= 6);
    for f in fixtures {
        let fast = Hnefatafl::from_position(&f.position, &f.options).unwrap();
        let naive = Naive::parse(&f.position);
        assert_eq!(naive.write(), f.position, "{}: the naive writer", f.id);
        for (depth, expected) in f.counts {
            assert_eq!(fast.perft(depth), expected, "{}: fast perft {depth}", f.id);
            assert_eq!(
                naive.perft(depth),
                expected,
                "{}: naive perft {depth}",
                f.id
            );
        }
    }
}

#[test]
fn the_start_position_has_116_moves_and_50_million_leaves_at_depth_4() {
    // Depth 4 by the fast generator only (the naive one confirms depths 1-3 above).
    let start = fast(START);
    assert_eq!(start.perft(1), 116);
    if cfg!(debug_assertions) {
        return;
    }
    assert_eq!(start.perft(4), 50_456_804);
}

/// Along random games, every legal move is played by both implementations: same move lists,
/// same resulting positions, same finished-or-not.
#[test]
fn both_generators_agree_move_by_move_over_random_games() {
    for seed in 0..8 {
        let mut game = fast(START);
        let mut rng = RandomStream::from_seed(seed, 11);
        let mut dice = RandomStream::dice(0);
        let mut moves = MoveList::new();
        let mut ply = 0;
        while game.outcome().is_none() {
            game.legal_moves(&mut moves);
            if ply % 4 == 0 {
                let text = game.position().unwrap();
                let naive = Naive::parse(&text);
                let mut expected: Vec<String> = naive
                    .moves()
                    .iter()
                    .map(|&(a, b)| format!("{}-{}", square(a.0, a.1), square(b.0, b.1)))
                    .collect();
                // The squares only: the naive generator does not name captures (`xe2`).
                let mut got: Vec<String> = moves
                    .iter()
                    .map(|&m| game.format_move(m).split('x').next().unwrap().to_owned())
                    .collect();
                expected.sort();
                got.sort();
                assert_eq!(got, expected, "{text}");
                for &(from, to) in &naive.moves() {
                    let child = naive.play(from, to);
                    let mut next = game;
                    let text_move = format!("{}-{}", square(from.0, from.1), square(to.0, to.1));
                    next.play(next.parse_move(&text_move).unwrap(), &mut dice, &mut NoLog);
                    assert_eq!(
                        next.position().unwrap(),
                        child.write(),
                        "{text} {text_move}"
                    );
                    assert_eq!(
                        next.outcome()
                            .is_some_and(|o| o.reason != Ending::Rules(Reason::Cap)),
                        child.over,
                        "{text} {text_move}"
                    );
                }
            }
            let mv = moves[rng.below(moves.len() as u32) as usize];
            game.play(mv, &mut dice, &mut NoLog);
            ply += 1;
        }
    }
}
