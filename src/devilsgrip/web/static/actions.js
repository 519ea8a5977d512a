// The player's actions on the game: pick-ups and drops, the stock, the keys' moves, undo,
// redo, hints, new games, giving up, the end and its best line, the viewer; and what
// follows an answer (the flights, the arrangement of a won grid, the end dialog).
//
// Each action sends its request through transport.js, hands the answer to state.js and
// draws it (render.js and the other drawing modules).  The page decides nothing the
// server decides: what may be picked up, built on or swapped with, what the stock plays,
// whether leaving must be confirmed, every sentence and label come with the state.

import { ApiError } from "./answers.js";
import { captureRects, finishAnimations, flourish, pause, planFlights, runFlights, snapBack } from "./animation.js";
import { clearMoveArrows, drawHintArrow } from "./arrows.js";
import { placeEl } from "./board.js";
import { renderGuide } from "./guide.js";
import { playSound } from "./sound.js";
import { confirmThen, showEnd, showSolutionError, showSolutionLine, showSolutionSearching } from "./dialogs.js";
import { cardName, t, tn } from "./i18n.js";
import { clearHint, say, showMessage } from "./messages.js";
import { applyStrings, preload, render, renderClock } from "./render.js";
import {
  $, addPending, app, gameIdentity, gameKey, pickedText, placeIndex, placeName, setArranged, setClock,
  setEndShown, setGameState, setHintTimer, setSelected, setSettings, setSolution, setViewer,
  setViewerIndex, setViewerRunning, setWords, speed, startArranging, swapsFrom, targetsFrom, view,
} from "./state.js";
import { request } from "./transport.js";
import { renderViewer, showArrows } from "./viewer.js";

// ------------------------------------------------------------------ the queue
// Work is done one task at a time, so fast clicks and keys play in order; a new task
// finishes the running animation at once (the page never makes the player wait for it).
let queue = Promise.resolve();

export function enqueue(task) {
  addPending(1);
  document.body.dataset.busy = "1";
  finishAnimations();
  const run = queue.then(task).catch((error) => { showMessage(error.message, "error"); });
  queue = run.finally(() => {
    if (addPending(-1) === 0) delete document.body.dataset.busy;
  });
  return queue;
}

// ------------------------------------------------------------------- starting
// The words of the player's language (/api/i18n); without them the page speaks English.
export async function loadWords() {
  try {
    setWords(await request("GET", "/api/i18n"));
  } catch {
    setWords(null);
  }
}

export async function start() {
  try {
    setSettings(await request("GET", "/api/settings"));
  } catch {
    // defaults
  }
  await loadWords();
  applyStrings();
  preload();
  await enqueue(async () => {
    const st = await request("GET", "/api/game");
    document.body.classList.remove("loading");
    await applyState(st, { animate: false, dealIn: st.view.moves === 0, announce: false });
  });
  document.body.classList.remove("loading");
  document.body.dataset.ready = "1";
  openLinkedDeal();
  if (document.visibilityState === "visible") clockRunning(true);
}

// ---------------------------------------------------------------- the guide
// The player's first action puts the first-game guide away, for good and for every
// screen: the server keeps that in the player's settings (guide_seen).
export function putGuideAway() {
  if (!app.settings.guide) return;
  setSettings({ guide: null, guide_seen: true });
  renderGuide();
  request("POST", "/api/settings", { guide_seen: true }).catch(() => {});
}

