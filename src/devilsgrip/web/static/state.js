// What the page knows: the server's last state, the settings, the words, what is picked
// up, what the board shows (the player's game or a position of a line), the review on
// show.  This module is the only one that changes it: every other module reads `app`
// and calls the functions below to change it (tests/web/test_page_modules.py checks).
// It imports no other module of the page.

export const COLUMNS = 8;
export const CELLS = [];
for (let i = 0; i < 24; i += 1) CELLS.push("abcdefgh"[i % COLUMNS] + String(Math.floor(i / COLUMNS) + 1));

export const SPEEDS = { off: 0, fast: 0.55, normal: 1, slow: 1.8 };

export const $ = (id) => document.getElementById(id);

// --------------------------------------------------------------- the state
export const app = {
  state: null, // the server's last state document (see docs/ARCHITECTURE.md)
  settings: { lang: "en", four_colour: false, animation: "normal", rules: "classic", sounds: true, guide: null },
  // the words, all from the server (/api/i18n and /api/settings), in the player's language
  words: {
    strings: {}, plurals: {}, pluralRule: "n!=1", cards: {}, ratings: {}, presetLabels: {},
    presets: {}, // name -> {label, options}: the server's presets, for the settings form
    languages: ["en", "fr", "da", "es", "hu"],
    names: { en: "English", fr: "Français", da: "Dansk", es: "Español", hu: "Magyar" },
  },
  selected: null, // "talon" or a cell index
  arrangedFor: "",
  arranged: 0, // how many of the won grid's arranging swaps are shown
  endShownFor: "", // the end dialog opens once for each end of a game (gameKey)
  viewer: null, // the line on show: {sol, index, running, review, number, rules}; nothing is sent
  solutionCache: null, // {key, sol}: the line of the game that ended
  review: { id: null, from: "end", doc: null, token: 0, focusN: null }, // the review dialog's game
  reviews: new Map(), // finished reviews by game and language: asked again, shown at once
  hintTimer: 0,
  clock: { base: 0, at: 0, running: false },
  dragging: null, // the place whose card is being dragged (input.js follows the pointer)
  pending: 0, // tasks queued or running (actions.js)
  daily: null, // the daily calendar on show (/api/daily), and the day chosen in it
  share: null, // the share of the game that ended: {text, game, rules, daily, url}
};

// ------------------------------------------------------------ changing it
// The server's new state; what was picked up and can no longer be is put back.
export function setGameState(next) {
  app.state = next;
  if (next.lang) app.settings.lang = next.lang;
  if (app.selected !== null && !selectable(app.selected)) app.selected = null;
  const game = next.game || {};
  app.clock = { base: Number(game.elapsed) || 0, at: performance.now(), running: Boolean(game.clock_running) };
}

// The play time as the server counts it (the game's clock runs while the page is shown).
export function setClock(elapsed, running) {
  if (app.state && app.state.game) {
    app.state.game.elapsed = elapsed;
    app.state.game.clock_running = running;
  }
  app.clock = { base: Number(elapsed) || 0, at: performance.now(), running: Boolean(running) };
}

export function setDaily(doc, chosen = null) {
  app.daily = doc ? { ...doc, chosen: chosen || doc.date } : null;
}

export function chooseDay(day) {
  if (app.daily) app.daily.chosen = day;
}

export function setShare(doc) {
  app.share = doc;
}

export function setSettings(values) {
  Object.assign(app.settings, values);
}

// The words of /api/i18n (null: none could be read, the page speaks English).
export function setWords(data) {
  const w = app.words;
  if (!data) {
    w.strings = {};
    w.plurals = {};
    return;
  }
  w.strings = data.strings || {};
  w.plurals = data.plurals || {};
  w.pluralRule = data.plural_rule || "n!=1";
  w.cards = data.cards || {};
  w.ratings = data.ratings || {};
  w.presetLabels = data.presets || {};
  if (Array.isArray(data.languages) && data.languages.length) {
    w.languages = data.languages.map((l) => (typeof l === "string" ? l : l.code));
  }
  if (data.names) Object.assign(w.names, data.names);
  if (data.lang) app.settings.lang = data.lang;
}

export function setPresets(presets) {
  app.words.presets = presets;
}

export function setSelected(place) {
  app.selected = place;
}

// A game just won: its grid is arranged step by step from here (see actions.arrange).
export function startArranging(id) {
  app.arrangedFor = String(id);
  app.arranged = 0;
}

export function setArranged(count) {
  app.arranged = count;
}

export function setEndShown(key) {
  app.endShownFor = key;
}

export function setViewer(viewer) {
  app.viewer = viewer;
}

