//! Ending hopeless and dead games early on the players' own search scores, as tournament runners
//! do (fastchess's and cutechess-cli's `-resign movecount=N score=S` and
//! `-draw movenumber=M movecount=N score=S`).
//!
//! The adjudicator reads the [`MoveScore`] stream of [`SeededGame::play_scoring`] (the same
//! numbers game records keep), one move at a time, and says when a game should end. It is for
//! two-player games whose levels search: a move without a score (a level that does not search,
//! a forced move, an outside program) breaks every streak, as fastchess invalidates a streak on a
//! move without a score. It stays off unless an experiment asks for it: a verdict reached on the
//! players' own evaluation carries that evaluation's biases into the results.
//!
//! [`SeededGame::play_scoring`]: crate::selfplay::SeededGame::play_scoring

use serde::{Deserialize, Serialize};

use crate::agent::MoveScore;

/// Resign adjudication: the game is lost by the side both players' scores condemn, once
/// `movecount` consecutive moves of each side (`2 × movecount` plies) had the mover's score at
/// least `score` for the same winner (fastchess's `twosided=true`, with both sides required to
/// agree on who wins, which its absolute-value test does not ask).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resign {
    pub movecount: u32,
    pub score: i32,
}

/// Draw adjudication: a draw once `movecount` consecutive moves of each side had the mover's
/// score within `±score`, and at least `movenumber` plies have been played. A capture breaks the
/// streak, as fastchess breaks it on a move that resets the fifty-move counter.
///
/// In a game scored on points (Thud) the same rule adjudicates the round's **margin**: the round
/// ends with the points as they stand once the scores (from the first seat's side) stayed within
/// `±score` of where the streak began for `movecount` moves of each side with no capture, i.e.
/// once both searches agree that the margin is not going to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Draw {
    #[serde(default)]
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

/// An experiment's adjudication rules; both off by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Adjudication {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<Resign>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<Draw>,
}

impl Adjudication {
    /// Whether any rule is on.
    #[must_use]
    pub const fn is_on(&self) -> bool {
        self.resign.is_some() || self.draw.is_some()
    }

    /// Whether every rule is off (the default).
    #[must_use]
    pub const fn is_off(&self) -> bool {
        !self.is_on()
    }
}

/// What the adjudicator decided after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `winner` wins by resignation of the other seat.
    Resign { winner: usize },
    /// A draw (in a game scored on points: the points as they stand decide).
    Draw,
}

/// The streaks of one game, fed one move at a time.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Adjudication,
    /// Whether the game is scored on points: the draw rule then adjudicates the margin.
    points: bool,
    /// Consecutive plies whose scores named `resign_winner` the winner.
    resign_plies: u32,
    resign_winner: usize,
    /// Consecutive plies within the draw (or margin) band, and, for the margin, the first
    /// seat's score that began the streak.
    draw_plies: u32,
    anchor: i32,
}

impl Adjudicator {
    /// A new game's adjudicator; `points`: the game is scored on points (see [`Draw`]).
    #[must_use]
    pub const fn new(rules: Adjudication, points: bool) -> Self {
        Self {
            rules,
            points,
            resign_plies: 0,
            resign_winner: 0,
            draw_plies: 0,
            anchor: 0,
        }
    }

