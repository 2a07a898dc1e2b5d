//! What one Trente-douze game tallies while it is played: the rules keep it (so it is there
//! without the `analytics` feature too), and the statistics read it when the game is over.

/// Sums over the turns of one seat in one game, from which the statistics' moments over turns
/// follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnSums {
    pub sum: u32,
    pub sum_sq: u64,
    pub min: u32,
    pub max: u32,
}

impl Default for TurnSums {
    fn default() -> Self {
        Self {
            sum: 0,
            sum_sq: 0,
            min: u32::MAX,
            max: 0,
        }
    }
}

impl TurnSums {
    fn add(&mut self, x: u32) {
        self.sum += x;
        self.sum_sq += u64::from(x) * u64::from(x);
        self.min = self.min.min(x);
        self.max = self.max.max(x);
    }
}

/// What one seat did in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatRecord {
    /// Turns taken, vengeances included.
    pub turns: u32,
    pub misses: u32,
    pub exacts: u32,
    pub attacks: u32,
    pub vengeances: u32,
    pub deaths: u32,
    /// Points lost per turn by missing the threshold (0 for other turns).
    pub lost: TurnSums,
    /// Damage dealt per turn (0 for turns without an attack).
    pub dealt: TurnSums,
}

impl SeatRecord {
    /// Records the end of a turn that lost `lost` points and dealt `dealt`.
    pub(super) fn close_turn(&mut self, lost: u32, dealt: u32) {
        self.lost.add(lost);
        self.dealt.add(dealt);
    }
}
