//! Position sets: the training data of a learned evaluation (issue 49), made from game records
//! by `koom positions` ([`sample`]) and read by `koom train`.
//!
//! A position set is a binary file, little-endian throughout, so that a few million positions
//! load in a blink and take a few bytes each rather than a line of text:
//!
//! ```text
//! magic "KOOMPOS\0", version u32
//! game, feature set (u16 length + UTF-8 each), inputs u32
//! source records hash u64 (FNV-1a over the records files' bytes, in the order given)
//! sampling: skip u32, per_game u32, scored_only u8, margin_scale f64; seed u64
//! count u64
//! count entries: group u64, result f32, has_score u8, score i32, has_hand u8, hand i32,
//!   n u16, n features u16
//! checksum u64 (FNV-1a over every byte before it)
//! ```
//!
//! Version 1 files, whose entries have no hand-made score (`has_hand`, `hand`), still read:
//! their positions train every model but the ones that read the hand-made score.
//!
//! An entry's `group` is the seed of the game it came from: the games of one seed group share
//! it, so a trainer that holds out whole groups never tests on a copy of a game it learnt from.
//! Its result and score are from the view of the side that moves first (Thud's dwarfs,
//! Hnefatafl's attackers: seat 0 in both), which is the view of a network's output. The reader
//! checks everything a trainer relies on — the checksum, the game, the feature set and its
//! width, features increasing and in range, results in [0, 1] — so that a damaged or mismatched
//! file is refused in one line rather than trained on.

pub mod sample;

use std::path::Path;

use crate::InputError;
use crate::checksum::fnv1a64;

/// Why bytes are not a position set this build reads: one variant a case, so that a caller
/// (and the tests) can tell a damaged file from an old one.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SetError {
    /// The bytes do not start with [`MAGIC`].
    #[error("not a koom position set (made by `koom positions`)")]
    NotASet,
    /// Too short to hold its checksum.
    #[error("truncated")]
    Truncated,
    /// The checked body ends before the header or an entry does.
    #[error("truncated: it ends inside an entry or its header")]
    EndsInside,
    /// Written by another version of the format.
    #[error(
        "format version {0}, this koom reads versions {OLD_VERSION} and {VERSION}: make it again with `koom positions`"
    )]
    Version(u32),
    /// The stored checksum is not that of the bytes before it.
    #[error(
        "checksum mismatch (the file says {stored:016x}, its contents give {computed:016x}): it was truncated, damaged or edited"
    )]
    Checksum { stored: u64, computed: u64 },
    /// A flag byte other than 0 or 1.
    #[error("a flag byte is {0}, not 0 or 1")]
    Flag(u8),
    /// The game or feature-set name is not UTF-8.
    #[error("a name is not UTF-8")]
    NotUtf8,
    /// An entry that breaks what every entry must satisfy.
    #[error("entry {index}: {source}")]
    Entry { index: u64, source: EntryError },
    /// Bytes left over after the entries the header counts.
    #[error("{extra} bytes after its {count} entries")]
    Trailing { extra: usize, count: u64 },
}

/// Why a position cannot be stored in a set.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EntryError {
    /// A result outside [0, 1].
    #[error("result {0} is not in [0, 1]")]
    Result(f32),
    /// A feature index at or above the set's inputs.
    #[error("feature {feature} is not below the {inputs} inputs")]
    Feature { feature: u16, inputs: u32 },
    /// Features not strictly increasing.
    #[error("its features are not increasing")]
    NotIncreasing,
}

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"KOOMPOS\0";
/// The format version this build writes and reads.
pub const VERSION: u32 = 2;
/// The version before the hand-made score: read, with no hand-made scores.
const OLD_VERSION: u32 = 1;