// ---------------------------------------------------------------- the state
// A new state from the server: the state takes it, the board is drawn again and the
// cards fly from where they were to where they are.
export async function applyState(next, options = {}) {
  const old = app.state;
  const before = captureRects();
  const newLanguage = Boolean(next.lang && next.lang !== app.settings.lang);
  setGameState(next);
  if (next.view.won && old && old.game && next.game && old.game.id === next.game.id && !old.view.won) {
    startArranging(next.game.id); // just won: the grid is arranged step by step (see arrange)
  }
  if (newLanguage) {
    await loadWords();
    applyStrings();
  }
  render();
  if (options.announce !== false && old && old.game && next.game && old.game.id === next.game.id) {
    playSound(soundOf(old.view, next.view));
  }
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

// What a change of the board sounds like: cards dealt onto the talon, the talon turned
// over, or cards laid down (a build, a swap, an undo).
function soundOf(ov, nv) {
  if (nv.stock < ov.stock && nv.talon.length > ov.talon.length) return "deal";
  if (nv.stock > ov.stock && nv.talon.length < ov.talon.length) return "redeal";
  return nv.moves !== ov.moves || JSON.stringify(nv.grid) !== JSON.stringify(ov.grid) ? "card" : null;
}

// ----------------------------------------------------------------- picking up
// Pick up the card at place (null: put it back).  Where it can go is said in words: the
// server's sentence came with the state.
export function pick(place) {
  setSelected(place);
  clearHint();
  render();
  if (place === null) return;
  const v = view();
  const what = place === "talon" ? cardName(v.talon[v.talon.length - 1])
    : cardName(v.grid[place][v.grid[place].length - 1]);
  say(pickedText(place) || t("Picked up the {card}.", { card: what }));
}

// The card picked up, put back as Esc does.
export function putBack() {
  if (app.selected === null) return;
  pick(null);
  say(t("Put back."));
}

// A card picked up with Enter or a double-click: its one move, when it has exactly one.
export function autoMove(place) {
  const targets = targetsFrom(place);
  if (targets.length === 1) {
    setSelected(null);
    playDrop(place, targets[0]);
  } else if (targets.length === 0) {
    pick(null);
    showMessage(t("That card cannot be built anywhere now."));
  } else {
    showMessage(t("That card fits in more than one place: pick one."));
  }
}

// ----------------------------------------------------------------- playing
// A refusal: the cards go back, the reason is shown and spoken.  A game that
// another window changed comes back with the refusal, and is shown again as it stands.
async function refused(error, options) {
  if (options.ghost) await snapBack(options.ghost);
  if (options.onRefused && error.status >= 400 && error.status < 500 && !error.state) {
    options.onRefused(error);
    return false;
  }
  if (error.state) setGameState(error.state);
  render();
  playSound("refused");
  showMessage(error.message, "error", options.offer);
  return false;
}

async function send(path, body, options = {}) {
  closeViewer();
  setSelected(null);
  clearHint();
  try {
    const next = await request("POST", path, body);
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
      why = await request("GET", "/api/refusal?" + new URLSearchParams(ask));
    } catch (error) {
      return refused(error, options);
    }
    if (why && why.error) {
      setSelected(null);
      clearHint();
      // the swap of the two piles is offered where the server says it would be played
      return refused(new ApiError(why.message, why.error, 409), { ...options, offer: why.swap ? options.swapOffer : null });
    }
  }
  return send(path, body, options);
}

// The keys' moves: d deals, r redeals (the state says which one the stock plays now).
export function play(text, options) {
  setSelected(null);
  const plays = app.state && app.state.stock === (text === "r" ? "redeal" : "deal");
  return enqueue(() => sendChecked(plays ? null : { move: text }, "/api/move", { move: text }, options));
}

// A card taken from one place and dropped on another: the server's drop policy
// says what it is (a build, a swap into an empty cell) or why it is refused.
// With swap, the two piles exchange places (the deliberate swap: x, or Shift+drop).
export function playDrop(from, to, options = {}) {
  setSelected(null);
  if (from === null || to === null || from === to) {
    return enqueue(async () => { if (options.ghost) await snapBack(options.ghost); render(); return false; });
  }
  const body = { from: placeName(from), to: placeName(to) };
  if (options.swap) body.swap = true;
  const swapOffer = options.swap ? null
    : { label: t("Swap these piles instead"), action: () => playDrop(from, to, { swap: true }) };
  const plays = options.swap || targetsFrom(from).includes(to) || swapsFrom(from).includes(to);
  return enqueue(() => sendChecked(plays ? null : body, "/api/drop", body, { ...options, swapOffer }));
}

