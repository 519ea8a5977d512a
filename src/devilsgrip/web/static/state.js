// What the page knows: the server's last state, the settings, what is picked up,
// and what the board shows (the player's game or a position of the best line).

export const COLUMNS = 8;
export const CELLS = [];
for (let i = 0; i < 24; i += 1) CELLS.push("abcdefgh"[i % COLUMNS] + String(Math.floor(i / COLUMNS) + 1));

export const SPEEDS = { off: 0, fast: 0.55, normal: 1, slow: 1.8 };

export const $ = (id) => document.getElementById(id);

// --------------------------------------------------------------- the state
export const app = {
  state: null,
  settings: { lang: "en", four_colour: false, animation: "normal", rules: "classic" },
  selected: null, // "talon" or a cell index
  arrangedFor: "",
  arranged: 0, // how many of the won grid's arranging swaps are shown
  viewer: null, // the best line on show: {sol, index, running}; nothing is sent
  solutionCache: null, // {key, sol}: the line of the game that ended
  hintTimer: 0,
  clock: { base: 0, at: 0, running: false },
  drag: null,
  pending: 0, // tasks queued or running (api.js)
};

export const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

export function speed() {
  if (reducedMotion.matches) return 0;
  return SPEEDS[app.settings.animation] ?? 1;
}

export function cardUrl(code) {
  if (!code) return "/cards/empty.svg";
  if (code === "back") return "/cards/back.svg";
  return "/cards/" + code + ".svg" + (app.settings.four_colour ? "?four=1" : "");
}


// ------------------------------------------------------------------ rendering
// What the board shows: the player's game, or a position of the best line.
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

// The cells a card picked up at place can be built on, as the server's state says (the
// player's game only: nothing is picked up while the viewer shows another position).
export function targetsFrom(place) {
  if (place === null || place === "stock" || app.viewer || !app.state) return [];
  return ((app.state.targets || {})[placeName(place)] || []).map((name) => CELLS.indexOf(name));
}

// The empty cells a pile picked up at place swaps with when dropped there (the server's
// drop policy, sent with the state).
export function swapsFrom(place) {
  if (place === null || place === "stock" || app.viewer || !app.state) return [];
  return ((app.state.swaps || {})[placeName(place)] || []).map((name) => CELLS.indexOf(name));
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


// --------------------------------------------------------- the end, the win
export function gameKey() {
  const st = app.state;
  return st ? `${st.game && st.game.id}:${st.view.moves}:${st.view.given_up}:${st.view.over}` : "";
}

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

export function ended() {
  const v = app.state ? app.state.view : null;
  return Boolean(v && (v.over || v.won || v.given_up));
}
