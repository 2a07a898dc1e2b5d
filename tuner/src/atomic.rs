//! Write-to-temporary-then-rename.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written under `NAME.tmp`, renamed to `NAME` only by [`AtomicFile::commit`].
/// Dropped without a commit, the temporary is removed.
#[derive(Debug)]
pub struct AtomicFile {
    target: PathBuf,
    temp: PathBuf,
    writer: Option<BufWriter<File>>,
}

/// Refuses to replace `target` when it is a symlink, a device, a FIFO or a socket: a rename
/// would put a regular file in its place (as root, over `/dev/full`). A folder is left to the
/// rename, which fails on it.
pub fn check_replaceable(target: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(target) {
        Ok(meta) if !meta.is_file() && !meta.is_dir() => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} is not a regular file (a symlink, device, FIFO or socket): koom replaces only regular files; choose another path",
                target.display()
            ),
        )),
        _ => Ok(()),
    }
}

impl AtomicFile {
    pub fn create(target: &Path) -> io::Result<Self> {
        check_replaceable(target)?;
        let mut temp = target.as_os_str().to_owned();
        temp.push(".tmp");
        let temp = PathBuf::from(temp);
        let file = File::create(&temp).map_err(|e| {
            io::Error::new(e.kind(), format!("cannot write {}: {e}", temp.display()))
        })?;
        Ok(Self {
            target: target.to_owned(),
            temp,
            writer: Some(BufWriter::new(file)),
        })
    }

    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.writer.as_mut().expect("writer present until commit")
    }

    /// Flushes, syncs and renames the file into place. When any step fails (a full disk), the
    /// temporary is removed.
    pub fn commit(mut self) -> io::Result<()> {
        let writer = self.writer.take().expect("committed once");
        let result = writer
            .into_inner()
            .map_err(io::IntoInnerError::into_error)
            .and_then(|file| file.sync_all())
            .map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("cannot write {}: {e}", self.temp.display()),
                )
            })
            .and_then(|()| {
                std::fs::rename(&self.temp, &self.target).map_err(|e| {
                    io::Error::new(
                        e.kind(),
                        format!("cannot rename into {}: {e}", self.target.display()),
                    )
                })
            });
        if result.is_err() {
            let _ = std::fs::remove_file(&self.temp);
        }
        result
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.writer.take().is_some() {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// Writes `contents` to `path` atomically.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.writer().write_all(contents)?;
    file.commit()
}

/// Creates `dir` if needed and checks that files can be created in it, before any work is done.
pub fn check_writable_dir(dir: &Path) -> io::Result<()> {
    let shown = dir.display();
    // An empty name would write into the current folder without saying so.
    if dir.as_os_str().is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the output folder is empty (`out = \"\"` or `--out ''`): name a folder",
        ));
    }
    // The folder is recorded in checkpoints and shards, whose JSON holds only UTF-8.
    if dir.to_str().is_none() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("output folder {shown} is not a UTF-8 path: choose another --out"),
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot create output folder {shown}: {e}"),
        )
    })?;
    let probe = dir.join(".koom-write-check.tmp");
    File::create(&probe).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot write in output folder {shown}: {e}"),
        )
    })?;
    std::fs::remove_file(&probe)
}

/// The advisory lock file of an output folder.
pub const LOCK_FILE: &str = ".koom.lock";

/// An output folder held by this process until the guard is dropped (the process ends).
#[derive(Debug)]
pub struct DirLock {
    _file: File,
}

/// [`check_writable_dir`], then takes the folder's advisory lock so that two koom processes
/// never write one folder (two shards given the same `--out`): the second gets an error naming
/// the holder. The lock file stays behind: removing it would let a third process lock a new
/// file while a second still holds the old one.
pub fn lock_output_dir(dir: &Path) -> io::Result<DirLock> {
    check_writable_dir(dir)?;
    let path = dir.join(LOCK_FILE);
    let shown = dir.display();
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot open {}: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let holder = std::fs::read_to_string(&path).unwrap_or_default();
            let holder = match holder.trim() {
                "" => String::new(),
                pid => format!(" (pid {pid})"),
            };
            return Err(io::Error::new(
                io::ErrorKind::ResourceBusy,
                format!(
                    "output folder {shown} is in use by another koom process{holder}: give each process its own --out"
                ),
            ));
        }
        Err(TryLockError::Error(e)) => {
            return Err(io::Error::new(
                e.kind(),
                format!("cannot lock {}: {e}", path.display()),
            ));
        }
    }
    // The holder's pid, for the message another process prints; the lock does not depend on it.
    file.set_len(0)?;
    writeln!(file, "{}", std::process::id())?;
    Ok(DirLock { _file: file })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("koom-atomic-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_failed_rename_leaves_no_temporary() {
        let dir = scratch("rename");
        // A non-empty folder where the file should go: the rename fails.
        let target = dir.join("summary.csv");
        std::fs::create_dir_all(target.join("inside")).unwrap();
        let err = write_atomic(&target, b"x").unwrap_err();
        assert!(err.to_string().contains("cannot rename into"), "{err}");
        assert!(!dir.join("summary.csv.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_leaves_no_temporary() {
        let dir = scratch("full");
        // The temporary's name points at /dev/full, where every write fails with ENOSPC.
        std::os::unix::fs::symlink("/dev/full", dir.join("summary.csv.tmp")).unwrap();
        let err = write_atomic(&dir.join("summary.csv"), &[b'x'; 100]).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::StorageFull, "{err}");
        assert!(std::fs::symlink_metadata(dir.join("summary.csv.tmp")).is_err());
        assert!(!dir.join("summary.csv").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_non_utf8_output_folder_is_refused() {
        use std::os::unix::ffi::OsStrExt as _;
        let dir = scratch("utf8");
        let bad = dir.join(std::ffi::OsStr::from_bytes(b"bad\xff"));
        let err = check_writable_dir(&bad).unwrap_err();
        assert!(err.to_string().contains("not a UTF-8 path"), "{err}");
        assert!(!bad.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_or_a_fifo_is_never_replaced() {
        let dir = scratch("special");
        let link = dir.join("link.txt");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        let err = write_atomic(&link, b"x").unwrap_err();
        assert!(err.to_string().contains("is not a regular file"), "{err}");
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(!dir.join("link.txt.tmp").exists());
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert!(write_atomic(&fifo, b"x").is_err());
            assert!(!std::fs::metadata(&fifo).unwrap().is_file());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_empty_output_folder_is_refused() {
        let err = check_writable_dir(Path::new("")).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("output folder is empty"), "{err}");
    }

    #[test]
    fn a_locked_folder_is_refused_until_released() {
        let dir = scratch("lock");
        let held = lock_output_dir(&dir).unwrap();
        // A second open file description conflicts with the first, as another process would.
        let err = lock_output_dir(&dir).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::ResourceBusy, "{err}");
        let pid = format!("(pid {})", std::process::id());
        assert!(
            err.to_string().contains("in use by another koom process"),
            "{err}"
        );
        assert!(err.to_string().contains(&pid), "{err}");
        drop(held);
        // A process forked by another test between fork and exec shares the lock's file
        // description for a moment: wait that out.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        let again = loop {
            match lock_output_dir(&dir) {
                Ok(lock) => break lock,
                Err(e) if std::time::Instant::now() > deadline => panic!("{e}"),
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(10)),
            }
        };
        drop(again);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
