use super::*;
use std::sync::Arc;

use crate::agent::{AgentSetup, Budget, Context, NoClock, TimeControl};
use crate::game::NoLog;
use crate::games::hnefatafl::Hnefatafl;
use crate::games::thud::Thud;
use crate::random::RandomStream;
use crate::search::EmbeddedNetwork;

/// Fixed weights in `-range..range` from a small linear congruential generator, so that the
/// test's network is the same on every machine without a file.
fn weights(n: usize, seed: u64, range: f32) -> Vec<f32> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * range
        })
        .collect()
}

fn float_network(inputs: usize, hidden: usize) -> FloatNetwork {
    let first = if hidden == 0 { 0 } else { inputs * hidden };
    FloatNetwork {
        inputs,
        hidden,
        w1: weights(first, 1, 0.2),
        b1: weights(hidden, 2, 0.5),
        w2: weights(if hidden == 0 { inputs } else { hidden }, 3, 1.5),
        b2: 0.25,
        scale: 137.0,
        base_weight: 0.0,
    }
}

/// The forward pass written out as plain loops over the float weights: the reference the
/// integer network must follow.
fn reference(net: &FloatNetwork, active: &[u16]) -> f64 {
    let mut out = f64::from(net.b2);
    if net.hidden == 0 {
        for &i in active {
            out += f64::from(net.w2[usize::from(i)]);
        }
        return out;
    }
    for h in 0..net.hidden {
        let mut sum = f64::from(net.b1[h]);
        for &i in active {
            sum += f64::from(net.w1[usize::from(i) * net.hidden + h]);
        }
        out += sum.clamp(0.0, 1.0) * f64::from(net.w2[h]);
    }
    out
}

/// The most the quantised output can differ from the reference, in logits: each rounded
/// first-layer value errs by at most half a unit of `1/QA`, so a hidden sum by `(k + 1) / 2QA`
/// for `k` active inputs, which clipping does not enlarge and the output weight multiplies;
/// each output weight errs by `1 / 2QB` times a clipped value of at most 1; the bias by half a
/// unit of `1/(QA·QB)`.
fn error_bound(net: &FloatNetwork, active: usize) -> f64 {
    let (qa, qb) = (f64::from(QA), f64::from(QB));
    if net.hidden == 0 {
        return (active + 1) as f64 / (2.0 * qa * qb);
    }
    let hidden_error = (active + 1) as f64 / (2.0 * qa);
    let weights: f64 = net.w2.iter().map(|w| f64::from(w.abs())).sum();
    weights * hidden_error + net.hidden as f64 / (2.0 * qb) + 1.0 / (2.0 * qa * qb)
}

/// Sets of distinct active inputs, increasing, of every size up to `MAX_ACTIVE`.
fn active_sets(inputs: usize) -> Vec<Vec<u16>> {
    let mut rng = RandomStream::from_seed(49, 0);
    (0..200)
        .map(|n| {
            let mut set: Vec<u16> = (0..n % (MAX_ACTIVE + 1))
                .map(|_| rng.below(inputs as u32) as u16)
                .collect();
            set.sort_unstable();
            set.dedup();
            set
        })
        .collect()
}

#[test]
fn the_integer_network_follows_a_plain_float_forward_pass_within_the_quantisation_error() {
    for hidden in [0, 1, 32, MAX_HIDDEN] {
        let float = float_network(Thud::INPUTS, hidden);
        let net = Network::quantise(&float, "thud", Thud::FEATURE_SET, "{}").unwrap();
        let (mut worst, mut low, mut high) = (0.0f64, f64::MAX, f64::MIN);
        for active in active_sets(Thud::INPUTS) {
            let exact = reference(&float, &active);
            assert!(
                (f64::from(float.forward(&active)) - exact).abs() < 1e-3,
                "forward is the reference"
            );
            let got = f64::from(net.evaluate(&active));
            let want = exact * f64::from(float.scale);
            // Plus half a unit for the final rounding to an integer.
            let bound = error_bound(&float, active.len()) * f64::from(float.scale) + 0.5;
            assert!(
                (got - want).abs() <= bound,
                "hidden {hidden}, {} inputs: {got} vs {want} (bound {bound})",
                active.len()
            );
            worst = worst.max((got - want).abs());
            (low, high) = (low.min(want), high.max(want));
        }
        // The test is not vacuous: the outputs span many times the error.
        assert!(
            high - low > 10.0 * worst,
            "hidden {hidden}: {worst} in {low}..{high}"
        );
    }
}