export function setViewerIndex(index) {
  if (app.viewer) app.viewer.index = index;
}

export function setViewerRunning(viewer, running) {
  viewer.running = running;
}

export function setSolution(key, sol) {
  app.solutionCache = { key, sol };
}

export function setHintTimer(timer) {
  app.hintTimer = timer;
}

export function setDragging(place) {
  app.dragging = place;
}

export function addPending(delta) {
  app.pending += delta;
  return app.pending;
}

// The review dialog shows game id (null: the game in play), opened from "end", "menu" or
// "history"; the token tells a review still asked for from one asked for since.
export function showReviewOf(id, from) {
  Object.assign(app.review, { id, from, doc: null, focusN: null, token: app.review.token + 1 });
  return app.review.token;
}

export function setReviewDoc(doc) {
  app.review.doc = doc;
}

export function setReviewFocus(n) {
  app.review.focusN = n;
}

export function keepReview(key, doc) {
  app.reviews.set(key, doc);
}

// A game's review as kept in every language (it is being made anew).
export function forgetReview(id) {
  const prefix = reviewKey(id).split("|")[0] + "|";
  for (const key of [...app.reviews.keys()]) if (key.startsWith(prefix)) app.reviews.delete(key);
}

// ----------------------------------------------------------- reading it
export const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

export function speed() {
  if (reducedMotion.matches) return 0;
  return SPEEDS[app.settings.animation] ?? 1;
}

export function cardUrl(code) {
  if (!code) return "/cards/empty.svg";
  if (code === "back") return "/cards/back.svg";
  return "/cards/" + (app.settings.four_colour ? "four/" : "") + code + ".svg";
}

// What the board shows: the player's game, or a position of the line on show.
export function view() {
  if (app.viewer) return app.viewer.sol.positions[app.viewer.index];
  if (!app.state) return null;
  const v = app.state.view;
  const swaps = app.state.arrangement || [];
  if (!v.won || !swaps.length) return v;
  // a won grid is shown arranged (all at once when the game is loaded, step by step after the win)
  const shown = app.arrangedFor === String(app.state.game && app.state.game.id) ? app.arranged : swaps.length;
  return { ...v, grid: arrangedGrid(v.grid, swaps, shown) };
}

function placesOf(table, place) {
  if (place === null || place === "stock" || app.viewer || !app.state) return [];
  return ((app.state[table] || {})[placeName(place)] || []).map((name) => CELLS.indexOf(name));
}

// The cells a card picked up at place builds on, as the server's state says (the player's
// game only: nothing is picked up while the viewer shows another position).
export function targetsFrom(place) {
  return placesOf("targets", place);
}

// The empty cells a pile picked up at place swaps with when dropped there (the server's
// drop policy, sent with the state).
export function swapsFrom(place) {
  return placesOf("swaps", place);
}

// What picking up at place means, in words (the server's sentence), or null.
export function pickedText(place) {
  const picked = (app.state && app.state.picked) || {};
  return picked[placeName(place)] || null;
}

export function selectable(place) {
  const v = view();
  if (!v) return false;
  if (place === "talon") return v.talon.length > 0;
  if (typeof place === "number") return v.grid[place].length > 0;
  return false;
}

export function placeName(place) {
  return typeof place === "number" ? CELLS[place] : place;
}

export function placeIndex(name) {
  return CELLS.includes(name) ? CELLS.indexOf(name) : name;
}

export function gameKey() {
  const st = app.state;
  return st ? `${st.game && st.game.id}:${st.view.moves}:${st.view.given_up}:${st.view.over}` : "";
}

// The grid with the first count of the arranging swaps (pairs of cells) done.
export function arrangedGrid(grid, swaps, count = swaps.length) {
  const out = grid.slice();
  for (const pair of swaps.slice(0, count)) {
    const [a, b] = pair.map((name) => CELLS.indexOf(name));
    [out[a], out[b]] = [out[b], out[a]];
  }
  return out;
}

export function gameIdentity() {
  const game = (app.state && app.state.game) || {};
  return `${game.id}|${game.number}|${game.started}`;
}

// Whether action (deal, redeal, undo, redo, hint, give_up, best_line, review, new_game,
// restart, share) may be taken now: the server's answer (the state's applies).
export function applies(action) {
  return Boolean(app.state && Array.isArray(app.state.applies) && app.state.applies.includes(action));
}

// The key of a review kept in app.reviews: the game (id null: the game in play) and the language.
export function reviewKey(id) {
  const game = (app.state && app.state.game) || {};
  return `${id ?? "current:" + game.id + ":" + game.started}|${app.settings.lang}`;
}
