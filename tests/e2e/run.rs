//! `koom run`, `play`, `list`, `bench` and weight files: the batch runner and its inputs.

use crate::common::{
    Koom, interrupt, koom, reproducible, run_config, scratch, stderr, stdout, summary, write,
};

#[test]
fn run_with_flags_writes_a_consistent_summary() {
    let dir = scratch("flags");
    Koom::new("run")
        .args(["--game", "ludo", "--agents", "hard,normal,easy,easy"])
        .args(["--games", "402", "--seed", "5"])
        .out(&dir)
        .quiet()
        .ok();
    let s = summary(&dir);
    assert_eq!(
        s["games_played"], 404,
        "402 rounded up to whole rotations of 4"
    );
    assert_eq!(s["seed"], 5);
    assert_eq!(s["partial"], false);
    let seat_wins: u64 = s["by_seat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["wins"].as_u64().unwrap())
        .sum();
    let agent_wins: u64 = s["by_agent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["wins"].as_u64().unwrap())
        .sum();
    let no_result = s["no_result"].as_u64().unwrap();
    assert_eq!(seat_wins + no_result, 404);
    assert_eq!(agent_wins, seat_wins);
    let easy = &s["by_agent"][2];
    assert_eq!(
        (easy["agent"].as_str(), easy["games"].as_u64()),
        (Some("easy"), Some(808)),
        "two Easy slots pooled"
    );
    let ci = s["by_seat"][0]["win_rate"]["ci95"].as_array().unwrap();
    let rate = s["by_seat"][0]["win_rate"]["value"].as_f64().unwrap();
    assert!(ci[0].as_f64().unwrap() < rate && rate < ci[1].as_f64().unwrap());
    let fpa = s["first_player_advantage"]["value"].as_f64().unwrap();
    assert!((fpa - (rate - 0.25)).abs() < 1e-12);
    let csv = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    assert_eq!(
        csv.lines().count(),
        1 + 3 + 4,
        "header, three agents, four seats"
    );
    assert!(!dir.join("games.csv").exists());
}

#[test]
fn run_from_a_config_with_flags_overriding_it() {
    let out = run_config(
        "config",
        "game = 'ludo'\nagents = ['easy', 'easy', 'easy', 'normal']\ngames = 40\nseed = 3\n[options]\nroll_cap = 20\n",
        &["--seed", "4"],
    );
    let s = summary(&out);
    assert_eq!(
        (s["seed"].as_u64(), s["games_played"].as_u64()),
        (Some(4), Some(40))
    );
    assert_eq!(s["options"]["roll_cap"], 20);
    assert_eq!(s["no_result"], 40, "no Ludo game finishes within 20 rolls");
    assert_eq!(s["length_rolls"]["max"], 20);
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let dir = scratch("threads");
    let run = |threads: &str| {
        let out = dir.join(threads);
        Koom::new("run")
            .args(["--games", "2000", "--seed", "11", "--threads", threads])
            .arg("--games-csv")
            .out(&out)
            .quiet()
            .ok();
        out
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(reproducible(&one), reproducible(&two));
    assert_eq!(
        std::fs::read(one.join("games.csv")).unwrap(),
        std::fs::read(two.join("games.csv")).unwrap()
    );
    assert_eq!(summary(&one)["run"]["threads"], 1);
}

#[test]
fn play_replays_the_batch_game_exactly() {
    let dir = scratch("replay");
    let agents = "hard,normal,easy,hard";
    Koom::new("run")
        .args(["--agents", agents, "--games", "24", "--seed", "9"])
        .arg("--games-csv")
        .out(&dir)
        .quiet()
        .ok();
    let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 25);
    for index in [0usize, 7, 22] {
        let p = Koom::new("play")
            .args(["--agents", agents, "--seed", "9", "--index"])
            .arg(index.to_string())
            .ok();
        let text = stdout(&p);
        let last = text.lines().last().unwrap();
        assert_eq!(last, rows[index + 1], "game {index}");
        assert!(text.contains(" rolls "), "the narration shows the rolls");
        assert!(text.contains(" plays pawn "), "and the moves");
    }
}

#[test]
fn the_default_experiment_runs_with_no_arguments() {
    let dir = scratch("default");
    let o = Koom::new("run").current_dir(&dir).ok();
    let s = summary(&dir.join("koom-results/ludo"));
    assert_eq!(s["games_played"], 40_000);
    assert!(stderr(&o).contains("results written to koom-results/ludo"));
    let table = stdout(&o);
    assert!(table.contains("hard") && table.contains("first-player advantage"));
}

#[test]
fn ctrl_c_writes_a_partial_summary() {
    let dir = scratch("interrupt");
    let mut child = Koom::new("run")
        .args(["--games", "100000000"])
        .quiet()
        .out(&dir)
        .spawn();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    interrupt(&child);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let s = summary(&dir);
    assert_eq!(s["partial"], true);
    let played = s["games_played"].as_u64().unwrap();
    assert!(played > 0 && played < 100_000_000);
    let seat_games: u64 = s["by_seat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["games"].as_u64().unwrap())
        .sum();
    assert_eq!(
        seat_games,
        4 * played,
        "the summary covers exactly the finished games"
    );
}

#[test]
fn list_shows_games_levels_and_weights() {
    let text = stdout(&Koom::new("list").ok());
    for needle in [
        "ludo (4 seats",
        "easy",
        "normal",
        "hard",
        "thud",
        "hnefatafl",
    ] {
        assert!(text.contains(needle), "{needle}");
    }
    let ludo = stdout(&Koom::new("list").args(["--game", "ludo"]).ok());
    for needle in ["ludo-hard", "risk_weight", "roll_cap"] {
        assert!(ludo.contains(needle), "{needle}");
    }
}

#[test]
fn weights_files_load_as_agents() {
    let dir = scratch("weights");
    let weights = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/configs/weights/ludo-hard.toml"
    );
    let (a, b) = (dir.join("a"), dir.join("b"));
    let with_file = format!("hard@{weights},easy,easy,easy");
    for (agents, out) in [(with_file.as_str(), &a), ("hard,easy,easy,easy", &b)] {
        Koom::new("run")
            .args(["--agents", agents, "--games", "200"])
            .out(out)
            .quiet()
            .ok();
    }
    // The shipped file holds the defaults, so the results are the same.
    assert_eq!(summary(&a)["by_seat"], summary(&b)["by_seat"]);
}

/// A weights file shipped under `configs/`, with the game and level its header names.
struct WeightFile {
    path: std::path::PathBuf,
    game: String,
    level: String,
}

impl WeightFile {
    /// Every file in `configs/<folder>`.
    fn all_in(folder: &str) -> Vec<Self> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("configs")
            .join(folder);
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let field = |key: &str| {
                text.lines()
                    .find_map(|l| l.strip_prefix(key))
                    .unwrap_or_else(|| panic!("{} has no `{key}`", path.display()))
                    .trim_end_matches('"')
                    .to_string()
            };
            let game = field("game = \"");
            let set = field("weight_set = \"");
            let level = set.rsplit('-').next().unwrap().to_string();
            files.push(Self { path, game, level });
        }
        files
    }

    /// What `koom weights` prints for the file loaded as its level (the run must succeed).
    fn printed(&self) -> Vec<u8> {
        Koom::new("weights")
            .args(["--game", &self.game, "--level"])
            .arg(format!("{}@{}", self.level, self.path.display()))
            .ok()
            .stdout
    }
}

