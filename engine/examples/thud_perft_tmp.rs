use engine::games::thud::*;
fn main() {
    let d: u32 = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(4);
    let b = Board::start();
    let t = std::time::Instant::now();
    let n = perft(&b, TrollCapture::Choose, d);
    let s = t.elapsed().as_secs_f64();
    println!("perft {d} = {n} in {s:.3}s, {:.1} Mnps", n as f64 / s / 1e6);
}
