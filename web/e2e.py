#!/usr/bin/env python3
"""End-to-end test of the page web/www in headless Chromium, driven over WebDriver (chromedriver)
with the Python standard library only. Run by web/test.sh after web/build.sh.

For each game it
  1. plays a full game against a computer level through the page's own controls (a human seat
     clicks legal-move buttons) and checks that the result shows; saves screenshots of the board
     during the game (a piece selected, its moves highlighted) and at the end to
     web/test-output/<game>-playing.png and <game>.png;
  2. plays a seeded game between two levels under their node budgets through the page's worker API
     and checks that the narration (every roll and move) is exactly that of
     `koom play --game G --agents ... --seed S` run natively;
  3. checks that bad input (an unknown game, an illegal move, an unknown level) is rejected with
     the engine's message;
and fails on any console error. It also writes web/test-output/metrics.json: page load to first
move, and Expert's move times in the browser next to the native ones (`koom-movetime`).
"""

import base64
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "web" / "test-output"
KOOM = os.environ.get("KOOM", str(ROOT / "target" / "release" / "koom"))
MOVETIME = os.environ.get("MOVETIME", str(ROOT / "target" / "release" / "examples" / "movetime"))

# Full games through the controls: (game, computer level, seats, the human's seat); the human
# clicks the first legal-move button. (Hnefatafl's human plays the defenders: as attackers,
# first-button play shuffles to the 1,000-ply cap.)
CONTROL_GAMES = [
    ("ludo", "hard", 4, 0),
    ("thud", "balanced", 2, 0),
    ("trente-douze", "hard", 3, 0),
    ("hnefatafl", "hard", 2, 1),
]
# Seeded games between levels under node budgets, compared with `koom play`.
SAME_MOVES = [
    ("ludo", ["hard", "normal", "easy", "hard"], 11),
    ("thud", ["hard", "balanced"], 11),
    ("trente-douze", ["hard", "normal", "easy"], 11),
    ("hnefatafl", ["hard", "normal"], 11),
]
# Expert's move times: (game, seed, moves measured; WEB_MEASURE_MOVES overrides).
MOVES = int(os.environ.get("WEB_MEASURE_MOVES", "16"))
MOVETIMES = [("thud", 5, MOVES), ("hnefatafl", 5, MOVES)]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer in {seconds} s")


class Driver:
    """The few WebDriver commands this test needs."""

    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        caps = {
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "chrome",
                    "goog:loggingPrefs": {"browser": "ALL"},
                    "goog:chromeOptions": {
                        "args": [
                            "--headless=new",
                            "--no-sandbox",
                            "--disable-dev-shm-usage",
                            "--disable-gpu",
                            "--window-size=1400,1100",
                        ]
                    },
                }
            }
        }
        self.session = self.request("POST", "/session", caps)["sessionId"]
        self.request("POST", f"/session/{self.session}/timeouts", {"script": 600_000})

    def request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.base + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=900) as r:
                return json.loads(r.read())["value"]
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"WebDriver {method} {path}: {e.read().decode()[:2000]}") from None

    def cmd(self, method, path, body=None):
        return self.request(method, f"/session/{self.session}{path}", body)

    def get(self, url):
        self.cmd("POST", "/url", {"url": url})

    def run(self, script, *args):
        """Runs an async script: its last argument is the callback."""
        return self.cmd("POST", "/execute/async", {"script": script, "args": list(args)})

    def screenshot(self, css, path):
        element = self.cmd("POST", "/element", {"using": "css selector", "value": css})
        eid = next(iter(element.values()))
        path.write_bytes(base64.b64decode(self.cmd("GET", f"/element/{eid}/screenshot")))

    def console(self):
        return self.cmd("POST", "/se/log", {"type": "browser"})

    def quit(self):
        self.cmd("DELETE", "")


