//! Geometry of the board (`rules/ludo.md`, "Geometry").

/// Always four seats.
pub const SEATS: usize = 4;
/// Track squares shared by all colours.
const TRACK: i8 = 52;
/// The last progress on the shared track; 51..=56 are the home straight.
pub const LAST_TRACK: i8 = 50;
/// The first square of the home straight.
pub const HOME_STRAIGHT: i8 = 51;
/// Progress of a pawn that has finished.
pub const FINISH: i8 = 57;

/// The absolute track square (0..52) of `seat`'s pawn at track progress `p` (0..=50).
#[must_use]
pub fn track_square(seat: usize, p: i8) -> u8 {
    ((13 * seat as i16 + i16::from(p)) % i16::from(TRACK)) as u8
}

/// The progress at which `seat`'s pawns stand on absolute `square`, if they ever stand there.
#[must_use]
pub fn progress_of(square: u8, seat: usize) -> Option<u8> {
    let p = (i16::from(square) - 13 * seat as i16).rem_euclid(i16::from(TRACK)) as u8;
    (p as i8 <= LAST_TRACK).then_some(p)
}

/// The four start squares and the four stars eight squares past them.
#[must_use]
pub const fn is_safe(square: u8) -> bool {
    square % 13 == 0 || square % 13 == 8
}
