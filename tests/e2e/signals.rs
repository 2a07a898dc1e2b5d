//! Signals sent as a terminal, Slurm or Kubernetes sends them (issue 50): to koom's whole process
//! group, and, as Slurm does, to every process of the job. The games they cut off are not
//! results: the resumed run's summary equals the uninterrupted one.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{reproducible, scratch, stderr, write};

/// A Hnefatafl run of `easy` against koom's own engine at `easy`, as an `[engines]` table.
fn config(dir: &Path) -> PathBuf {
    write(
        dir,
        "config.toml",
        &format!(
            "game = \"hnefatafl\"\nagents = [\"easy\", \"eng\"]\nseed = 5\ngames = 200\nthreads = 2\n[engines.eng]\ncommand = \"{} engine --game hnefatafl --level easy\"\n",
            env!("CARGO_BIN_EXE_koom")
        ),
    )
}

/// `koom run CONFIG --quiet --out OUT [more]`, the leader of a process group of its own, as a
/// shell's job or a Slurm task is.
fn start(config: &Path, out: &Path, more: &[&str]) -> Child {
    use std::os::unix::process::CommandExt as _;
    Command::new(env!("CARGO_BIN_EXE_koom"))
        .arg("run")
        .arg(config)
        .args(["--quiet", "--out"])
        .arg(out)
        .args(more)
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The processes `pid` started (Linux).
pub fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .flat_map(|list| {
            list.split_whitespace()
                .map(|p| p.parse().unwrap())
                .collect::<Vec<u32>>()
        })
        .collect()
}

/// Sends `signal` to the process group led by `leader`; whether a process got it.
pub fn signal_group(signal: &str, leader: u32) -> bool {
    Command::new("kill")
        .args([&format!("-{signal}"), "--", &format!("-{leader}")])
        .stderr(Stdio::null())
        .status()
        .unwrap()
        .success()
}

/// Waits until `koom` runs its outside engines and has played a little.
fn wait_for_engines(koom: &Child) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while children(koom.id()).is_empty() {
        assert!(Instant::now() < deadline, "no engine started");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(500));
}

#[cfg(target_os = "linux")]
#[test]
fn games_cut_off_by_a_signal_are_played_again_on_resume() {
    let dir = scratch("signals");
    let config = config(&dir);
    let full = dir.join("full");
    let o = start(&config, &full, &[]).wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // Ctrl-C at a terminal; SIGTERM to the group; Slurm's SIGTERM to koom and to each engine.
    for (signal, engines_too, code) in [
        ("INT", false, 130),
        ("TERM", false, 143),
        ("TERM", true, 143),
    ] {
        let out = dir.join(format!("{signal}-{engines_too}"));
        let koom = start(&config, &out, &[]);
        wait_for_engines(&koom);
        let engines = children(koom.id());
        assert!(signal_group(signal, koom.id()));
        if engines_too {
            // An engine may have ended in between (koom restarts one after each failure).
            engines.iter().for_each(|&e| _ = signal_group(signal, e));
        }
        let o = koom.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(code), "{signal}: {}", stderr(&o));
        let cut = reproducible(&out);
        assert_eq!(cut["partial"], true);
        assert!(cut.get("engine_failures").is_none(), "{signal}: {cut}");
        let o = start(&config, &out, &["--resume"])
            .wait_with_output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(
            reproducible(&out),
            reproducible(&full),
            "{signal} (engines too: {engines_too}), resumed"
        );
    }
}

/// Engine failures are counts of the run like the others: a resumed run and merged shards
/// report the uninterrupted run's (once `engine_failures` vanished after a resume).
#[cfg(target_os = "linux")]
#[test]
fn engine_failures_survive_a_resume_and_a_merge() {
    let dir = scratch("failures-resume");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/misbehave.sh");
    let crash = format!("cmd:sh {} crash", script.display());
    let config = write(
        &dir,
        "config.toml",
        &format!(
            "game = \"hnefatafl\"\nagents = [\"easy\", \"{crash}\"]\nseed = 2\ngames = 3000\nthreads = 2\n"
        ),
    );
    let failures = |out: &Path| reproducible(out)["engine_failures"].clone();
    let full = dir.join("full");
    let o = start(&config, &full, &[]).wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        failures(&full),
        serde_json::json!({crash: {"program crashed": 3000}})
    );
    let out = dir.join("resumed");
    let koom = start(&config, &out, &[]);
    wait_for_engines(&koom);
    assert!(signal_group("INT", koom.id()));
    let o = koom.wait_with_output().unwrap();
    // Its failures so far are most of its games: exit 2 outranks the interruption's 130.
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
    let o = start(&config, &out, &["--resume"])
        .wait_with_output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("failed 3000 of its 3000 games"),
        "{}",
        stderr(&o)
    );
    assert_eq!(reproducible(&out), reproducible(&full));
    let shards: Vec<PathBuf> = (0..2).map(|k| dir.join(format!("shard{k}"))).collect();
    for (k, shard) in shards.iter().enumerate() {
        let o = start(&config, shard, &["--shard", &format!("{k}/2")])
            .wait_with_output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    }
    let merged = dir.join("merged");
    let o = Command::new(env!("CARGO_BIN_EXE_koom"))
        .arg("merge")
        .args(&shards)
        .args(["--quiet", "--out"])
        .arg(&merged)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(failures(&merged), failures(&full));
}