/// How the positions were chosen and labelled (stored in the header, so that a set says how it
/// was made).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Sampling {
    /// Positions before this ply of a game are left out.
    pub skip: u32,
    /// At most this many positions a game, drawn at random (seeded) among the eligible ones.
    pub per_game: u32,
    /// Only positions whose move has a searched score are eligible.
    pub scored_only: bool,
    /// Games with points (Thud): the result is `sigmoid(margin / margin_scale)`.
    pub margin_scale: f64,
}

/// What a set is about and where it came from.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Header {
    pub game: String,
    pub feature_set: String,
    /// The number of inputs of the feature set: every feature is below it.
    pub inputs: u32,
    /// FNV-1a over the bytes of the records files the set was made from.
    pub records_hash: u64,
    pub sampling: Sampling,
    pub seed: u64,
}

/// One position, borrowed from its set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Position<'a> {
    /// The seed of the game (and so of the seed group) it comes from.
    pub group: u64,
    /// The first side's result, in [0, 1].
    pub result: f32,
    /// The searched score of the move played here, from the first side's view, in the
    /// searcher's units; `None` where the move was not searched.
    pub score: Option<i32>,
    /// The top level's hand-made score of the position, from the first side's view
    /// (`engine::nnue::Features::hand_score`); `None` in a version 1 set.
    pub hand: Option<i32>,
    /// The active inputs, increasing.
    pub features: &'a [u16],
}

/// A position set in memory: the header and its entries, features stored flat.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionSet {
    pub header: Header,
    groups: Vec<u64>,
    results: Vec<f32>,
    scores: Vec<Option<i32>>,
    hands: Vec<Option<i32>>,
    /// `offsets[i]..offsets[i + 1]` are entry `i`'s features.
    offsets: Vec<usize>,
    features: Vec<u16>,
}

