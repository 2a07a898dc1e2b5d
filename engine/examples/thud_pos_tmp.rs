use engine::games::thud::*;
fn main() {
    let text = std::fs::read_to_string("engine/tests/data/thud-perft.txt").unwrap();
    for line in text.lines() {
        if let Some(p) = line.strip_prefix("position ") {
            eprintln!("{p}");
        }
    }
    let mut pos = None;
    let mut rule = TrollCapture::Choose;
    for line in text.lines() {
        if line.starts_with("id ") {
            rule = TrollCapture::Choose;
        }
        if let Some(p) = line.strip_prefix("position ") {
            pos = Some(parse_position(p).unwrap());
        }
        if line == "rule all" {
            rule = TrollCapture::All;
        }
        if let Some(rest) = line.strip_prefix("perft ") {
            let d: u32 = rest.split(' ').next().unwrap().parse().unwrap();
            println!("perft {d} {}", perft(pos.as_ref().unwrap(), rule, d));
        } else {
            println!("{line}");
        }
    }
}
