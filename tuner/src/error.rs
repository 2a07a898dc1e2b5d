//! The error of bad input: a config, a name, a file the user gave. The binary prints it as one
//! line and exits with status 2.

use std::fmt;

/// Something the user asked for cannot be done as given; the message says what and what is
/// accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);

impl InputError {
    pub fn new(message: impl fmt::Display) -> Self {
        Self(message.to_string())
    }
}

/// Shorthand for `Err(InputError::new(format!(...)))`.
#[macro_export]
macro_rules! bail_input {
    ($($arg:tt)*) => {
        return Err($crate::InputError::new(format!($($arg)*)).into())
    };
}
