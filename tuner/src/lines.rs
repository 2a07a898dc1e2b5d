//! A per-game line file (`games.csv`, `--records`) that a run can continue after any stop,
//! `kill -KILL` included.
//!
//! Lines go to a partial name (`FILE.partial`, `games.partial.csv`), one a game, each starting with its game index, and the file is
//! renamed to `FILE` once every game is in. The runner flushes the lines before each checkpoint,
//! so the file holds at least the games the checkpoint counts; after a crash it may hold more,
//! and a half-written last line. A resume keeps exactly the complete lines of the games the
//! checkpoint counts, in game order, writes them under a temporary name and renames that over
//! the partial file (a crash in between leaves either file whole), then appends. The games of a
//! resumed run can fill gaps that an interruption left, so the lines are put back in game order
//! when the file is finished.

use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::{Path, PathBuf};

use crate::InputError;
use crate::atomic::{check_replaceable, write_atomic};

/// A line file being written.
#[derive(Debug)]
pub struct LineFile {
    out: BufWriter<File>,
    /// The first line, before the games' (`games.csv`'s column names).
    header: Option<String>,
    /// The game index of the last line, for the order check at the end.
    last: Option<u64>,
    in_order: bool,
    /// Only a resumed file can fill gaps and need sorting (a ladder's records number each
    /// pair's games from 0, in the order played).
    resumed: bool,
    partial: PathBuf,
    path: PathBuf,
}

/// How a line file's lines start: with the game index, then `separator`.
#[derive(Clone, Copy, Debug)]
pub struct Layout<'a> {
    pub header: Option<&'a str>,
    pub separator: char,
    /// The flag that asks for the file, for messages.
    pub flag: &'a str,
}

impl LineFile {
    /// Starts `path` afresh, under the name `partial` until it is finished.
    pub fn create(path: &Path, partial: PathBuf, header: Option<&str>) -> std::io::Result<Self> {
        check_replaceable(path)?;
        check_replaceable(&partial)?;
        let file = File::create(&partial).map_err(|e| cannot(&partial, &e))?;
        let mut out = BufWriter::new(file);
        if let Some(header) = header {
            writeln!(out, "{header}")?;
        }
        Ok(Self {
            out,
            header: header.map(str::to_owned),
            last: None,
            in_order: true,
            resumed: false,
            partial,
            path: path.to_owned(),
        })
    }

    /// Continues `partial`, the file of an earlier run whose checkpoint counts the games
    /// `counted` says, `games` of them: their lines are kept and every other is dropped.
    pub fn resume(
        path: &Path,
        partial: PathBuf,
        layout: Layout<'_>,
        counted: &dyn Fn(u64) -> bool,
        games: u64,
    ) -> Result<Self, InputError> {
        for target in [path, &partial] {
            check_replaceable(target).map_err(|e| InputError::new(e.to_string()))?;
        }
        let shown = partial.display();
        let flag = layout.flag;
        let text = match std::fs::read(&partial) {
            Ok(bytes) => bytes,
            Err(_) if games == 0 => Vec::new(),
            Err(e) => {
                return Err(InputError::new(format!(
                    "{flag} cannot continue {shown} ({e}): the interrupted run did not write it; resume without {flag}, or start over"
                )));
            }
        };
        let corrupt = || {
            InputError::new(format!(
                "{shown} is corrupt (a line without a game index); start over without --resume"
            ))
        };
        // Only lines ended by a newline were written whole.
        let whole = match text.iter().rposition(|&b| b == b'\n') {
            Some(end) => &text[..=end],
            None => &text[..0],
        };
        let whole = std::str::from_utf8(whole).map_err(|_| corrupt())?;
        let skip = usize::from(layout.header.is_some());
        let mut kept: Vec<(u64, &str)> = Vec::new();
        for line in whole.lines().skip(skip) {
            let index = line.split(layout.separator).next();
            let index: u64 = index.and_then(|i| i.parse().ok()).ok_or_else(corrupt)?;
            if counted(index) {
                kept.push((index, line));
            }
        }
        kept.sort_by_key(|&(index, _)| index);
        kept.dedup_by_key(|&mut (index, _)| index);
        if kept.len() as u64 != games {
            return Err(InputError::new(format!(
                "{shown} holds {} of the checkpoint's {games} games: they do not belong together; start over without --resume",
                kept.len()
            )));
        }
        let mut text = String::new();
        for line in layout
            .header
            .into_iter()
            .chain(kept.iter().map(|(_, l)| *l))
        {
            text.push_str(line);
            text.push('\n');
        }
        let io = |e: std::io::Error| InputError::new(e.to_string());
        write_atomic(&partial, text.as_bytes()).map_err(io)?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&partial)
            .map_err(|e| InputError::new(cannot(&partial, &e).to_string()))?;
        Ok(Self {
            out: BufWriter::new(file),
            header: layout.header.map(str::to_owned),
            last: kept.last().map(|&(index, _)| index),
            in_order: true,
            resumed: true,
            partial,
            path: path.to_owned(),
        })
    }

    /// Writes the line of game `index`.
    pub fn push(&mut self, index: u64, line: &str) -> std::io::Result<()> {
        self.in_order &= self.last.is_none_or(|last| last < index);
        self.last = Some(index);
        writeln!(self.out, "{line}")
    }

    /// Hands the lines written so far to the system, before a checkpoint counts their games.
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }

    /// Flushes the lines; with `complete`, puts them in game order (when a resume filled gaps)
    /// and gives the file its final name.
    pub fn finish(mut self, complete: bool, separator: char) -> std::io::Result<()> {
        self.out.flush()?;
        if !complete {
            return Ok(());
        }
        if self.resumed && !self.in_order {
            let text = std::fs::read_to_string(&self.partial)?;
            let skip = usize::from(self.header.is_some());
            let mut lines: Vec<&str> = text.lines().skip(skip).collect();
            let index = |line: &&str| -> u64 {
                let first = line.split(separator).next();
                first.and_then(|i| i.parse().ok()).unwrap_or(u64::MAX)
            };
            lines.sort_by_key(index);
            let mut sorted = String::with_capacity(text.len());
            for line in self.header.as_deref().into_iter().chain(lines) {
                sorted.push_str(line);
                sorted.push('\n');
            }
            write_atomic(&self.partial, sorted.as_bytes())?;
        }
        std::fs::rename(&self.partial, &self.path).map_err(|e| cannot(&self.path, &e))
    }
}