    /// Reads the move just played by `mover` (of two seats) with its score, `plies` being the
    /// number of moves played so far (this one included) and `captured` whether it captured.
    pub fn update(
        &mut self,
        mover: usize,
        plies: u32,
        score: Option<MoveScore>,
        captured: bool,
    ) -> Option<Verdict> {
        let Some(MoveScore { score, .. }) = score else {
            self.resign_plies = 0;
            self.draw_plies = 0;
            return None;
        };
        if let Some(rule) = self.rules.resign {
            let winner = if score >= rule.score {
                Some(mover)
            } else if score <= -rule.score {
                Some(1 - mover)
            } else {
                None
            };
            match winner {
                Some(w) if self.resign_plies > 0 && w == self.resign_winner => {
                    self.resign_plies += 1;
                }
                Some(w) => (self.resign_plies, self.resign_winner) = (1, w),
                None => self.resign_plies = 0,
            }
            if self.resign_plies >= 2 * rule.movecount {
                return Some(Verdict::Resign {
                    winner: self.resign_winner,
                });
            }
        }
        let rule = self.rules.draw?;
        // The first seat's view, so that both movers' scores sit on one scale.
        let first_seat = if mover == 0 { score } else { -score };
        let in_band = if self.points {
            self.draw_plies > 0 && first_seat.abs_diff(self.anchor) <= rule.score.unsigned_abs()
        } else {
            score.abs() <= rule.score
        };
        if captured {
            self.draw_plies = 0;
        } else if in_band {
            self.draw_plies += 1;
        } else {
            // The margin's streak begins at this score; a draw's only inside its band.
            self.draw_plies = u32::from(self.points);
            self.anchor = first_seat;
        }
        (plies >= rule.movenumber && self.draw_plies >= 2 * rule.movecount).then_some(Verdict::Draw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(score: i32) -> Option<MoveScore> {
        Some(MoveScore { score, depth: 4 })
    }

    /// Feeds `scores` (mover's view) to an adjudicator, seats alternating from seat 0, and
    /// returns the ply (from 1) and verdict of the first verdict.
    fn first_verdict(
        rules: Adjudication,
        points: bool,
        scores: &[Option<MoveScore>],
    ) -> Option<(u32, Verdict)> {
        let mut adj = Adjudicator::new(rules, points);
        (1..).zip(scores).find_map(|(ply, &s)| {
            adj.update((ply as usize + 1) % 2, ply, s, false)
                .map(|v| (ply, v))
        })
    }

    const RESIGN: Adjudication = Adjudication {
        resign: Some(Resign {
            movecount: 2,
            score: 500,
        }),
        draw: None,
    };

    const DRAW: Adjudication = Adjudication {
        resign: None,
        draw: Some(Draw {
            movenumber: 6,
            movecount: 2,
            score: 20,
        }),
    };

    #[test]
    fn both_sides_must_agree_on_the_loser_for_movecount_moves_each() {
        // Seat 1 (the second mover) is lost: seat 0 says +, seat 1 says -.
        let lost: Vec<_> = [600, -700, 800, -900, 950].map(scored).to_vec();
        assert_eq!(
            first_verdict(RESIGN, false, &lost),
            Some((4, Verdict::Resign { winner: 0 }))
        );
        // Both claim to be winning: no agreement, no verdict.
        let both: Vec<_> = [600, 700, 800, 900, 950, 990].map(scored).to_vec();
        assert_eq!(first_verdict(RESIGN, false, &both), None);
        // A score inside the threshold breaks the streak; it begins again after it.
        let broken: Vec<_> = [600, -700, 100, -900, 900, -900, 900].map(scored).to_vec();
        assert_eq!(
            first_verdict(RESIGN, false, &broken),
            Some((7, Verdict::Resign { winner: 0 }))
        );
    }

    #[test]
    fn a_move_without_a_score_breaks_every_streak() {
        let mut lost: Vec<_> = [-600, 700, -800].map(scored).to_vec();
        lost.push(None);
        lost.extend([-600, 700, -800].map(scored));
        assert_eq!(first_verdict(RESIGN, false, &lost), None);
        lost.push(scored(900));
        assert_eq!(
            first_verdict(RESIGN, false, &lost),
            Some((8, Verdict::Resign { winner: 1 }))
        );
    }

    #[test]
    fn a_draw_waits_for_its_move_number_and_movecount_moves_each_in_the_band() {
        let quiet: Vec<_> = [5, -10, 15, 20, -20, 0, 3].map(scored).to_vec();
        // In the band from ply 1, but not before ply 6.
        assert_eq!(first_verdict(DRAW, false, &quiet), Some((6, Verdict::Draw)));
        let loud: Vec<_> = [5, -10, 15, 21, -20, 0, 3, 4].map(scored).to_vec();
        assert_eq!(first_verdict(DRAW, false, &loud), Some((8, Verdict::Draw)));
    }

    #[test]
    fn a_capture_breaks_the_draw_streak() {
        let mut adj = Adjudicator::new(DRAW, false);
        let verdicts: Vec<_> = (1..=10)
            .map(|ply| adj.update(ply as usize % 2, ply, scored(0), ply == 3))
            .collect();
        // Without the capture, ply 6 would have drawn.
        assert_eq!(verdicts.iter().position(Option::is_some), Some(6));
    }

    #[test]
    fn a_points_game_takes_its_margin_once_the_scores_stay_in_the_band() {
        // Seat 0's view: 300, 310, 290, 305, 320 (seat 1 reports the negation): stable.
        let stable: Vec<_> = [300, -310, 290, -305, 320, -300].map(scored).to_vec();
        // The streak counts from its first score (its anchor): 4 plies, but not before ply 6.
        assert_eq!(first_verdict(DRAW, true, &stable), Some((6, Verdict::Draw)));
        // A drift beyond ±20 of the anchor restarts the streak at the new score.
        let drifting: Vec<_> = [300, -310, 290, -330, 330, -335, 340, -330, 330]
            .map(scored)
            .to_vec();
        assert_eq!(
            first_verdict(DRAW, true, &drifting),
            Some((7, Verdict::Draw))
        );
        // Both sides claim +20: each score is near zero, so a win/loss game draws, but from
        // one side's view the margin swings by 40 every ply, which is not stable.
        let swinging: Vec<_> = [20; 8].map(scored).to_vec();
        assert_eq!(first_verdict(DRAW, true, &swinging), None);
        assert!(first_verdict(DRAW, false, &swinging).is_some());
    }
}
