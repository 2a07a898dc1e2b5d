//! The error of bad input: a config, a name, a file the user gave. The binary prints it as one
//! line and exits with status 2.
//!
//! The cases a caller or a test tells apart (a file that cannot be read, a file that reads but
//! is wrong, a results file that does not check out) are variants with their parts as fields;
//! the rest is [`InputError::Invalid`], one message. No variant has a `source`: the binary prints
//! the error chain joined by ": ", and each message already says its cause once.

use std::fmt;
use std::path::PathBuf;

/// Something the user asked for cannot be done as given; the message says what and what is
/// accepted.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// A value, name, option or combination that cannot be used as given.
    #[error("{0}")]
    Invalid(String),
    /// A file the user named cannot be read; `what` is its kind (`config`, `weights file`), empty
    /// when the path says it.
    #[error("cannot read {}{}: {io}", kind(what), path.display())]
    Io {
        what: &'static str,
        path: PathBuf,
        io: std::io::Error,
    },
    /// A file that reads but is not what its kind must be.
    #[error("{what} {}: {reason}", path.display())]
    File {
        what: &'static str,
        path: PathBuf,
        reason: String,
    },
    /// A results file (shard, checkpoint) whose checksum or counts do not hold: left as it is.
    #[error("{} is corrupt ({reason}); it is not overwritten", path.display())]
    Corrupt { path: PathBuf, reason: String },
}

/// `what` followed by a space, or nothing.
fn kind(what: &str) -> String {
    if what.is_empty() {
        String::new()
    } else {
        format!("{what} ")
    }
}

impl InputError {
    pub fn new(message: impl fmt::Display) -> Self {
        Self::Invalid(message.to_string())
    }

    /// `path` of kind `what` cannot be read.
    pub fn io(what: &'static str, path: impl Into<PathBuf>, io: std::io::Error) -> Self {
        Self::Io {
            what,
            path: path.into(),
            io,
        }
    }

    /// `path` of kind `what` reads but is wrong, for `reason`.
    pub fn file(what: &'static str, path: impl Into<PathBuf>, reason: impl fmt::Display) -> Self {
        Self::File {
            what,
            path: path.into(),
            reason: reason.to_string(),
        }
    }
}

/// Shorthand for `Err(InputError::new(format!(...)))`.
#[macro_export]
macro_rules! bail_input {
    ($($arg:tt)*) => {
        return Err($crate::InputError::new(format!($($arg)*)).into())
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_case_reads_as_one_line_naming_the_file() {
        let missing = std::path::Path::new("/nonexistent/koom/a.toml");
        let io = std::fs::read(missing).unwrap_err();
        let shown = io.to_string();
        let e = InputError::io("config", missing, io);
        assert!(
            matches!(&e, InputError::Io { io, .. } if io.kind() == std::io::ErrorKind::NotFound)
        );
        assert_eq!(
            e.to_string(),
            format!("cannot read config /nonexistent/koom/a.toml: {shown}")
        );
        let bare = InputError::io("", missing, std::io::Error::other("x"));
        assert_eq!(bare.to_string(), "cannot read /nonexistent/koom/a.toml: x");
        assert_eq!(
            InputError::file("weights file", "w.toml", "unknown field").to_string(),
            "weights file w.toml: unknown field"
        );
        let corrupt = InputError::Corrupt {
            path: "c.json".into(),
            reason: "checksum mismatch".into(),
        };
        assert_eq!(
            corrupt.to_string(),
            "c.json is corrupt (checksum mismatch); it is not overwritten"
        );
        // No variant carries a source, so `{:#}` (the binary's chain) prints the line once.
        assert!(std::error::Error::source(&e).is_none());
    }
}
