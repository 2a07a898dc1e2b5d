use super::*;

const START: &str = "dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd d";

#[test]
fn start_has_656_dwarf_moves() {
    let board = Board::start();
    assert_eq!(count(&board, TrollCapture::Choose), 656);
    assert_eq!(format_position(&board), START);
    for d in 1..=3 { eprintln!("perft {d} = {}", perft(&board, TrollCapture::Choose, d)); }
}
