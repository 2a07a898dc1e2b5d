//! Printing that never panics. `print!` and `eprint!` panic when the stream is closed or full
//! (`koom gate … | head -1`, `2>/dev/full`), which would replace the command's own exit code
//! (a gate's verdict, a run's 130) with 101. These macros drop what cannot be written instead:
//! the output files and the exit code still say what happened.

/// Set by `--quiet`: nothing but errors is printed.
pub static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether `--quiet` was given.
pub fn quiet() -> bool {
    QUIET.load(std::sync::atomic::Ordering::Relaxed)
}

/// `print!` that drops the text when standard output cannot take it, or under `--quiet`.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if !crate::output::quiet() {
            let _ = write!(std::io::stdout(), $($arg)*);
        }
    }};
}

/// `println!` with [`out!`]'s handling of a closed or full stream and of `--quiet`.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if !crate::output::quiet() {
            let _ = writeln!(std::io::stdout(), $($arg)*);
        }
    }};
}

/// `eprintln!` with [`out!`]'s handling of a closed or full stream.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// [`errln!`] for notes (where results went, what is resumed), silent under `--quiet`.
macro_rules! note {
    ($($arg:tt)*) => {{
        if !crate::output::quiet() {
            errln!($($arg)*);
        }
    }};
}
