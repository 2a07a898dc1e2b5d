//! Sharded runs, `koom merge`, checkpoints and `--resume`.

use crate::common::{
    Koom, interrupt, json, read, reproducible, scratch, stderr, stdout, summary, write,
};
use std::path::PathBuf;
use std::process::Command;

#[test]
fn shards_merge_into_the_unsharded_summary() {
    let dir = scratch("shards");
    let run = || {
        Koom::new("run")
            .args(["--agents", "hard,normal,easy,easy"])
            .args(["--games", "1202", "--seed", "21"])
            .quiet()
    };
    let shard = |k: usize| dir.join(format!("s{k}"));
    run().args(["--shard", "0/3"]).out(shard(0)).ok();
    run()
        .args(["--shard", "env/3"])
        .env("SLURM_ARRAY_TASK_ID", "1")
        .out(shard(1))
        .ok();
    run()
        .args(["--shard", "env/3"])
        .env("JOB_COMPLETION_INDEX", "2")
        .out(shard(2))
        .ok();
    run().out(dir.join("full")).ok();
    let merge = |dirs: &[PathBuf], out: PathBuf| Koom::new("merge").args(dirs).out(out).quiet();
    let all = [shard(0), shard(1), shard(2)];
    merge(&all, dir.join("merged")).ok();
    assert_eq!(
        reproducible(&dir.join("merged")),
        reproducible(&dir.join("full"))
    );
    // The merge's `run` object sums the shards' time instead of timing the merge itself.
    let run = &summary(&dir.join("merged"))["run"];
    assert_eq!(run["merged"]["shards"], 3);
    let shard_wall: f64 = all
        .iter()
        .map(|s| {
            json(&s.join("shard.json"))["effort"]["wall_s"]
                .as_f64()
                .unwrap()
        })
        .sum();
    assert!(shard_wall > 0.0);
    assert!(
        (run["elapsed_s"].as_f64().unwrap() - shard_wall).abs() < 1e-9,
        "{run}"
    );
    assert!(
        run["merged"]["thread_s"].as_f64().unwrap() >= shard_wall,
        "{run}"
    );
    let shown = stdout(&Koom::new("merge").args(&all).out(dir.join("shown")).ok());
    assert!(
        shown.contains("1204 games merged from 3 shards that took"),
        "{shown}"
    );
    // Refusals: a shard twice, a missing shard, a shard of another experiment.
    let refused = || dir.join("refused");
    merge(&[shard(0), shard(1), shard(1)], refused()).rejects("shard 1/3 is given twice");
    merge(&[shard(0), shard(2)], refused()).rejects("missing shard(s) 1/3");
    let other = dir.join("other");
    Koom::new("run")
        .args(["--games", "400", "--shard", "1/3"])
        .quiet()
        .out(&other)
        .ok();
    merge(&[shard(0), other, shard(2)], refused()).rejects("is from another experiment");
    write(
        &shard(2),
        "shard.json",
        "{\"kind\": \"koom-partial\", \"format_ver",
    );
    merge(&all, refused()).rejects("is corrupt or truncated");
}

#[test]
fn gnu_parallel_runs_the_shards_when_installed() {
    if Command::new("parallel").arg("--version").output().is_err() {
        eprintln!("SKIPPED: GNU parallel is not installed");
        return;
    }
    let dir = scratch("parallel");
    let koom_bin = env!("CARGO_BIN_EXE_koom");
    let d = dir.display();
    let script = format!(
        "parallel -j 2 {koom_bin} run --games 800 --seed 2 --quiet --shard {{}}/4 --out {d}/s{{}} ::: 0 1 2 3 && {koom_bin} merge {d}/s0 {d}/s1 {d}/s2 {d}/s3 --out {d}/m --quiet && {koom_bin} run --games 800 --seed 2 --quiet --out {d}/full"
    );
    let o = Command::new("sh").args(["-c", &script]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        reproducible(&dir.join("m")),
        reproducible(&dir.join("full"))
    );
}