# Waits for the page, then plays the first legal move whenever it is the human's turn, until the
# result shows: by its button, or on a board where moves are played by clicking a piece and then a
# square (no buttons until a piece is selected), by clicking its piece first. With `pauseAt`, it
# stops at the human's first turn after that many moves, having clicked the first legal move's
# piece (board games) so that its moves show.
PLAY_THROUGH_CONTROLS = """
const [pauseAt, done] = arguments;
const start = Date.now();
const click = (el) => el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
function step() {
  if (Date.now() - start > 540000) return done({ error: "the game did not end in 9 minutes" });
  const error = document.getElementById("error").textContent;
  if (error) return done({ error });
  const p = window.koomPage.page;
  if (document.body.dataset.over === "1") {
    return done({ result: document.getElementById("result").textContent,
                  moves: document.querySelectorAll("#moves li").length,
                  reason: p.state.result.reason,
                  narration: document.getElementById("narration").textContent,
                  rules: document.getElementById("rules-text").textContent });
  }
  const mine = p.state && !p.busy && !p.state.result && p.state.toMove === p.setup.human;
  if (mine && p.state.legalMoves.length > 0) {
    const first = p.state.legalMoves[0];
    const from = (/^([a-z]\\d+)-/i.exec(first) || [])[1];
    const square = from && document.querySelector(`[data-square="${from.toLowerCase()}"]`);
    if (pauseAt !== null && p.state.moves.length >= pauseAt) {
      if (square && p.selected === null) click(square);
      return done({ paused: p.state.moves.length });
    }
    const button = document.querySelector("#legal button");
    if (button) button.click();
    else if (square && p.selected === null) click(square);
  }
  setTimeout(step, 10);
}
step();
"""

# A seeded game between levels through the worker API: its narration in two parts (before the
# first move, then the moves) and its result.
SEEDED_GAME = """
const [game, levels, seed, done] = arguments;
(async () => {
  const { call } = window.koomPage;
  let reply = await call("start", game, { seed, seats: levels.length });
  const first = reply.narration;
  let rest = "";
  while (!reply.state.result) {
    reply = await call("ai", levels[reply.state.toMove], "batch");
    rest += reply.narration;
  }
  done({ first, rest, moves: reply.state.moves, result: reply.state.result });
})().catch((e) => done({ error: String(e) }));
"""

BAD_INPUT = """
const done = arguments[arguments.length - 1];
(async () => {
  const { call } = window.koomPage;
  const errors = [];
  const expectError = async (op, ...args) => {
    try { await call(op, ...args); errors.push(`${op} did not throw`); }
    catch (e) { errors.push(e.message); }
  };
  await expectError("start", "chess", { seed: 1 });
  await expectError("start", "thud", { seed: 1, options: { ply_cap: "long" } });
  await call("start", "thud", { seed: 1 });
  await expectError("play", "A1-A2");
  await expectError("hint", "grandmaster", "batch");
  done(errors);
})().catch((e) => done([String(e)]));
"""

MOVE_TIMES = """
const [game, seed, count, done] = arguments;
(async () => {
  const { call } = window.koomPage;
  await call("start", game, { seed });
  const ms = [];
  for (let i = 0; i < count; i++) {
    const { value, state } = await call("hint", "expert", "batch");
    ms.push(value.ms);
    if (state.result) break;
    await call("play", value.move);
  }
  done(ms);
})().catch((e) => done({ error: String(e) }));
"""


