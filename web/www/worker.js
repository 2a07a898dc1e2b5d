// The engine runs here, off the page's thread: a search never freezes the page.
// Messages: {id, op, args} -> {id, value, state, narration} or {id, error}.
import init, { KoomGame } from "./pkg/web.js";

const ready = init();
let game = null;

function current() {
  if (!game) throw new Error("no game started");
  return game;
}

const ops = {
  games: () => KoomGame.games(),
  parseRecord: (text) => KoomGame.parseRecord(text),
  start(name, config) {
    const next = new KoomGame(name, config);
    if (game) game.free();
    game = next;
    return null;
  },
  play: (move) => current().play(move),
  hint: (level, budget) => current().hint(level, budget),
  // A computer move: the level's choice, played.
  ai: (level, budget) => current().playLevel(level, budget),
  undo: () => current().undo(),
  state: () => null,
};

self.onmessage = async (event) => {
  const { id, op, args } = event.data;
  try {
    await ready;
    const fn = ops[op];
    if (!fn) throw new Error(`unknown operation ${op}`);
    const value = fn(...args);
    const reply = { id, value };
    if (game) {
      reply.state = game.state();
      reply.narration = game.takeNarration();
    }
    self.postMessage(reply);
  } catch (e) {
    self.postMessage({ id, error: String(e && e.message ? e.message : e) });
  }
};