#[test]
fn resume_after_ctrl_c_equals_an_uninterrupted_run() {
    let dir = scratch("resume");
    let run = || {
        Koom::new("run")
            .args(["--games", "120000", "--seed", "31", "--threads", "2"])
            .quiet()
    };
    let out = dir.join("resumed");
    let mut child = run().out(&out).spawn();
    std::thread::sleep(std::time::Duration::from_millis(700));
    interrupt(&child);
    let status = child.wait().unwrap();
    if status.code() == Some(130) {
        assert!(out.join("checkpoint.json").exists());
        assert_eq!(summary(&out)["partial"], true);
    }
    run().out(&out).arg("--resume").ok();
    assert!(
        !out.join("checkpoint.json").exists(),
        "a finished run removes its checkpoint"
    );
    let full = dir.join("full");
    run().out(&full).ok();
    assert_eq!(reproducible(&out), reproducible(&full));
}

#[test]
fn a_corrupt_or_foreign_checkpoint_is_reported_not_overwritten() {
    let dir = scratch("bad-checkpoint");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let checkpoint = write(&out, "checkpoint.json", "{ not json");
    let resume = || {
        Koom::new("run")
            .args(["--games", "40", "--resume"])
            .quiet()
            .out(&out)
    };
    resume().rejects("is corrupt or truncated");
    assert_eq!(read(&checkpoint), "{ not json");
    // A shard file is not this run's checkpoint.
    let shard = dir.join("shard");
    Koom::new("run")
        .args(["--games", "40", "--shard", "0/2"])
        .quiet()
        .out(&shard)
        .ok();
    std::fs::copy(shard.join("shard.json"), &checkpoint).unwrap();
    resume().rejects("belongs to shard 0/2 (this run: the unsharded run)");
}