#[test]
fn the_hand_made_input_adds_at_its_weight_within_the_quantisation_error() {
    for (hidden, base_weight) in [(0, 0.75), (32, 1.0), (32, 0.4321)] {
        let float = FloatNetwork {
            base_weight,
            ..float_network(Thud::INPUTS, hidden)
        };
        let net = Network::quantise(&float, "thud", Thud::FEATURE_SET, "{}").unwrap();
        assert!(net.has_base());
        for (k, active) in active_sets(Thud::INPUTS).iter().enumerate() {
            let hand = (k as i32 * 137) % 4001 - 2000;
            let want = (reference(&float, active)
                + f64::from(base_weight) * f64::from(hand) / f64::from(float.scale))
                * f64::from(float.scale);
            let got = f64::from(net.with_base(net.evaluate(active), hand));
            // The network's own error, the base weight's rounding to 1/65536 and the final
            // rounding of the weighted score.
            let bound = error_bound(&float, active.len()) * f64::from(float.scale)
                + 1.0
                + f64::from(hand.abs()) / 65536.0;
            assert!((got - want).abs() <= bound, "{got} vs {want}");
            let float_got =
                f64::from(float.forward_with_base(active, hand as f32)) * f64::from(float.scale);
            assert!((float_got - want).abs() < 1e-3 * f64::from(float.scale));
        }
    }
    // Out of range, or not a number: refused when quantised.
    for bad in [65.0, -100.0, f32::NAN] {
        let float = FloatNetwork {
            base_weight: bad,
            ..float_network(10, 4)
        };
        let e = Network::quantise(&float, "thud", "v", "{}").unwrap_err();
        assert!(e.to_string().starts_with("bad shape: base weight"), "{e}");
    }
}

/// Output weights of a hundredth of a logit (what a correction to the hand-made score learns)
/// are quantised finely enough that the integer network still follows the float one: at
/// 1/64 of a logit they would round to 0 or ±1 unit, and the output to a caricature.
#[test]
fn small_output_weights_get_a_finer_unit() {
    let mut float = float_network(Thud::INPUTS, 64);
    float.w2.iter_mut().for_each(|w| *w *= 0.01);
    float.scale = 2239.0;
    let net = Network::quantise(&float, "thud", "v", "{}").unwrap();
    let back = Network::from_bytes(&net.to_bytes()).unwrap();
    assert_eq!(back, net);
    let (mut worst, mut spread) = (0.0f64, (f64::MAX, f64::MIN));
    for active in active_sets(Thud::INPUTS) {
        let want = reference(&float, &active) * f64::from(float.scale);
        worst = worst.max((f64::from(net.evaluate(&active)) - want).abs());
        spread = (spread.0.min(want), spread.1.max(want));
    }
    // Rounding each output weight to 1/64 alone could cost 64 units × 0.5/64 × 2239 = 1119.
    assert!(worst < 3.0, "{worst} evaluation units");
    assert!(spread.1 - spread.0 > 20.0 * worst, "{spread:?}");
}

