//! Helpers shared by the end-to-end tests: a command builder for the `koom` binary, scratch
//! folders, and the readers of what a run writes.
//!
//! Each test binary that includes this module uses a different subset of it.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A `koom` command line under construction, as a test writes it:
/// `Koom::new("run").arg(config).out(&dir).quiet().ok()`.
#[derive(Debug)]
pub struct Koom {
    cmd: Command,
    sub: String,
    out: Option<PathBuf>,
}

/// The commands that write results into `--out` (a default folder when it is not given).
const WRITES_RESULTS: [&str; 4] = ["run", "gate", "ladder", "tune"];

impl Koom {
    /// `koom SUBCOMMAND`.
    pub fn new(sub: &str) -> Self {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_koom"));
        cmd.arg(sub);
        Self {
            cmd,
            sub: sub.to_owned(),
            out: None,
        }
    }

    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Self {
        self.cmd.arg(arg);
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.cmd.args(args);
        self
    }

    /// `--out DIR`.
    pub fn out(mut self, dir: impl AsRef<Path>) -> Self {
        let dir = dir.as_ref();
        self.cmd.arg("--out").arg(dir);
        self.out = Some(dir.to_path_buf());
        self
    }

    /// `--quiet`.
    pub fn quiet(self) -> Self {
        self.arg("--quiet")
    }

    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.cmd.env(key, value);
        self
    }

    /// Runs in `dir` instead of the test's working folder.
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.cmd.current_dir(dir);
        self
    }

    /// Runs the command to its end.
    pub fn output(mut self) -> Output {
        self.cmd.output().expect("koom runs")
    }

    /// Runs the command and asserts that it succeeded (showing its stderr when it did not).
    pub fn ok(self) -> Output {
        let shown = format!("{:?}", self.cmd);
        let o = self.output();
        assert!(o.status.success(), "{shown}: {}", stderr(&o));
        o
    }

    /// Starts the command with stdout discarded and stderr piped, for the Ctrl-C tests.
    pub fn spawn(mut self) -> Child {
        self.cmd
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("koom starts")
    }

    /// Bad input: exit status 2, one line on stderr holding `expected`, no panic, and no
    /// `summary.json` left behind in the output folder (a fresh scratch folder when the test
    /// gives none to a command that writes results).
    pub fn rejects(mut self, expected: &str) {
        if self.out.is_none() && WRITES_RESULTS.contains(&self.sub.as_str()) {
            self = self.out(scratch("rejected"));
        }
        let summary = self.out.as_ref().map(|dir| dir.join("summary.json"));
        let existed = summary.as_ref().is_some_and(|path| path.exists());
        let shown = format!("{:?}", self.cmd);
        let o = self.output();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{shown}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        assert!(
            err.contains(expected),
            "{shown}: expected `{expected}` in `{err}`"
        );
        assert!(!err.contains("panicked") && !err.contains("backtrace"));
        if let Some(path) = summary.filter(|_| !existed) {
            assert!(!path.exists(), "{shown} wrote {}", path.display());
        }
    }
}

/// Runs `koom` with plain string arguments.
pub fn koom(args: &[&str]) -> Output {
    Koom::new(args[0]).args(&args[1..]).output()
}

/// A fresh scratch folder, unique within the test run: the process id and a counter name it,
/// and `name` says which test made it.
pub fn scratch(name: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "koom-{}-{}-{}-{name}",
        env!("CARGO_CRATE_NAME"),
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` as `dir/name` and returns the path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&read(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `summary.json` written into `dir`.
pub fn summary(dir: &Path) -> serde_json::Value {
    json(&dir.join("summary.json"))
}

/// The summary without its `run` object: what must not depend on threads or timing.
pub fn reproducible(dir: &Path) -> serde_json::Value {
    let mut s = summary(dir);
    s.as_object_mut().unwrap().remove("run");
    s
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Sends Ctrl-C (SIGINT) to a running koom, as a user at the terminal would.
pub fn interrupt(child: &Child) {
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "SIGINT delivered");
}
