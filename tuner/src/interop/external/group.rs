//! Each outside engine runs in a process group of its own, and koom ends the whole group, not
//! only the program it started: an engine started through a wrapper script (no `exec`) has
//! children that a plain `Child::kill` never reaches.
//!
//! The group of its own also keeps the user's Ctrl-C away from the engines. A terminal sends
//! SIGINT to its foreground process group; koom answers it by finishing the games in flight, and
//! an engine killed by the same signal would have lost them as `program crashed`.
//!
//! The groups still running are listed here so that the fast exit (a second Ctrl-C, which ends
//! koom without unwinding) can end them too: a process-wide list, since the processes are.

use std::collections::BTreeSet;
use std::process::{Child, Command};
use std::sync::{Mutex, PoisonError};

/// The process groups of the engines running now, by their leader's pid.
static LIVE: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// Makes the program `command` starts the leader of a new process group.
pub fn isolate(command: &mut Command) {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    #[cfg(not(unix))]
    let _ = command;
}

/// An engine's process group, ended when dropped.
#[derive(Debug)]
pub struct Group {
    leader: u32,
}

impl Group {
    /// The group led by `child`, started under [`isolate`].
    pub fn of(child: &Child) -> Self {
        let leader = child.id();
        LIVE.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(leader);
        Self { leader }
    }
}

impl Drop for Group {
    /// Ends every process of the group. It runs before the leader is reaped, so that its pid,
    /// which names the group, cannot have been given to another process yet.
    fn drop(&mut self) {
        kill(self.leader);
        LIVE.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.leader);
    }
}

/// Ends every engine's process group still running: for the fast exit, which runs no
/// destructors.
pub fn end_all() {
    let live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
    live.iter().for_each(|&leader| kill(leader));
}

/// SIGKILL to the group led by `leader`; a group already gone is no error.
fn kill(leader: u32) {
    #[cfg(unix)]
    if let Some(pid) = i32::try_from(leader)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    #[cfg(not(unix))]
    let _ = leader;
}