#[test]
fn shipped_weight_files_hold_each_level_defaults() {
    let files = WeightFile::all_in("weights");
    for file in &files {
        // The file loads as an agent, and equals what `koom weights` prints for the defaults.
        let defaults = koom(&["weights", "--game", &file.game, "--level", &file.level]);
        assert_eq!(
            file.printed(),
            defaults.stdout,
            "{} holds the defaults",
            file.path.display()
        );
    }
    assert!(files.len() >= 2);
}

/// A tuned file must keep loading when its game's evaluation gains or loses a weight: files
/// with missing or unknown weights are rejected, so a stale tuned file would fail here.
#[test]
fn tuned_weight_files_load_as_their_level() {
    let files = WeightFile::all_in("tuned");
    for file in &files {
        let (game, level) = (&file.game, &file.level);
        assert!(
            String::from_utf8_lossy(&file.printed())
                .contains(&format!("weight_set = \"{game}-{level}\"")),
            "{} loads as {game} {level}",
            file.path.display()
        );
    }
    assert!(files.len() >= 3);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let run = || Koom::new("run");
    run()
        .args(["--game", "chess"])
        .rejects("unknown game `chess` (accepted: ludo");
    run()
        .args(["--agents", "hard,expert,easy,easy"])
        .rejects("unknown ludo level `expert` (accepted: easy, normal, hard)");
    run()
        .args(["--agents", "hard,easy"])
        .rejects("ludo needs 4 agents");
    run()
        .args(["--games", "0"])
        .rejects("games must be at least 1");
    run()
        .args(["--agents", "hard@/nonexistent/w.toml,easy,easy,easy"])
        .rejects("cannot read weights file");
    Koom::new("play")
        .args(["--game", "ludo", "--agents", "easy"])
        .rejects("ludo needs 4 agents");
    let dir = scratch("bad-config");
    let malformed = write(&dir, "malformed.toml", "game = 'ludo\n");
    run().arg(&malformed).rejects("malformed.toml");
    let unknown = write(&dir, "unknown.toml", "gmaes = 10\n");
    run().arg(&unknown).rejects("unknown field `gmaes`");
    let bad_option = write(&dir, "option.toml", "[options]\nroll_cap = 0\n");
    run()
        .arg(&bad_option)
        .rejects("roll_cap must be at least 1");
    run().arg("--config-missing").rejects("unexpected argument");
    let file = write(&dir, "a-file", "");
    run()
        .args(["--games", "4"])
        .out(file.join("out"))
        .rejects("cannot create output folder");
}

