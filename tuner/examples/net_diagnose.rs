//! Why a network that fits held-out positions plays badly (issue 49, docs/learning.md): over the
//! positions of a records file, how a network's score follows the top level's hand-made score
//! (its scale and correlation), how each moves across a capture, and how much it varies between
//! the quiet moves of one position, where a search takes the largest.
//!
//! `cargo run --release -p tuner --example net_diagnose -- GAME NET.knet RECORDS [SKIP]`
//!
//! Every score is in evaluation units from the first side's view (Thud's dwarfs, Hnefatafl's
//! attackers). Bad input gives one line and exit 2.

use std::process::ExitCode;

use engine::nnue::{Features, FeaturesVisitor, Network, visit_features_game};
use engine::record::Record;
use tuner::batch::records::replay_record;

struct Args {
    net: Network,
    lines: Vec<String>,
    skip: usize,
}

/// Sums for a least-squares line `y = a + b x` and the correlation.
#[derive(Default)]
struct Fit {
    n: f64,
    x: f64,
    y: f64,
    xx: f64,
    yy: f64,
    xy: f64,
}

impl Fit {
    fn add(&mut self, x: f64, y: f64) {
        self.n += 1.0;
        self.x += x;
        self.y += y;
        self.xx += x * x;
        self.yy += y * y;
        self.xy += x * y;
    }
    fn slope(&self) -> f64 {
        (self.n * self.xy - self.x * self.y) / (self.n * self.xx - self.x * self.x)
    }
    fn corr(&self) -> f64 {
        (self.n * self.xy - self.x * self.y)
            / ((self.n * self.xx - self.x * self.x).sqrt()
                * (self.n * self.yy - self.y * self.y).sqrt())
    }
}

/// Mean and standard deviation.
fn spread(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, var.sqrt())
}

struct Diagnose(Args);

impl FeaturesVisitor for Diagnose {
    type Output = Result<(), String>;

