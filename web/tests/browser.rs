//! The JavaScript API in a real browser (`web/test.sh` runs these in headless Chromium through
//! wasm-bindgen-test): every game through the one class, errors as JavaScript `Error`s.
#![cfg(target_arch = "wasm32")]

use js_sys::{Error, JSON, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web::KoomGame;

wasm_bindgen_test_configure!(run_in_browser);

/// A JavaScript object from JSON text.
fn js(json: &str) -> JsValue {
    JSON::parse(json).unwrap()
}

fn game(name: &str, config: &str) -> Result<KoomGame, String> {
    KoomGame::new(name, js(config).unchecked_into()).map_err(message)
}

/// The message of the JavaScript `Error` an API call threw.
fn message(e: impl Into<JsValue>) -> String {
    let value: JsValue = e.into();
    let error: Error = value.dyn_into().expect("a JavaScript Error");
    String::from(error.message())
}

/// The message of the error a call must throw.
fn thrown<T>(result: Result<T, wasm_bindgen::JsError>) -> String {
    match result {
        Ok(_) => panic!("the call did not throw"),
        Err(e) => message(e),
    }
}

fn field(object: &JsValue, key: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(key)).unwrap()
}

fn strings(value: JsValue) -> Vec<String> {
    js_sys::Array::from(&value)
        .iter()
        .map(|v| v.as_string().unwrap())
        .collect()
}