def median(xs):
    s = sorted(xs)
    n = len(s)
    return (s[n // 2] + s[(n - 1) // 2]) / 2


def koom_play(game, levels, seed):
    out = subprocess.run(
        [KOOM, "play", "--game", game, "--agents", ",".join(levels), "--seed", str(seed)],
        check=True, capture_output=True, text=True,
    ).stdout
    return out.splitlines()


def check_same_moves(driver, failures):
    for game, levels, seed in SAME_MOVES:
        got = driver.run(SEEDED_GAME, game, levels, seed)
        if "error" in got:
            failures.append(f"{game}: seeded game: {got['error']}")
            continue
        expected = koom_play(game, levels, seed)
        first = got["first"].splitlines()
        rest = got["rest"].splitlines()
        # `koom play` prints two header lines, the narration before the first move, the start
        # picture, the narration of the moves, the final picture, the result and a CSV row.
        ok = expected[2 : 2 + len(first)] == first and any(
            expected[i : i + len(rest)] == rest for i in range(2 + len(first), len(expected))
        )
        plies = len(got["moves"])
        print(f"same moves as koom play: {game} {','.join(levels)} seed {seed}: "
              f"{plies} moves, {len(first) + len(rest)} narration lines: {'ok' if ok else 'DIFFERENT'}")
        if not ok:
            failures.append(f"{game}: the browser's game differs from `koom play`")


def check_controls(driver, url, failures, metrics):
    for game, level, seats, human in CONTROL_GAMES:
        t0 = time.time()
        driver.get(f"{url}?game={game}&seats={seats}&human={human}&level={level}&seed=7&autostart=1")
        got = driver.run(PLAY_THROUGH_CONTROLS, 6)
        if "paused" in got:
            driver.screenshot("#board svg", OUT / f"{game}-playing.png")
            got = driver.run(PLAY_THROUGH_CONTROLS, None)
        if "error" in got:
            failures.append(f"{game}: {got['error']}")
            continue
        if not got["result"] or got["result"] == "—" or got["reason"] not in got["result"]:
            failures.append(f"{game}: no result shown ({got['result']!r})")
        # The narration names each seat as the controls do (red, attackers, player 2).
        seat = re.search(r"\bseat \d+\b", got["narration"])
        if seat:
            failures.append(f"{game}: the narration says “{seat.group(0)}” where the side has a name")
        if len(got["rules"]) < 200:
            failures.append(f"{game}: no rules shown ({got['rules']!r})")
        driver.screenshot("#board svg", OUT / f"{game}.png")
        driver.screenshot("main", OUT / f"{game}-page.png")
        print(f"page: {game} vs {level}: {got['moves']} moves, result “{got['result']}” "
              f"({time.time() - t0:.1f} s)")


# Waits for the first move a watched game shows; its time since navigation start.
FIRST_MOVE = """
const done = arguments[arguments.length - 1];
(function wait() {
  const p = window.koomPage && window.koomPage.page;
  if (p && p.firstMoveMs !== null) return done(p.firstMoveMs);
  setTimeout(wait, 5);
})();
"""


def measure_first_move(driver, url, metrics):
    """Page load to first move: the computer (its weakest level) plays every seat."""
    for game, _, seats, _ in CONTROL_GAMES:
        driver.get(f"{url}?game={game}&seats={seats}&human=&seed=7&autostart=1")
        ms = driver.run(FIRST_MOVE)
        metrics.setdefault("first_move_ms", {})[game] = round(ms)
        print(f"page load to first move, {game}: {ms:.0f} ms")


def check_move_times(driver, metrics):
    for game, seed, count in MOVETIMES:
        browser = driver.run(MOVE_TIMES, game, seed, count)
        native = json.loads(subprocess.run(
            [MOVETIME, game, str(seed), str(count)], check=True, capture_output=True, text=True
        ).stdout)
        ratio = median(browser) / median(native)
        metrics.setdefault("expert_move_ms", {})[game] = {
            "moves": len(browser), "browser_median": round(median(browser), 1),
            "native_median": round(median(native), 1), "ratio": round(ratio, 2),
        }
        print(f"expert move time, {game}: browser median {median(browser):.1f} ms, "
              f"native {median(native):.1f} ms, ratio {ratio:.2f} ({len(browser)} moves)")

# The load-record box: a line of `koom run --records` typed into it and replayed by the page's
# own button. `seed` goes into the seed field (a dice game's record needs the run's master seed).
LOAD_RECORD = """
const [game, seed, line, done] = arguments;
(async () => {
  const { page } = window.koomPage;
  const $ = (id) => document.getElementById(id);
  $("game").value = game;
  $("game").dispatchEvent(new Event("change"));
  $("human").value = "0";
  $("seed").value = String(seed);
  $("record").value = line;
  const before = page.generation;
  $("load").click();
  const started = Date.now();
  (function wait() {
    const error = $("error") ? $("error").textContent : "";
    if (error) return done({ error });
    const text = $("hint-text").textContent;
    if (page.generation !== before && text.startsWith("record:")) {
      return done({ moves: page.state.moves, result: page.state.result, text });
    }
    if (Date.now() - started > 60000) return done({ error: "timed out" });
    setTimeout(wait, 50);
  })();
})().catch((e) => done({ error: String(e) }));
"""


def check_load_record(driver, url, failures):
    """Records written by `koom run --records` replay through the page's box."""
    koom = ROOT / "target" / "release" / "koom"
    with tempfile.TemporaryDirectory() as tmp:
        for game, agents in [("hnefatafl", "easy,normal"), ("ludo", "easy,normal,easy,hard")]:
            records = Path(tmp) / f"{game}.txt"
            subprocess.run([str(koom), "run", "--game", game, "--agents", agents, "--games", "1",
                            "--seed", "3", "--records", str(records), "--out", str(Path(tmp) / game)],
                           check=True, capture_output=True)
            line = records.read_text().splitlines()[0]
            moves = line.split("\t")[9].split(",")
            driver.get(url)
            driver.run("const d = arguments[0]; (function w() { document.body.dataset.ready ? d() : setTimeout(w, 20); })();")
            got = driver.run(LOAD_RECORD, game, 3, line)
            if "error" in got:
                failures.append(f"load record {game}: {got['error']}")
                continue
            if got["moves"] != moves or not got["result"]:
                failures.append(f"load record {game}: {len(got['moves'])} moves replayed of {len(moves)}, result {got['result']}")
            if re.search(r"\bseat \d+\b", got["text"]):
                failures.append(f"load record {game}: “{got['text']}” names a seat, not its side")
            print(f"load record {game}: {len(moves)} moves replayed, “{got['text']}”")
            if game == "ludo":
                # Another master seed: other dice, so the record cannot replay; the page says why.
                driver.get(url)
                driver.run("const d = arguments[0]; (function w() { document.body.dataset.ready ? d() : setTimeout(w, 20); })();")
                got = driver.run(LOAD_RECORD, game, 4, line)
                if "replays only with its dice" not in got.get("error", ""):
                    failures.append(f"load record ludo, wrong seed: {got}")


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    procs = []
    failures = []
    metrics = {}
    try:
        http_port, driver_port = free_port(), free_port()
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "http.server", str(http_port), "--bind", "127.0.0.1",
             "--directory", str(ROOT / "web" / "www")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        ))
        procs.append(subprocess.Popen(
            [os.environ.get("CHROMEDRIVER", "chromedriver"), f"--port={driver_port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        ))
        url = f"http://127.0.0.1:{http_port}/index.html"
        wait_for(url)
        wait_for(f"http://127.0.0.1:{driver_port}/status")
        # Until the WebAssembly has loaded the page says so, rather than showing empty menus.
        if "Loading the game engine" not in urllib.request.urlopen(url, timeout=5).read().decode():
            failures.append("index.html shows no loading state")
        driver = Driver(driver_port)
        try:
            check_controls(driver, url, failures, metrics)
            measure_first_move(driver, url, metrics)
            driver.get(url)
            driver.run("const d = arguments[0]; (function w() { document.body.dataset.ready ? d() : setTimeout(w, 20); })();")
            errors = driver.run(BAD_INPUT)
            expected = ["unknown game `chess`", "malformed thud options", "illegal thud move `A1-A2`",
                        "unknown thud level `grandmaster`"]
            for want, got in zip(expected, errors):
                if not got.startswith(want):
                    failures.append(f"bad input: expected “{want}…”, got “{got}”")
            print(f"bad input rejected: {len(errors)} cases")
            check_load_record(driver, url, failures)
            check_same_moves(driver, failures)
            if os.environ.get("WEB_MEASURE", "1") == "1":
                check_move_times(driver, metrics)
            logs = driver.console()
            bad = [l for l in logs if l.get("level") in ("SEVERE", "ERROR")]
            for l in bad:
                failures.append(f"console: {l.get('message')}")
            print(f"console: {len(logs)} messages, {len(bad)} errors")
        finally:
            driver.quit()
    finally:
        for p in procs:
            p.terminate()
    (OUT / "metrics.json").write_text(json.dumps(metrics, indent=2) + "\n")
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print("page test passed; screenshots and metrics.json in web/test-output/")


if __name__ == "__main__":
    main()
