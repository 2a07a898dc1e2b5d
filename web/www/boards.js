// SVG boards. Each game reads the engine's position text (the same text `koom legal` prints)
// and returns the SVG markup; squares carry `data-square` and pawns `data-move` for clicks.
// Only drawing lives here: legality, notation and results all come from the engine.

const svg = (w, h, body) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}">${body}</svg>`;

/** `FROM-TO...` board moves: the two squares, lower case. */
export function moveSquares(move) {
  const m = /^([a-z]\d+)-([a-z]\d+)/i.exec(move);
  return m ? [m[1].toLowerCase(), m[2].toLowerCase()] : null;
}

/** Expands a rank of a position (`3ttttt3`, `d13d`) into one character per square. */
function expandRank(text) {
  const out = [];
  for (const [, run, piece] of text.matchAll(/(\d+)|([A-Za-z])/g)) {
    if (run) for (let i = 0; i < Number(run); i++) out.push(".");
    else out.push(piece);
  }
  return out;
}

/** Marks for the squares a click can use: origins, or the selection's destinations. */
function marks(legal, selected) {
  const from = new Set();
  const to = new Set();
  for (const mv of legal) {
    const sq = moveSquares(mv);
    if (!sq) continue;
    if (selected === null) from.add(sq[0]);
    else if (sq[0] === selected) to.add(sq[1]);
  }
  return { from, to };
}

function piece(cx, cy, r, fill, stroke, letter) {
  const text = letter
    ? `<text x="${cx}" y="${cy + 5}" text-anchor="middle" style="font-weight:700;fill:${stroke === "#000" ? "#fff" : "#000"}">${letter}</text>`
    : "";
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}" stroke="${stroke}" stroke-width="2"/>${text}`;
}

/** A square board drawn from `ranks` (top rank first, one character per square or null). */
function gridBoard({ files, ranks, size, cellFill, pieceOf, state, selected }) {
  const margin = 24;
  const n = ranks.length;
  const { from, to } = marks(state.legalMoves, selected);
  let body = "";
  ranks.forEach((row, y) => {
    const rank = n - y;
    row.forEach((ch, x) => {
      if (ch === null) return;
      const sq = `${files[x]}${rank}`.toLowerCase();
      const px = margin + x * size;
      const py = margin + y * size;
      let cls = "cell";
      if (sq === selected) cls += " selected";
      else if (from.has(sq)) cls += " from";
      const fill = to.has(sq) ? "#9fd19f" : cellFill(x, y, sq);
      body += `<rect class="${cls}" data-square="${sq}" x="${px}" y="${py}" width="${size}" height="${size}" fill="${fill}"/>`;
      const p = pieceOf(ch);
      if (p) body += `<g pointer-events="none">${piece(px + size / 2, py + size / 2, size * 0.36, ...p)}</g>`;
    });
  });
  for (let x = 0; x < files.length; x++) {
    body += `<text class="label" x="${margin + x * size + size / 2}" y="16" text-anchor="middle">${files[x]}</text>`;
    body += `<text class="label" x="${margin + x * size + size / 2}" y="${margin + n * size + 17}" text-anchor="middle">${files[x]}</text>`;
  }
  for (let y = 0; y < n; y++) {
    body += `<text class="label" x="12" y="${margin + y * size + size / 2 + 5}" text-anchor="middle">${n - y}</text>`;
    body += `<text class="label" x="${margin + files.length * size + 12}" y="${margin + y * size + size / 2 + 5}" text-anchor="middle">${n - y}</text>`;
  }
  const w = margin * 2 + files.length * size;
  return svg(w, margin * 2 + n * size, body);
}

const THUD_FILES = "ABCDEFGHJKLMNOP";
const THUD_WIDTHS = [5, 7, 9, 11, 13, 15, 15, 15, 15, 15, 13, 11, 9, 7, 5];