#[wasm_bindgen_test]
fn every_game_plays_to_its_result_through_one_api() {
    let infos = js_sys::Array::from(&KoomGame::games());
    let names: Vec<String> = infos
        .iter()
        .map(|g| field(&g, "name").as_string().unwrap())
        .collect();
    assert_eq!(names, ["ludo", "thud", "trente-douze", "hnefatafl"]);
    // The board games' caps keep each test under the runner's 20 s WebDriver timeout (a test
    // holds the page's thread); a game that reaches one still ends with its result and reason.
    for (name, level, config) in [
        ("ludo", "normal", r#"{"seed": 3}"#),
        (
            "thud",
            "easy",
            r#"{"seed": 3, "options": {"ply_cap": 120}}"#,
        ),
        ("trente-douze", "normal", r#"{"seed": 3}"#),
        (
            "hnefatafl",
            "easy",
            r#"{"seed": 3, "options": {"ply_cap": 120}}"#,
        ),
    ] {
        let mut g = game(name, config).unwrap();
        let mut plies = 0;
        loop {
            let state: JsValue = g.state().into();
            if !field(&state, "result").is_null() {
                let result = field(&state, "result");
                assert!(field(&result, "reason").as_string().is_some(), "{name}");
                assert!(field(&state, "toMove").is_null(), "{name}");
                break;
            }
            let hint: JsValue = g
                .hint(level, JsValue::UNDEFINED.unchecked_into())
                .unwrap()
                .into();
            let mv = field(&hint, "move").as_string().unwrap();
            assert!(
                strings(g.legal_moves().into()).contains(&mv),
                "{name}: {mv}"
            );
            // A hint leaves no trace: the level then plays the move it hinted.
            let played: JsValue = g
                .play_level(level, JsValue::UNDEFINED.unchecked_into())
                .unwrap()
                .into();
            assert_eq!(field(&played, "move").as_string().unwrap(), mv, "{name}");
            plies += 1;
        }
        let moves = strings(field(&g.state().into(), "moves"));
        assert_eq!(moves.len(), plies, "{name}");
        assert!(g.undo(), "{name}");
        assert_eq!(strings(field(&g.state().into(), "moves")).len(), plies - 1);
        assert!(!g.take_narration().is_empty(), "{name}");
    }
}

#[wasm_bindgen_test]
fn legal_move_counts_equal_koom_perft_depth_one() {
    // `koom perft --game G --depth 1 --position P`; positions from engine/tests/data.
    for (name, position, count) in [
        (
            "thud",
            "dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd d",
            656,
        ),
        (
            "thud",
            "5/3d3/3d5/3d2T4/2d3T6/3d5T5/3d8d2/7R3d3/3T2TTT1d4/13d1/1ddd2T6/7d3/6d2/1d5/5 d",
            346,
        ),
        (
            "hnefatafl",
            "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ a",
            116,
        ),
        (
            "hnefatafl",
            "/3tt1tt3/1t1T4t2/7T3/t5TT3/1tT3t3t/t4KTTt1t/1tt2TT3t/t8Tt/11/1TT2ttt3/1t2tt5/ a",
            129,
        ),
        (
            "trente-douze",
            "seats=2 round=1 scores=30,30 turn=1 mover=1 roll=222445",
            38,
        ),
    ] {
        let config = format!(
            r#"{{"seed": 1, "position": {}}}"#,
            JSON::stringify(&position.into()).unwrap()
        );
        let g = game(name, &config).unwrap();
        assert_eq!(g.legal_moves().len(), count, "{name} {position}");
        assert_eq!(g.position(), position);
    }
}

#[wasm_bindgen_test]
fn bad_input_throws_a_javascript_error_with_a_clear_message() {
    assert_eq!(
        game("chess", r#"{"seed": 1}"#).unwrap_err(),
        format!(
            "unknown game `chess` (accepted: {})",
            engine::GAME_NAMES.join(", ")
        )
    );
    assert!(
        game(
            "thud",
            r#"{"seed": 1, "options": {"ply_cap": -5, "colour": 1}}"#
        )
        .unwrap_err()
        .starts_with("malformed thud options: unknown field `colour`")
    );
    assert!(
        game("ludo", "{}")
            .unwrap_err()
            .contains("missing field `seed`")
    );
    assert_eq!(
        thrown(KoomGame::new("thud", JsValue::UNDEFINED.unchecked_into())),
        "the game config must be a plain object"
    );
    let mut g = game("hnefatafl", r#"{"seed": 1}"#).unwrap();
    assert_eq!(
        thrown(g.play("f6-f7")),
        "illegal hnefatafl move `f6-f7` for seat 0 (116 legal moves here)"
    );
    assert_eq!(
        thrown(g.hint("grandmaster", JsValue::UNDEFINED.unchecked_into())),
        "unknown hnefatafl level `grandmaster` (accepted: easy, normal, hard, expert)"
    );
    assert_eq!(
        thrown(g.hint("easy", JsValue::from_str("blitz").unchecked_into())),
        r#"budget `"blitz"` is not "batch", "player", {"nodes": N} or {"timeMs": N}"#
    );
    // The game is untouched and still plays.
    assert_eq!(g.legal_moves().len(), 116);
    g.play("d1-d2").unwrap();
}

#[wasm_bindgen_test]
fn a_time_budget_binds_on_the_browser_clock() {
    let mut g = game("hnefatafl", r#"{"seed": 1}"#).unwrap();
    // Expert's player depth (12 plies, full width) would run for minutes: only the 300 ms budget,
    // read from performance.now(), can stop it. The bounds are wide: a busy machine runs late.
    let timed: JsValue = g
        .hint("expert", js(r#"{"timeMs": 300}"#).unchecked_into())
        .unwrap()
        .into();
    let ms = field(&timed, "ms").as_f64().unwrap();
    assert!((90.0..5000.0).contains(&ms), "{ms} ms");
    let nodes: JsValue = g
        .hint("expert", js(r#"{"nodes": 2000}"#).unchecked_into())
        .unwrap()
        .into();
    let mv = field(&nodes, "move").as_string().unwrap();
    assert!(strings(g.legal_moves().into()).contains(&mv), "{mv}");
}

/// The hint carries the level's score, PV, depth and nodes: after six human moves (each game's
/// first legal move, seed 5), the "hard" level's hint equals what `Agent::analyse` gives
/// natively for the same position, level and batch budget (the figures printed by
/// `web/tests/native.rs::the_hint_carries_the_score_of_agent_analyse`, which checks every level
/// against a native analysis).
#[wasm_bindgen_test]
fn the_hint_carries_the_native_analysis_score() {
    for (name, seats, mv, score, pv) in [
        ("ludo", 4, "pawn 3 yard->0", 3.0, &["pawn 3 yard->0"][..]),
        (
            "thud",
            2,
            "F2-D4",
            1465.0,
            &["F2-D4", "J7-J6", "G1-E3", "G8-D11xC12", "B11-G6"][..],
        ),
        (
            "trente-douze",
            3,
            "keep 5 big",
            0.103_431_483_959_301_46,
            &["keep 5 big"][..],
        ),
        (
            "hnefatafl",
            2,
            "k4-c4xb4",
            -916.0,
            &["k4-c4xb4", "g7-h7", "e1-c1", "g6-g8"][..],
        ),
    ] {
        let mut g = game(name, &format!(r#"{{"seed": 5, "seats": {seats}}}"#)).unwrap();
        for _ in 0..6 {
            let first = strings(g.legal_moves().into())[0].clone();
            g.play(&first).unwrap();
        }
        let before = g.position();
        let hint: JsValue = g
            .hint("hard", JsValue::UNDEFINED.unchecked_into())
            .unwrap()
            .into();
        assert_eq!(field(&hint, "move").as_string().unwrap(), mv, "{name}");
        let got = field(&hint, "score").as_f64().expect("a score");
        // Integer evaluations exactly; Trente-douze's probability to the last few bits (wasm's
        // libm against the native one).
        assert!(
            (got - score).abs() <= 1e-12 * score.abs(),
            "{name}: {got} != {score}"
        );
        assert_eq!(strings(field(&hint, "pv")), pv, "{name}");
        assert!(field(&hint, "nodes").as_f64().is_some(), "{name}");
        assert_eq!(g.position(), before, "{name}: the hint changed the game");
    }
}

#[wasm_bindgen_test]
fn a_record_line_or_a_move_list_is_parsed() {
    let record: JsValue = KoomGame::parse_record(
        "7\t3\t1\t99\teasy,hard\tseat 1 wins\tcorner\tdefault\tstart\td1-b1,e5-e2\t-",
    )
    .unwrap()
    .into();
    assert_eq!(field(&record, "group").as_f64(), Some(3.0));
    assert_eq!(strings(field(&record, "moves")), ["d1-b1", "e5-e2"]);
    assert!(field(&record, "start").is_null());
    let list: JsValue = KoomGame::parse_record("d1-b1, e5-e2").unwrap().into();
    assert!(field(&list, "group").is_null());
    assert_eq!(strings(field(&list, "moves")), ["d1-b1", "e5-e2"]);
    assert!(
        thrown(KoomGame::parse_record(
            "1\tx\t0\t5\ta,b\tdraw\tcap\tdefault\tstart\t\t-"
        ))
        .ends_with(": group `x` is not a number")
    );
}
