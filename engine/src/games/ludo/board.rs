//! Geometry of the board (`docs/rules/ludo.md`, "Geometry").

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

/// `SQUARES[seat][p]`: the absolute track square of `seat`'s pawn at track progress `p`.
const SQUARES: [[u8; LAST_TRACK as usize + 1]; SEATS] = {
    let mut table = [[0; LAST_TRACK as usize + 1]; SEATS];
    let mut seat = 0;
    while seat < SEATS {
        let mut p = 0;
        while p <= LAST_TRACK as usize {
            table[seat][p] = ((13 * seat + p) % TRACK as usize) as u8;
            p += 1;
        }
        seat += 1;
    }
    table
};

/// `PROGRESS[square][seat]`: the progress at which `seat`'s pawns stand on `square`, or
/// `NEVER` for the one square before each start, which that seat's pawns skip into the home
/// straight. Tables instead of `%`: these run for every candidate move.
const PROGRESS: [[u8; SEATS]; TRACK as usize] = {
    let mut table = [[NEVER; SEATS]; TRACK as usize];
    let mut seat = 0;
    while seat < SEATS {
        let mut p = 0;
        while p <= LAST_TRACK as usize {
            table[SQUARES[seat][p] as usize][seat] = p as u8;
            p += 1;
        }
        seat += 1;
    }
    table
};
const NEVER: u8 = u8::MAX;

/// The absolute track square (0..52) of `seat`'s pawn at track progress `p` (0..=50).
#[must_use]
#[inline]
pub fn track_square(seat: usize, p: i8) -> u8 {
    SQUARES[seat][p as usize]
}

/// The progress at which `seat`'s pawns stand on absolute `square`, if they ever stand there.
#[must_use]
#[inline]
pub fn progress_of(square: u8, seat: usize) -> Option<u8> {
    let p = PROGRESS[usize::from(square)][seat];
    (p != NEVER).then_some(p)
}

/// The four start squares and the four stars eight squares past them.
#[must_use]
pub const fn is_safe(square: u8) -> bool {
    matches!(square % 13, 0 | 8)
}