/// `kill -KILL` leaves `games.csv`'s and the records' partial files ahead of the checkpoint,
/// their last line half-written: `--resume` cuts them back to the checkpoint's games and goes
/// on, and the files end byte for byte as an uninterrupted run writes them.
#[cfg(target_os = "linux")]
#[test]
fn a_run_killed_outright_resumes_its_records_and_games_csv_exactly() {
    let dir = scratch("kill-resume");
    let config = write(
        &dir,
        "config.toml",
        &format!(
            "game = \"hnefatafl\"\nagents = [\"easy\", \"cmd:{} engine --game hnefatafl --level easy\"]\nseed = 3\ngames = 1000\nthreads = 1\n",
            env!("CARGO_BIN_EXE_koom")
        ),
    );
    let run = |out: &Path, more: &[&str]| {
        let records = out.join("records.txt");
        let mut args = vec!["--games-csv", "--records", records.to_str().unwrap()];
        args.extend(more);
        start(&config, out, &args)
    };
    let full = dir.join("full");
    std::fs::create_dir_all(&full).unwrap();
    let o = run(&full, &[]).wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.join("killed");
    std::fs::create_dir_all(&out).unwrap();
    let mut koom = run(&out, &[]);
    let deadline = Instant::now() + Duration::from_secs(120);
    while !out.join("checkpoint.json").exists() {
        assert!(
            koom.try_wait().unwrap().is_none(),
            "ended before its first checkpoint"
        );
        assert!(Instant::now() < deadline, "no checkpoint");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Rows are flushed after each wave (about a second here), checkpoints every 5 s: the files
    // are now ahead of the checkpoint.
    std::thread::sleep(Duration::from_millis(2500));
    assert!(signal_group("KILL", koom.id()));
    koom.wait().unwrap();
    let o = run(&out, &["--resume"]).wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    for name in ["games.csv", "records.txt"] {
        assert!(
            std::fs::read(out.join(name)).unwrap() == std::fs::read(full.join(name)).unwrap(),
            "{name}: the resumed file equals the uninterrupted one"
        );
    }
    assert_eq!(reproducible(&out), reproducible(&full));
}

/// Whether process `pid` is running (a zombie waiting to be reaped is not).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| !stat.rsplit(") ").next().unwrap_or("").starts_with('Z'))
}

/// The helpers `tests/engines/wrapped.sh` listed in `file` that still run a moment after koom
/// ended.
fn orphans(file: &Path) -> Vec<u32> {
    let helpers: Vec<u32> = crate::common::read(file)
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    assert!(!helpers.is_empty());
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left: Vec<u32> = helpers.iter().copied().filter(|&p| running(p)).collect();
        if left.is_empty() || Instant::now() > deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// An engine behind a wrapper script that does not `exec` it: the wrapper's other processes end
/// with the engine, whether the engine played on, forfeited (koom stops it and starts another)
/// or koom left at once on a second Ctrl-C (once, each forfeit left a pair running).
#[cfg(target_os = "linux")]
#[test]
fn no_engine_process_outlives_koom() {
    let dir = scratch("orphans");
    let engines = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines");
    let wrapped = |helpers: &Path, engine: &str| {
        format!(
            "cmd:sh {} {} {engine}",
            engines.join("wrapped.sh").display(),
            helpers.display()
        )
    };
    let koom_engine = format!(
        "{} engine --game hnefatafl --level easy",
        env!("CARGO_BIN_EXE_koom")
    );
    let crash = format!("sh {} crash", engines.join("misbehave.sh").display());
    for (name, engine, games, code) in [
        ("plays", &koom_engine, "4", 0),
        ("forfeits", &crash, "4", 2),
        ("fast-exit", &koom_engine, "100000", 130),
    ] {
        let helpers = dir.join(format!("{name}.pids"));
        let agents = format!("easy,{}", wrapped(&helpers, engine));
        let args = ["--game", "hnefatafl", "--agents", &agents, "--games", games];
        let config = write(&dir, &format!("{name}.toml"), "threads = 2\n");
        let koom = start(&config, &dir.join(name), &args);
        if name == "fast-exit" {
            wait_for_engines(&koom);
            assert!(signal_group("INT", koom.id()));
            std::thread::sleep(Duration::from_millis(100));
            assert!(signal_group("INT", koom.id()));
        }
        let o = koom.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(code), "{name}: {}", stderr(&o));
        assert_eq!(orphans(&helpers), Vec::<u32>::new(), "{name}");
    }
}