const thud = {
  // The rules in short (docs/rules/thud.md) and how to play them here.
  rules: `<p>Two rounds, sides swapped: 32 dwarfs (1 point each) against 8 trolls (4 points each)
    around the Thud stone in the middle. The dwarfs move first. A round ends when nobody has
    captured for a while (or a side is gone); each side scores its surviving pieces, and the match
    goes to the higher total over both rounds.</p>
    <ul><li><b>Dwarfs</b> move like a chess queen. A line of N dwarfs can hurl its front dwarf up to
    N squares onto a troll, taking it.</li>
    <li><b>Trolls</b> step one square, then may take any of the dwarfs next to them. A line of N
    trolls can shove its front troll up to N squares to a square next to a dwarf, which it must
    then take.</li></ul>`,
  howTo: "Click one of your pieces, then the square to move it to; where several captures end on that square, pick one from the buttons.",
  sides: () => ["dwarfs", "trolls"],
  draw(state, selected) {
    const rows = state.position.split(" ")[0].split("/");
    const ranks = rows.map((text, y) => {
      const width = THUD_WIDTHS[y];
      const pad = (15 - width) / 2;
      const squares = expandRank(text);
      return [...Array(pad).fill(null), ...squares, ...Array(pad).fill(null)];
    });
    return gridBoard({
      files: THUD_FILES,
      ranks,
      size: 34,
      state,
      selected,
      cellFill: (x, y) => ((x + y) % 2 ? "#e8dcc4" : "#f4ecdc"),
      pieceOf: (ch) =>
        ({ d: ["#c9a227", "#5a4300", "d"], T: ["#4a6b3a", "#000", "T"], R: ["#777", "#000", "●"] })[ch],
    });
  },
};

const CORNERS = new Set(["a1", "a11", "k1", "k11"]);

const hnefatafl = {
  // The rules in short (docs/rules/hnefatafl.md) and how to play them here.
  rules: `<p>Copenhagen Hnefatafl on 11×11: 24 attackers against 12 defenders and their king. The
    attackers move first. The defenders win when the king reaches a corner (or a fort on the
    edge); the attackers win by surrounding the king on all four sides (three and the throne) or
    by enclosing every defender.</p>
    <ul><li>Every piece moves like a chess rook. Only the king may stop on the throne (centre) or
    a corner.</li>
    <li>A soldier is taken when a move traps it between two enemies on a rank or file; a corner,
    or the empty throne, counts as an enemy.</li>
    <li>A row of soldiers along an edge, each faced by an enemy, is taken at once when an enemy
    closes both ends (the shield wall).</li></ul>`,
  howTo: "Click one of your pieces, then the square to move it to. The moves of the selected piece are also listed as buttons.",
  sides: () => ["attackers", "defenders"],
  draw(state, selected) {
    const board = state.position.split(" ")[0].replace(/^\/|\/$/g, "");
    const ranks = board.split("/").map(expandRank);
    return gridBoard({
      files: "abcdefghijk",
      ranks,
      size: 42,
      state,
      selected,
      cellFill: (x, y, sq) => (CORNERS.has(sq) || sq === "f6" ? "#b58863" : "#f0e0c0"),
      pieceOf: (ch) =>
        ({ t: ["#222", "#000", ""], T: ["#fff", "#333", ""], K: ["#fff", "#333", "K"] })[ch],
    });
  },
};

// Ludo: the 52 track squares of a 15x15 cross, clockwise from seat 0's start (column, row).
const TRACK = (() => {
  const path = [];
  const run = (x0, y0, dx, dy, n) => {
    for (let i = 0; i < n; i++) path.push([x0 + dx * i, y0 + dy * i]);
  };
  run(1, 6, 1, 0, 5); run(6, 5, 0, -1, 6); run(7, 0, 1, 0, 2);
  run(8, 1, 0, 1, 5); run(9, 6, 1, 0, 6); run(14, 7, 0, 1, 2);
  run(13, 8, -1, 0, 5); run(8, 9, 0, 1, 6); run(7, 14, -1, 0, 2);
  run(6, 13, 0, -1, 5); run(5, 8, -1, 0, 6); run(0, 7, 0, -1, 2);
  return path;
})();
const LUDO_COLOURS = ["#d33", "#2a2", "#db2", "#36c"];
const LUDO_NAMES = ["red", "green", "yellow", "blue"];
// Per seat: the home straight's first square and its step, and the yard's corner.
const HOME = [[[1, 7], [1, 0]], [[7, 1], [0, 1]], [[13, 7], [-1, 0]], [[7, 13], [0, -1]]];
const YARDS = [[0, 0], [9, 0], [9, 9], [0, 9]];