// A click on the stock: the server deals, or redeals once the stock is empty.
export function dealOrRedeal() {
  setSelected(null);
  const ask = app.state && app.state.stock ? null : { from: "stock", to: "stock" };
  return enqueue(() => sendChecked(ask, "/api/stock", {}));
}

function simple(path, options = {}) {
  return enqueue(() => send(path, options.body, options));
}

// Undo and redo are sent only when the state says they can be (the buttons show it).
export const undo = () => (app.state && app.state.can_undo ? simple("/api/undo") : null);
export const redo = () => (app.state && app.state.can_redo ? simple("/api/redo") : null);

// Leaving a game that has moves ends it (as given up, or as over): the server says
// what leaving does, in the sentence to ask with (labels.leave; none: no need to ask).
function leaveThen(action, ask = true) {
  const leave = app.state && app.state.labels ? app.state.labels.leave : null;
  if (!ask || !leave) {
    action();
    return;
  }
  confirmThen(t("Leave this game?"), leave, action);
}

// ask: false from the end dialog, which already showed the result of leaving
export function newGame(body, ask = true, onRefused = null) {
  const data = { ...body };
  if (app.settings.rules && !data.rules) data.rules = app.settings.rules;
  return leaveThen(() => {
    setEndShown("");
    simple("/api/new", { body: data, dealIn: true, onRefused });
  }, ask);
}

// The daily deal of a day ({date, rules}), played as that day's daily.
export function playDaily(body) {
  return leaveThen(() => {
    setEndShown("");
    simple("/api/daily", { body, dealIn: true });
  });
}

// A link to a deal (?game=N&rules=R, as Share gives it) opens that deal, asking first
// when it would leave a game in progress, as New game does; the address is then cleaned.
export function openLinkedDeal() {
  const params = new URLSearchParams(window.location.search);
  const game = params.get("game");
  if (!game) return;
  window.history.replaceState(null, "", window.location.pathname + window.location.hash);
  const rules = params.get("rules") || "";
  const st = app.state;
  if (st && st.game && String(st.game.number) === game.trim() && (!rules || st.game.rules === rules)) return;
  const body = { game: game.trim().slice(0, 40) };
  if (rules) body.rules = rules.slice(0, 200);
  newGame(body, true);
}

// Play again and restart: a new game of the same deal (the one left keeps its result).
export function playAgain(ask = true) {
  return leaveThen(() => {
    setEndShown("");
    simple("/api/restart", { dealIn: true });
  }, ask);
}

export function giveUp() {
  confirmThen(t("Give up"), t("End this game now? It is scored as it stands."), () => {
    simple("/api/giveup", { animate: false });
  });
}

export function hint() {
  return enqueue(async () => {
    // a hint replaces whatever was picked up: only the hint is marked
    setSelected(null);
    clearHint();
    render();
    let h;
    try {
      h = await request("POST", "/api/hint");
    } catch (error) {
      showMessage(error.message, "error");
      return;
    }
    if (!h || !h.move) {
      const text = (h && h.text) || t("No hint: no move helps now.");
      showMessage(text);
      return;
    }
    const places = (h.places || []).map(placeIndex)
      .filter((place) => place === "stock" || place === "talon" || typeof place === "number");
    for (const place of places) placeEl(place).classList.add("hint");
    if (places.length === 2) drawHintArrow(places[0], places[1]);
    const text = h.text || t("No hint: no move helps now.");
    showMessage(text, "hint");
    setHintTimer(window.setTimeout(clearHint, 8000));
  });
}

// ------------------------------------------------------------- after a move
// The arranging of a won grid takes at most this long, whatever the animation speed.
const ARRANGE_MS = 700;

