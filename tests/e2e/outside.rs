//! Outside players that cannot give a result (issue 50): a program that never runs, plays
//! another game or fails most of its games ends the command with exit 2 and one line, never
//! with a verdict.

use std::path::Path;

use crate::common::{Koom, scratch, stderr, stdout, summary};

fn koom_engine(game: &str) -> String {
    format!(
        "cmd:{} engine --game {game} --level easy",
        env!("CARGO_BIN_EXE_koom")
    )
}

fn misbehaving(mode: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/misbehave.sh");
    format!("cmd:sh {} {mode}", script.display())
}

fn gate_against(baseline: &str) -> Koom {
    Koom::new("gate")
        .args(["--game", "hnefatafl", "--candidate", "easy", "--seed", "1"])
        .arg("--baseline")
        .arg(baseline)
        .args(["--max-games", "16", "--batch", "2", "--threads", "1"])
}

#[test]
fn a_gate_against_a_program_that_does_not_exist_is_refused_before_any_game() {
    gate_against("cmd:/nonexistent/engine").rejects("`cmd:/nonexistent/engine` does not start");
}

#[test]
fn a_gate_against_an_engine_of_another_game_is_refused_by_its_handshake() {
    gate_against(&koom_engine("thud")).rejects("plays thud, not hnefatafl");
}

#[test]
fn run_and_ladder_refuse_a_program_that_does_not_start() {
    let dir = scratch("outside-nonexistent");
    Koom::new("run")
        .args([
            "--game",
            "hnefatafl",
            "--agents",
            "easy,cmd:/nonexistent/engine",
        ])
        .args(["--games", "4"])
        .out(dir.join("run"))
        .rejects("does not start");
    Koom::new("ladder")
        .args([
            "--game",
            "thud",
            "--levels",
            "beginner,cmd:/nonexistent/engine",
        ])
        .args(["--games", "2"])
        .out(dir.join("ladder"))
        .rejects("does not start");
}

#[test]
fn a_gate_whose_baseline_forfeits_every_game_has_no_verdict_and_exits_2() {
    let dir = scratch("outside-gate-crash");
    let crash = misbehaving("crash");
    let o = gate_against(&crash).out(&dir).output();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.lines().any(|l| l.contains("failed 16 of its 16 games")),
        "{err}"
    );
    assert_eq!(
        err.lines().filter(|l| l.contains("error")).count(),
        1,
        "{err}"
    );
    // The verdict block names the forfeits, and the summary carries no pass.
    let out = stdout(&o);
    assert!(out.contains("verdict: none"), "{out}");
    assert!(
        out.contains(&format!(
            "engine failures: {crash}: 16 program crashed (of 16 games)"
        )),
        "{out}"
    );
    let s = summary(&dir);
    assert_eq!(s["exit_code"], 2, "{s}");
    assert_eq!(s["engine_failures"][&crash]["program crashed"], 16, "{s}");
}

#[test]
fn a_reply_that_is_not_utf8_or_past_the_line_cap_is_an_unreadable_reply() {
    let dir = scratch("outside-bad-bytes");
    for mode in ["badbytes", "longline"] {
        let agent = misbehaving(mode);
        let out = dir.join(mode);
        let o = Koom::new("run")
            .args(["--game", "hnefatafl", "--threads", "1", "--games", "2"])
            .arg("--agents")
            .arg(format!("easy,{agent}"))
            .quiet()
            .out(&out)
            .output();
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let s = summary(&out);
        assert_eq!(s["engine_failures"][&agent]["unreadable reply"], 2, "{s}");
    }
}

/// `timeout_ms` at the largest integer once wrapped to a 1 s wait: an engine that takes longer
/// to start forfeited every game. It now waits as long as it takes.
#[test]
fn the_largest_timeout_waits_rather_than_wrapping_to_a_second() {
    let dir = scratch("outside-huge-timeout");
    let slow = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/slow-start.sh");
    let config = crate::common::write(
        &dir,
        "config.toml",
        &format!(
            "game = \"hnefatafl\"\n[engines.slow]\ncommand = \"sh {} {} engine --game hnefatafl --level easy\"\ntimeout_ms = 18446744073709551615\n",
            slow.display(),
            env!("CARGO_BIN_EXE_koom")
        ),
    );
    Koom::new("run")
        .arg(&config)
        .args(["--agents", "easy,slow", "--games", "2", "--threads", "1"])
        .quiet()
        .out(dir.join("out"))
        .ok();
    let s = summary(&dir.join("out"));
    assert_eq!(s["games_played"], 2);
    assert!(s.get("engine_failures").is_none(), "{s}");
}

