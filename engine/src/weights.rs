//! Tunable weight sets: every evaluation weight of every level is data with a name, a default, a
//! range and a step, so that weight files can override it and the tuner can move it.

use core::fmt;

/// One tunable parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    pub name: &'static str,
    pub default: f64,
    pub min: f64,
    pub max: f64,
    /// The smallest change worth testing; the tuner derives its perturbation size from it.
    pub step: f64,
    pub doc: &'static str,
}

/// Whether two names are equal, in a `const` context.
#[must_use]
const fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The position of the parameter named `name` in `params`.
///
/// # Panics
/// When no parameter has that name (at compile time in a `static`).
#[must_use]
const fn index_of(params: &[Param], name: &str) -> usize {
    let mut j = 0;
    while j < params.len() {
        if same_name(params[j].name, name) {
            return j;
        }
        j += 1;
    }
    panic!("an override names no parameter of the table");
}

/// Replaces the defaults that `overrides` names in `table`.
///
/// # Panics
/// When an override names no parameter of `table` (at compile time in a `static`).
pub const fn override_defaults(table: &mut [Param], overrides: &[(&str, f64)]) {
    let mut i = 0;
    while i < overrides.len() {
        let j = index_of(table, overrides[i].0);
        table[j].default = overrides[i].1;
        i += 1;
    }
}

/// `params` with the defaults that `overrides` names replaced: a level's variant of a shared
/// table, built at compile time in a `static`.
///
/// # Panics
/// When `N` is not the number of `params`, or an override names no parameter (at compile
/// time in a `static`).
#[must_use]
pub const fn with_defaults<const N: usize>(
    params: &[Param],
    overrides: &[(&str, f64)],
) -> [Param; N] {
    assert!(N == params.len(), "a variant keeps every parameter");
    let mut table = [params[0]; N];
    let mut j = 0;
    while j < N {
        table[j] = params[j];
        j += 1;
    }
    override_defaults(&mut table, overrides);
    table
}

/// A named table of parameters, in a fixed order: weight vectors follow this order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightSet {
    pub name: &'static str,
    pub params: &'static [Param],
}

/// Why a set of named values does not fit a weight set.
#[derive(Clone, Debug, PartialEq)]
pub enum WeightError {
    Unknown {
        set: &'static str,
        name: String,
        accepted: String,
    },
    Missing {
        set: &'static str,
        name: &'static str,
    },
    Duplicate {
        name: String,
    },
    OutOfRange {
        name: &'static str,
        value: f64,
        min: f64,
        max: f64,
    },
}

impl fmt::Display for WeightError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unknown {
                set,
                name,
                accepted,
            } => {
                write!(
                    f,
                    "unknown parameter `{name}` for weight set `{set}` (accepted: {accepted})"
                )
            }
            Self::Missing { set, name } => {
                write!(f, "parameter `{name}` of weight set `{set}` is missing")
            }
            Self::Duplicate { name } => write!(f, "parameter `{name}` is given twice"),
            Self::OutOfRange {
                name,
                value,
                min,
                max,
            } => {
                write!(
                    f,
                    "parameter `{name}` = {value} is outside its range [{min}, {max}]"
                )
            }
        }
    }
}

impl core::error::Error for WeightError {}