/** Where a pawn stands ("yard", "finish", "home 3", "12") as a cell, or null in the yard. */
function ludoCell(seat, where) {
  if (where === "yard") return null;
  if (where === "finish") return [7 + [-0.25, 0, 0.25, 0][seat], 7 + [0, -0.25, 0, 0.25][seat]];
  const home = /^home (\d)$/.exec(where);
  if (home) {
    const [[x, y], [dx, dy]] = HOME[seat];
    const k = Number(home[1]) - 1;
    return [x + dx * k, y + dy * k];
  }
  return TRACK[(13 * seat + Number(where)) % 52];
}

/** Each seat's four pawns as the picture names them ("yard", "12", "home 3", "finish"), from
 *  the position (`pawns=y,12,57,y/... mover=1 roll=6`) or, where there is none (a finished
 *  game), the text picture (`seat 0: yard, 12, finish, yard`). */
function ludoPawns(text) {
  const pawns = /pawns=(\S+)/.exec(text);
  if (!pawns) return text.trim().split("\n").map((line) => line.split(": ")[1].split(", "));
  const where = (p) =>
    p === "y" ? "yard" : p === "57" ? "finish" : Number(p) > 50 ? `home ${Number(p) - 50}` : p;
  return pawns[1].split("/").map((seat) => seat.split(",").map(where));
}

const ludo = {
  // The rules in short (docs/rules/ludo.md) and how to play them here.
  rules: `<p>Four players, four pawns each; the first to bring all four home wins. Roll one die
    and move one pawn that many squares; a 6 brings a pawn out of the yard and gives another roll
    (a third 6 in a row is void). Landing on an opponent's pawn sends it back to its yard, except
    on the safe squares (the entry squares and the stars). Finishing needs the exact count. Stacks
    of one colour neither block nor protect.</p>`,
  howTo: "The die is rolled for you; click a highlighted pawn, or its button, to move it.",
  sides: () => LUDO_NAMES,
  draw(state) {
    const size = 32;
    const seats = ludoPawns(state.position);
    const movable = new Map();
    for (const mv of state.legalMoves) movable.set(Number(/^pawn (\d)/.exec(mv)[1]), mv);
    let body = "";
    YARDS.forEach(([x, y], s) => {
      body += `<rect x="${x * size}" y="${y * size}" width="${6 * size}" height="${6 * size}" fill="${LUDO_COLOURS[s]}" opacity="0.35"/>`;
    });
    TRACK.forEach(([x, y], sq) => {
      const safe = sq % 13 === 0 || sq % 13 === 8;
      const start = sq % 13 === 0 ? LUDO_COLOURS[sq / 13] : safe ? "#ddd" : "#fff";
      body += `<rect class="cell" x="${x * size}" y="${y * size}" width="${size}" height="${size}" fill="${start}"/>`;
      if (safe) body += `<text x="${x * size + 16}" y="${y * size + 21}" text-anchor="middle">★</text>`;
    });
    // The centre: each colour's triangle, the finish.
    const c = (x, y) => `${x * size},${y * size}`;
    [[c(6, 6), c(6, 9)], [c(6, 6), c(9, 6)], [c(9, 6), c(9, 9)], [c(6, 9), c(9, 9)]].forEach(([a, b], s) => {
      body += `<polygon points="${a} ${b} ${c(7.5, 7.5)}" fill="${LUDO_COLOURS[s]}" opacity="0.8" stroke="#888"/>`;
    });
    HOME.forEach(([[x, y], [dx, dy]], s) => {
      for (let k = 0; k < 6; k++) {
        body += `<rect class="cell" x="${(x + dx * k) * size}" y="${(y + dy * k) * size}" width="${size}" height="${size}" fill="${LUDO_COLOURS[s]}" opacity="0.6"/>`;
      }
    });
    seats.forEach((pawns, s) => {
      pawns.forEach((where, p) => {
        let cell = ludoCell(s, where);
        if (cell === null) cell = [YARDS[s][0] + 1.5 + (p % 2) * 2, YARDS[s][1] + 1.5 + Math.floor(p / 2) * 2];
        const mine = s === state.toMove && movable.has(p);
        const [cx, cy] = [cell[0] * size + size / 2 + (p - 1.5) * 3, cell[1] * size + size / 2 + (p - 1.5) * 3];
        const data = mine ? ` data-move="${movable.get(p)}" style="cursor:pointer"` : "";
        body += `<g${data}>${piece(cx, cy, 11, LUDO_COLOURS[s], mine ? "#1e6fd9" : "#000", String(p))}</g>`;
      });
    });
    return svg(15 * size, 15 * size, body);
  },
};