#[test]
fn a_version_1_file_reads_as_a_network_without_the_hand_made_input() {
    // Version 2 less its base weight field is the version 1 file of the same network.
    let net = Network::quantise(&float_network(Thud::INPUTS, 8), "thud", "v", "{}").unwrap();
    let v2 = net.to_bytes();
    // magic, version, length, two names of 4 and 1 bytes with their lengths, then inputs,
    // hidden, QA, QB and scale: the base weight follows.
    let at = 4 + 2 + 4 + 1 + 4 + 1 + 1 + 4 + 4 + 2 + 2 + 4;
    assert_eq!(v2[at..at + 4], [0; 4]);
    let mut v1: Vec<u8> = [&v2[..at], &v2[at + 4..v2.len() - 8]].concat();
    v1[4..6].copy_from_slice(&1u16.to_le_bytes());
    let length = (v1.len() + 8) as u32;
    v1[6..10].copy_from_slice(&length.to_le_bytes());
    let sum = checksum(&v1);
    v1.extend_from_slice(&sum.to_le_bytes());
    let read = Network::from_bytes(&v1).unwrap();
    assert_eq!(read, net);
    assert!(!read.has_base());
    // With a base weight, version 2 reads back with it.
    let based = FloatNetwork {
        base_weight: 0.5,
        ..float_network(Thud::INPUTS, 8)
    };
    let based = Network::quantise(&based, "thud", "v", "{}").unwrap();
    let back = Network::from_bytes(&based.to_bytes()).unwrap();
    assert_eq!((back.has_base(), back.base_weight()), (true, 0.5));
    assert_eq!(back, based);
}

#[test]
fn an_accumulator_moved_by_changed_inputs_equals_one_refreshed_from_scratch() {
    let net = Network::quantise(&float_network(Thud::INPUTS, 32), "thud", "x", "{}").unwrap();
    let (mut moved, mut fresh) = (Accumulator::default(), Accumulator::default());
    net.refresh(&[1, 5, 9], &mut moved);
    net.update(&mut moved, &[2, 300], &[5]);
    net.refresh(&[1, 2, 9, 300], &mut fresh);
    assert_eq!(moved, fresh);
    assert_eq!(net.output(&moved), net.evaluate(&[1, 2, 9, 300]));
}

