// The player's actions as requests: drops, the stock, undo, redo, new games,
// hints, and what follows a move (the arrangement of a won grid, the end).

import { captureRects, flourish, pause, planFlights, runFlights, snapBack } from "./animation.js";
import { api, ApiError, enqueue } from "./api.js";
import { confirmThen, openEnd } from "./dialogs.js";
import { cardName, loadStrings, t } from "./i18n.js";
import { clearHint, say, showMessage } from "./messages.js";
import { applyStrings, drawHintArrow, placeEl, render, renderClock } from "./render.js";
import { app, CELLS, gameKey, placeName, selectable, speed, swapsFrom, targetsFrom, view } from "./state.js";
import { closeViewer } from "./viewer.js";

let endShownFor = ""; // the end dialog opens once for each end of a game

// Pick up the card at place (null: put it back).  Where it can go is said in words by
// the server's table layer ("... it can go on c2 or f3.").
export function select(place) {
  app.selected = place;
  clearHint();
  render();
  if (place === null) return;
  const v = view();
  const what = place === "talon" ? cardName(v.talon[v.talon.length - 1])
    : cardName(v.grid[place][v.grid[place].length - 1]);
  const picked = (app.state && app.state.picked) || {};
  say(picked[placeName(place)] || t("Picked up the {card}.", { card: what }));
}

export async function applyState(next, options = {}) {
  const old = app.state;
  const before = captureRects();
  app.state = next;
  if (next.view.won && old && old.game && next.game && old.game.id === next.game.id && !old.view.won) {
    // just won: the grid is arranged step by step from here (see arrange)
    app.arrangedFor = String(next.game.id);
    app.arranged = 0;
  }
  if (next.lang && next.lang !== app.settings.lang) {
    app.settings.lang = next.lang;
    await loadStrings();
    applyStrings();
  }
  if (app.selected !== null && !selectable(app.selected)) app.selected = null;
  render();
  if (options.dealIn) {
    // a new deal: the 24 cards fly from the stock to their cells, row by row
    const after = captureRects();
    const flights = [];
    next.view.grid.forEach((pile, i) => {
      if (!pile.length) return;
      flights.push({ from: before.stock, fromPlace: "stock", to: after.cells[i], place: i,
        card: pile[pile.length - 1], below: null, group: 0, order: i, stagger: 28 });
    });
    await runFlights(flights, null);
  } else if (options.animate !== false && old && old.game && next.game && old.game.id === next.game.id) {
    const after = captureRects();
    await runFlights(planFlights(old.view, next.view, before, after), options.ghost);
  }
  if (options.ghost && options.ghost.el.isConnected) options.ghost.el.remove();
  if (next.announce && options.announce !== false) say(next.announce);
  if (!options.quiet) await afterMove();
}

// ----------------------------------------------------------------- playing

// A refusal: the cards go back, the reason is shown and spoken.  A game that
// another window changed is shown again as it stands.
export async function refused(error, options) {
  if (options.ghost) await snapBack(options.ghost);
  if (options.onRefused && error.status >= 400 && error.status < 500 && error.code !== "game-changed") {
    options.onRefused(error);
    return false;
  }
  if (error.code === "game-changed") {
    try {
      app.state = await api("GET", "/api/game");
    } catch {
      // keep what is shown
    }
  }
  render();
  showMessage(error.message, "error", options.offer);
  return false;
}

export async function send(path, body, options = {}) {
  closeViewer();
  app.selected = null;
  clearHint();
  try {
    const next = await api("POST", path, body);
    showMessage("");
    await applyState(next, options);
    return true;
  } catch (error) {
    return refused(error, options);
  }
}

// What the state does not say plays is not sent: the server's table layer is asked why it
// would be refused (GET /api/refusal, nothing changes) and the reason is shown.
async function sendChecked(ask, path, body, options = {}) {
  if (ask) {
    let why = null;
    try {
      why = await api("GET", "/api/refusal?" + new URLSearchParams(ask));
    } catch (error) {
      return refused(error, options);
    }
    if (why && why.error) {
      app.selected = null;
      clearHint();
      return refused(new ApiError(why.message, why.error, 409), options);
    }
  }
  return send(path, body, options);
}

// The keys' moves: d deals, r redeals (the state says which the stock plays now).
export function play(text, options) {
  const plays = app.state && app.state.stock === (text === "r" ? "redeal" : "deal");
  return enqueue(() => sendChecked(plays ? null : { move: text }, "/api/move", { move: text }, options));
}

// A card taken from one place and dropped on another: the server's drop policy
// says what it is (a build, a swap into an empty cell) or why it is refused.
// With swap, the two piles exchange places (the deliberate swap: x, or Shift+drop).
export function playDrop(from, to, options = {}) {
  if (from === null || to === null || from === to) {
    return enqueue(async () => { if (options.ghost) await snapBack(options.ghost); render(); return false; });
  }
  const body = { from: placeName(from), to: placeName(to) };
  if (options.swap) body.swap = true;
  const offer = !options.swap && typeof from === "number" && typeof to === "number"
    && view() && view().grid[from].length && view().grid[to].length
    ? { label: t("Swap these piles instead"), action: () => playDrop(from, to, { swap: true }) } : null;
  const plays = options.swap || targetsFrom(from).includes(to) || swapsFrom(from).includes(to);
  return enqueue(() => sendChecked(plays ? null : body, "/api/drop", body, { ...options, offer }));
}