async function afterMove() {
  const st = app.state;
  if (!st) return;
  const v = st.view;
  const id = String(st.game && st.game.id);
  const swaps = st.arrangement || [];
  const toEnd = (v.over || v.won || v.given_up) && app.endShownFor !== gameKey() && !app.viewer;
  if (v.won && app.arrangedFor === id && app.arranged < swaps.length && !app.viewer) {
    // just won: told at once (its sound, its dialog); the grid arranges itself beneath
    if (toEnd) {
      setEndShown(gameKey());
      playSound("win");
      openEnd();
    }
    await arrange(swaps);
    await flourish();
    return;
  }
  if (toEnd) {
    setEndShown(gameKey());
    if (v.won) playSound("win");
    openEnd();
  }
}

// The swaps that put the jacks, queens and kings of a won grid in their rows: the piles fly
// to their places one after another, all within ARRANGE_MS.
async function arrange(swaps) {
  say(t("Won! Arranging the jacks, queens and kings."));
  const old = view();
  const before = captureRects();
  setArranged(swaps.length);
  render();
  const after = captureRects();
  const flights = planFlights(old, view(), before, after);
  const factor = speed() || 1;
  const gap = flights.length > 1 ? Math.max(0, ARRANGE_MS / factor - 240) / (flights.length - 1) : 0;
  flights.forEach((flight, k) => { flight.order = k; flight.stagger = gap; });
  await runFlights(flights, null);
}

// The state as the server has it now, shown without flights when it differs from what is
// shown (another tab of the same game played meanwhile).
export function catchUp() {
  if (!app.state || app.viewer || app.dragging !== null || app.pending) return null;
  return enqueue(async () => {
    let next;
    try {
      next = await request("GET", "/api/game");
    } catch {
      return; // offline: the next action says so
    }
    const st = app.state;
    const same = st && st.game && next.game && st.game.id === next.game.id
      && JSON.stringify(st.view) === JSON.stringify(next.view) && st.can_undo === next.can_undo
      && st.can_redo === next.can_redo && st.game.final === next.game.final;
    if (same) {
      setClock(next.game.elapsed, next.game.clock_running);
      return;
    }
    setSelected(null);
    clearHint();
    await applyState(next, { animate: false, announce: false });
  });
}

// The clock counts play time: it stops while the page is hidden.
export function clockRunning(running) {
  if (!app.state) return;
  request("POST", "/api/clock", { running }).then((c) => {
    if (!c || !app.state || !app.state.game) return;
    setClock(c.elapsed, c.running);
    renderClock();
  }).catch(() => {});
}

// ------------------------------------------------------------ the end
export function openEnd() {
  showEnd();
  // the line already fetched for this game is shown again at once
  if (app.solutionCache && app.solutionCache.key === gameIdentity()) showSolution();
}

// The solver's line, fetched once the game has ended (the server refuses it
// before).  It comes with the view of every position along the line, so the
// viewer only shows them: it never sends a move and never touches the game.
export async function showSolution() {
  showSolutionSearching();
  let sol;
  try {
    sol = await fetchSolution();
  } catch (error) {
    showSolutionError(error.message);
    return;
  }
  showSolutionLine(sol, () => openViewer(sol));
}

async function fetchSolution() {
  const key = gameIdentity();
  if (app.solutionCache && app.solutionCache.key === key) return app.solutionCache.sol;
  const sol = await request("POST", "/api/solution");
  if (!sol || !Array.isArray(sol.moves) || !Array.isArray(sol.positions)
      || sol.positions.length !== sol.moves.length + 1) {
    throw new ApiError(t("The best line could not be read."), "bad-solution", 0);
  }
  setSolution(key, sol);
  return sol;
}

// ---------------------------------------------------------------- the viewer
// It shows positions the server sent (the best line, or the game as it was played, from a
// review) and never sends a move.
function showViewer(viewer, classes) {
  closeViewer();
  setSelected(null);
  clearHint();
  setViewer(viewer);
  document.body.classList.add(...classes);
  render();
  renderViewer();
}