/// `koom engine` in `protocol`, fed `input` whole: its standard output.
fn serve(protocol: &str, input: &[u8]) -> String {
    use std::io::Write as _;
    let mut child = engine_server(protocol);
    child.stdin.take().unwrap().write_all(input).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    String::from_utf8(o.stdout).unwrap()
}

fn engine_server(protocol: &str) -> std::process::Child {
    use std::process::{Command, Stdio};
    Command::new(env!("CARGO_BIN_EXE_koom"))
        .args(["engine", "--game", "hnefatafl", "--level", "easy"])
        .args(["--protocol", protocol])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

#[test]
fn bad_bytes_are_answered_with_an_error_and_the_engine_server_goes_on() {
    assert_eq!(
        serve("koom", b"isready\n\xff\nisready\n"),
        "readyok\nerror line not in UTF-8\nreadyok\n"
    );
    assert_eq!(
        serve("htp", b"name\n\xff\nname\n"),
        "= koom easy\n\n? line not in UTF-8\n\n= koom easy\n\n"
    );
    let mut long = b"isready\n".to_vec();
    long.extend(std::iter::repeat_n(b'x', 100_000));
    long.extend(b"\nisready\n");
    assert_eq!(
        serve("koom", &long),
        "readyok\nerror line longer than 65536 bytes\nreadyok\n"
    );
}

/// The peak resident memory of a running process, in KiB (Linux).
#[cfg(target_os = "linux")]
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Seeded random bytes (any value but `q`, so that no line reads `quit`), with lines of up to
/// 64 MB among them: the server answers its last command, so it read everything, and its peak
/// memory stays far below the longest line.
#[cfg(target_os = "linux")]
#[test]
fn the_engine_server_reads_random_bytes_and_huge_lines_in_flat_memory() {
    use std::io::{BufRead as _, BufReader, Write as _};
    for (protocol, last, answer) in [
        ("koom", "isready", "readyok"),
        ("htp", "name", "= koom easy"),
    ] {
        let mut child = engine_server(protocol);
        let mut stdin = child.stdin.take().unwrap();
        let (send, lines) = std::sync::mpsc::channel();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        std::thread::spawn(move || {
            for line in stdout.split(b'\n') {
                let _ = send.send(String::from_utf8_lossy(&line.unwrap()).into_owned());
            }
        });
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..400 {
            let len = (next() % 3000) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|_| match (next() % 256) as u8 {
                    b'q' => b'Q',
                    b => b,
                })
                .collect();
            stdin.write_all(&bytes).unwrap();
            if round % 100 == 0 {
                stdin.write_all(b"\n").unwrap();
                stdin.write_all(&vec![b'x'; 64 << 20]).unwrap();
            }
            stdin.write_all(b"\n").unwrap();
        }
        writeln!(stdin, "{last}").unwrap();
        stdin.flush().unwrap();
        let wait = std::time::Duration::from_secs(60);
        while lines
            .recv_timeout(wait)
            .expect("the server is still answering")
            != answer
        {}
        let peak = peak_kib(child.id());
        assert!(peak < 32 * 1024, "{protocol}: peak {peak} KiB");
        drop(stdin);
        assert_eq!(child.wait().unwrap().code(), Some(0));
    }
}

/// `cmd:` splits its words as a shell would: a quoted argument holding spaces stays one word.
#[test]
fn a_quoted_argument_in_cmd_stays_one_word() {
    let dir = scratch("outside-quoted");
    let agent = format!(
        "easy,cmd:sh -c 'exec \"$0\" engine --game hnefatafl --level easy' {}",
        env!("CARGO_BIN_EXE_koom")
    );
    Koom::new("run")
        .args(["--game", "hnefatafl", "--games", "2", "--threads", "1"])
        .arg("--agents")
        .arg(&agent)
        .quiet()
        .out(&dir)
        .ok();
    let s = summary(&dir);
    assert!(s.get("engine_failures").is_none(), "{s}");
    Koom::new("run")
        .args(["--game", "hnefatafl", "--agents", "easy,cmd:sh -c 'oops"])
        .rejects("a quote is not closed");
}
