//! Checksums over the contents of the files a run resumes from or merges: shards and
//! checkpoints. A bit flip that keeps the JSON valid (a digit of a count, a bound of `done`)
//! would otherwise be merged or resumed into a wrong summary without a word.
//!
//! The checksum is FNV-1a (64 bits) over the compact JSON of the file without its `checksum`
//! field. It guards against accidental damage (disks, copies, hand edits), not against
//! someone who recomputes it, which is all a result file needs; so no cryptographic crate.
//! serde_json keeps the fields in file order and writes floats so that they read back bit for
//! bit, so the compact text of a file read back is the text that was hashed.

use serde_json::Value;

/// The name of the field that holds the checksum.
const FIELD: &str = "checksum";

/// FNV-1a, 64 bits: a hash fixed by its definition, unlike `std`'s, so that a file's checksum
/// means the same to every build.
#[must_use]
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    fnv1a64_from(None, bytes)
}

/// FNV-1a continued over `bytes` from the hash of what came before (`None`: from the start), so
/// that several files hash as their concatenation without being joined in memory.
#[must_use]
pub fn fnv1a64_from(state: Option<u64>, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(state.unwrap_or(0xcbf2_9ce4_8422_2325), |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
}

fn of(value: &Value) -> String {
    format!("{:016x}", fnv1a64(value.to_string().as_bytes()))
}

/// The pretty JSON of `value` (an object) with its checksum appended as the last field.
pub fn seal(mut value: Value) -> serde_json::Result<Vec<u8>> {
    let checksum = of(&value);
    if let Value::Object(map) = &mut value {
        map.insert(FIELD.into(), Value::String(checksum));
    }
    let mut text = serde_json::to_vec_pretty(&value)?;
    text.push(b'\n');
    Ok(text)
}

/// Removes the checksum from a file's JSON and checks it against the rest; the error says why
/// the file cannot be trusted.
pub fn unseal(value: &mut Value) -> Result<(), String> {
    let Some(map) = value.as_object_mut() else {
        return Err("not a JSON object".into());
    };
    let found = match map.shift_remove(FIELD) {
        Some(Value::String(found)) => found,
        Some(_) => return Err("its checksum is not a string".into()),
        None => return Err("it has no checksum (written by an older koom, or edited)".into()),
    };
    let expected = of(value);
    if found != expected {
        return Err(format!(
            "checksum mismatch: the file says {found}, its contents give {expected}; it was damaged or edited"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_reference_vectors() {
        // From the FNV reference (isthe.com/chongo/tech/comp/fnv), 64-bit FNV-1a.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(
            fnv1a64_from(Some(fnv1a64(b"foo")), b"bar"),
            fnv1a64(b"foobar")
        );
    }

    #[test]
    fn a_sealed_file_unseals_and_any_change_is_caught() {
        let value = serde_json::json!({"games": 400, "done": [[0, 100]], "x": 0.1 + 0.2});
        let text = seal(value.clone()).unwrap();
        let mut back: Value = serde_json::from_slice(&text).unwrap();
        unseal(&mut back).unwrap();
        assert_eq!(back, value);
        let edited = String::from_utf8(text).unwrap().replace("400", "401");
        let mut edited: Value = serde_json::from_str(&edited).unwrap();
        assert!(
            unseal(&mut edited)
                .unwrap_err()
                .contains("checksum mismatch")
        );
        let mut bare = value;
        assert!(unseal(&mut bare).unwrap_err().contains("no checksum"));
    }
}