fn cannot(path: &Path, e: &std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()))
}

/// Where the lines of an unfinished run wait: `FILE.partial`.
#[must_use]
pub fn partial_path(path: &Path) -> PathBuf {
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    PathBuf::from(partial)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("koom-lines-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    const LAYOUT: Layout<'static> = Layout {
        header: Some("index,x"),
        separator: ',',
        flag: "--games-csv",
    };

    #[test]
    fn a_crashed_file_is_cut_back_to_the_checkpoint_and_finished_in_game_order() {
        let dir = scratch("crash");
        let path = dir.join("games.csv");
        let partial = || partial_path(&path);
        // Games 0-5 and 8 written, 9 half-written; the checkpoint counts 0-3 and 8.
        std::fs::write(
            partial_path(&path),
            "index,x\n0,a\n1,b\n2,c\n3,d\n4,e\n5,f\n8,i\n9,j-half",
        )
        .unwrap();
        let counted = |i: u64| i < 4 || i == 8;
        let mut file = LineFile::resume(&path, partial(), LAYOUT, &counted, 5).unwrap();
        assert_eq!(
            std::fs::read_to_string(partial_path(&path)).unwrap(),
            "index,x\n0,a\n1,b\n2,c\n3,d\n8,i\n"
        );
        for (i, l) in [(4, "4,e"), (5, "5,f"), (6, "6,g"), (7, "7,h"), (9, "9,j")] {
            file.push(i, l).unwrap();
        }
        file.finish(true, ',').unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "index,x\n0,a\n1,b\n2,c\n3,d\n4,e\n5,f\n6,g\n7,h\n8,i\n9,j\n"
        );
        assert!(!partial_path(&path).exists());
    }

    #[test]
    fn a_file_short_of_the_checkpoint_is_refused() {
        let dir = scratch("short");
        let path = dir.join("games.csv");
        std::fs::write(partial_path(&path), "index,x\n0,a\n1,b\n").unwrap();
        let resume = |games: u64| {
            LineFile::resume(&path, partial_path(&path), LAYOUT, &|i| i < games, games)
        };
        let err = resume(3).unwrap_err().to_string();
        assert!(err.contains("holds 2 of the checkpoint's 3 games"), "{err}");
        std::fs::write(partial_path(&path), "index,x\nx,a\n").unwrap();
        let err = resume(1).unwrap_err().to_string();
        assert!(err.contains("corrupt"), "{err}");
    }
}
