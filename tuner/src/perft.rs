//! Perft with the root's moves counted in parallel: the engine stays single-threaded (it ships to
//! a browser), so the threads live here, in the batch crate, over the engine's own `perft`.

use engine::{Game, NoLog, RandomStream};
use rayon::prelude::*;

/// A perft count and the count below each root move.
pub type Divided<M> = (u64, Vec<(M, u64)>);

/// The leaf count `depth` plies below `root` and, per legal root move, the count below it (in
/// move-generation order, empty at depth 0 or at a finished game), on `threads` worker threads
/// (0 = the CPUs koom may use). The counts are sums, so the result does not depend on the threads.
pub fn divide<G: Game>(root: &G, depth: u32, threads: usize) -> std::io::Result<Divided<G::Move>> {
    if depth == 0 || root.outcome().is_some() {
        return Ok((root.perft(depth), Vec::new()));
    }
    let mut moves = G::MoveList::default();
    root.legal_moves(&mut moves);
    // Move lists are generic buffers, not `Sync`: the moves themselves are.
    let moves: Vec<G::Move> = moves.to_vec();
    let pool = crate::threads::thread_pool(threads)?;
    let counts: Vec<(G::Move, u64)> = pool.install(|| {
        moves
            .par_iter()
            .map(|&mv| {
                let mut next = root.clone();
                next.play(mv, &mut RandomStream::dice(0), &mut NoLog);
                (mv, next.perft(depth - 1))
            })
            .collect()
    });
    Ok((counts.iter().map(|(_, n)| n).sum(), counts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Rules;
    use engine::games::hnefatafl::Hnefatafl;

    #[test]
    fn the_parallel_count_is_the_engines_whatever_the_threads() {
        let root = Hnefatafl::new(
            &Default::default(),
            2,
            &mut RandomStream::dice(0),
            &mut NoLog,
        );
        let (one, per_move) = divide(&root, 2, 1).unwrap();
        assert_eq!(one, root.perft(2));
        assert_eq!(per_move.len(), 116);
        assert_eq!(divide(&root, 2, 2).unwrap().0, one);
        assert_eq!(divide(&root, 0, 2).unwrap(), (1, Vec::new()));
    }
}
