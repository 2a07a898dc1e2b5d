//! koom's engine for the browser: one JavaScript class, [`KoomGame`], for all four games.
//!
//! Every bad input (an unknown game or level, malformed options, an illegal move) comes back as
//! a JavaScript `Error` with a one-line message; nothing here panics on input. Time budgets read
//! the browser's clock (`performance.now()`), injected into the engine as its [`engine::Clock`].
//! The logic lives in [`session`], plain Rust that the native tests run as well.

pub mod session;

use engine::{Clock, TimeControl};
use wasm_bindgen::prelude::*;

use session::{AnySession, Budget, Config, WebError};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** How a game starts. `seed` and `group` pick the game `koom play --seed SEED --index I` plays,
 *  I = group * seats + rotation. */
export interface GameConfig {
  /** Master seed: a whole number (exact up to 2^53) or a decimal string up to 2^64-1. */
  seed: number | string;
  /** Seed group (default 0). */
  group?: number;
  /** Number of seats (default: the game's smallest). */
  seats?: number;
  /** Rule options, as in an experiment config's [options] table. */
  options?: Record<string, unknown>;
  /** A start position in the game's notation (Thud, Hnefatafl, Trente-douze). */
  position?: string;
}
export interface GameResult {
  /** Seats that won: several share the win, none is a draw or no result. */
  winners: number[];
  noResult: boolean;
  reason: string;
  /** Each seat's points, for games scored in points (Thud). */
  points: number[] | null;
}
export interface GameState {
  game: string;
  seats: number;
  /** The seat to choose; null once the game is over. */
  toMove: number | null;
  /** The position in the game's notation (Ludo: its text picture). */
  position: string;
  legalMoves: string[];
  moves: string[];
  result: GameResult | null;
}
export interface Hint {
  move: string;
  level: string;
  /** The level's score for the move (Agent::analyse: a searcher's evaluation for the seat to
   *  move, a dice level's move value); null for a level that does not score moves. */
  score: number | null;
  /** The principal variation in koom's notation, the move first. */
  pv: string[];
  /** The last completed search depth in plies (0 for a level that does not search). */
  depth: number;
  /** Nodes searched (0 for a level that does not search). */
  nodes: number;
  /** Milliseconds the level took, on the browser clock (performance.now()). */
  ms: number;
}
export interface LevelInfo { name: string; summary: string; }
export interface GameInfo {
  name: string;
  /** Smallest and largest number of seats. */
  seats: [number, number];
  levels: LevelInfo[];
  reasons: string[];
  /** Whether the game draws dice (its records replay only with the run's master seed). */
  dice: boolean;
}
/** The "load record" box read: a `koom run --records` line or a plain move list (then only
 *  `moves` is set). */
export interface Record {
  /** The game's seed group in the run. */
  group: number | null;
  /** The agents in seat order: their number is the seat count. */
  agents: string[];
  result: string | null;
  reason: string | null;
  /** The starting position; null for the game's start. */
  start: string | null;
  moves: string[];
}
/** What a level may spend on a move: `"batch"` its own node budget (the default; the same moves as
 *  koom), `"player"` the app's time limit, or a node or time budget of a searching level. */
export type Budget = "batch" | "player" | { nodes: number } | { timeMs: number };
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "GameConfig")]
    pub type GameConfig;
    #[wasm_bindgen(typescript_type = "GameState")]
    pub type GameStateJs;
    #[wasm_bindgen(typescript_type = "Hint")]
    pub type HintJs;
    #[wasm_bindgen(typescript_type = "Record")]
    pub type RecordJs;
    #[wasm_bindgen(typescript_type = "GameInfo[]")]
    pub type GameInfos;
    #[wasm_bindgen(typescript_type = "Budget | undefined")]
    pub type BudgetJs;

    /// `performance.now()`: present in pages and in workers.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// The browser clock, injected into the engine's time budgets.
struct BrowserClock;

impl Clock for BrowserClock {
    fn now_ms(&self) -> u64 {
        performance_now() as u64
    }
}

/// A hint with the time it took on the browser clock.
#[derive(serde::Serialize)]
struct TimedHint {
    #[serde(flatten)]
    hint: session::Hint,
    ms: f64,
}

fn js_error(e: WebError) -> JsError {
    JsError::new(&e.0)
}