impl PositionSet {
    /// An empty set under `header`.
    #[must_use]
    pub fn new(header: Header) -> Self {
        Self {
            header,
            groups: Vec::new(),
            results: Vec::new(),
            scores: Vec::new(),
            hands: Vec::new(),
            offsets: vec![0],
            features: Vec::new(),
        }
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.results.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Entry `i` (`i < len()`).
    #[must_use]
    pub fn get(&self, i: usize) -> Position<'_> {
        Position {
            group: self.groups[i],
            result: self.results[i],
            score: self.scores[i],
            hand: self.hands[i],
            features: &self.features[self.offsets[i]..self.offsets[i + 1]],
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = Position<'_>> {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Adds a position, checked as the reader checks it.
    pub fn push(&mut self, position: Position<'_>) -> Result<(), EntryError> {
        check_entry(&self.header, &position)?;
        self.groups.push(position.group);
        self.results.push(position.result);
        self.scores.push(position.score);
        self.hands.push(position.hand);
        self.features.extend_from_slice(position.features);
        self.offsets.push(self.features.len());
        Ok(())
    }

    /// Adds every entry of `other` (a set of the same feature set, checked when read).
    pub fn append(&mut self, other: &Self) -> Result<(), EntryError> {
        other.iter().try_for_each(|p| self.push(p))
    }

    /// The file's bytes, checksum last.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let h = &self.header;
        let mut out = Vec::with_capacity(64 + self.len() * 20 + self.features.len() * 2);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        put_text(&mut out, &h.game);
        put_text(&mut out, &h.feature_set);
        out.extend_from_slice(&h.inputs.to_le_bytes());
        out.extend_from_slice(&h.records_hash.to_le_bytes());
        out.extend_from_slice(&h.sampling.skip.to_le_bytes());
        out.extend_from_slice(&h.sampling.per_game.to_le_bytes());
        out.push(u8::from(h.sampling.scored_only));
        out.extend_from_slice(&h.sampling.margin_scale.to_le_bytes());
        out.extend_from_slice(&h.seed.to_le_bytes());
        out.extend_from_slice(&(self.len() as u64).to_le_bytes());
        for p in self.iter() {
            out.extend_from_slice(&p.group.to_le_bytes());
            out.extend_from_slice(&p.result.to_le_bytes());
            out.push(u8::from(p.score.is_some()));
            out.extend_from_slice(&p.score.unwrap_or(0).to_le_bytes());
            out.push(u8::from(p.hand.is_some()));
            out.extend_from_slice(&p.hand.unwrap_or(0).to_le_bytes());
            // `check_entry` bounds the count by the inputs, which fit a u16.
            out.extend_from_slice(&(p.features.len() as u16).to_le_bytes());
            for f in p.features {
                out.extend_from_slice(&f.to_le_bytes());
            }
        }
        let checksum = fnv1a64(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads a set's bytes; the error says in a few words what does not hold.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SetError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(SetError::NotASet);
        }
        let Some(body_len) = bytes.len().checked_sub(8) else {
            return Err(SetError::Truncated);
        };
        let mut r = Reader {
            bytes: &bytes[..body_len],
            at: MAGIC.len(),
        };
        let version = r.u32()?;
        if version != VERSION && version != OLD_VERSION {
            return Err(SetError::Version(version));
        }
        let stored = u64::from_le_bytes(
            bytes[body_len..]
                .try_into()
                .map_err(|_| SetError::Truncated)?,
        );
        let computed = fnv1a64(&bytes[..body_len]);
        if stored != computed {
            return Err(SetError::Checksum { stored, computed });
        }
        let header = Header {
            game: r.text()?,
            feature_set: r.text()?,
            inputs: r.u32()?,
            records_hash: r.u64()?,
            sampling: Sampling {
                skip: r.u32()?,
                per_game: r.u32()?,
                scored_only: r.flag()?,
                margin_scale: f64::from_le_bytes(r.array()?),
            },
            seed: r.u64()?,
        };
        let count = r.u64()?;
        let mut set = Self::new(header);
        let mut features = Vec::new();
        for i in 0..count {
            let group = r.u64()?;
            let result = f32::from_le_bytes(r.array()?);
            let has_score = r.flag()?;
            let score = i32::from_le_bytes(r.array()?);
            let hand = if version == OLD_VERSION {
                None
            } else {
                let has_hand = r.flag()?;
                let hand = i32::from_le_bytes(r.array()?);
                has_hand.then_some(hand)
            };
            let n = u16::from_le_bytes(r.array()?);
            features.clear();
            for _ in 0..n {
                features.push(u16::from_le_bytes(r.array()?));
            }
            set.push(Position {
                group,
                result,
                score: has_score.then_some(score),
                hand,
                features: &features,
            })
            .map_err(|source| SetError::Entry { index: i, source })?;
        }
        if r.at != r.bytes.len() {
            return Err(SetError::Trailing {
                extra: r.bytes.len() - r.at,
                count,
            });
        }
        Ok(set)
    }

    /// FNV-1a over the file's bytes: the data hash a network's provenance names.
    #[must_use]
    pub fn hash(&self) -> u64 {
        fnv1a64(&self.to_bytes())
    }

    /// Writes the set to `path` (under a temporary name, then renamed).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        crate::atomic::write_atomic(path, &self.to_bytes())
    }

    /// Reads the set at `path` and checks that it is of `game`'s feature set `feature_set` with
    /// `inputs` inputs; the error is one line naming the file.
    pub fn read(
        path: &Path,
        game: &str,
        feature_set: &str,
        inputs: usize,
    ) -> Result<Self, InputError> {
        let fail = |why: String| InputError::file("position set", path, why);
        let bytes = std::fs::read(path).map_err(|e| fail(format!("cannot read it: {e}")))?;
        let set = Self::from_bytes(&bytes).map_err(|e| fail(e.to_string()))?;
        let h = &set.header;
        if h.game != game {
            return Err(fail(format!(
                "it holds {} positions, not {game}",
                engine::quote(&h.game)
            )));
        }
        if h.feature_set != feature_set || h.inputs as usize != inputs {
            return Err(fail(format!(
                "its feature set is {} with {} inputs, this koom's {game} uses {} with {inputs}: make it again with `koom positions`",
                engine::quote(&h.feature_set),
                h.inputs,
                engine::quote(feature_set)
            )));
        }
        Ok(set)
    }
}