#[test]
fn a_network_file_reads_back_as_written_and_carries_its_names() {
    for hidden in [0, 16] {
        let net = Network::quantise(
            &float_network(Hnefatafl::INPUTS, hidden),
            "hnefatafl",
            Hnefatafl::FEATURE_SET,
            r#"{"seed":7}"#,
        )
        .unwrap();
        let bytes = net.to_bytes();
        let read = Network::from_bytes(&bytes).unwrap();
        assert_eq!(read, net);
        assert_eq!(read.to_bytes(), bytes);
        assert_eq!(
            (read.game(), read.feature_set(), read.provenance()),
            ("hnefatafl", "hnefatafl-board-v1", r#"{"seed":7}"#)
        );
        // 2 bytes a first-layer weight.
        let first = if hidden == 0 { 4 } else { 2 * hidden };
        assert!(bytes.len() >= Hnefatafl::INPUTS * first);
        assert!(read.check_for::<Hnefatafl>().is_ok());
        let wrong = read.check_for::<Thud>().unwrap_err().to_string();
        assert_eq!(
            wrong,
            "does not fit: it was trained for `hnefatafl`, not thud"
        );
    }
}

#[test]
fn a_truncated_edited_or_foreign_file_is_refused_with_one_line() {
    let net = Network::quantise(&float_network(Thud::INPUTS, 8), "thud", "v", "{}").unwrap();
    let bytes = net.to_bytes();
    let refuse = |bytes: &[u8]| {
        let e = Network::from_bytes(bytes).unwrap_err();
        assert!(!e.to_string().contains('\n'), "{e}");
        e
    };
    for cut in [0, 3, 7, 20, bytes.len() / 2, bytes.len() - 1] {
        let e = refuse(&bytes[..cut]);
        let want = if cut < 4 {
            NetworkError::NotANetwork
        } else {
            NetworkError::Truncated
        };
        assert_eq!(e, want, "cut at {cut}");
    }
    // Every byte after the header's magic and version, flipped, is caught.
    for at in 10..bytes.len() {
        let mut edited = bytes.clone();
        edited[at] ^= 0x10;
        assert_eq!(refuse(&edited), NetworkError::Checksum, "byte {at}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(refuse(&longer), NetworkError::Checksum);
    let mut version = bytes.clone();
    version[4] = 9;
    assert_eq!(
        refuse(&version).to_string(),
        "format version 9 is not supported (this koom reads versions 1 and 2)"
    );
    assert_eq!(refuse(b"PK\x03\x04 a zip"), NetworkError::NotANetwork);
    assert_eq!(
        refuse(&bytes[..bytes.len() - 1]).to_string(),
        "truncated: the file ends before its contents do"
    );
}

#[test]
fn a_float_network_that_does_not_fit_its_shape_or_the_integers_is_refused() {
    let good = float_network(10, 4);
    let bad = |float: FloatNetwork| {
        Network::quantise(&float, "thud", "v", "{}")
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        bad(FloatNetwork {
            w1: vec![0.0; 39],
            ..good.clone()
        }),
        "bad shape: w1 holds 39 values, the shape 10x4 needs 40"
    );
    let mut big = good.clone();
    big.w1[3] = 1000.0;
    assert!(bad(big).contains("w1 holds 1000"));
    assert!(
        bad(FloatNetwork {
            scale: 0.0,
            ..good.clone()
        })
        .contains("scale 0")
    );
    assert!(
        bad(FloatNetwork {
            hidden: MAX_HIDDEN + 1,
            ..good
        })
        .contains("257 hidden units")
    );
}

/// Checks what every feature list promises: in range, strictly increasing, at most
/// `MAX_ACTIVE`.
fn check_features<G: Features>(game: &G) -> Vec<u16> {
    let mut out = Vec::new();
    game.features(&mut out);
    assert!(out.len() <= MAX_ACTIVE);
    assert!(out.iter().all(|&i| usize::from(i) < G::INPUTS));
    assert!(out.windows(2).all(|w| w[0] < w[1]), "{out:?}");
    out
}

/// A game's start position and the position after its first legal move.
fn start_and_reply<G: Features>() -> (G, G) {
    let mut dice = RandomStream::dice(1);
    let start = G::new(&Default::default(), 2, &mut dice, &mut NoLog);
    let mut moves = G::MoveList::default();
    start.legal_moves(&mut moves);
    let mut next = start.clone();
    next.play(moves[0], &mut dice, &mut NoLog);
    (start, next)
}

#[test]
fn thud_start_features_are_the_forty_pieces_on_their_squares() {
    assert_eq!((Thud::INPUTS, Thud::FEATURE_SET), (331, "thud-board-v1"));
    let (start, next) = start_and_reply::<Thud>();
    let features = check_features(&start);
    assert_eq!(features.len(), 40);
    // Rank 1 holds F1 G1 H1 J1 K1 (squares 0 to 4), the dwarfs on all but H1; ranks 1 to 6
    // hold 60 squares, so the troll on G7 (file 7 of 15 on rank 7) is square 66, input
    // 165 + 66.
    assert_eq!(&features[..4], &[0, 1, 3, 4]);
    assert_eq!(features[32], 165 + 66);
    let features = check_features(&next);
    assert_eq!((features.len(), features.last()), (41, Some(&330)));
}

#[test]
fn hnefatafl_start_features_are_the_thirty_seven_pieces_on_their_squares() {
    assert_eq!(
        (Hnefatafl::INPUTS, Hnefatafl::FEATURE_SET),
        (364, "hnefatafl-board-v1")
    );
    let (start, next) = start_and_reply::<Hnefatafl>();
    let features = check_features(&start);
    assert_eq!(features.len(), 37);
    // The attackers from d1 (square 3); the king on f6 (square 60) is the last input, after
    // 121 attacker and 121 defender inputs.
    assert_eq!(features[0], 3);
    assert_eq!(features.last(), Some(&(242 + 60)));
    assert_eq!(features.iter().filter(|&&i| i < 121).count(), 24);
    let features = check_features(&next);
    assert_eq!((features.len(), features.last()), (38, Some(&363)));
}

/// Plays `plies` random legal moves from `game`'s start and checks, after each, that an
/// accumulator moved from the last position's inputs to the new one's equals one refreshed
/// from scratch.
fn incremental_equals_full<G: Features>(net: &Network, seed: u64, plies: usize) {
    let mut dice = RandomStream::dice(seed);
    let mut rng = RandomStream::from_seed(seed, 9);
    let mut game = G::new(&Default::default(), 2, &mut dice, &mut NoLog);
    let (mut before, mut after) = (Vec::new(), Vec::new());
    game.features(&mut before);
    let mut acc = Accumulator::default();
    net.refresh(&before, &mut acc);
    let mut moves = G::MoveList::default();
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        game.legal_moves(&mut moves);
        let mv = moves[rng.below(moves.len() as u32) as usize];
        game.play(mv, &mut dice, &mut NoLog);
        after.clear();
        game.features(&mut after);
        net.update_between(&mut acc, &before, &after);
        let mut fresh = Accumulator::default();
        net.refresh(&after, &mut fresh);
        assert_eq!(acc, fresh);
        assert_eq!(net.output(&acc), net.evaluate(&after));
        core::mem::swap(&mut before, &mut after);
    }
}

#[test]
fn the_incremental_accumulator_equals_a_full_recomputation_after_random_moves() {
    for hidden in [0, 32] {
        let thud = Network::quantise(&float_network(Thud::INPUTS, hidden), "thud", "", "").unwrap();
        let tafl =
            Network::quantise(&float_network(Hnefatafl::INPUTS, hidden), "h", "", "").unwrap();
        for seed in 0..8 {
            incremental_equals_full::<Thud>(&thud, seed, 300);
            incremental_equals_full::<Hnefatafl>(&tafl, seed, 300);
        }
    }
}

/// A linear network over the pieces only: `values[k]` logits a piece of kind `k` (the
/// feature set's kinds, in order), nothing for the side to move, 100 units a logit.
fn material<G: Features>(values: &[f32]) -> Arc<Network> {
    let squares = (G::INPUTS - 1) / values.len();
    let mut w2: Vec<f32> = values
        .iter()
        .flat_map(|&v| std::iter::repeat_n(v, squares))
        .collect();
    w2.push(0.0);
    let float = FloatNetwork {
        inputs: G::INPUTS,
        hidden: 0,
        w1: vec![],
        b1: vec![],
        w2,
        b2: 0.0,
        scale: 100.0,
        base_weight: 0.0,
    };
    Arc::new(Network::quantise(&float, G::NAME, G::FEATURE_SET, "{}").unwrap())
}

/// The score and move of `level` of `G` with `net`, searched from `game` to `depth` plies.
fn search_with<G: Features>(
    game: &G,
    level: usize,
    net: Option<Arc<Network>>,
    depth: u32,
) -> (Option<f64>, G::Move) {
    let setup = AgentSetup {
        level: &G::levels()[level],
        weights: Vec::new(),
        time_control: TimeControl::Batch,
        network: net,
    };
    let mut agent = setup.agent();
    agent.set_budget(Budget {
        depth: Some(depth),
        ..Budget::default()
    });
    let mut moves = G::MoveList::default();
    game.legal_moves(&mut moves);
    let mut rng = RandomStream::tie_break(1, 0);
    let ctx = &mut Context {
        rng: &mut rng,
        clock: &NoClock,
    };
    let analysis = agent.analyse(game, &moves, ctx);
    (analysis.score, analysis.best)
}

#[test]
fn a_network_level_scores_its_leaves_with_the_network_alone() {
    let (thud, _) = start_and_reply::<Thud>();
    let (tafl, _) = start_and_reply::<Hnefatafl>();
    // A network that knows nothing: every position that does not end the game scores 0, where
    // the hand-made terms score the start's shape (no capture can end a round within 2 plies).
    let zero = |g: &str, set: &str, inputs| {
        let float = FloatNetwork {
            inputs,
            hidden: 4,
            w1: vec![0.0; inputs * 4],
            b1: vec![0.0; 4],
            w2: vec![0.0; 4],
            b2: 0.0,
            scale: 100.0,
            base_weight: 0.0,
        };
        Some(Arc::new(Network::quantise(&float, g, set, "{}").unwrap()))
    };
    let thud_zero = zero("thud", Thud::FEATURE_SET, Thud::INPUTS);
    let tafl_zero = zero("hnefatafl", Hnefatafl::FEATURE_SET, Hnefatafl::INPUTS);
    for level in [2, 4] {
        assert_eq!(search_with(&thud, level, thud_zero.clone(), 2).0, Some(0.0));
        assert_ne!(search_with(&thud, level, None, 2).0, Some(0.0));
    }
    for level in [1, 3] {
        assert_eq!(search_with(&tafl, level, tafl_zero.clone(), 2).0, Some(0.0));
        assert_ne!(search_with(&tafl, level, None, 2).0, Some(0.0));
    }
    // Material alone, from the side to move: Thud's start is 32 dwarfs at 1 and 8 trolls at -3
    // (800 for the dwarfs, who move), and no capture is in reach within one ply; Hnefatafl's is
    // 24 attackers at 1, 12 defenders at -1 and a king at -2 (1000 for the attackers).
    let thud_material = material::<Thud>(&[1.0, -3.0]);
    assert_eq!(search_with(&thud, 2, Some(thud_material), 1).0, Some(800.0));
    let tafl_material = material::<Hnefatafl>(&[1.0, -1.0, -2.0]);
    assert_eq!(
        search_with(&tafl, 1, Some(tafl_material), 1).0,
        Some(1000.0)
    );
}

/// A network that reads the hand-made score at weight 1 and whose learned part is zero plays
/// and scores exactly as the hand-made level, at every searching level of both games: what
/// training with the hand-made input starts from.
#[test]
fn a_network_reading_the_hand_made_score_with_no_correction_is_the_hand_made_level() {
    fn hand_only<G: Features>(hidden: usize) -> Option<Arc<Network>> {
        let float = FloatNetwork {
            inputs: G::INPUTS,
            hidden,
            w1: vec![0.0; G::INPUTS * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; if hidden == 0 { G::INPUTS } else { hidden }],
            b2: 0.0,
            scale: 100.0,
            base_weight: 1.0,
        };
        Some(Arc::new(
            Network::quantise(&float, G::NAME, G::FEATURE_SET, "{}").unwrap(),
        ))
    }
    fn same<G: Features>(games: &[G], levels: &[usize], depth: u32) {
        for (g, game) in games.iter().enumerate() {
            for &level in levels {
                for hidden in [0, 8] {
                    let hand = search_with(game, level, None, depth);
                    let net = search_with(game, level, hand_only::<G>(hidden), depth);
                    assert_eq!(net, hand, "{} position {g} level {level}", G::NAME);
                }
            }
        }
    }
    let positions = |seed| {
        use crate::Rules;
        let (start, reply) = start_and_reply::<Thud>();
        let mut later = reply.clone();
        let mut rng = RandomStream::from_seed(seed, 1);
        let mut dice = RandomStream::dice(1);
        let mut moves = <Thud as crate::Rules>::MoveList::default();
        for _ in 0..30 {
            later.legal_moves(&mut moves);
            if moves.len() < 2 {
                break;
            }
            let mv = moves[rng.below(moves.len() as u32) as usize];
            later.play(mv, &mut dice, &mut NoLog);
        }
        [start, reply, later]
    };
    same(&positions(5), &[2, 4], 2);
    let (tafl, reply) = start_and_reply::<Hnefatafl>();
    same(&[tafl, reply], &[1, 3], 2);
}

/// A test-only level table's network: the material network of
/// [`a_network_level_scores_its_leaves_with_the_network_alone`] (a dwarf 1, a troll -3),
/// committed under `engine/nets/` as a level would embed its own.
const TEST_NET: EmbeddedNetwork = EmbeddedNetwork {
    name: "test-thud-material.knet",
    bytes: include_bytes!("../../nets/test-thud-material.knet"),
};

#[test]
fn a_level_row_that_names_a_network_searches_with_it_unless_the_setup_brings_its_own() {
    use crate::game::{Level, Players};
    use crate::games::thud::{EvalWeights, Evaluation, SEARCH_SETS};
    use crate::search::{LevelRow, SearchingAgent, level_network, level_values};

    let material = material::<Thud>(&[1.0, -3.0]);
    assert_eq!(
        TEST_NET.read::<Thud>().unwrap(),
        *material,
        "the file is its recipe's"
    );
    let (eval, search) = level_values(&SEARCH_SETS[0], &[]);
    let row = LevelRow {
        name: "test",
        summary: "a test level",
        table_bits: 10,
        search,
        eval_defaults: &[],
        network: Some(TEST_NET),
    };
    // The level of a row names the row's network; the test never plays it.
    let network_of = |row: LevelRow| {
        let row = Box::leak(Box::new(row));
        Level::<Thud>::searching(row, &SEARCH_SETS[0], |_, _, _| unreachable!("not played")).network
    };
    assert_eq!(network_of(row), Some("test-thud-material.knet"));
    let setup = |network| AgentSetup {
        level: &Thud::levels()[2],
        weights: Vec::new(),
        time_control: TimeControl::Batch,
        network,
    };
    assert_eq!(
        level_network::<Thud>(&row, &setup(None)),
        Some(material.clone())
    );
    let own = Arc::new(Network::quantise(&float_network(331, 4), "thud", "", "").unwrap());
    assert_eq!(
        level_network::<Thud>(&row, &setup(Some(own.clone()))),
        Some(own)
    );
    let plain = LevelRow {
        network: None,
        ..row
    };
    assert_eq!(level_network::<Thud>(&plain, &setup(None)), None);
    assert_eq!(network_of(plain), None);
    // The level plays with its network: material alone at one ply from the start.
    let hand = Evaluation::new(&EvalWeights::from_values(&eval));
    let net = level_network::<Thud>(&row, &setup(None)).unwrap();
    let mut agent = SearchingAgent::with_root(
        &row,
        NetEvaluation::new(hand, net),
        &search,
        TimeControl::Batch,
        |game: &Thud, eval| eval.node(game),
    );
    crate::Agent::<Thud>::set_budget(
        &mut agent,
        Budget {
            depth: Some(1),
            ..Budget::default()
        },
    );
    let (thud, _) = start_and_reply::<Thud>();
    let mut rng = RandomStream::tie_break(1, 0);
    let ctx = &mut Context {
        rng: &mut rng,
        clock: &NoClock,
    };
    assert_eq!(agent.search(&thud, ctx).score, 800);
}

#[test]
fn help_texts_name_the_levels_with_a_built_in_network() {
    // Every shipped level keeps its hand-made terms until a network wins its gate.
    assert_eq!(built_in_networks(), Vec::new());
    assert!(built_in_networks_in_words().starts_with("no level has a built-in network"));
}

/// Plays random search moves (copy-make, as the searcher does) from `G`'s start and checks
/// that each node's accumulated score equals the score recomputed from its inputs.
fn net_nodes_follow_their_positions<G: Features + crate::search::SearchRoot>(
    net: &Arc<Network>,
    seed: u64,
) where
    G::Node: ActiveFeatures,
{
    use crate::search::SearchGame;
    let (game, _) = start_and_reply::<G>();
    let eval = NetEvaluation::new((), net.clone());
    let mut node = eval.node(&game);
    let mut rng = RandomStream::from_seed(seed, 3);
    let mut moves = <G::Node as SearchGame>::MoveList::default();
    for _ in 0..200 {
        node.generate(&mut moves);
        if moves.is_empty() || node.terminal(0).is_some() {
            break;
        }
        node = node.after(moves[rng.below(moves.len() as u32) as usize]);
        assert_eq!(
            node.first_side_score(|| 0),
            eval.first_side_score(&node.inner, || 0)
        );
    }
}

#[test]
fn a_net_node_moved_by_search_moves_scores_as_its_position_recomputed() {
    let thud =
        Arc::new(Network::quantise(&float_network(Thud::INPUTS, 32), "thud", "", "").unwrap());
    let tafl = Arc::new(
        Network::quantise(&float_network(Hnefatafl::INPUTS, 32), "hnefatafl", "", "").unwrap(),
    );
    for seed in 0..6 {
        net_nodes_follow_their_positions::<Thud>(&thud, seed);
        net_nodes_follow_their_positions::<Hnefatafl>(&tafl, seed);
    }
}