// A click on the stock: the server deals, or redeals once the stock is empty.
export function dealOrRedeal() {
  const ask = app.state && app.state.stock ? null : { from: "stock", to: "stock" };
  return enqueue(() => sendChecked(ask, "/api/stock", {}));
}

export function simple(path, options = {}) {
  return enqueue(() => send(path, options.body, options));
}

// Undo and redo are sent only when the state says they can be (the buttons show it).
export const undo = () => (app.state && app.state.can_undo ? simple("/api/undo") : null);
export const redo = () => (app.state && app.state.can_redo ? simple("/api/redo") : null);

// Leaving a game that has moves ends it (as given up, or as over): the server
// says when that needs asking (game.leave_asks), the page asks.
export function leaveThen(action, ask = true) {
  const st = app.state;
  if (!ask || !st || !st.game || !st.game.leave_asks) {
    action();
    return;
  }
  const text = st.view.over ? t("It then counts as over, with score {score}.", { score: st.view.score })
    : t("It then counts as given up, with score {score}.", { score: st.view.score });
  confirmThen(t("Leave this game?"), text, action);
}

// ask: false from the end dialog, which already showed the result of leaving
export function newGame(body, ask = true, onRefused = null) {
  const request = { ...body };
  if (app.settings.rules && !request.rules) request.rules = app.settings.rules;
  return leaveThen(() => {
    endShownFor = "";
    simple("/api/new", { body: request, dealIn: true, onRefused });
  }, ask);
}

// Play again and restart: a new game of the same deal (the one left keeps its result).
export function playAgain(ask = true) {
  return leaveThen(() => {
    endShownFor = "";
    simple("/api/restart", { dealIn: true });
  }, ask);
}

export function hint() {
  return enqueue(async () => {
    // a hint replaces whatever was picked up: only the hint is marked
    app.selected = null;
    clearHint();
    render();
    let h;
    try {
      h = await api("GET", "/api/hint");
    } catch (error) {
      showMessage(error.message, "error");
      return;
    }
    if (!h || !h.move) {
      const text = (h && h.text) || t("No hint: no move helps now.");
      showMessage(text);
      return;
    }
    const places = (h.places || []).map((name) => (CELLS.includes(name) ? CELLS.indexOf(name) : name))
      .filter((place) => place === "stock" || place === "talon" || typeof place === "number");
    for (const place of places) placeEl(place).classList.add("hint");
    if (places.length === 2) drawHintArrow(places[0], places[1]);
    const text = h.text || t("No hint: no move helps now.");
    showMessage(text, "hint");
    app.hintTimer = window.setTimeout(clearHint, 8000);
  });
}


const WON_PAUSE_MS = 1400;

export async function afterMove() {
  const st = app.state;
  if (!st) return;
  const v = st.view;
  const id = String(st.game && st.game.id);
  const swaps = st.arrangement || [];
  if (v.won && app.arrangedFor === id && app.arranged < swaps.length && !app.viewer) {
    await arrange(swaps);
  }
  if ((v.over || v.won || v.given_up) && endShownFor !== gameKey() && !app.viewer) {
    endShownFor = gameKey();
    if (v.won) {
      await flourish();
      // the arranged grid stays in view a moment before the dialog covers it
      await pause(WON_PAUSE_MS);
    }
    openEnd();
  }
}

// The swaps that put the jacks, queens and kings of a won grid in their rows

export async function arrange(swaps) {
  say(t("Won! Arranging the jacks, queens and kings."));
  for (let k = app.arranged + 1; k <= swaps.length; k += 1) {
    const old = view();
    const before = captureRects();
    app.arranged = k;
    render();
    const after = captureRects();
    await runFlights(planFlights(old, view(), before, after), null);
    if (speed()) await pause(90 * speed());
  }
}

// The state as the server has it now, shown without flights when it differs from what is
// shown (another tab of the same game played meanwhile).
export function catchUp() {
  if (!app.state || app.viewer || app.drag || app.pending) return null;
  return enqueue(async () => {
    let next;
    try {
      next = await api("GET", "/api/game");
    } catch {
      return; // offline: the next action says so
    }
    const st = app.state;
    const same = st && st.game && next.game && st.game.id === next.game.id
      && JSON.stringify(st.view) === JSON.stringify(next.view) && st.can_undo === next.can_undo
      && st.can_redo === next.can_redo && st.game.final === next.game.final;
    if (same) {
      st.game.elapsed = next.game.elapsed;
      st.game.clock_running = next.game.clock_running;
      return;
    }
    app.selected = null;
    clearHint();
    await applyState(next, { animate: false, announce: false });
  });
}

export function clockRunning(running) {
  if (!app.state) return;
  fetch("/api/clock", {
    method: "POST", keepalive: true, credentials: "same-origin",
    headers: { Accept: "application/json", "Content-Type": "application/json" },
    body: JSON.stringify({ running }),
  }).then((r) => (r.ok ? r.json() : null)).then((c) => {
    if (!c || !app.state || !app.state.game) return;
    app.state.game.elapsed = c.elapsed;
    app.state.game.clock_running = c.running;
    app.clock = { base: Number(c.elapsed) || 0, at: performance.now(), running: Boolean(c.running) };
    renderClock();
  }).catch(() => {});
}