/// What every entry must satisfy.
fn check_entry(header: &Header, p: &Position<'_>) -> Result<(), EntryError> {
    if !(0.0..=1.0).contains(&p.result) {
        return Err(EntryError::Result(p.result));
    }
    if let Some(&last) = p.features.last()
        && u32::from(last) >= header.inputs
    {
        return Err(EntryError::Feature {
            feature: last,
            inputs: header.inputs,
        });
    }
    if p.features.windows(2).any(|w| w[0] >= w[1]) {
        return Err(EntryError::NotIncreasing);
    }
    Ok(())
}

fn put_text(out: &mut Vec<u8>, text: &str) {
    let bytes = &text.as_bytes()[..text.len().min(usize::from(u16::MAX))];
    out.extend_from_slice(&(bytes.len() as u16).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// A cursor over the checked body of a file.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], SetError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(SetError::EndsInside)?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], SetError> {
        let slice = self.take(N)?;
        let mut out = [0; N];
        out.copy_from_slice(slice);
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, SetError> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, SetError> {
        self.array().map(u64::from_le_bytes)
    }

    fn flag(&mut self) -> Result<bool, SetError> {
        match self.array::<1>()? {
            [0] => Ok(false),
            [1] => Ok(true),
            [b] => Err(SetError::Flag(b)),
        }
    }

    fn text(&mut self) -> Result<String, SetError> {
        let n = u16::from_le_bytes(self.array()?);
        let bytes = self.take(usize::from(n))?;
        String::from_utf8(bytes.to_vec()).map_err(|_| SetError::NotUtf8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set() -> PositionSet {
        let mut set = PositionSet::new(Header {
            game: "thud".into(),
            feature_set: "thud-board-v1".into(),
            inputs: 500,
            records_hash: 0x1234,
            sampling: Sampling {
                skip: 4,
                per_game: 8,
                scored_only: false,
                margin_scale: 10.0,
            },
            seed: 7,
        });
        for (group, result, score, hand, features) in [
            (3, 0.25, Some(-40), Some(-35), &[1u16, 7, 499][..]),
            (3, 0.25, None, Some(8), &[0, 2][..]),
            (9, 1.0, Some(12), None, &[5][..]),
        ] {
            set.push(Position {
                group,
                result,
                score,
                hand,
                features,
            })
            .unwrap();
        }
        set
    }

    #[test]
    fn a_set_reads_back_as_written() {
        let set = set();
        let back = PositionSet::from_bytes(&set.to_bytes()).unwrap();
        assert_eq!(back, set);
        assert_eq!(back.get(0).features, &[1, 7, 499]);
        assert_eq!(back.get(1).score, None);
        assert_eq!(back.get(2).group, 9);
        assert_eq!((back.get(0).hand, back.get(2).hand), (Some(-35), None));
    }

    /// A version 1 file (written here as that version wrote it: no hand-made scores) reads,
    /// its positions without a hand-made score.
    #[test]
    fn a_version_1_set_reads_without_hand_made_scores() {
        let set = set();
        let mut old = Vec::new();
        let bytes = set.to_bytes();
        // The header up to the count is the same in both versions.
        let header_len =
            bytes.len() - 8 - set.iter().map(|p| 24 + 2 * p.features.len()).sum::<usize>();
        old.extend_from_slice(&bytes[..header_len]);
        old[8..12].copy_from_slice(&OLD_VERSION.to_le_bytes());
        for p in set.iter() {
            old.extend_from_slice(&p.group.to_le_bytes());
            old.extend_from_slice(&p.result.to_le_bytes());
            old.push(u8::from(p.score.is_some()));
            old.extend_from_slice(&p.score.unwrap_or(0).to_le_bytes());
            old.extend_from_slice(&(p.features.len() as u16).to_le_bytes());
            p.features
                .iter()
                .for_each(|f| old.extend_from_slice(&f.to_le_bytes()));
        }
        let sum = fnv1a64(&old);
        old.extend_from_slice(&sum.to_le_bytes());
        let back = PositionSet::from_bytes(&old).unwrap();
        assert_eq!(back.len(), set.len());
        for (a, b) in back.iter().zip(set.iter()) {
            assert_eq!(a, Position { hand: None, ..b });
        }
    }

    #[test]
    fn truncated_edited_and_foreign_files_are_refused() {
        let bytes = set().to_bytes();
        for cut in [bytes.len() - 1, bytes.len() - 9, 20, 9] {
            let err = PositionSet::from_bytes(&bytes[..cut]).unwrap_err();
            assert!(
                matches!(
                    err,
                    SetError::Checksum { .. } | SetError::Truncated | SetError::EndsInside
                ),
                "{cut}: {err}"
            );
        }
        let mut edited = bytes.clone();
        let at = edited.len() - 20;
        edited[at] ^= 1;
        let err = PositionSet::from_bytes(&edited).unwrap_err();
        assert!(matches!(err, SetError::Checksum { .. }), "{err}");
        assert!(err.to_string().starts_with("checksum mismatch"), "{err}");
        let err = PositionSet::from_bytes(b"INDEX\tGROUP\n").unwrap_err();
        assert_eq!(err, SetError::NotASet);
        assert!(err.to_string().contains("not a koom position set"), "{err}");
        let mut newer = bytes;
        newer[8] = 3;
        let err = PositionSet::from_bytes(&newer).unwrap_err();
        assert_eq!(err, SetError::Version(3));
        assert!(err.to_string().starts_with("format version 3, "), "{err}");
    }

    #[test]
    fn bad_entries_are_refused_even_with_a_good_checksum() {
        let mut set = set();
        fn bad(features: &[u16], result: f32) -> Position<'_> {
            Position {
                group: 1,
                result,
                score: None,
                hand: None,
                features,
            }
        }
        assert_eq!(
            set.push(bad(&[500], 0.5)),
            Err(EntryError::Feature {
                feature: 500,
                inputs: 500
            })
        );
        assert_eq!(set.push(bad(&[3, 3], 0.5)), Err(EntryError::NotIncreasing));
        let out_of_range = set.push(bad(&[], 1.5)).unwrap_err();
        assert_eq!(out_of_range.to_string(), "result 1.5 is not in [0, 1]");
        // A writer that skipped the checks: the reader still refuses the entry.
        let mut bytes = set.to_bytes();
        bytes.truncate(bytes.len() - 8);
        let last_feature = bytes.len() - 2;
        bytes[last_feature..].copy_from_slice(&600u16.to_le_bytes());
        let checksum = fnv1a64(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        let err = PositionSet::from_bytes(&bytes).unwrap_err();
        assert!(matches!(err, SetError::Entry { index: 2, .. }), "{err}");
        assert!(err.to_string().starts_with("entry 2: feature 600"), "{err}");
    }

    #[test]
    fn reading_names_the_file_and_refuses_another_game_or_feature_set() {
        let dir = std::env::temp_dir().join(format!("koom-positions-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("set.kpos");
        set().write(&path).unwrap();
        let back = PositionSet::read(&path, "thud", "thud-board-v1", 500).unwrap();
        assert_eq!(back, set());
        let err = PositionSet::read(&path, "hnefatafl", "thud-board-v1", 500).unwrap_err();
        assert!(
            err.to_string()
                .contains("holds `thud` positions, not hnefatafl"),
            "{err}"
        );
        assert!(
            matches!(
                &err,
                InputError::File {
                    what: "position set",
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().starts_with("position set "), "{err}");
        let err = PositionSet::read(&path, "thud", "thud-board-v2", 500).unwrap_err();
        assert!(
            err.to_string().contains("feature set is `thud-board-v1`"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
