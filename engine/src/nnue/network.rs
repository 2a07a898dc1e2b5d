//! The network: its float form as a trainer fits it, its quantised integer form as the
//! searcher evaluates it, and the file that carries the latter.
//!
//! Shape: binary inputs, one hidden layer of clipped ReLU units (values in `0..=1`), one output;
//! or, with no hidden layer, a linear model over the same inputs (the baseline a network must
//! beat). Quantisation as in Stockfish's NNUE and bullet's trainer: first-layer weights and
//! biases in units of `1/QA`, so that the clipped values run over `0..=QA`; output weights in
//! units of `1/QB`; the output in units of `1/(QA·QB)` of a logit, turned into evaluation units
//! by the file's `scale` with a fixed-point multiply. Everything after loading is integer
//! arithmetic, so a native and a wasm32 build give the same scores.
//!
//! A network may also read the level's hand-made evaluation as one dense input connected
//! straight to the output (its `base_weight`): the output is then that weight times the
//! hand-made score plus the network's learned correction, so that a correction of zero plays
//! exactly as the hand-made level does (docs/learning.md says why: generation 1's networks
//! learnt their material from too few positions).
//!
//! # File format (version 2, little-endian)
//!
//! ```text
//! magic "KNET", version u16, length u32 (of the whole file)
//! game: u8 length + UTF-8; feature set: u8 length + UTF-8
//! inputs u32, hidden u32, QA u16, QB u16 (64, or up to 8192 where the output weights allow), scale f32
//! base weight i32 (units of 1/65536; 0: no hand-made input) — absent in version 1 files
//! provenance: u32 length + UTF-8 (JSON text: data hash, config, seed)
//! hidden > 0: w1 inputs·hidden i16 (w1[i·hidden + h]), b1 hidden i32, w2 hidden i16, b2 i32
//! hidden = 0: w inputs i32, b i32 (units of 1/(QA·QB))
//! checksum u64: FNV-1a of every byte before it
//! ```

use core::fmt;

use arrayvec::ArrayVec;

/// First-layer quantisation: a clipped hidden value of 1 is `QA`.
pub const QA: i32 = 255;
/// Output-layer quantisation: an output weight of 1 is `QB` or, in a network whose output
/// weights are all small enough, a larger power of two up to `MAX_QB` (the file says which).
pub const QB: i32 = 64;
/// The finest output-layer unit: a correction learnt on top of the hand-made score has output
/// weights near 0.01 logit, below `1/QB` (docs/learning.md measured what rounding them cost).
pub const MAX_QB: i32 = 8192;
/// The most hidden units a network file may have: with `i16` output weights and clipped values
/// up to `QA`, 256 units keep the output sum inside an `i32`.
pub const MAX_HIDDEN: usize = 256;
/// The file's first bytes.
const MAGIC: &[u8; 4] = b"KNET";
/// The file format this code writes; it reads this one and [`OLD_VERSION`].
const VERSION: u16 = 2;
/// The format before the hand-made input: read as a network without one.
const OLD_VERSION: u16 = 1;
/// A base weight of 1 (the hand-made score taken as it is), in fixed point.
pub const BASE_ONE: i32 = 1 << 16;
/// The largest base weight accepted: a network may amplify the hand-made score, within reason,
/// and the product with any evaluation stays inside an `i64`.
const MAX_BASE: f32 = 64.0;
/// Where the file's length stands: after the magic and the version.
const LENGTH_AT: usize = 6;
/// Fractional bits of the fixed-point factor that turns the output into evaluation units.
const SCALE_BITS: u32 = 32;
/// The largest magnitude of a 32-bit weight or bias (the linear model's, the first-layer
/// biases): [`super::MAX_ACTIVE`] of them and a bias add up inside an `i32`.
const WIDE: i32 = i32::MAX / 64;
/// The largest `scale` accepted: far beyond any game's units per logit, and small enough that
/// the fixed-point product stays inside an `i64`.
const MAX_SCALE: f32 = 100_000.0;

/// The float network a trainer fits and writes out with [`Network::quantise`].
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub inputs: usize,
    /// Hidden units; 0 for a linear model.
    pub hidden: usize,
    /// `inputs * hidden` first-layer weights, `w1[i * hidden + h]` (empty for a linear model).
    pub w1: Vec<f32>,
    /// `hidden` first-layer biases.
    pub b1: Vec<f32>,
    /// `hidden` output weights, or `inputs` weights of the linear model.
    pub w2: Vec<f32>,
    pub b2: f32,
    /// Evaluation units per logit.
    pub scale: f32,
    /// The weight of the hand-made score (in evaluation units) in the output, also in
    /// evaluation units; 0: the network does not read it.
    pub base_weight: f32,
}

