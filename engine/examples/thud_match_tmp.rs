use engine::games::thud::*;
use engine::*;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a: usize = args[1].parse().unwrap();
    let b: usize = args[2].parse().unwrap();
    let n: u64 = args[3].parse().unwrap();
    let opts = ThudOptions::default();
    let setup = |level: usize, over: Option<&String>| {
        let set = Thud::levels()[level].weights.unwrap();
        let mut w = set.defaults();
        if let Some(o) = over {
            for kv in o.split(',').filter(|s| !s.is_empty()) {
                let (k, v) = kv.split_once('=').unwrap();
                w[set.index_of(k).unwrap()] = v.parse().unwrap();
            }
        }
        AgentSetup {
            level,
            weights: w,
            time_control: TimeControl::Batch,
        }
    };
    let mut agents = [
        Thud::new_agent(&setup(a, args.get(4))),
        Thud::new_agent(&setup(b, args.get(5))),
    ];
    let mut all_times: Vec<f64> = Vec::new();
    let mut time = [0f64; 2];
    let mut moves = [0u64; 2];
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut pts = [0i64; 2];
    let mut plies = 0u64;
    let mut reasons = [0u64; 5];
    let mut margin = 0i64;
    for g in 0..n {
        let seed = game_seed(7, g);
        let mut totals = [0i64; 2];
        for r in 0..2 {
            let mut dice = RandomStream::dice(seed);
            let mut tb = [
                RandomStream::tie_break(seed, 0),
                RandomStream::tie_break(seed, 1),
            ];
            agents.iter_mut().for_each(|x| x.new_game());
            let mut game = Thud::new(&opts, 2, &mut dice, &mut NoLog);
            let mut list = MoveList::new();
            while game.outcome().is_none() {
                game.legal_moves(&mut list);
                let seat = game.to_move();
                let slot = seat_agent(seat, r, 2);
                let t = Instant::now();
                let mv = agents[slot].choose(
                    &game,
                    &list,
                    &mut Context {
                        rng: &mut tb[seat],
                        clock: &NoClock,
                    },
                );
                time[slot] += t.elapsed().as_secs_f64();
                moves[slot] += 1;
                if slot == 0 {
                    all_times.push(t.elapsed().as_secs_f64() * 1000.0);
                }
                game.play(mv, &mut dice, &mut NoLog);
            }
            let p = game.points().unwrap();
            margin += (p[0] - p[1]) as i64;
            totals[seat_agent(0, r, 2)] += p[0] as i64;
            totals[seat_agent(1, r, 2)] += p[1] as i64;
            plies += game.counters().moves as u64;
            reasons[game.outcome().unwrap().reason as usize] += 1;
        }
        pts[0] += totals[0];
        pts[1] += totals[1];
        match totals[0].cmp(&totals[1]) {
            std::cmp::Ordering::Greater => wins += 1,
            std::cmp::Ordering::Equal => draws += 1,
            _ => losses += 1,
        }
    }
    println!(
        "{} vs {}: W{} D{} L{}  pts {:?}  plies/round {:.1} reasons {:?} dwarf margin {:.2}",
        a,
        b,
        wins,
        draws,
        losses,
        pts,
        plies as f64 / (2 * n) as f64,
        reasons,
        margin as f64 / (2 * n) as f64
    );
    all_times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "ms/move: {:.3} {:.3}; first agent median {:.3} p90 {:.3} max {:.3}",
        1000.0 * time[0] / moves[0] as f64,
        1000.0 * time[1] / moves[1] as f64,
        all_times[all_times.len() / 2],
        all_times[all_times.len() * 9 / 10],
        all_times[all_times.len() - 1]
    );
}
