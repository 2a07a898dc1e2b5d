// The page: setup, board clicks, computer turns, hint, undo and record replay. The engine runs
// in worker.js; every call goes through `call`, which resolves with the worker's reply.
import { BOARDS, moveSquares } from "./boards.js";

const $ = (id) => document.getElementById(id);
const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
const pending = new Map();
let nextId = 0;

/** Runs `op` in the worker; rejects with the engine's message on bad input. */
function call(op, ...args) {
  const id = nextId++;
  worker.postMessage({ id, op, args });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

// The worker or its WebAssembly failed to load: say so (and fail the page test's console check).
worker.onerror = (event) => {
  showError(`the engine failed to load: ${event.message || "see the console"}`);
  console.error("worker error", event.message);
};

worker.onmessage = (event) => {
  const reply = event.data;
  const { resolve, reject } = pending.get(reply.id);
  pending.delete(reply.id);
  if (reply.error !== undefined) reject(new Error(reply.error));
  else resolve(reply);
};

const page = {
  games: [],
  state: null,
  setup: null,
  selected: null,
  narration: "",
  /** The roll shown for Ludo, from the narration (the engine rolls as the game advances). */
  lastRoll: "",
  /** Milliseconds from navigation start to the first move shown. */
  firstMoveMs: null,
  busy: false,
  generation: 0,
};

function showError(message) {
  $("error").textContent = message;
}

function sideNames() {
  const { game, seats } = page.setup;
  return BOARDS[game].sides(seats);
}

/** The engine's narration (the same text as `koom play`, which numbers seats) with each seat
 *  under the name the controls give it, so that "seat 2" never stands beside "yellow". */
function named(text) {
  const names = sideNames();
  return text.replace(/\bseat (\d+)( wins)?\b/g, (whole, s, wins = "") => {
    const name = names[Number(s)];
    if (name === undefined) return whole;
    // "attackers win", "red wins".
    return `${name}${wins && name.endsWith("s") ? " win" : wins}`;
  });
}

/** Whether every legal move is a board move (`FROM-TO…`), so that clicking a piece and then a
 *  square plays any of them: the buttons then list only the selected piece's moves, not a
 *  hundred. */
function boardPlaysAll(state) {
  return state.legalMoves.length > 0 && state.legalMoves.every((m) => moveSquares(m) !== null);
}

function update(reply) {
  if (reply.state) page.state = reply.state;
  if (reply.narration) {
    page.narration += reply.narration;
    const rolls = [...reply.narration.matchAll(/rolls ([\d ]+)/g)];
    if (rolls.length) page.lastRoll = rolls[rolls.length - 1][1].trim();
  }
  if (page.firstMoveMs === null && page.state && page.state.moves.length > 0) {
    page.firstMoveMs = performance.now();
  }
  render();
}

function render() {
  const state = page.state;
  if (!state) return;
  const board = BOARDS[state.game];
  $("board").innerHTML = board.draw(state, page.selected);
  const names = sideNames();
  const result = state.result;
  if (result) {
    const who = result.noResult
      ? "no result"
      : result.winners.length === 0
        ? "draw"
        : `${result.winners.length > 1 ? "shared win" : "winner"}: ${result.winners.map((s) => names[s]).join(" and ")}`;
    const points = result.points ? ` — points ${result.points.join(" : ")}` : "";
    $("result").textContent = `${who} (${result.reason})${points}`;
    $("status").textContent = "Game over.";
  } else {
    $("result").textContent = "—";
    const roll = state.game === "ludo" && page.lastRoll ? `, rolled ${page.lastRoll}` : "";
    const you = state.toMove === page.setup.human ? " (you)" : "";
    $("status").textContent = `${names[state.toMove]} to move${you}${roll}`;
  }
  $("moves").innerHTML = "";
  for (const mv of state.moves) {
    const li = document.createElement("li");
    li.textContent = mv;
    $("moves").append(li);
  }
  $("moves").scrollTop = $("moves").scrollHeight;
  const legal = $("legal");
  legal.innerHTML = "";
  const mine = !result && state.toMove === page.setup.human;
  const shown = page.selected
    ? state.legalMoves.filter((m) => (moveSquares(m) || [])[0] === page.selected)
    : boardPlaysAll(state) ? [] : state.legalMoves;
  if (mine && shown.length === 0) {
    legal.textContent = "Click one of your pieces to see its moves.";
  }
  for (const mv of mine ? shown : []) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = board.label ? board.label(mv) : mv;
    b.dataset.move = mv;
    legal.append(b);
  }
  $("narration").textContent = named(page.narration.split("\n").slice(-200).join("\n"));
  $("narration").scrollTop = $("narration").scrollHeight;
  document.body.dataset.over = result ? "1" : "0";
}