impl FloatNetwork {
    /// The output logit for the active inputs `active` (each below `inputs`), from the view of
    /// the side that moves first; the hidden units are clipped to `0..=1`.
    #[must_use]
    pub fn forward(&self, active: &[u16]) -> f32 {
        let active = active.iter().map(|&i| usize::from(i));
        if self.hidden == 0 {
            return self.b2 + active.map(|i| self.w2[i]).sum::<f32>();
        }
        let mut values = self.b1.clone();
        for i in active {
            let row = &self.w1[i * self.hidden..(i + 1) * self.hidden];
            values.iter_mut().zip(row).for_each(|(v, w)| *v += w);
        }
        self.b2
            + values
                .iter()
                .zip(&self.w2)
                .map(|(v, w)| v.clamp(0.0, 1.0) * w)
                .sum::<f32>()
    }

    /// [`Self::forward`] plus the hand-made score `hand` (evaluation units) at its weight, as a
    /// logit.
    #[must_use]
    pub fn forward_with_base(&self, active: &[u16], hand: f32) -> f32 {
        self.forward(active) + self.base_weight * hand / self.scale
    }
}

/// Why a network could not be built or read: one line, naming what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// Not a network file at all.
    NotANetwork,
    /// A network file of a version this build does not read.
    Version(u16),
    /// The file ends before its contents do.
    Truncated,
    /// The checksum does not match the contents: the file was edited or corrupted.
    Checksum,
    /// The shape or the parameters do not make a network this engine can evaluate.
    Shape(String),
    /// The network was trained for another game or feature set than the one asked for.
    Mismatch(String),
}

/// The messages name no file: the caller says which one (`network file net.knet: truncated`).
impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotANetwork => f.write_str("not a koom network file (no KNET header)"),
            Self::Version(v) => write!(
                f,
                "format version {v} is not supported (this koom reads versions {OLD_VERSION} and {VERSION})"
            ),
            Self::Truncated => f.write_str("truncated: the file ends before its contents do"),
            Self::Checksum => f.write_str("checksum does not match: the file is edited or corrupt"),
            Self::Shape(why) => write!(f, "bad shape: {why}"),
            Self::Mismatch(why) => write!(f, "does not fit: {why}"),
        }
    }
}

impl std::error::Error for NetworkError {}

/// The quantised network: what the searcher evaluates and what a network file holds.
#[derive(Clone, PartialEq)]
pub struct Network {
    game: String,
    feature_set: String,
    provenance: String,
    inputs: usize,
    hidden: usize,
    scale: f32,
    /// The output layer's unit: `QB`, or a finer power of two up to [`MAX_QB`].
    qb: i32,
    /// `scale / (QA·qb)` in fixed point with [`SCALE_BITS`] fractional bits.
    factor: i64,
    /// One row of `columns()` values per input: the first-layer weights (units of `1/QA`), or
    /// the linear model's weights (units of `1/(QA·QB)`), widened to `i32` once at load.
    rows: Vec<i32>,
    /// The accumulator's starting values: the first-layer biases, or the linear model's bias.
    bias: Vec<i32>,
    /// Output weights (units of `1/qb`); empty for a linear model.
    w2: Vec<i32>,
    /// Output bias, in units of `1/(QA·qb)`; 0 for a linear model (its bias is in `bias`).
    b2: i32,
    /// The hand-made score's weight, in units of `1/BASE_ONE`; 0: not read.
    base_weight: i32,
}

/// The running sums of a network's first layer for one position: the biases plus the rows of
/// the active inputs. A move changes a few inputs, so a child's accumulator is its parent's
/// plus the rows it gains minus those it loses ([`Network::update`]). Fixed capacity: copying
/// one (copy-make) allocates nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Accumulator {
    values: ArrayVec<i32, MAX_HIDDEN>,
}