/// A Rust value as a plain JavaScript object, through JSON (the types above describe it).
fn to_js<T: serde::Serialize>(value: &T) -> JsValue {
    let text = serde_json::to_string(value).expect("the API's types serialise to JSON");
    js_sys::JSON::parse(&text).expect("serde_json writes valid JSON")
}

/// A JavaScript value read as JSON text (`undefined` and functions are refused).
fn json_of(value: &JsValue, what: &str) -> Result<String, JsError> {
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| JsError::new(&format!("{what} must be a plain object")))
}

/// One game in progress.
#[wasm_bindgen]
#[derive(Debug)]
pub struct KoomGame {
    session: Box<dyn AnySession>,
}

impl core::fmt::Debug for dyn AnySession {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.state().game)
    }
}

impl KoomGame {
    /// Runs a level's choice under the budget JavaScript gave, timed on the browser clock.
    fn timed(
        &mut self,
        choose: impl FnOnce(&mut dyn AnySession, Budget) -> Result<session::Hint, WebError>,
        budget: &JsValue,
    ) -> Result<HintJs, JsError> {
        let budget = if budget.is_undefined() {
            Budget::Level(TimeControl::Batch)
        } else {
            Budget::from_json(&json_of(budget, "the budget")?).map_err(js_error)?
        };
        let start = performance_now();
        let hint = choose(self.session.as_mut(), budget).map_err(js_error)?;
        Ok(to_js(&TimedHint {
            hint,
            ms: performance_now() - start,
        })
        .unchecked_into())
    }
}

#[wasm_bindgen]
impl KoomGame {
    /// Starts `game` (`ludo`, `thud`, `trente-douze`, `hnefatafl`) advanced to its first
    /// decision: chance (Ludo's first roll, Trente-douze's first dice) is drawn from the seeded
    /// dice stream as the game reaches each decision.
    #[wasm_bindgen(constructor)]
    pub fn new(game: &str, config: GameConfig) -> Result<KoomGame, JsError> {
        let config = Config::from_json(&json_of(&config, "the game config")?).map_err(js_error)?;
        Ok(Self {
            session: session::start(game, &config).map_err(js_error)?,
        })
    }

    /// Every game with its seats, levels and end reasons.
    pub fn games() -> GameInfos {
        to_js(&session::games()).unchecked_into()
    }

    /// Reads a line of `koom run --records` or a plain move list (commas or new lines); throws
    /// with the wrong field named.
    #[wasm_bindgen(js_name = parseRecord)]
    pub fn parse_record(text: &str) -> Result<RecordJs, JsError> {
        Ok(to_js(&session::parse_record(text).map_err(js_error)?).unchecked_into())
    }

    /// The position, legal moves, moves so far and result.
    pub fn state(&self) -> GameStateJs {
        to_js(&self.session.state()).unchecked_into()
    }

    /// The position in the game's notation.
    pub fn position(&self) -> String {
        self.session.state().position
    }

    /// The legal moves of the seat to move, in koom's notation (none once the game is over).
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> Vec<String> {
        self.session.state().legal_moves
    }

    /// Plays a move written in koom's notation (case-insensitive), then draws the dice the game
    /// needs to reach the next decision. Throws on an illegal move; returns the move as written
    /// by koom.
    pub fn play(&mut self, mv: &str) -> Result<String, JsError> {
        self.session.play(mv).map_err(js_error)
    }

    /// The move `level` would play for the seat to move, under `budget` (time budgets run on
    /// the browser clock). Does not play it, and leaves no trace: hints never change the
    /// computer's moves.
    pub fn hint(&mut self, level: &str, budget: BudgetJs) -> Result<HintJs, JsError> {
        self.timed(|s, budget| s.hint(level, budget, &BrowserClock), &budget)
    }

    /// The computer's move: `level` chooses for the seat to move under `budget` (with the
    /// seat's own tie-break stream, as `koom play`), and the move is played.
    #[wasm_bindgen(js_name = playLevel)]
    pub fn play_level(&mut self, level: &str, budget: BudgetJs) -> Result<HintJs, JsError> {
        self.timed(
            |s, budget| s.play_level(level, budget, &BrowserClock),
            &budget,
        )
    }

    /// Takes back the last move (and its dice); `false` at the start.
    pub fn undo(&mut self) -> bool {
        self.session.undo()
    }

    /// The narration since the last call: dice rolled, moves, captures, the end.
    #[wasm_bindgen(js_name = takeNarration)]
    pub fn take_narration(&mut self) -> String {
        self.session.take_narration()
    }
}
