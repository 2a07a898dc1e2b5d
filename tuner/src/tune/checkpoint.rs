//! The state a run saves after every iteration, and the hash that ties it to its config.
//!
//! The state is small: θ, the iterations done and their records (for `tuning.csv`). No random
//! state is saved because none is carried: iteration `k`'s perturbation and games come from
//! seeds derived from (seed, k). Floats are written by serde_json with `float_roundtrip`, so θ
//! reads back bit for bit and a resumed run ends exactly where an uninterrupted one does.

use serde::{Deserialize, Serialize};

/// The format tag; a checkpoint of another format is refused, not misread.
pub const FORMAT: &str = "koom-tune-checkpoint-1";

/// One finished iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IterationRecord {
    /// 1-based: the record of iteration `k` (0-based) says `k + 1`.
    pub iteration: u64,
    /// The signs `Δ_i` of the tuned parameters.
    pub delta: Vec<i8>,
    /// Games played in the iteration.
    pub games: u64,
    /// θ+'s wins minus losses (minus θ−'s against a fixed opponent), in games.
    pub result: i64,
    /// The tuned parameters after the update.
    pub theta: Vec<f64>,
}

/// What `checkpoint.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    pub format: String,
    /// [`config_hash`] of the resolved config, hex.
    pub config_hash: String,
    pub iterations_done: u64,
    /// The full weight vector after the last iteration done, in table order.
    pub theta: Vec<f64>,
    pub history: Vec<IterationRecord>,
}

impl Checkpoint {
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut text =
            serde_json::to_string_pretty(self).expect("a checkpoint is plain data and serialises");
        text.push('\n');
        text
    }

    /// Parses checkpoint text; the error says why it cannot be read.
    pub fn parse(text: &str) -> Result<Self, String> {
        let checkpoint: Self = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if checkpoint.format != FORMAT {
            return Err(format!(
                "format `{}`, expected `{FORMAT}`",
                checkpoint.format
            ));
        }
        Ok(checkpoint)
    }
}

/// FNV-1a, 64 bits: a hash fixed by its definition, unlike `std`'s, so that a checkpoint's hash
/// means the same to every build.
#[must_use]
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The hash of a config's canonical JSON form, as 16 hex digits.
#[must_use]
pub fn config_hash(canonical: &impl Serialize) -> String {
    let json = serde_json::to_string(canonical).expect("the canonical config serialises");
    format!("{:016x}", fnv1a64(json.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_reference_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn checkpoints_round_trip_bit_for_bit() {
        let awkward = [
            0.1 + 0.2,
            1.0 / 3.0,
            2.0f64.powi(-60) * 3.0,
            9.999_999_999_999_998,
            f64::MIN_POSITIVE,
        ];
        let cp = Checkpoint {
            format: FORMAT.into(),
            config_hash: config_hash(&("x", 1)),
            iterations_done: 1,
            theta: awkward.to_vec(),
            history: vec![IterationRecord {
                iteration: 1,
                delta: vec![1, -1],
                games: 256,
                result: -12,
                theta: awkward[..2].to_vec(),
            }],
        };
        let back = Checkpoint::parse(&cp.to_json()).unwrap();
        for (a, b) in cp.theta.iter().zip(&back.theta) {
            assert_eq!(a.to_bits(), b.to_bits());
        }
        assert_eq!(back, cp);
        assert!(Checkpoint::parse("{").is_err());
        let other = cp.to_json().replace(FORMAT, "koom-tune-checkpoint-0");
        assert!(Checkpoint::parse(&other).unwrap_err().contains("format"));
    }
}
