//! Reading protocol lines from untrusted programs and servers with a bounded buffer: a line
//! longer than [`MAX_LINE`] is skipped to its end, never held, so memory stays flat whatever
//! the peer sends, and bytes that are not UTF-8 are reported rather than ending the stream.

use std::io::{self, BufRead};

/// The longest protocol line koom reads, in bytes, its newline excluded.
pub const MAX_LINE: usize = 64 * 1024;

/// One line as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of text, without its line ending (`\n` or `\r\n`).
    Text(String),
    /// A line longer than [`MAX_LINE`] bytes: its bytes were dropped.
    TooLong,
    /// A line that is not UTF-8.
    NotUtf8,
}

impl Line {
    /// The text, or the reason it is not a line of protocol, as said to the peer or the user.
    pub fn text(self) -> Result<String, &'static str> {
        match self {
            Self::Text(text) => Ok(text),
            Self::TooLong => Err("line longer than 65536 bytes"),
            Self::NotUtf8 => Err("line not in UTF-8"),
        }
    }
}

/// The next line of `reader`, `None` at the end of the input (a last line without a newline
/// still counts). `buf` is reused between calls and never grows past [`MAX_LINE`] bytes.
pub fn read_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Option<Line>> {
    buf.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if !any {
                return Ok(None);
            }
            break;
        }
        any = true;
        let (part, used, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (&chunk[..at], at + 1, true),
            None => (chunk, chunk.len(), false),
        };
        if !too_long {
            if buf.len() + part.len() > MAX_LINE {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(part);
            }
        }
        reader.consume(used);
        if ended {
            break;
        }
    }
    if too_long {
        return Ok(Some(Line::TooLong));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(match std::str::from_utf8(buf) {
        Ok(text) => Line::Text(text.to_owned()),
        Err(_) => Line::NotUtf8,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Line> {
        let mut reader = io::BufReader::with_capacity(7, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(line) = read_line(&mut reader, &mut buf).unwrap() {
            assert!(buf.capacity() <= 2 * MAX_LINE, "the buffer stays bounded");
            out.push(line);
        }
        out
    }

    #[test]
    fn lines_are_split_on_newlines_with_crlf_and_a_last_unended_line() {
        assert_eq!(
            lines(b"isready\r\n\ngo depth 2\nquit"),
            [
                Line::Text("isready".into()),
                Line::Text(String::new()),
                Line::Text("go depth 2".into()),
                Line::Text("quit".into()),
            ]
        );
        assert_eq!(lines(b""), []);
    }

    #[test]
    fn bad_bytes_and_long_lines_are_reported_and_reading_goes_on() {
        let mut input = b"isready\n\xff\xfe\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE + 1));
        input.extend(b"\nquit\n");
        let mut exact = vec![b'y'; MAX_LINE];
        exact.push(b'\n');
        input.extend(&exact);
        let read = lines(&input);
        assert_eq!(
            read[..4],
            [
                Line::Text("isready".into()),
                Line::NotUtf8,
                Line::TooLong,
                Line::Text("quit".into()),
            ]
        );
        assert_eq!(
            read[4],
            Line::Text("y".repeat(MAX_LINE)),
            "the cap itself is a line"
        );
    }
}
