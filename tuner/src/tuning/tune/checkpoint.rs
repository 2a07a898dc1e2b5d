//! The state a run saves after every iteration, and the hash that ties it to its config.
//!
//! The state is small: θ, the iterations done and their records (for `tuning.csv`). No random
//! state is saved because none is carried: iteration `k`'s perturbation and games come from
//! seeds derived from (seed, k). Floats are written by serde_json with `float_roundtrip`, so θ
//! reads back bit for bit and a resumed run ends exactly where an uninterrupted one does.

use serde::{Deserialize, Serialize};

use crate::checksum::{fnv1a64, seal, unseal};

/// The format tag; a checkpoint of another format is refused, not misread. Format 2 added the
/// checksum (see [`crate::checksum`]).
pub const FORMAT: &str = "koom-tune-checkpoint-2";

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
    /// The file's text, with its checksum.
    #[must_use]
    pub fn to_json(&self) -> String {
        let value = serde_json::to_value(self).expect("a checkpoint is plain data and serialises");
        let text = seal(value).expect("a checkpoint is plain data and serialises");
        String::from_utf8(text).expect("JSON is UTF-8")
    }

    /// Parses checkpoint text and checks its checksum; the error says why it cannot be read.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        // The fields are read first, so that a misspelt or missing field is named as such.
        let mut fields = value.clone();
        if let Some(map) = fields.as_object_mut() {
            map.shift_remove("checksum");
        }
        let checkpoint: Self = serde_json::from_value(fields).map_err(|e| e.to_string())?;
        if checkpoint.format != FORMAT {
            return Err(format!(
                "format `{}`, expected `{FORMAT}`",
                checkpoint.format
            ));
        }
        unseal(&mut value)?;
        Ok(checkpoint)
    }
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

    /// Fuzzes the checkpoint reader: 3,000 seeded one-byte mutations are refused or read back
    /// as the same checkpoint, and never panic.
    #[test]
    fn mutated_checkpoints_are_refused_or_read_back_unchanged() {
        let cp = Checkpoint {
            format: FORMAT.into(),
            config_hash: config_hash(&("fuzz", 2)),
            iterations_done: 2,
            theta: vec![0.25, -1.5, 3.0],
            history: (1..=2)
                .map(|k| IterationRecord {
                    iteration: k,
                    delta: vec![1, -1],
                    games: 64,
                    result: 3 - 2 * k as i64,
                    theta: vec![0.25 * k as f64, -1.5],
                })
                .collect(),
        };
        let original = cp.to_json().into_bytes();
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut refused = 0;
        for _ in 0..3000 {
            let mut bytes = original.clone();
            let at = (next() % bytes.len() as u64) as usize;
            if next() % 2 == 0 {
                bytes[at] = (next() % 128) as u8;
            } else {
                bytes.remove(at);
            }
            match Checkpoint::parse(&String::from_utf8_lossy(&bytes)) {
                Err(_) => refused += 1,
                Ok(back) => assert_eq!(back, cp, "{}", String::from_utf8_lossy(&bytes)),
            }
        }
        assert!(refused > 1500, "{refused} refused");
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
        let flipped = cp.to_json().replace("\"games\": 256", "\"games\": 257");
        assert!(
            Checkpoint::parse(&flipped)
                .unwrap_err()
                .contains("checksum mismatch")
        );
    }
}