async function humanMove(move) {
  if (page.busy) return;
  // One move at a time: a second click before the reply would play for the wrong seat.
  page.busy = true;
  page.selected = null;
  $("legal").innerHTML = "";
  try {
    showError("");
    update(await call("play", move));
  } catch (e) {
    showError(e.message);
  } finally {
    page.busy = false;
  }
  computerTurns();
}

/** Plays the computer's seats until it is the human's turn or the game is over. */
async function computerTurns() {
  const generation = page.generation;
  while (
    page.state &&
    !page.state.result &&
    page.state.toMove !== page.setup.human &&
    generation === page.generation
  ) {
    page.busy = true;
    try {
      const reply = await call("ai", page.setup.level, page.setup.budget);
      if (generation !== page.generation) break;
      update(reply);
    } catch (e) {
      showError(e.message);
      break;
    } finally {
      page.busy = false;
    }
  }
}

function readSetup() {
  const game = $("game").value;
  const seats = Number($("seats").value);
  const human = $("human").value === "" ? null : Number($("human").value);
  return { game, seats, human, level: $("level").value, budget: $("budget").value, seed: $("seed").value.trim() };
}

/** Starts a game from the form (a new seed when the field is empty); `record` (from
 *  `KoomGame.parseRecord`: a `koom run --records` line or a move list) is replayed. */
async function newGame(record = null) {
  page.generation++;
  showError("");
  const setup = readSetup();
  if (setup.seed === "") {
    setup.seed = String(crypto.getRandomValues(new Uint32Array(1))[0]);
    $("seed").value = setup.seed;
  }
  const config = { seed: setup.seed, seats: setup.seats };
  if (record && record.agents.length > 0) {
    // A records line: its seat count, seed group and start.
    config.seats = setup.seats = record.agents.length;
    config.group = record.group;
    if (record.start !== null) config.position = record.start;
  }
  page.setup = setup;
  page.selected = null;
  page.narration = "";
  page.lastRoll = "";
  $("hint-text").textContent = "";
  try {
    update(await call("start", setup.game, config));
    for (const [i, mv] of (record ? record.moves : []).entries()) {
      try {
        update(await call("play", mv));
      } catch (e) {
        const info = page.games.find((g) => g.name === setup.game);
        const dice = info && info.dice
          ? ` (a ${setup.game} record replays only with its dice: put the master seed given to koom run in the seed field)`
          : "";
        throw new Error(`record move ${i + 1}: ${e.message}${dice}`);
      }
    }
    if (record && record.result !== null) {
      $("hint-text").textContent = `record: ${record.agents.join(", ")} · ${named(record.result)} (${record.reason})`;
    }
  } catch (e) {
    showError(e.message);
    return;
  }
  computerTurns();
}