    fn visit<G: Features>(self) -> Self::Output {
        let Args { net, lines, skip } = self.0;
        net.check_for::<G>().map_err(|e| e.to_string())?;
        // The piece kinds: the inputs but the last (side to move), square by square.
        let kinds = if G::NAME == "thud" { 2 } else { 3 };
        let squares = (G::INPUTS - 1) / kinds;
        let score = |g: &G| {
            let mut active = Vec::new();
            g.features(&mut active);
            let hand = g.hand_score();
            (
                f64::from(net.with_base(net.evaluate(&active), hand)),
                f64::from(hand),
                active,
            )
        };
        let count = |active: &[u16]| {
            let mut c = vec![0i32; kinds];
            for &f in active {
                if usize::from(f) < kinds * squares {
                    c[usize::from(f) / squares] += 1;
                }
            }
            c
        };
        let mut fit = Fit::default();
        // Per kind lost: (net change, hand change) across the capturing move.
        let mut captures: Vec<Vec<(f64, f64)>> = vec![Vec::new(); kinds];
        let (mut sib_net, mut sib_hand, mut sib_resid, mut max_excess) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut sib_fit = Fit::default();
        // Per kind: the network's price of one piece (its score less the score with that
        // piece's input off), over every piece of every 8th position.
        let mut prices: Vec<Vec<f64>> = vec![Vec::new(); kinds];
        let mut positions = 0;
        for (n, line) in lines.iter().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let record = Record::parse(line).map_err(|e| format!("records line {}: {e}", n + 1))?;
            let mut ply = 0;
            replay_record::<G>(&record, |game: &G, mv| {
                if ply >= skip && game.outcome().is_none() {
                    positions += 1;
                    let (net_now, hand_now, active) = score(game);
                    fit.add(hand_now, net_now);
                    let before = count(&active);
                    let mut next = game.clone();
                    let mut dice = engine::RandomStream::dice(0);
                    next.play(mv, &mut dice, &mut engine::NoLog);
                    let (net_next, hand_next, next_active) = score(&next);
                    let after = count(&next_active);
                    if let Some(k) = (0..kinds).find(|&k| after[k] < before[k]) {
                        captures[k].push((net_next - net_now, hand_next - hand_now));
                    }
                    // Every 8th position: the quiet moves' children.
                    if ply % 8 == 0 {
                        let full = f64::from(net.evaluate(&active));
                        for (j, &f) in active.iter().enumerate() {
                            if usize::from(f) >= kinds * squares {
                                continue;
                            }
                            let mut less = active.clone();
                            less.remove(j);
                            let price = full - f64::from(net.evaluate(&less));
                            prices[usize::from(f) / squares].push(price);
                        }
                        let mut moves = G::MoveList::default();
                        game.legal_moves(&mut moves);
                        let mut children = Vec::new();
                        for &m in moves.iter() {
                            let mut child = game.clone();
                            child.play(m, &mut dice, &mut engine::NoLog);
                            let (cn, ch, ca) = score(&child);
                            if count(&ca) == before && child.outcome().is_none() {
                                children.push((cn, ch));
                            }
                        }
                        if children.len() >= 3 {
                            let nets: Vec<f64> = children.iter().map(|c| c.0).collect();
                            let hands: Vec<f64> = children.iter().map(|c| c.1).collect();
                            let mut local = Fit::default();
                            children.iter().for_each(|&(cn, ch)| local.add(ch, cn));
                            let (mn, sn) = spread(&nets);
                            let (mh, sh) = spread(&hands);
                            sib_net.push(sn);
                            sib_hand.push(sh);
                            // What the network adds beyond a multiple of the hand-made score.
                            let b = if local.slope().is_finite() {
                                local.slope()
                            } else {
                                0.0
                            };
                            let resid: Vec<f64> = children
                                .iter()
                                .map(|&(cn, ch)| cn - mn - b * (ch - mh))
                                .collect();
                            sib_resid.push(spread(&resid).1);
                            // The mover takes its best child: how far above the mean it stands.
                            let mover_first = game.to_move() == 0;
                            let best = |v: &[f64], m: f64| {
                                let sign = if mover_first { 1.0 } else { -1.0 };
                                v.iter().map(|x| sign * (x - m)).fold(f64::MIN, f64::max)
                            };
                            max_excess.push((best(&nets, mn), best(&hands, mh)));
                            if local.corr().is_finite() {
                                sib_fit.add(local.corr(), 0.0);
                            }
                        }
                    }
                }
                ply += 1;
            })
            .map_err(|e| e.to_string())?;
        }
        println!(
            "{} positions from ply {skip}: network = {:.3} x hand-made (slope), correlation {:.3}; \
             network {} base weight {:.3}",
            positions,
            fit.slope(),
            fit.corr(),
            if net.has_base() { "with" } else { "without" },
            net.base_weight()
        );
        for (k, c) in captures.iter().enumerate() {
            if c.is_empty() {
                continue;
            }
            let (dn, sdn) = spread(&c.iter().map(|x| x.0).collect::<Vec<_>>());
            let (dh, sdh) = spread(&c.iter().map(|x| x.1).collect::<Vec<_>>());
            let wrong = c.iter().filter(|x| x.0.signum() != x.1.signum()).count();
            println!(
                "kind {k} lost: {} captures, network change {dn:.0} (sd {sdn:.0}), hand-made {dh:.0} \
                 (sd {sdh:.0}); sign differs in {wrong}",
                c.len()
            );
        }
        for (k, p) in prices.iter().enumerate() {
            let (m, sd) = spread(p);
            // The first side's pieces should be worth something to it, the other side's less
            // than nothing.
            let wrong = p.iter().filter(|&&x| (k == 0) != (x > 0.0)).count();
            println!(
                "kind {k}: the network (its learned part) prices one piece at {m:.0} (sd {sd:.0}); \
                 wrong sign for {wrong} of {}",
                p.len()
            );
        }
        let mean = |v: &[f64]| spread(v).0;
        println!(
            "quiet siblings ({} positions): sd network {:.0}, hand-made {:.0}, network beyond the \
             hand-made's multiple {:.0}; best child above the mean: network {:.0}, hand-made {:.0}; \
             mean correlation among siblings {:.3}",
            sib_net.len(),
            mean(&sib_net),
            mean(&sib_hand),
            mean(&sib_resid),
            mean(&max_excess.iter().map(|x| x.0).collect::<Vec<_>>()),
            mean(&max_excess.iter().map(|x| x.1).collect::<Vec<_>>()),
            sib_fit.x / sib_fit.n
        );
        Ok(())
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [game, net, records, rest @ ..] = args.as_slice() else {
        return Err("usage: net_diagnose GAME NET.knet RECORDS [SKIP]".into());
    };
    let bytes = std::fs::read(net).map_err(|e| format!("{net}: {e}"))?;
    let net = Network::from_bytes(&bytes).map_err(|e| format!("network file {net}: {e}"))?;
    let text = std::fs::read_to_string(records).map_err(|e| format!("{records}: {e}"))?;
    let skip = match rest.first() {
        Some(s) => s
            .parse()
            .map_err(|_| format!("SKIP {s}: give a number of plies"))?,
        None => 8,
    };
    let args = Args {
        net,
        lines: text.lines().map(str::to_owned).collect(),
        skip,
    };
    visit_features_game(game, Diagnose(args)).map_err(|e| e.to_string())?
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("net_diagnose: {e}");
            ExitCode::from(2)
        }
    }
}