impl Network {
    /// The quantised form of `float`, for `game` and its `feature_set`, carrying `provenance`
    /// (JSON text: data hash, config, seed). Refuses a float network whose vectors do not match
    /// its shape, whose weights would not fit the integer types, or whose scale is not positive.
    ///
    /// # Errors
    /// [`NetworkError::Shape`], saying which part is wrong.
    pub fn quantise(
        float: &FloatNetwork,
        game: &str,
        feature_set: &str,
        provenance: &str,
    ) -> Result<Self, NetworkError> {
        let (inputs, hidden) = (float.inputs, float.hidden);
        check_shape(inputs, hidden)?;
        let lengths = if hidden == 0 {
            [("w1", float.w1.len(), 0), ("b1", float.b1.len(), 0)]
        } else {
            [
                ("w1", float.w1.len(), inputs * hidden),
                ("b1", float.b1.len(), hidden),
            ]
        };
        let w2_len = if hidden == 0 { inputs } else { hidden };
        for (name, got, want) in lengths.into_iter().chain([("w2", float.w2.len(), w2_len)]) {
            if got != want {
                return Err(NetworkError::Shape(format!(
                    "{name} holds {got} values, the shape {inputs}x{hidden} needs {want}"
                )));
            }
        }
        let largest = float
            .w2
            .iter()
            .fold(0.0f64, |m, &w| m.max(f64::from(w).abs()));
        let qb = if hidden == 0 {
            QB
        } else {
            let mut qb = QB;
            while qb < MAX_QB && largest * f64::from(2 * qb) <= f64::from(i16::MAX) {
                qb *= 2;
            }
            qb
        };
        let out_unit = f64::from(QA * qb);
        let (rows, bias, w2, b2) = if hidden == 0 {
            (
                quantised(&float.w2, out_unit, WIDE, "w2")?,
                quantised(&[float.b2], out_unit, WIDE, "b2")?,
                Vec::new(),
                0,
            )
        } else {
            let short = i32::from(i16::MAX);
            (
                quantised(&float.w1, f64::from(QA), short, "w1")?,
                quantised(&float.b1, f64::from(QA), WIDE, "b1")?,
                quantised(&float.w2, f64::from(qb), short, "w2")?,
                quantised(&[float.b2], out_unit, i32::MAX, "b2")?[0],
            )
        };
        for (name, text, limit) in [
            ("game", game, usize::from(u8::MAX)),
            ("feature set", feature_set, usize::from(u8::MAX)),
            ("provenance", provenance, u32::MAX as usize),
        ] {
            if text.len() > limit {
                return Err(NetworkError::Shape(format!(
                    "the {name} is longer than {limit} bytes"
                )));
            }
        }
        Ok(Self {
            game: game.to_owned(),
            feature_set: feature_set.to_owned(),
            provenance: provenance.to_owned(),
            inputs,
            hidden,
            scale: float.scale,
            qb,
            factor: factor(float.scale, qb)?,
            rows,
            bias,
            w2,
            b2,
            base_weight: base_weight(float.base_weight)?,
        })
    }

    /// The game the network was trained for (a registry name, e.g. "thud").
    #[must_use]
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The feature set its inputs follow ([`super::Features::FEATURE_SET`]).
    #[must_use]
    pub fn feature_set(&self) -> &str {
        &self.feature_set
    }

    /// What it was trained from: JSON text written by the trainer.
    #[must_use]
    pub fn provenance(&self) -> &str {
        &self.provenance
    }

    #[must_use]
    pub const fn inputs(&self) -> usize {
        self.inputs
    }

    /// Hidden units; 0 for a linear model.
    #[must_use]
    pub const fn hidden(&self) -> usize {
        self.hidden
    }

    /// Evaluation units per logit.
    #[must_use]
    pub const fn scale(&self) -> f32 {
        self.scale
    }

    /// Whether the output adds the level's hand-made score ([`Self::with_base`]): then the
    /// evaluator must pass it.
    #[must_use]
    pub const fn has_base(&self) -> bool {
        self.base_weight != 0
    }

    /// The hand-made score's weight (1: taken as it is).
    #[must_use]
    pub fn base_weight(&self) -> f64 {
        f64::from(self.base_weight) / f64::from(BASE_ONE)
    }