/** One die face with its pips. */
function die(x, y, value, kept) {
  const pips = {
    1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
    4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
    6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
  }[value] || [];
  let out = `<rect x="${x}" y="${y}" width="48" height="48" rx="8" fill="${kept ? "#ddd" : "#fff"}" stroke="#333" stroke-width="2"/>`;
  for (const [px, py] of pips) out += `<circle cx="${x + px * 12}" cy="${y + py * 12}" r="4.5" fill="#222"/>`;
  return out;
}

const trenteDouze = {
  // The rules in short (docs/rules/trente-douze.md) and how to play them here.
  rules: `<p>Three rounds; everyone starts each round on 30 points and below 0 is out for the round.
    On your turn roll six dice and set aside at least one after each roll until all six are aside.
    The first die set aside sets the target: 1 to 3 means the six must total 12 or less, 4 to 6
    that they must total 30 or more. Miss it and you lose the difference; beat it by L and you
    attack at level L: roll six dice and keep every L, rolling again while any shows; the victim
    loses L for each kept. The victim is the next player in round 1, the previous one in round 2,
    anyone you choose in round 3. A player knocked out by an attack strikes back with one last
    turn.</p>`,
  howTo: "Each button is one choice: the dice to set aside (and, on the first, whether you aim small or big), or whom to attack.",
  /** A move's button in words (the engine's notation, `keep 1 1 3 small`, stays its value). */
  label(move) {
    const target = { small: "aim small: 12 or less", big: "aim big: 30 or more" };
    let m = /^keep ([\d ]+) (small|big)$/.exec(move);
    if (m) return `set aside ${m[1]}, ${target[m[2]]}`;
    m = /^keep ([\d ]+)$/.exec(move);
    if (m) return `set aside ${m[1]}`;
    m = /^victim (\d+)$/.exec(move);
    return m ? `attack player ${m[1]}` : move;
  },
  sides: (seats) => Array.from({ length: seats }, (_, s) => `player ${s}`),
  // The position: `seats=N round=R scores=... [past=r1/r2] turn=T mover=M [threshold=... kept=...]
  // [roll=...]` during a game, `seats=N past=r1/r2/r3` (each round's final scores) at the end.
  draw(state) {
    const f = Object.fromEntries(state.position.trim().split(/\s+/).map((kv) => kv.split("=")));
    const seats = Number(f.seats);
    const past = f.past ? f.past.split("/").map((r) => r.split(",")) : [];
    const digits = (s) => (s || "").split("").map(Number);
    let body = "";
    let y = 28;
    const line = (text, bold = false) => {
      body += `<text class="label" x="12" y="${y}" style="${bold ? "font-weight:700" : ""}">${text}</text>`;
      y += 26;
    };
    if (f.round) {
      const rule = f.threshold
        ? `${f.threshold}: the sum must be ${f.threshold === "small" ? "12 or less" : "30 or more"}`
        : "the first die set aside sets the target: 1 to 3 small (12 or less), 4 to 6 big (30 or more)";
      line(`Round ${f.round} of 3 · player ${f.mover} to play · ${rule}`, true);
      const kept = digits(f.kept);
      const roll = digits(f.roll);
      body += `<text class="label" x="12" y="${y + 22}">kept</text>`;
      kept.forEach((v, i) => { body += die(70 + i * 56, y, v, true); });
      body += `<text class="label" x="${kept.length ? 90 + kept.length * 56 : 250}" y="${y + 22}">rolled</text>`;
      roll.forEach((v, i) => { body += die((kept.length ? 150 + kept.length * 56 : 310) + i * 56, y, v, false); });
      if (!roll.length) body += `<text class="label" x="310" y="${y + 22}">(choosing whom to hit)</text>`;
      y += 74;
      f.scores.split(",").forEach((score, s) => {
        line(`player ${s}: ${score} points${String(s) === f.mover ? "  ◀ to play" : ""}`, String(s) === f.mover);
      });
    } else {
      line("Game over: final scores of each round", true);
    }
    past.forEach((r, i) => line(`round ${i + 1}: ${r.map((v, s) => `player ${s} ${v}`).join(", ")}`));
    return svg(Math.max(560, 160 + 11 * 56), y, body);
  },
};

export const BOARDS = { thud, hnefatafl, ludo, "trente-douze": trenteDouze };