export function openViewer(sol) {
  showViewer({ sol, index: 0, running: false, review: null }, ["replaying"]);
  say(tn("The best line from the start of the deal, {total} move. Your game is not changed.", "The best line from the start of the deal, {total} moves. Your game is not changed.", sol.moves.length, { total: sol.moves.length }));
  $("sol-next").focus();
}

// A reviewed game as it was played, shown from the position before move n: the move
// played and the better one are arrows.  onClose runs when the player closes it (back to
// the review).
export function openReviewViewer(doc, n, onClose) {
  const moves = doc.review.moves.map((m) => m.move);
  const costly = new Map(doc.costly.map((c) => [c.n, c]));
  const sol = { moves, positions: doc.positions, score: doc.review.final_score };
  showViewer({ sol, index: Math.max(0, Math.min(moves.length, n - 1)), running: false,
    review: { costly, deal: doc.deal, onClose }, number: doc.number ?? null, rules: doc.rules },
  ["replaying", "reviewing"]);
  const c = costly.get(n);
  if (c) say([c.text, c.played_text, c.better_text, c.seen_text].filter(Boolean).join(" "));
  $("sol-next").focus();
}

// Show position index of the line (a step of one move flies the cards).
async function showPosition(index) {
  const vw = app.viewer;
  if (!vw) return;
  const target = Math.max(0, Math.min(vw.sol.positions.length - 1, index));
  if (target === vw.index) return;
  const from = vw.index;
  const old = view();
  const before = captureRects();
  setViewerIndex(target);
  render();
  renderViewer();
  const costly = vw.review ? vw.review.costly.get(target + 1) : null;
  if (costly && !vw.running) {
    say([$("solution-step").textContent, costly.played_text, costly.better_text].filter(Boolean).join(" "));
  } else if (target > 0 && (!vw.running || target === vw.sol.moves.length)) {
    const move = vw.sol.moves[target - 1];
    say(t("Move {n} of {total}: {move}", { n: target, total: vw.sol.moves.length, move }));
  }
  if (Math.abs(target - from) === 1) {
    clearMoveArrows(); // drawn again once the cards have landed
    const after = captureRects();
    await runFlights(planFlights(old, view(), before, after), null);
    if (app.viewer === vw) showArrows();
  }
}

export function viewerStep(delta) {
  return enqueue(() => (app.viewer ? showPosition(app.viewer.index + delta) : null));
}

export async function viewerPlay() {
  const vw = app.viewer;
  if (!vw) return;
  if (vw.running) {
    setViewerRunning(vw, false);
    renderViewer();
    return;
  }
  if (vw.index >= vw.sol.moves.length) await enqueue(() => showPosition(0));
  setViewerRunning(vw, true);
  renderViewer();
  while (app.viewer === vw && vw.running && vw.index < vw.sol.moves.length) {
    await enqueue(() => (app.viewer === vw ? showPosition(vw.index + 1) : null));
    await pause(Math.max(30, 160 * speed()));
  }
  setViewerRunning(vw, false);
  if (app.viewer === vw) renderViewer();
}

// Closed by the player: the board shows their own game again (a review's viewer goes back
// to the review).
export function leaveViewer() {
  const back = app.viewer && app.viewer.review ? app.viewer.review.onClose : null;
  closeViewer();
  if (back) {
    back();
    return;
  }
  say(t("Back to your game."));
  const result = $("btn-result");
  if (!result.hidden) result.focus();
}

function closeViewer() {
  const vw = app.viewer;
  if (!vw) return;
  setViewerRunning(vw, false);
  setViewer(null);
  $("solution-bar").hidden = true;
  $("sol-legend").hidden = true;
  clearMoveArrows();
  document.body.classList.remove("replaying", "reviewing");
  render();
}
