//! Helpers shared by the end-to-end tests.

use std::path::PathBuf;
use std::process::{Child, Command, Output};

/// Runs the `koom` binary built for the tests.
pub fn koom(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_koom"))
        .args(args)
        .output()
        .expect("koom runs")
}

/// A fresh scratch folder per test (named after the test file and the test).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "koom-{}-{}-{name}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Sends Ctrl-C (SIGINT) to a running koom, as a user at the terminal would.
#[allow(dead_code, reason = "not every test file interrupts a run")]
pub fn interrupt(child: &Child) {
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "SIGINT delivered");
}