impl WeightSet {
    /// The default values, in table order.
    #[must_use]
    pub fn defaults(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.default).collect()
    }

    /// `given` (in table order, empty for the defaults) completed with the defaults where it is
    /// short: what an agent plays with when a weights file or the tuner sets some values.
    #[must_use]
    pub fn completed(&self, given: &[f64]) -> Vec<f64> {
        self.params
            .iter()
            .enumerate()
            .map(|(i, p)| given.get(i).copied().unwrap_or(p.default))
            .collect()
    }

    #[must_use]
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|p| p.name == name)
    }

    /// The names, comma separated, for error messages.
    #[must_use]
    pub fn names(&self) -> String {
        self.params
            .iter()
            .map(|p| p.name)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Builds a full weight vector from named values: every parameter must be given exactly once,
    /// inside its range.
    pub fn from_named<'a>(
        &self,
        named: impl IntoIterator<Item = (&'a str, f64)>,
    ) -> Result<Vec<f64>, WeightError> {
        let mut values: Vec<Option<f64>> = vec![None; self.params.len()];
        for (name, value) in named {
            let i = self.index_of(name).ok_or_else(|| WeightError::Unknown {
                set: self.name,
                name: name.to_owned(),
                accepted: self.names(),
            })?;
            if values[i].replace(value).is_some() {
                return Err(WeightError::Duplicate {
                    name: name.to_owned(),
                });
            }
        }
        let values = self
            .params
            .iter()
            .zip(values)
            .map(|(p, v)| {
                v.ok_or(WeightError::Missing {
                    set: self.name,
                    name: p.name,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.check(&values)?;
        Ok(values)
    }

    /// Checks that every value lies in its parameter's range.
    pub fn check(&self, values: &[f64]) -> Result<(), WeightError> {
        for (p, &value) in self.params.iter().zip(values) {
            if !(p.min..=p.max).contains(&value) {
                return Err(WeightError::OutOfRange {
                    name: p.name,
                    value,
                    min: p.min,
                    max: p.max,
                });
            }
        }
        Ok(())
    }

    /// Clamps values into their ranges (the tuner's projection).
    pub fn clamp(&self, values: &mut [f64]) {
        for (p, v) in self.params.iter().zip(values) {
            *v = v.clamp(p.min, p.max);
        }
    }
}

/// Declares a weight set: a plain struct of `f64` fields the evaluation reads directly, and its
/// [`WeightSet`] table. The table and the struct come from the same lines, so they cannot drift.
///
/// ```
/// engine::weight_set! {
///     /// Example weights.
///     pub struct Example = "example" {
///         /// Worth of a piece.
///         piece: 1.0, 0.0..=4.0, 0.1;
///     }
/// }
/// assert_eq!(Example::default().piece, 1.0);
/// assert_eq!(Example::SET.params[0].max, 4.0);
/// ```
#[macro_export]
macro_rules! weight_set {
    (
        $(#[$meta:meta])*
        $vis:vis struct $ty:ident = $set:literal {
            $( $(#[doc = $doc:literal])* $field:ident : $default:expr, $min:literal ..= $max:literal, $step:expr; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        $vis struct $ty {
            $( $(#[doc = $doc])* pub $field: f64, )*
        }

        impl $ty {
            /// The parameter table of this weight set.
            pub const SET: $crate::weights::WeightSet = $crate::weights::WeightSet {
                name: $set,
                params: &[ $( $crate::weights::Param {
                    name: stringify!($field),
                    default: $default,
                    min: $min,
                    max: $max,
                    step: $step,
                    doc: concat!($($doc),*),
                }, )* ],
            };

            /// The weights from a vector in table order; missing trailing values take defaults.
            #[must_use]
            pub fn from_values(values: &[f64]) -> Self {
                let mut it = values.iter().copied();
                Self { $( $field: it.next().unwrap_or($default), )* }
            }

            /// The weights as a vector in table order.
            #[must_use]
            pub fn values(&self) -> Vec<f64> {
                vec![$( self.$field ),*]
            }
        }

        impl Default for $ty {
            fn default() -> Self {
                Self { $( $field: $default, )* }
            }
        }
    };
}

/// Checks a table's own consistency: defaults inside ranges, positive steps, unique names. Each
/// game's tests call this for each of its weight sets.
pub fn check_table(set: &WeightSet) -> Result<(), String> {
    for (i, p) in set.params.iter().enumerate() {
        if !(p.min < p.max && p.step > 0.0 && (p.min..=p.max).contains(&p.default)) {
            return Err(format!(
                "{}.{}: bad range, step or default",
                set.name, p.name
            ));
        }
        if set.params[..i].iter().any(|q| q.name == p.name) {
            return Err(format!("{}.{}: duplicate name", set.name, p.name));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::weight_set! {
        struct Demo = "demo" {
            /// a
            a: 1.0, 0.0..=2.0, 0.5;
            /// b
            b: -1.0, -3.0..=0.0, 0.25;
        }
    }

    #[test]
    fn table_and_struct_agree() {
        assert_eq!(Demo::SET.defaults(), Demo::default().values());
        assert_eq!(Demo::from_values(&[1.5, -2.0]), Demo { a: 1.5, b: -2.0 });
        check_table(&Demo::SET).unwrap();
    }

    #[test]
    fn named_values_are_checked() {
        assert_eq!(
            Demo::SET.from_named([("b", -2.0), ("a", 0.5)]).unwrap(),
            vec![0.5, -2.0]
        );
        assert!(matches!(
            Demo::SET.from_named([("a", 0.5)]),
            Err(WeightError::Missing { name: "b", .. })
        ));
        assert!(matches!(
            Demo::SET.from_named([("a", 0.5), ("b", -1.0), ("c", 1.0)]),
            Err(WeightError::Unknown { .. })
        ));
        assert!(matches!(
            Demo::SET.from_named([("a", 5.0), ("b", -1.0)]),
            Err(WeightError::OutOfRange { .. })
        ));
        assert!(matches!(
            Demo::SET.from_named([("a", 1.0), ("a", 1.0)]),
            Err(WeightError::Duplicate { .. })
        ));
    }
}