function fillGameControls() {
  const info = page.games.find((g) => g.name === $("game").value);
  const seats = $("seats");
  seats.min = info.seats[0];
  seats.max = info.seats[1];
  seats.disabled = info.seats[0] === info.seats[1];
  seats.value = Math.min(Math.max(Number(seats.value) || info.seats[0], info.seats[0]), info.seats[1]);
  const names = BOARDS[info.name].sides(Number(seats.value));
  $("human").innerHTML =
    names.map((n, s) => `<option value="${s}">${n}</option>`).join("") +
    `<option value="">nobody (watch)</option>`;
  $("level").innerHTML = info.levels
    .map((l) => `<option value="${l.name}" title="${l.summary}">${l.name}</option>`)
    .join("");
  const board = BOARDS[info.name];
  $("rules-text").innerHTML = `${board.rules}<p><b>How to play here:</b> ${board.howTo}</p>`;
}

function boardClick(event) {
  const pawn = event.target.closest("[data-move]");
  const state = page.state;
  if (!state || state.result || state.toMove !== page.setup.human) return;
  if (pawn) return humanMove(pawn.dataset.move);
  const square = event.target.closest("[data-square]")?.dataset.square;
  if (!square) return;
  if (page.selected === null || page.selected === square) {
    const origin = state.legalMoves.some((m) => (moveSquares(m) || [])[0] === square);
    page.selected = page.selected === square || !origin ? null : square;
    return render();
  }
  const candidates = state.legalMoves.filter((m) => {
    const sq = moveSquares(m);
    return sq && sq[0] === page.selected && sq[1] === square;
  });
  if (candidates.length === 1) return humanMove(candidates[0]);
  // Several captures end on this square (Thud trolls): the legal-move buttons list them.
  if (candidates.length === 0) page.selected = null;
  render();
}

async function main() {
  const params = new URLSearchParams(location.search);
  // The games the page can draw: a game the engine adds before its board is drawn here is
  // simply not offered.
  page.games = (await call("games")).value.filter((g) => g.name in BOARDS);
  $("game").innerHTML = page.games.map((g) => `<option>${g.name}</option>`).join("");
  if (params.has("game")) $("game").value = params.get("game");
  fillGameControls();
  for (const key of ["seats", "level", "budget", "seed"]) {
    if (params.has(key)) $(key).value = params.get(key);
  }
  if (params.has("seats")) fillGameControls();
  if (params.has("level")) $("level").value = params.get("level");
  if (params.has("human")) $("human").value = params.get("human");
  $("game").addEventListener("change", fillGameControls);
  $("seats").addEventListener("change", fillGameControls);
  $("setup").addEventListener("submit", (e) => {
    e.preventDefault();
    newGame();
  });
  $("board").addEventListener("click", boardClick);
  $("legal").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-move]");
    if (b) humanMove(b.dataset.move);
  });
  $("hint").addEventListener("click", async () => {
    try {
      const { value } = await call("hint", page.setup.level, page.setup.budget);
      const score = value.score === null ? "no score" : `score ${Number(value.score.toFixed(3))}`;
      const pv = value.pv.length > 1 ? ` · pv ${value.pv.join(" ")}` : "";
      $("hint-text").textContent =
        `${value.level} plays ${value.move} (${score}${pv}; depth ${value.depth}, ` +
        `${value.nodes} nodes, ${value.ms.toFixed(1)} ms)`;
    } catch (e) {
      showError(e.message);
    }
  });
  $("undo").addEventListener("click", async () => {
    page.generation++;
    try {
      // Take back the computer's reply too, so that it is the human's turn again.
      let reply = await call("undo");
      while (reply.value && page.setup.human !== null && reply.state.toMove !== page.setup.human) {
        reply = await call("undo");
      }
      page.narration = "";
      update(reply);
    } catch (e) {
      showError(e.message);
    }
  });
  $("load").addEventListener("click", async () => {
    try {
      const { value } = await call("parseRecord", $("record").value);
      newGame(value);
    } catch (e) {
      showError(e.message);
    }
  });
  document.body.dataset.ready = "1";
  $("new").disabled = false;
  $("status").textContent = "Choose a game and press New game.";
  if (params.get("autostart") === "1") newGame();
}

// For tests and the console: the worker API and the page's state.
window.koomPage = { call, page, newGame };
main().catch((e) => showError(e.message));