#[test]
fn bench_signature_is_deterministic_whatever_the_threads() {
    let signature = |threads: &str| {
        let o = Koom::new("bench")
            .args(["--game", "ludo", "--games", "40", "--threads", threads])
            .ok();
        let text = stdout(&o);
        assert!(text.contains("ludo           hard"));
        text.lines().last().unwrap().to_owned()
    };
    let one = signature("1");
    assert!(one.starts_with("signature "));
    assert_eq!(one, signature("2"));
}

#[test]
fn a_round_robin_config_summarises_every_pairing() {
    let out = run_config(
        "round-robin",
        "game = 'ludo'\nformat = 'round-robin'\nagents = ['easy', 'normal', 'hard']\ngames = 400\nseed = 2\n",
        &[],
    );
    let s = summary(&out);
    assert_eq!(s["format"], "round-robin");
    assert_eq!(s["pairings"].as_array().unwrap().len(), 3);
    let m = s["score_matrix"].as_array().unwrap();
    assert!(m[0][0].is_null() && m[2][0].as_f64().unwrap() > 0.5);
    assert_eq!(s["pairings"][0]["summary"]["games_played"], 400);
    let out = run_config(
        "gauntlet",
        "format = 'gauntlet'\nagents = ['hard', 'normal', 'easy']\ngames = 200\n",
        &[],
    );
    let s = summary(&out);
    assert_eq!(s["pairings"].as_array().unwrap().len(), 2);
    assert!(
        s["score_matrix"][1][2].is_null(),
        "the gauntlet does not pair normal with easy"
    );
    let swiss = write(
        &scratch("swiss"),
        "swiss.toml",
        "format = 'swiss'\nagents = ['hard', 'normal']\n",
    );
    Koom::new("run")
        .arg(&swiss)
        .rejects("unknown variant `swiss`, expected `round-robin` or `gauntlet`");
}