    /// The network's output `net` (from [`Self::output`]) plus the hand-made score `hand` at
    /// its weight, both in evaluation units from the first side's view; integer arithmetic.
    #[must_use]
    pub fn with_base(&self, net: i32, hand: i32) -> i32 {
        let weighted = (i64::from(hand) * i64::from(self.base_weight) + i64::from(BASE_ONE / 2))
            >> BASE_ONE.trailing_zeros();
        (i64::from(net) + weighted).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// Whether the network reads the positions of `G`: its game, feature set and input count.
    ///
    /// # Errors
    /// [`NetworkError::Mismatch`], naming what differs.
    pub fn check_for<G: super::Features>(&self) -> Result<(), NetworkError> {
        if self.game != G::NAME {
            return Err(NetworkError::Mismatch(format!(
                "it was trained for {}, not {}",
                crate::quote(&self.game),
                G::NAME
            )));
        }
        if self.feature_set != G::FEATURE_SET || self.inputs != G::INPUTS {
            return Err(NetworkError::Mismatch(format!(
                "its feature set is {} with {} inputs; {} reads {} with {}",
                crate::quote(&self.feature_set),
                self.inputs,
                G::NAME,
                G::FEATURE_SET,
                G::INPUTS
            )));
        }
        Ok(())
    }

    /// The values an accumulator holds: one per hidden unit, or one for a linear model.
    const fn columns(&self) -> usize {
        if self.hidden == 0 { 1 } else { self.hidden }
    }

    fn row(&self, input: u16) -> &[i32] {
        let columns = self.columns();
        let start = usize::from(input) * columns;
        &self.rows[start..start + columns]
    }

    /// Sets `acc` to the position whose active inputs are `active` (each below the network's
    /// input count).
    pub fn refresh(&self, active: &[u16], acc: &mut Accumulator) {
        acc.values.clear();
        acc.values
            .try_extend_from_slice(&self.bias)
            .expect("a network has at most MAX_HIDDEN columns");
        for &i in active {
            add(&mut acc.values, self.row(i));
        }
    }

    /// Moves `acc` from one position to another that differs from it by the inputs `added`
    /// (off before, on after) and `removed` (on before, off after).
    pub fn update(&self, acc: &mut Accumulator, added: &[u16], removed: &[u16]) {
        for &i in added {
            add(&mut acc.values, self.row(i));
        }
        for &i in removed {
            acc.values
                .iter_mut()
                .zip(self.row(i))
                .for_each(|(v, w)| *v -= w);
        }
    }

    /// Moves `acc` from the position whose active inputs are `before` to the one whose active
    /// inputs are `after` (both increasing): the rows of the inputs in one list only, found
    /// by one merge of the two, without a buffer.
    pub fn update_between(&self, acc: &mut Accumulator, before: &[u16], after: &[u16]) {
        let (mut i, mut j) = (0, 0);
        while i < before.len() || j < after.len() {
            match (before.get(i), after.get(j)) {
                (Some(b), Some(a)) if b == a => (i, j) = (i + 1, j + 1),
                (Some(&b), Some(&a)) if b < a => {
                    self.update(acc, &[], &[b]);
                    i += 1;
                }
                (Some(&b), None) => {
                    self.update(acc, &[], &[b]);
                    i += 1;
                }
                (_, Some(&a)) => {
                    self.update(acc, &[a], &[]);
                    j += 1;
                }
                (None, None) => break,
            }
        }
    }

    /// The output for the position `acc` holds, in evaluation units (logit × scale) from the
    /// view of the side that moves first.
    #[must_use]
    pub fn output(&self, acc: &Accumulator) -> i32 {
        let raw = if self.hidden == 0 {
            i64::from(acc.values[0])
        } else {
            let sum: i32 = acc
                .values
                .iter()
                .zip(&self.w2)
                .map(|(&v, &w)| v.clamp(0, QA) * w)
                .sum();
            i64::from(sum) + i64::from(self.b2)
        };
        let units = (raw * self.factor + (1 << (SCALE_BITS - 1))) >> SCALE_BITS;
        units.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// The integer forward pass for the active inputs `active`: [`FloatNetwork::forward`] times
    /// `scale`, within the quantisation error. Recomputes the accumulator on the stack.
    #[must_use]
    pub fn evaluate(&self, active: &[u16]) -> i32 {
        let mut acc = Accumulator::default();
        self.refresh(active, &mut acc);
        self.output(&acc)
    }

    /// The network file's bytes (see the module documentation for the format).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.provenance.len() + 2 * self.rows.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        // The length, filled in below.
        out.extend_from_slice(&[0; 4]);
        for text in [&self.game, &self.feature_set] {
            out.push(text.len() as u8);
            out.extend_from_slice(text.as_bytes());
        }
        out.extend_from_slice(&(self.inputs as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&(QA as u16).to_le_bytes());
        out.extend_from_slice(&(self.qb as u16).to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        out.extend_from_slice(&self.base_weight.to_le_bytes());
        out.extend_from_slice(&(self.provenance.len() as u32).to_le_bytes());
        out.extend_from_slice(self.provenance.as_bytes());
        if self.hidden == 0 {
            self.rows
                .iter()
                .chain(&self.bias)
                .for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        } else {
            // The weights were range-checked to i16 when quantised or read.
            let short =
                |out: &mut Vec<u8>, v: &i32| out.extend_from_slice(&(*v as i16).to_le_bytes());
            self.rows.iter().for_each(|v| short(&mut out, v));
            self.bias
                .iter()
                .for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
            self.w2.iter().for_each(|v| short(&mut out, v));
            out.extend_from_slice(&self.b2.to_le_bytes());
        }
        let length = (out.len() + 8) as u32;
        out[LENGTH_AT..LENGTH_AT + 4].copy_from_slice(&length.to_le_bytes());
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a network file, refusing one that is not one, of another version, truncated,
    /// edited (its checksum) or of a shape this engine cannot evaluate.
    ///
    /// # Errors
    /// A [`NetworkError`] whose `Display` is one line.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, NetworkError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(NetworkError::NotANetwork);
        }
        let mut r = Reader {
            bytes,
            at: MAGIC.len(),
        };
        let version = u16::from_le_bytes(r.array()?);
        if version != VERSION && version != OLD_VERSION {
            return Err(NetworkError::Version(version));
        }
        // The length and the checksum first: a truncated or edited file is told as such, not
        // as the nonsense its damaged fields would read as.
        let length = u32::from_le_bytes(r.array()?) as usize;
        if bytes.len() < length {
            return Err(NetworkError::Truncated);
        }
        if bytes.len() > length || length < r.at + 8 {
            return Err(NetworkError::Checksum);
        }
        let body = length - 8;
        let stored = u64::from_le_bytes(
            bytes[body..]
                .try_into()
                .map_err(|_| NetworkError::Truncated)?,
        );
        if checksum(&bytes[..body]) != stored {
            return Err(NetworkError::Checksum);
        }
        let r = &mut Reader {
            bytes: &bytes[..body],
            at: r.at,
        };
        let game = r.text(1)?;
        let feature_set = r.text(1)?;
        let inputs = u32::from_le_bytes(r.array()?) as usize;
        let hidden = u32::from_le_bytes(r.array()?) as usize;
        let qa = u16::from_le_bytes(r.array()?);
        let qb = u16::from_le_bytes(r.array()?);
        let qb = i32::from(qb);
        if i32::from(qa) != QA || !(QB..=MAX_QB).contains(&qb) || qb.count_ones() != 1 {
            return Err(NetworkError::Shape(format!(
                "quantisation {qa}/{qb}, this koom evaluates {QA} over a power of two from {QB} to {MAX_QB}"
            )));
        }
        let scale = f32::from_le_bytes(r.array()?);
        let base_weight = if version == OLD_VERSION {
            0
        } else {
            i32::from_le_bytes(r.array()?)
        };
        if f64::from(base_weight.unsigned_abs()) > f64::from(MAX_BASE) * f64::from(BASE_ONE) {
            return Err(NetworkError::Shape(format!(
                "base weight {} beyond ±{MAX_BASE}",
                f64::from(base_weight) / f64::from(BASE_ONE)
            )));
        }
        let provenance = r.text(4)?;
        check_shape(inputs, hidden)?;
        let (rows, bias, w2, b2) = if hidden == 0 {
            (r.ints(inputs)?, r.ints(1)?, Vec::new(), 0)
        } else {
            (
                r.shorts(inputs * hidden)?,
                r.ints(hidden)?,
                r.shorts(hidden)?,
                r.ints(1)?[0],
            )
        };
        if rows.iter().chain(&bias).any(|v| v.abs() > WIDE) {
            return Err(NetworkError::Shape(format!(
                "a 32-bit weight or bias beyond ±{WIDE}"
            )));
        }
        if r.at != r.bytes.len() {
            return Err(NetworkError::Shape(format!(
                "{} bytes beyond what its shape {inputs}x{hidden} holds",
                r.bytes.len() - r.at
            )));
        }
        Ok(Self {
            game,
            feature_set,
            provenance,
            inputs,
            hidden,
            scale,
            qb,
            factor: factor(scale, qb)?,
            rows,
            bias,
            w2,
            b2,
            base_weight,
        })
    }
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("game", &self.game)
            .field("feature_set", &self.feature_set)
            .field("inputs", &self.inputs)
            .field("hidden", &self.hidden)
            .field("scale", &self.scale)
            .field("base_weight", &self.base_weight())
            .finish_non_exhaustive()
    }
}

/// `row` added into `values`, element by element.
fn add(values: &mut [i32], row: &[i32]) {
    values.iter_mut().zip(row).for_each(|(v, w)| *v += w);
}

/// The shapes this engine evaluates: some inputs, each indexable by a `u16`, and at most
/// [`MAX_HIDDEN`] hidden units.
fn check_shape(inputs: usize, hidden: usize) -> Result<(), NetworkError> {
    if inputs == 0 || inputs > usize::from(u16::MAX) + 1 {
        return Err(NetworkError::Shape(format!(
            "{inputs} inputs (1 to 65536 are evaluated)"
        )));
    }
    if hidden > MAX_HIDDEN {
        return Err(NetworkError::Shape(format!(
            "{hidden} hidden units (at most {MAX_HIDDEN} are evaluated)"
        )));
    }
    Ok(())
}

/// `values` in units of `1/unit`, rounded, each within `±limit`.
fn quantised(values: &[f32], unit: f64, limit: i32, name: &str) -> Result<Vec<i32>, NetworkError> {
    values
        .iter()
        .map(|&v| {
            let q = (f64::from(v) * unit).round();
            if q.is_finite() && q.abs() <= f64::from(limit) {
                Ok(q as i32)
            } else {
                Err(NetworkError::Shape(format!(
                    "{name} holds {v}, beyond the ±{} its quantisation holds",
                    f64::from(limit) / unit
                )))
            }
        })
        .collect()
}

/// The fixed-point factor of `scale` for output unit `qb`, refused unless `scale` is positive
/// and at most [`MAX_SCALE`].
fn factor(scale: f32, qb: i32) -> Result<i64, NetworkError> {
    if !(scale > 0.0 && scale <= MAX_SCALE) {
        return Err(NetworkError::Shape(format!(
            "scale {scale} (evaluation units per logit must be above 0 and at most {MAX_SCALE})"
        )));
    }
    Ok((f64::from(scale) * (1u64 << SCALE_BITS) as f64 / f64::from(QA * qb)).round() as i64)
}

/// The fixed-point base weight of `weight`, refused beyond ±[`MAX_BASE`] or not finite.
fn base_weight(weight: f32) -> Result<i32, NetworkError> {
    if !(weight.is_finite() && weight.abs() <= MAX_BASE) {
        return Err(NetworkError::Shape(format!(
            "base weight {weight} (the hand-made score's weight must be within ±{MAX_BASE})"
        )));
    }
    Ok((f64::from(weight) * f64::from(BASE_ONE)).round() as i32)
}

/// FNV-1a (64 bits) of `bytes`: the checksum of network files, cheap to compute anywhere the
/// engine runs and enough to tell a damaged or hand-edited file.
#[must_use]
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Reads a file's fields in order; running out of bytes is [`NetworkError::Truncated`].
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], NetworkError> {
        let end = self.at.checked_add(n).ok_or(NetworkError::Truncated)?;
        let slice = self
            .bytes
            .get(self.at..end)
            .ok_or(NetworkError::Truncated)?;
        self.at = end;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], NetworkError> {
        self.take(N)?
            .try_into()
            .map_err(|_| NetworkError::Truncated)
    }

    /// UTF-8 text after its length in `width` bytes (1 or 4).
    fn text(&mut self, width: usize) -> Result<String, NetworkError> {
        let len = if width == 1 {
            usize::from(self.array::<1>()?[0])
        } else {
            u32::from_le_bytes(self.array()?) as usize
        };
        let bytes = self.take(len)?;
        String::from_utf8(bytes.to_vec())
            .map_err(|_| NetworkError::Shape("a text field is not UTF-8".into()))
    }

    fn shorts(&mut self, n: usize) -> Result<Vec<i32>, NetworkError> {
        let bytes = self.take(n.checked_mul(2).ok_or(NetworkError::Truncated)?)?;
        Ok(bytes
            .chunks_exact(2)
            .map(|c| i32::from(i16::from_le_bytes([c[0], c[1]])))
            .collect())
    }

    fn ints(&mut self, n: usize) -> Result<Vec<i32>, NetworkError> {
        let bytes = self.take(n.checked_mul(4).ok_or(NetworkError::Truncated)?)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}