#[test]
fn shards_without_out_get_their_own_folders_and_a_folder_has_one_writer() {
    let dir = scratch("default-out");
    let shard = |k: &str| {
        Koom::new("run")
            .args(["--games", "40", "--seed", "4", "--shard", k])
            .quiet()
            .current_dir(&dir)
    };
    // Both started at once, without --out: each writes its own default folder.
    let (a, b) = (shard("0/2").spawn(), shard("1/2").spawn());
    for child in [a, b] {
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let results = dir.join("koom-results");
    for k in 0..2 {
        let file = json(&results.join(format!("ludo-shard-{k}-of-2/shard.json")));
        assert_eq!(file["shard"]["index"], k);
    }
    // Another shard given the same folder later does not overwrite the first's result.
    let first = results.join("ludo-shard-0-of-2");
    let before = read(&first.join("shard.json"));
    shard("1/2")
        .out(&first)
        .rejects("holds the result of shard 0/2 (this run: shard 1/2)");
    assert_eq!(read(&first.join("shard.json")), before);
    // A second process on a folder in use exits 2 naming the holder.
    let busy = dir.join("busy");
    let mut long = Koom::new("run")
        .args(["--games", "1000000", "--threads", "1"])
        .quiet()
        .out(&busy)
        .spawn();
    let lock = busy.join(".koom.lock");
    while std::fs::read_to_string(&lock)
        .unwrap_or_default()
        .is_empty()
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Koom::new("run")
        .args(["--games", "40"])
        .quiet()
        .out(&busy)
        .rejects(&format!(
            "is in use by another koom process (pid {})",
            long.id()
        ));
    interrupt(&long);
    assert_eq!(long.wait().unwrap().code(), Some(130));
}

#[test]
fn resume_keeps_a_finished_shard() {
    let dir = scratch("resume-finished");
    let out = dir.join("s1");
    let shard = || {
        Koom::new("run")
            .args(["--games", "200", "--seed", "9", "--shard", "1/2"])
            .out(&out)
    };
    shard().quiet().ok();
    let path = out.join("shard.json");
    let before = read(&path);
    // Marks the file: a replayed shard would write it afresh without the mark.
    let marked = before.replacen('{', "{ ", 1);
    std::fs::write(&path, &marked).unwrap();
    let o = shard().arg("--resume").ok();
    assert!(
        stderr(&o).contains("holds this shard's finished result: kept"),
        "{}",
        stderr(&o)
    );
    assert_eq!(read(&path), marked, "the finished shard was played again");
    shard().quiet().ok();
    assert_ne!(
        read(&path),
        marked,
        "without --resume the shard is played again"
    );
    let tally =
        |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap()["tally"].clone();
    assert_eq!(tally(&read(&path)), tally(&before));
}

#[test]
fn threads_default_to_a_slurm_tasks_cpus() {
    let dir = scratch("slurm-cpus");
    Koom::new("run")
        .args(["--games", "40"])
        .env("SLURM_CPUS_PER_TASK", "1")
        .quiet()
        .out(&dir)
        .ok();
    assert_eq!(summary(&dir)["run"]["threads"], 1);
}

#[test]
fn cluster_mistakes_get_messages_that_say_what_to_do() {
    let dir = scratch("cluster-messages");
    // An array numbered from 1: its last task's index is the shard count.
    Koom::new("run")
        .args(["--games", "40", "--shard", "env/8"])
        .env("SLURM_ARRAY_TASK_ID", "8")
        .rejects("SLURM_ARRAY_TASK_ID = 8 is not below N = 8 in --shard `env/8`");
    // Its first task already says so, before any task plays a shard the merge cannot use.
    Koom::new("run")
        .args(["--games", "40", "--shard", "env/8"])
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env("SLURM_ARRAY_TASK_MAX", "8")
        .rejects("SLURM_ARRAY_TASK_MAX = 8 is not below N = 8 in --shard `env/8`: shards are numbered 0 to 7, so number the array from 0 (--array=0-7)");
    // An array of some of the shards, to run them again, is fine.
    Koom::new("run")
        .args(["--games", "40", "--shard", "env/8", "--quiet"])
        .env("SLURM_ARRAY_TASK_ID", "5")
        .env("SLURM_ARRAY_TASK_MAX", "7")
        .out(dir.join("s5"))
        .ok();
    assert_eq!(json(&dir.join("s5/shard.json"))["shard"]["index"], 5);
    // A shard that left only its checkpoint.
    let out = dir.join("s0");
    let mut child = Koom::new("run")
        .args(["--games", "1000000", "--threads", "1", "--shard", "0/2"])
        .quiet()
        .out(&out)
        .spawn();
    std::thread::sleep(std::time::Duration::from_millis(500));
    interrupt(&child);
    assert_eq!(child.wait().unwrap().code(), Some(130));
    let expected = format!(
        "shard 0/2 in {} was interrupted: resume it with `koom run ... --shard 0/2 --out {} --resume`",
        out.display(),
        out.display()
    );
    Koom::new("merge")
        .arg(&out)
        .out(dir.join("m"))
        .rejects(&expected);
}

#[test]
fn every_command_that_writes_a_folder_refuses_one_in_use() {
    use std::io::Write as _;
    let dir = scratch("locked");
    let (results, shard) = (dir.join("results"), dir.join("shard"));
    let run = || Koom::new("run").args(["--games", "40"]).quiet();
    run().out(&results).ok();
    run().args(["--shard", "0/1"]).out(&shard).ok();
    // The test holds the folder's lock, as a koom process writing it would.
    let busy = dir.join("busy");
    std::fs::create_dir_all(&busy).unwrap();
    let mut lock = std::fs::File::create(busy.join(".koom.lock")).unwrap();
    lock.try_lock().unwrap();
    writeln!(lock, "{}", std::process::id()).unwrap();
    let in_use = format!(
        "output folder {} is in use by another koom process (pid {})",
        busy.display(),
        std::process::id()
    );
    let tune = write(
        &dir,
        "tune.toml",
        "game = 'ludo'\nlevel = 'hard'\niterations = 2\npairs = 2\nseed = 3\n[verify]\ngames = 16\n",
    );
    let writers = [
        Koom::new("gate")
            .args(["--game", "ludo", "--candidate", "hard"])
            .args(["--baseline", "easy", "--max-games", "40"]),
        Koom::new("ladder").args(["--game", "ludo", "--games", "40"]),
        Koom::new("tune").arg(&tune),
        Koom::new("report").arg(&results),
        Koom::new("report").arg(&results).arg(&results),
        Koom::new("merge").arg(&shard),
    ];
    for writer in writers {
        writer.out(&busy).rejects(&in_use);
    }
    let left: Vec<_> = std::fs::read_dir(&busy)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        left,
        [".koom.lock"],
        "a refused command wrote in the folder"
    );
    drop(lock);
    Koom::new("report").arg(&results).out(&busy).ok();
    assert!(busy.join("report.html").exists());
}
