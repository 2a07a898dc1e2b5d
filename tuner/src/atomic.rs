//! Write-to-temporary-then-rename.

use std::fs::File;
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

impl AtomicFile {
    pub fn create(target: &Path) -> io::Result<Self> {
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

    /// Flushes, syncs and renames the file into place.
    pub fn commit(mut self) -> io::Result<()> {
        let writer = self.writer.take().expect("committed once");
        let file = writer
            .into_inner()
            .map_err(io::IntoInnerError::into_error)?;
        file.sync_all()?;
        std::fs::rename(&self.temp, &self.target).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot rename into {}: {e}", self.target.display()),
            )
        })
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
