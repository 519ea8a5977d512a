// Devil's Grip in the browser.
//
// The page renders the server's state and turns pointer, click and key input
// into places: a card picked up at one place and dropped on another is sent
// as a drop ({"from": "a1", "to": "c2"}), and the server's table layer decides
// what it means (a build, a swap into an empty cell, or a refusal with its
// reason in the player's language).  The page holds no game rules and no
// lifecycle decision: what may move where comes from view.legal, whether
// leaving a game must be confirmed from game.leave_asks, and every sentence,
// label, preset and card name from the server.
//
// Every visible string is written as a literal t("...") call so the
// translations' extractor finds it.

import { renderMarkdown } from "./markdown.js";

const COLUMNS = 8;
const CELLS = [];
for (let i = 0; i < 24; i += 1) CELLS.push("abcdefgh"[i % COLUMNS] + String(Math.floor(i / COLUMNS) + 1));

const SPEEDS = { off: 0, fast: 0.55, normal: 1, slow: 1.8 };
const LANGUAGE_NAMES = { en: "English", fr: "Français", da: "Dansk", es: "Español", hu: "Magyar" };

const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------ translations
let strings = {};
let plurals = {};
let pluralRule = "n!=1";
let cardLabels = {};
let ratingLabels = {};
let presetLabels = {};
let presets = {}; // name -> {label, options}: the server's presets, for the settings form
let languages = ["en", "fr", "da", "es", "hu"];

function t(key, params) {
  let text = Object.prototype.hasOwnProperty.call(strings, key) ? strings[key] : key;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  }
  return text;
}

// Plural forms: tn("{count} card", "{count} cards", n, params). The server sends each
// plural entry's forms and the language's rule ("n!=1" or "n>1"); English falls back
// to the two forms written here.
function tn(singular, plural, n, params) {
  const forms = Object.prototype.hasOwnProperty.call(plurals, singular) ? plurals[singular] : null;
  const index = pluralRule === "n>1" ? (n > 1 ? 1 : 0) : (n !== 1 ? 1 : 0);
  let text = forms && forms[index] !== undefined ? forms[index] : (index === 0 ? singular : plural);
  const values = Object.assign({ n }, params || {});
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

// card, rating and preset names come from the server (/api/i18n), in the player's language
function cardName(code) {
  return cardLabels[code] || code;
}

function ratingName(value) {
  return ratingLabels[value] || value;
}

function speedName(value) {
  if (value === "off") return t("Off");
  if (value === "fast") return t("Fast");
  if (value === "slow") return t("Slow");
  return t("Normal");
}

function presetName(value) {
  return presetLabels[value] || (presets[value] && presets[value].label) || value;
}

// --------------------------------------------------------------- the state
const app = {
  state: null,
  settings: { lang: "en", four_colour: false, animation: "normal", rules: "classic" },
  selected: null, // "talon" or a cell index
  lastPick: { place: null, time: 0 },
  endShownFor: "",
  arrangedFor: "",
  arranged: 0, // how many of the won grid's arranging swaps are shown
  viewer: null, // the best line on show: {sol, index, running}; nothing is sent
  solutionCache: null, // {key, sol}: the line of the game that ended
  hintTimer: 0,
  messageTimer: 0,
  clock: { base: 0, at: 0, running: false },
  drag: null,
  suppressClick: false,
};

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

function speed() {
  if (reducedMotion.matches) return 0;
  return SPEEDS[app.settings.animation] ?? 1;
}

function cardUrl(code) {
  if (!code) return "/cards/empty.svg";
  if (code === "back") return "/cards/back.svg";
  return "/cards/" + code + ".svg" + (app.settings.four_colour ? "?four=1" : "");
}

const wait = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// ---------------------------------------------------------------- the server
class ApiError extends Error {
  constructor(message, code, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

async function api(method, path, body) {
  const options = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (method !== "GET") {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body ?? {});
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(t("The game server does not answer. Is it still running?"), "offline", 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = data && data.message ? data.message
      : t("The server refused ({status}).", { status: response.status });
    throw new ApiError(message, data && data.error, response.status);
  }
  return data;
}

// Work is done one task at a time, so fast clicks and keys play in order.
let queue = Promise.resolve();
let pending = 0;

function enqueue(task) {
  pending += 1;
  document.body.dataset.busy = "1";
  const run = queue.then(task).catch((error) => { showMessage(error.message, "error"); });
  queue = run.finally(() => {
    pending -= 1;
    if (pending === 0) delete document.body.dataset.busy;
  });
  return queue;
}

// ------------------------------------------------------------------- building
const cellEls = [];

function buildGrid() {
  const grid = $("grid");
  for (let i = 0; i < 24; i += 1) {
    const cell = document.createElement("div");
    cell.className = "cell place";
    cell.tabIndex = 0;
    cell.setAttribute("role", "button");
    cell.dataset.place = String(i);
    cell.dataset.cell = CELLS[i];
    cell.dataset.col = CELLS[i][0];
    cell.dataset.row = CELLS[i][1];
    const stack = document.createElement("div");
    stack.className = "stack";
    const img = document.createElement("img");
    img.className = "card";
    img.alt = "";
    img.draggable = false;
    img.src = "/cards/empty.svg";
    stack.append(img);
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.setAttribute("aria-hidden", "true");
    cell.append(stack, badge);
    grid.append(cell);
    cellEls.push(cell);
  }
}

function placeEl(place) {
  if (place === "stock") return $("stock");
  if (place === "talon") return $("talon");
  return cellEls[place];
}

function placeOf(el) {
  const node = el && el.closest ? el.closest(".place") : null;
  if (!node) return null;
  const p = node.dataset.place;
  return p === "stock" || p === "talon" ? p : Number(p);
}

// ------------------------------------------------------------ static strings
function applyStrings() {
  // the texts of index.html (marked data-i18n there)
  document.querySelector(".title").textContent = t("Devil's Grip");
  $("skip-link").textContent = t("Skip to the game");
  document.title = t("Devil's Grip");
  document.documentElement.lang = app.settings.lang || "en";
  $("lbl-score").textContent = t("Score");
  $("lbl-rating").textContent = t("Rating");
  $("lbl-moves").textContent = t("Moves");
  $("lbl-time").textContent = t("Time");
  $("lbl-deal").textContent = t("Deal");
  const buttons = {
    "btn-undo": [t("Undo"), t("Undo (u)")],
    "btn-redo": [t("Redo"), t("Redo (Shift+U)")],
    "btn-hint": [t("Hint"), t("Hint (h)")],
    "btn-result": [t("Result"), t("The result of this game")],
    "btn-new": [t("New game"), t("New game")],
    "btn-restart": [t("Restart"), t("Restart this deal")],
    "btn-rules": [t("Rules"), t("Rules")],
    "btn-stats": [t("Statistics"), t("Statistics")],
    "btn-settings": [t("Settings"), t("Settings")],
    "btn-help": [t("Help"), t("Help and keys")],
    "btn-menu": [t("Menu"), t("Menu")],
  };
  for (const [id, [label, title]] of Object.entries(buttons)) {
    const b = $(id);
    b.querySelector(".label").textContent = label;
    b.title = title;
    b.setAttribute("aria-label", label);
  }
  $("toolbar").setAttribute("aria-label", t("Game actions"));
  $("grid-label").textContent = t("The grid: 3 rows of 8 cells");
  for (const b of document.querySelectorAll("dialog .close")) b.textContent = t("Close");
  $("menu-title").textContent = t("Menu");
  $("new-title").textContent = t("New game");
  $("lbl-new-number").textContent = t("Deal number (leave empty for a random deal)");
  $("new-deal").textContent = t("Play this deal");
  $("new-random").textContent = t("Random deal");
  $("rules-title").textContent = t("Rules");
  $("stats-title").textContent = t("Statistics");
  $("settings-title").textContent = t("Settings");
  $("lbl-set-lang").textContent = t("Language");
  $("lbl-set-four").textContent = t("Four-colour deck");
  $("lbl-set-anim").textContent = t("Animation speed");
  $("lbl-set-rules").textContent = t("Rules for new games");
  $("lbl-set-preset").textContent = t("Preset");
  $("lbl-set-draw").textContent = t("Cards dealt at a time");
  $("lbl-set-redeals").textContent = t("Redeals");
  $("lbl-set-unit").textContent = t("Grid builds move");
  $("lbl-set-fill").textContent = t("Fill spaces from the talon when the stock is empty");
  $("set-rules-note").textContent = t("New rules apply from the next new game.");
  $("set-save").textContent = t("Save");
  $("help-title").textContent = t("Help");
  $("end-again").textContent = t("Play this deal again");
  $("end-new").textContent = t("New game");
  $("end-best-line").textContent = t("Show the best possible score");
  $("confirm-yes").textContent = t("Yes");
  $("sol-prev").textContent = t("Back");
  $("sol-next").textContent = t("Next move");
  $("sol-all").textContent = t("Play");
  $("sol-stop").textContent = t("Close");
  $("solution-bar").setAttribute("aria-label", t("The best line"));
  renderViewer();
  buildMenu();
  buildHelp();
}

// ------------------------------------------------------------------ rendering
// What the board shows: the player's game, or a position of the best line.
function view() {
  if (app.viewer) return app.viewer.sol.positions[app.viewer.index];
  if (!app.state) return null;
  const v = app.state.view;
  const swaps = app.state.arrangement || [];
  if (!v.won || !swaps.length) return v;
  // a won grid is shown arranged (all at once when the game is loaded, step by step after the win)
  const shown = app.arrangedFor === String(app.state.game && app.state.game.id) ? app.arranged : swaps.length;
  return { ...v, grid: arrangedGrid(v.grid, swaps, shown) };
}

function legal() {
  return view() ? view().legal : [];
}

function targetsFrom(place) {
  if (place === null || place === "stock") return [];
  const prefix = place === "talon" ? "t-" : CELLS[place] + "-";
  return legal().filter((m) => m.startsWith(prefix)).map((m) => CELLS.indexOf(m.slice(prefix.length)));
}

function selectable(place) {
  const v = view();
  if (!v) return false;
  if (place === "talon") return v.talon.length > 0;
  if (typeof place === "number") return v.grid[place].length > 0;
  return false;
}

function pileLabel(i, pile) {
  if (!pile.length) return t("{cell}: empty", { cell: CELLS[i] });
  const card = cardName(pile[pile.length - 1]);
  if (pile.length === 1) return t("{cell}: {card}", { cell: CELLS[i], card });
  return t("{cell}: {card}, pile of {count}", { cell: CELLS[i], card, count: pile.length });
}

function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

function renderClock() {
  const c = app.clock;
  const seconds = c.base + (c.running ? (performance.now() - c.at) / 1000 : 0);
  $("time").textContent = formatTime(seconds);
}

function render() {
  const st = app.state;
  if (!st) return;
  const v = view();
  const own = st.view; // the player's game, also while the viewer shows the best line
  const viewing = Boolean(app.viewer);
  const game = st.game || {};
  // status line
  $("score").textContent = String(v.score);
  $("rating").textContent = viewing ? ratingName(v.rating) : (st.labels && st.labels.rating) || ratingName(v.rating);
  $("moves").textContent = String(v.moves);
  $("deal-number").textContent = game.number ? "#" + game.number : t("custom");
  const finished = own.over || own.won || own.given_up;
  app.clock = { base: Number(game.elapsed) || 0, at: performance.now(), running: Boolean(game.clock_running) };
  renderClock();
  const parts = [t("Rules: {rules}", { rules: viewing || !st.labels ? v.rules : st.labels.rules })];
  if (game.number) parts.push(t("Deal #{number}", { number: game.number }));
  if (v.redeals_left !== null && v.redeals_left !== undefined) {
    parts.push(t("Redeals left: {count}", { count: v.redeals_left }));
  }
  $("rules-line").textContent = parts.join(" · ");
  if (game.warning && game.warning !== app.warning) showMessage(game.warning, "error");
  app.warning = game.warning || "";
  // stock
  const stock = $("stock");
  stock.dataset.count = String(v.stock);
  stock.classList.toggle("empty", v.stock === 0);
  stock.classList.toggle("can-redeal", legal().includes("r"));
  $("stock-img").src = v.stock ? cardUrl("back") : cardUrl(null);
  $("stock-count").textContent = String(v.stock);
  if (v.stock) stock.setAttribute("aria-label", tn("Stock: {count} card. Press Enter to deal.", "Stock: {count} cards. Press Enter to deal.", v.stock, { count: v.stock }));
  else if (legal().includes("r")) stock.setAttribute("aria-label", t("Stock: empty. Press Enter to redeal."));
  else stock.setAttribute("aria-label", t("Stock: empty"));
  // talon
  const talon = $("talon");
  const shown = v.talon.slice(-3);
  talon.dataset.count = String(v.talon.length);
  talon.dataset.top = v.talon.length ? v.talon[v.talon.length - 1] : "";
  talon.dataset.shown = String(shown.length);
  talon.querySelectorAll(".fan").forEach((img, k) => {
    const code = shown[k];
    img.hidden = code === undefined && !(k === 0 && shown.length === 0);
    img.src = cardUrl(code || null);
    img.dataset.code = code || "";
    img.classList.toggle("top", k === shown.length - 1);
  });
  $("talon-count").textContent = String(v.talon.length);
  talon.setAttribute("aria-label", v.talon.length
    ? tn("Talon: {card}, {count} card", "Talon: {card}, {count} cards", v.talon.length, { card: cardName(v.talon[v.talon.length - 1]), count: v.talon.length })
    : t("Talon: empty"));
  talon.classList.toggle("empty", v.talon.length === 0);
  // grid
  const targets = new Set(targetsFrom(app.selected));
  v.grid.forEach((pile, i) => {
    const cell = cellEls[i];
    const top = pile.length ? pile[pile.length - 1] : "";
    cell.dataset.count = String(pile.length);
    cell.dataset.top = top;
    cell.querySelector("img").src = cardUrl(top || null);
    cell.querySelector(".badge").textContent = pile.length > 1 ? String(pile.length) : "";
    showPileEdges(cell, pile.length);
    cell.classList.toggle("empty", pile.length === 0);
    cell.classList.toggle("selected", app.selected === i);
    cell.classList.toggle("target", targets.has(i));
    cell.classList.toggle("swap-target", typeof app.selected === "number"
      && app.selected !== i && !targets.has(i) && pile.length === 0);
    cell.setAttribute("aria-label", pileLabel(i, pile));
    cell.setAttribute("aria-pressed", app.selected === i ? "true" : "false");
  });
  talon.classList.toggle("selected", app.selected === "talon");
  talon.setAttribute("aria-pressed", app.selected === "talon" ? "true" : "false");
  // buttons
  $("btn-undo").disabled = viewing || !st.can_undo;
  $("btn-redo").disabled = viewing || !st.can_redo;
  $("btn-hint").disabled = viewing || Boolean(finished);
  // once the game has ended, Hint gives way to Result (the end dialog again)
  $("btn-hint").hidden = Boolean(finished);
  $("btn-result").hidden = !finished;
  document.body.classList.toggle("finished", Boolean(finished));
  document.body.classList.toggle("won", Boolean(v.won));
}

// The cards beneath a pile's top card peek out above it, one edge each.
function showPileEdges(cell, count) {
  const stack = cell.querySelector(".stack");
  const edges = stack.querySelectorAll(".under");
  const want = Math.max(0, Math.min(3, count - 1));
  if (edges.length === want) return;
  for (const el of edges) el.remove();
  for (let k = 1; k <= want; k += 1) { // the deepest card first, under the others
    const el = document.createElement("span");
    el.className = "under u" + k;
    el.setAttribute("aria-hidden", "true");
    stack.prepend(el);
  }
}

function select(place) {
  app.selected = place;
  clearHint();
  render();
  if (place !== null) {
    const what = place === "talon" ? cardName(view().talon[view().talon.length - 1])
      : cardName(view().grid[place][view().grid[place].length - 1]);
    const count = targetsFrom(place).length;
    say(count
      ? tn("Picked up the {card}. It can go to {count} place.", "Picked up the {card}. It can go to {count} places.", count, { card: what, count })
      : t("Picked up the {card}.", { card: what }));
  }
}

// --------------------------------------------------------------- messages
function say(text) {
  const live = $("announce");
  live.textContent = "";
  // a fresh text node each time so screen readers announce repeats too
  window.requestAnimationFrame(() => { live.textContent = text; });
}

// The message line; offer is an action the player may take instead ({label, action}),
// for example swapping two piles after a drop that does not build.
function showMessage(text, kind = "info", offer = null) {
  const el = $("message");
  el.textContent = text || "";
  el.className = "message " + kind;
  if (text && offer) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "offer";
    b.textContent = offer.label;
    b.addEventListener("click", () => { showMessage(""); offer.action(); });
    el.replaceChildren(Object.assign(document.createElement("span"), { textContent: text, className: "said" }), " ", b);
  }
  window.clearTimeout(app.messageTimer);
  if (text && kind !== "sticky") {
    app.messageTimer = window.setTimeout(() => { el.textContent = ""; el.className = "message"; }, offer ? 12000 : 7000);
  }
}

function clearHint() {
  window.clearTimeout(app.hintTimer);
  for (const el of document.querySelectorAll(".hint")) el.classList.remove("hint");
}

// --------------------------------------------------------------- animation
function rectOf(el) {
  const r = el.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
}

function captureRects() {
  const fans = [...$("talon").querySelectorAll(".fan")];
  return {
    stock: rectOf($("stock-img")),
    fans: fans.map(rectOf),
    shown: view() ? Math.min(3, view().talon.length) : 0,
    cells: cellEls.map((c) => rectOf(c.querySelector("img"))),
  };
}

function commonPrefix(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
  return n;
}

// The rect of the talon card at index idx in a talon of the given length.
function talonRect(rects, idx, length) {
  const shown = Math.min(3, length);
  const slot = idx - (length - shown);
  return rects.fans[Math.max(0, Math.min(2, slot < 0 ? 0 : slot))];
}

// Planned flights between the old and the new state: cards that left one
// place and arrived in another are matched by their codes; the rest come
// from, or go back to, the stock.
function planFlights(ov, nv, before, after) {
  const sources = [];
  const dests = [];
  ov.grid.forEach((pile, i) => {
    const next = nv.grid[i];
    const p = commonPrefix(pile, next);
    if (p < pile.length) sources.push({ place: i, cards: pile.slice(p), rect: before.cells[i] });
    if (p < next.length) {
      dests.push({ place: i, cards: next.slice(p), below: p ? next[p - 1] : null, rect: after.cells[i] });
    }
  });
  const tp = commonPrefix(ov.talon, nv.talon);
  if (tp < ov.talon.length) {
    sources.push({ place: "talon", cards: ov.talon.slice(tp), rect: talonRect(before, ov.talon.length - 1, ov.talon.length) });
  }
  const talonDest = tp < nv.talon.length ? { place: "talon", cards: nv.talon.slice(tp), first: tp } : null;
  const flights = [];
  const used = new Set();
  for (const d of dests) {
    const key = d.cards.join(",");
    let src = sources.find((s) => !used.has(s) && s.cards.join(",") === key);
    if (!src) src = sources.find((s) => !used.has(s) && s.cards[s.cards.length - 1] === d.cards[d.cards.length - 1]);
    if (src) {
      used.add(src);
      flights.push({ from: src.rect, fromPlace: src.place, to: d.rect, place: d.place, card: d.cards[d.cards.length - 1], below: d.below, group: 0 });
    } else {
      flights.push({ from: before.stock, fromPlace: "stock", to: d.rect, place: d.place, card: d.cards[d.cards.length - 1], below: d.below, group: 1 });
    }
  }
  if (talonDest) {
    const key = talonDest.cards.join(",");
    const src = sources.find((s) => !used.has(s) && s.cards.join(",") === key);
    if (src) {
      used.add(src);
      const idx = nv.talon.length - 1;
      flights.push({ from: src.rect, fromPlace: src.place, to: talonRect(after, idx, nv.talon.length), place: "talon", slot: idx, card: nv.talon[idx], group: 0 });
    } else {
      // dealt from the stock, one by one; only the ones that stay visible fly
      talonDest.cards.forEach((card, k) => {
        const idx = talonDest.first + k;
        if (idx < nv.talon.length - 3) return;
        flights.push({ from: before.stock, fromPlace: "stock", to: talonRect(after, idx, nv.talon.length), place: "talon", slot: idx, card, group: 0, order: k });
      });
    }
  }
  for (const s of sources) {
    if (used.has(s)) continue;
    if (nv.stock > ov.stock) {
      flights.push({ from: s.rect, fromPlace: s.place, to: after.stock, place: "stock", card: "back", group: 0 });
    }
  }
  return flights;
}

async function runFlights(flights, ghost) {
  const factor = speed();
  if (!flights.length || factor === 0) return;
  const layer = $("fly-layer");
  const duration = 300 * factor;
  const hidden = [];
  const jobs = [];
  const nv = view();
  for (const f of flights) {
    // the destination shows what lies under the arriving card until it lands
    let restore = null;
    if (typeof f.place === "number") {
      const img = cellEls[f.place].querySelector("img");
      img.src = cardUrl(f.below);
      restore = () => { img.src = cardUrl(nv.grid[f.place][nv.grid[f.place].length - 1] || null); };
    } else if (f.place === "talon") {
      const length = nv.talon.length;
      const slot = f.slot - (length - Math.min(3, length));
      const img = $("talon").querySelectorAll(".fan")[Math.max(0, slot)];
      img.classList.add("in-flight");
      restore = () => img.classList.remove("in-flight");
    }
    hidden.push(restore);
    let from = f.from;
    if (ghost && ghost.place === f.fromPlace && ghost.el.isConnected) {
      from = rectOf(ghost.el);
      ghost.el.remove();
    }
    const el = document.createElement("img");
    el.className = "flying";
    el.alt = "";
    el.src = cardUrl(f.card === "back" ? "back" : f.card);
    el.style.left = f.to.left + "px";
    el.style.top = f.to.top + "px";
    el.style.width = f.to.width + "px";
    el.style.height = f.to.height + "px";
    layer.append(el);
    const dx = from.left - f.to.left;
    const dy = from.top - f.to.top;
    const sx = from.width / Math.max(1, f.to.width);
    const delay = (f.group === 1 ? duration * 0.7 : 0) + (f.order || 0) * (f.stagger ?? 110) * factor;
    const anim = el.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(${sx})`, opacity: f.fromPlace === "stock" ? 0 : 1, offset: 0 },
      { transform: `translate(${dx * 0.45}px, ${dy * 0.45 - 10}px) scale(${(sx + 1) / 2 * 1.06})`, opacity: 1, offset: 0.55 },
      { transform: "translate(0, 0) scale(1)", opacity: 1, offset: 1 },
    ], { duration, delay, easing: "cubic-bezier(.3,.7,.3,1)", fill: "both" });
    jobs.push(anim.finished.catch(() => {}).then(() => { el.remove(); if (restore) restore(); }));
  }
  await Promise.all(jobs);
  if (ghost && ghost.el.isConnected) ghost.el.remove();
}

async function applyState(next, options = {}) {
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
function placeName(place) {
  return typeof place === "number" ? CELLS[place] : place;
}

// A refusal: the cards go back, the reason is shown and spoken.  A game that
// another window changed is shown again as it stands.
async function refused(error, options) {
  if (options.ghost) await snapBack(options.ghost);
  if (error.code === "game-changed") {
    try {
      app.state = await api("GET", "/api/game");
    } catch {
      // keep what is shown
    }
  }
  render();
  showMessage(error.message, "error", options.offer);
  say(error.message);
  return false;
}

async function send(path, body, options = {}) {
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

function play(text, options) {
  return enqueue(() => send("/api/move", { move: text }, options));
}

// A card taken from one place and dropped on another: the server's drop policy
// says what it is (a build, a swap into an empty cell) or why it is refused.
// With swap, the two piles exchange places (the deliberate swap: x, or Shift+drop).
function playDrop(from, to, options = {}) {
  if (from === null || to === null || from === to) {
    return enqueue(async () => { if (options.ghost) await snapBack(options.ghost); render(); return false; });
  }
  const body = { from: placeName(from), to: placeName(to) };
  if (options.swap) body.swap = true;
  const offer = !options.swap && typeof from === "number" && typeof to === "number"
    && view() && view().grid[from].length && view().grid[to].length
    ? { label: t("Swap these piles instead"), action: () => playDrop(from, to, { swap: true }) } : null;
  return enqueue(() => send("/api/drop", body, { ...options, offer }));
}

// A click on the stock: the server deals, or redeals once the stock is empty.
function dealOrRedeal() {
  return enqueue(() => send("/api/stock", {}));
}

function simple(path, options = {}) {
  return enqueue(() => send(path, options.body, options));
}

const undo = () => simple("/api/undo");
const redo = () => simple("/api/redo");

// Leaving a game that has moves ends it (as given up, or as over): the server
// says when that needs asking (game.leave_asks), the page asks.
function leaveThen(action, ask = true) {
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
function newGame(body, ask = true) {
  const request = { ...body };
  if (app.settings.rules && !request.rules) request.rules = app.settings.rules;
  return leaveThen(() => {
    app.endShownFor = "";
    simple("/api/new", { body: request, dealIn: true });
  }, ask);
}

// Play again and restart: a new game of the same deal (the one left keeps its result).
function playAgain(ask = true) {
  return leaveThen(() => {
    app.endShownFor = "";
    simple("/api/restart", { dealIn: true });
  }, ask);
}

function hint() {
  return enqueue(async () => {
    clearHint();
    let h;
    try {
      h = await api("GET", "/api/hint");
    } catch (error) {
      showMessage(error.message, "error");
      say(error.message);
      return;
    }
    if (!h || !h.move) {
      const text = (h && h.text) || t("No hint: no move helps now.");
      showMessage(text);
      say(text);
      return;
    }
    for (const name of h.places || []) {
      const place = CELLS.includes(name) ? CELLS.indexOf(name) : name;
      if (place === "stock" || place === "talon" || typeof place === "number") placeEl(place).classList.add("hint");
    }
    const text = h.text || t("No hint: no move helps now.");
    showMessage(text, "hint");
    say(text);
    app.hintTimer = window.setTimeout(clearHint, 8000);
  });
}

// --------------------------------------------------------- the end, the win
function gameKey() {
  const st = app.state;
  return st ? `${st.game && st.game.id}:${st.view.moves}:${st.view.given_up}:${st.view.over}` : "";
}

async function afterMove() {
  const st = app.state;
  if (!st) return;
  const v = st.view;
  const id = String(st.game && st.game.id);
  const swaps = st.arrangement || [];
  if (v.won && app.arrangedFor === id && app.arranged < swaps.length && !app.viewer) {
    await arrange(swaps);
  }
  if ((v.over || v.won || v.given_up) && app.endShownFor !== gameKey() && !app.viewer) {
    app.endShownFor = gameKey();
    if (v.won) await flourish();
    openEnd();
  }
}

// The swaps that put the jacks, queens and kings of a won grid in their rows
// are only shown: they are not moves, nothing is sent, the move count stays.
function arrangedGrid(grid, swaps, count = swaps.length) {
  const out = grid.slice();
  for (const swap of swaps.slice(0, count)) {
    const [a, b] = swap.split("=").map((name) => CELLS.indexOf(name));
    [out[a], out[b]] = [out[b], out[a]];
  }
  return out;
}

async function arrange(swaps) {
  say(t("Won! Arranging the jacks, queens and kings."));
  for (let k = app.arranged + 1; k <= swaps.length; k += 1) {
    const old = view();
    const before = captureRects();
    app.arranged = k;
    render();
    const after = captureRects();
    await runFlights(planFlights(old, view(), before, after), null);
    if (speed()) await wait(90 * speed());
  }
}

async function flourish() {
  const factor = speed();
  if (!factor) return;
  const grid = $("grid");
  cellEls.forEach((cell, i) => {
    const column = i % COLUMNS;
    const row = Math.floor(i / COLUMNS);
    cell.style.animationDelay = `${(column * 70 + row * 120) * factor}ms`;
    cell.style.animationDuration = `${700 * factor}ms`;
  });
  grid.classList.add("celebrate");
  await wait((700 + 7 * 70 + 2 * 120 + 100) * factor);
  grid.classList.remove("celebrate");
  for (const cell of cellEls) {
    cell.style.animationDelay = "";
    cell.style.animationDuration = "";
  }
}

function openEnd() {
  const st = app.state;
  const v = st.view;
  const game = st.game || {};
  $("end-title").textContent = v.won ? t("You won!") : v.given_up ? t("Game given up") : t("Game over");
  $("end-score").textContent = t("Score: {score}", { score: v.score });
  $("end-rating").textContent = v.rating === "none" ? t("No rating: that takes a score of 10 or less.")
    : t("Rating: {rating}", { rating: ratingName(v.rating) });
  const best = game.best_score;
  if (game.new_best) $("end-best").textContent = t("New best on this deal! The best before was {best}.", { best });
  else if (best === null || best === undefined) $("end-best").textContent = t("This is the first finished game on this deal.");
  else $("end-best").textContent = t("Best score ever on this deal: {best}", { best });
  $("end-solution").hidden = true;
  $("end-solution").replaceChildren();
  $("end-best-line").hidden = false;
  openDialog("dlg-end");
  // the line already fetched for this game is shown again at once
  if (app.solutionCache && app.solutionCache.key === gameIdentity()) showSolution();
}

// The solver's line, fetched once the game has ended (the server refuses it
// before).  It comes with the view of every position along the line, so the
// viewer only shows them: it never sends a move and never touches the
// player's saved game.
function gameIdentity() {
  const game = (app.state && app.state.game) || {};
  return `${game.id}|${game.number}|${game.started}`;
}

async function fetchSolution() {
  const key = gameIdentity();
  if (app.solutionCache && app.solutionCache.key === key) return app.solutionCache.sol;
  const sol = await api("GET", "/api/solution");
  if (!sol || !Array.isArray(sol.moves) || !Array.isArray(sol.positions)
      || sol.positions.length !== sol.moves.length + 1) {
    throw new ApiError(t("The best line could not be read."), "bad-solution", 0);
  }
  app.solutionCache = { key, sol };
  return sol;
}

async function showSolution() {
  const box = $("end-solution");
  box.hidden = false;
  box.replaceChildren(Object.assign(document.createElement("p"), { textContent: t("Searching for the best line…") }));
  let sol;
  try {
    sol = await fetchSolution();
  } catch (error) {
    box.replaceChildren(Object.assign(document.createElement("p"), { textContent: error.message, className: "form-error" }));
    return;
  }
  const head = document.createElement("p");
  head.className = "best-score";
  head.textContent = t("Best possible score: {score}", { score: sol.score });
  const note = document.createElement("p");
  note.textContent = sol.proven ? t("Proven best for this deal.")
    : t("The best line found in the time allowed; it may be beaten.");
  const line = document.createElement("p");
  line.className = "line";
  line.textContent = sol.moves.join(" ");
  line.setAttribute("aria-label", t("The moves of the line"));
  const step = document.createElement("button");
  step.type = "button";
  step.className = "primary";
  step.textContent = t("Step through it");
  step.addEventListener("click", () => { closeDialog("dlg-end"); openViewer(sol); });
  const keep = Object.assign(document.createElement("p"), {
    className: "note", textContent: t("Watching the line leaves your game and its result as they are."),
  });
  box.replaceChildren(head, note, line, step, keep);
  $("end-best-line").hidden = true;
}

function openViewer(sol) {
  closeViewer();
  app.selected = null;
  clearHint();
  app.viewer = { sol, index: 0, running: false };
  document.body.classList.add("replaying");
  render();
  renderViewer();
  say(tn("The best line from the start of the deal, {total} move. Your game is not changed.", "The best line from the start of the deal, {total} moves. Your game is not changed.", sol.moves.length, { total: sol.moves.length }));
  $("sol-next").focus();
}

function renderViewer() {
  const bar = $("solution-bar");
  const vw = app.viewer;
  bar.hidden = !vw;
  if (!vw) return;
  const { moves, score } = vw.sol;
  const total = moves.length;
  const i = vw.index;
  bar.dataset.index = String(i);
  bar.dataset.total = String(total);
  let text;
  if (i === 0) text = tn("Best line: the deal as it was dealt; {total} move to score {score}.", "Best line: the deal as it was dealt; {total} moves to score {score}.", total, { total, score });
  else if (i >= total) text = tn("Best line: the {total} move played: score {score}.", "Best line: all {total} moves played: score {score}.", total, { total, score });
  else text = t("Best line: move {n} of {total}: {move}", { n: i, total, move: moves[i - 1] });
  $("solution-step").textContent = text;
  $("sol-prev").disabled = i === 0;
  $("sol-next").disabled = i >= total;
  $("sol-all").textContent = vw.running ? t("Pause") : t("Play");
  $("sol-all").setAttribute("aria-pressed", vw.running ? "true" : "false");
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
  vw.index = target;
  render();
  renderViewer();
  if (target > 0 && (!vw.running || target === vw.sol.moves.length)) {
    const move = vw.sol.moves[target - 1];
    say(t("Move {n} of {total}: {move}", { n: target, total: vw.sol.moves.length, move }));
  }
  if (Math.abs(target - from) === 1) {
    const after = captureRects();
    await runFlights(planFlights(old, view(), before, after), null);
  }
}

function viewerStep(delta) {
  return enqueue(() => (app.viewer ? showPosition(app.viewer.index + delta) : null));
}

async function viewerPlay() {
  const vw = app.viewer;
  if (!vw) return;
  if (vw.running) {
    vw.running = false;
    renderViewer();
    return;
  }
  if (vw.index >= vw.sol.moves.length) await enqueue(() => showPosition(0));
  vw.running = true;
  renderViewer();
  while (app.viewer === vw && vw.running && vw.index < vw.sol.moves.length) {
    await enqueue(() => (app.viewer === vw ? showPosition(vw.index + 1) : null));
    await wait(Math.max(30, 160 * speed()));
  }
  vw.running = false;
  if (app.viewer === vw) renderViewer();
}

// Closed by the player: the board shows their own game again.
function leaveViewer() {
  closeViewer();
  say(t("Back to your game."));
  const result = $("btn-result");
  if (!result.hidden) result.focus();
}

function closeViewer() {
  const vw = app.viewer;
  if (!vw) return;
  vw.running = false;
  app.viewer = null;
  $("solution-bar").hidden = true;
  document.body.classList.remove("replaying");
  render();
}

// ----------------------------------------------------------------- dialogs
function openDialog(id) {
  const dlg = $(id);
  for (const d of document.querySelectorAll("dialog[open]")) if (d !== dlg) d.close();
  if (!dlg.open) dlg.showModal();
}

function closeDialog(id) {
  const dlg = $(id);
  if (dlg.open) dlg.close();
}

function confirmThen(title, text, action) {
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  const yes = $("confirm-yes");
  const fresh = yes.cloneNode(true);
  yes.replaceWith(fresh);
  fresh.addEventListener("click", () => { closeDialog("dlg-confirm"); action(); });
  openDialog("dlg-confirm");
}

function ended() {
  const v = app.state ? app.state.view : null;
  return Boolean(v && (v.over || v.won || v.given_up));
}

function buildMenu() {
  const items = [
    [t("New game or deal number…"), () => openNew()],
    [t("Restart this deal"), () => restartAsk()],
    ended() ? [t("Result"), () => openEnd()] : [t("Give up"), () => giveUpAsk()],
    [t("Rules"), () => openRules()],
    [t("Statistics"), () => openStats()],
    [t("Settings"), () => openSettings()],
    [t("Help and keys"), () => openDialog("dlg-help")],
  ];
  const list = $("menu-list");
  list.replaceChildren();
  for (const [label, action] of items) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.addEventListener("click", () => { closeDialog("dlg-menu"); action(); });
    list.append(b);
  }
}

function buildHelp() {
  const body = $("help-body");
  body.replaceChildren();
  const h = (text) => Object.assign(document.createElement("h3"), { textContent: text });
  const p = (text) => Object.assign(document.createElement("p"), { textContent: text });
  const ul = (items) => {
    const list = document.createElement("ul");
    for (const item of items) list.append(Object.assign(document.createElement("li"), { textContent: item }));
    return list;
  };
  body.append(
    h(t("The aim")),
    p(t("Build the piles of the grid up in suit along 2-5-8-J, 3-6-9-Q and 4-7-10-K. Your score is the number of cards left in the stock and the talon: lower is better, 0 wins.")),
    h(t("Mouse and touch")),
    ul([
      t("Drag a card from the talon or the grid onto a pile that takes it."),
      t("Or click a card, then click where it should go."),
      t("Double-click a card to move it when it has exactly one place to go."),
      t("Click the stock to deal; when it is empty, click it to redeal."),
      t("Swaps: drag a pile onto an empty cell and the two cells exchange places. To swap two piles, hold Shift while you drop one on the other, or take the offer to swap shown after a drop that does not build. Swaps never change the score."),
      t("A card dropped where it may not go returns, and the reason is shown."),
    ]),
    h(t("Keyboard")),
  );
  const keys = [
    [t("Arrow keys or Tab"), t("move between the stock, the talon and the cells")],
    [t("Enter or Space"), t("pick up the card in focus, then drop it on the cell in focus")],
    [t("Esc"), t("put the card back")],
    ["x", t("swap the picked-up pile with the cell in focus")],
    ["d", t("deal")],
    ["r", t("redeal")],
    ["u", t("undo")],
    [t("Shift+U"), t("redo")],
    [t("h or ?"), t("hint")],
  ];
  const table = document.createElement("table");
  table.className = "keys";
  for (const [key, what] of keys) {
    const tr = document.createElement("tr");
    const k = document.createElement("th");
    k.append(Object.assign(document.createElement("kbd"), { textContent: key }));
    tr.append(k, Object.assign(document.createElement("td"), { textContent: what }));
    table.append(tr);
  }
  body.append(table);
}

function openNew() {
  $("new-error").textContent = "";
  $("new-number").value = "";
  openDialog("dlg-new");
  $("new-number").focus();
}

async function submitNew(random) {
  const raw = $("new-number").value.trim();
  let body = {};
  if (!random && raw) {
    if (!/^\d+$/.test(raw) || Number(raw) < 1) {
      $("new-error").textContent = t("A deal number is a whole number from 1 up.");
      return;
    }
    body = { game: Number(raw) };
  }
  closeDialog("dlg-new");
  await newGame(body);
}

function restartAsk() {
  playAgain(true);
}

function giveUpAsk() {
  confirmThen(t("Give up"), t("End this game now? It is scored as it stands."), () => {
    simple("/api/giveup", { animate: false });
  });
}

async function openRules() {
  const box = $("rules-text");
  box.replaceChildren(Object.assign(document.createElement("p"), { textContent: t("Loading…") }));
  openDialog("dlg-rules");
  try {
    const data = await api("GET", "/api/rules");
    box.replaceChildren(renderMarkdown(data.text || ""));
  } catch (error) {
    box.replaceChildren(Object.assign(document.createElement("p"), { textContent: error.message }));
  }
}

async function openStats() {
  const box = $("stats-body");
  box.replaceChildren(Object.assign(document.createElement("p"), { textContent: t("Loading…") }));
  openDialog("dlg-stats");
  let s;
  try {
    s = await api("GET", "/api/stats");
  } catch (error) {
    box.replaceChildren(Object.assign(document.createElement("p"), { textContent: error.message }));
    return;
  }
  const value = (x, digits = 0) => (x === null || x === undefined ? "–" : Number(x).toFixed(digits));
  const rows = [
    [t("Games finished"), value(s.played)],
    [t("Won"), value(s.won)],
    [t("Win rate"), s.played ? `${Math.round((s.win_rate || 0) * 100)} %` : "–"],
    [t("Given up"), value(s.given_up)],
    [t("Best score"), value(s.best_score)],
    [t("Average score"), value(s.average_score, 1)],
    [t("Current streak"), value(s.current_streak)],
    [t("Longest streak"), value(s.longest_streak)],
    [t("Hints used"), value(s.hints)],
    [t("Unfinished games"), value(s.unfinished)],
  ];
  if ("best" in s) rows.push([t("Best on this deal"), value(s.best)]);
  const table = document.createElement("table");
  table.className = "stats";
  for (const [label, v] of rows) {
    const tr = document.createElement("tr");
    tr.append(Object.assign(document.createElement("th"), { textContent: label }),
      Object.assign(document.createElement("td"), { textContent: v }));
    table.append(tr);
  }
  const parts = [table];
  if (s.ratings && s.played) {
    parts.push(Object.assign(document.createElement("h3"), { textContent: t("Ratings") }));
    const chart = document.createElement("div");
    chart.className = "bars";
    const max = Math.max(1, ...Object.values(s.ratings));
    for (const [rating, n] of Object.entries(s.ratings)) {
      const row = document.createElement("div");
      row.className = "bar-row";
      const bar = document.createElement("span");
      bar.className = "bar";
      bar.style.width = `${(100 * n) / max}%`;
      const track = document.createElement("span");
      track.className = "track";
      track.append(bar);
      row.append(Object.assign(document.createElement("span"), { textContent: ratingName(rating) }),
        track, Object.assign(document.createElement("span"), { textContent: String(n), className: "n" }));
      chart.append(row);
    }
    parts.push(chart);
  }
  if (s.rules) parts.push(Object.assign(document.createElement("p"), { className: "note", textContent: t("Rules: {rules}", { rules: s.rules }) }));
  box.replaceChildren(...parts);
}

// ---------------------------------------------------------------- settings
// The rules text of the form: the preset, then every option written out (the
// server turns it into its canonical text).
function composeRules() {
  const preset = $("set-preset").value;
  const base = (presets[preset] && presets[preset].options) || {};
  const chosen = {
    draw: $("set-draw").value || base.draw,
    redeals: $("set-redeals").value,
    move_unit: $("set-unit").value,
    fill_from_talon: $("set-fill").checked ? "true" : "false",
  };
  return [preset, ...Object.entries(chosen).map(([name, value]) => `${name}=${value}`)].join(",");
}

function fillOptions(select, entries, current) {
  select.replaceChildren();
  for (const [value, label] of entries) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = label;
    select.append(option);
  }
  if (current !== undefined) select.value = String(current);
}

function setRuleFields(options) {
  $("set-draw").value = String(options.draw);
  const redeals = [["unlimited", t("Unlimited")], ["0", t("None")], ["1", "1"], ["2", "2"], ["3", "3"]];
  if (!redeals.some(([v]) => v === String(options.redeals))) redeals.push([String(options.redeals), String(options.redeals)]);
  fillOptions($("set-redeals"), redeals, options.redeals);
  fillOptions($("set-unit"), [["run", t("a card and all cards above it")], ["card", t("the top card only")]], options.move_unit);
  $("set-fill").checked = String(options.fill_from_talon) === "true";
}

async function openSettings() {
  $("settings-error").textContent = "";
  try {
    const s = await api("GET", "/api/settings");
    Object.assign(app.settings, s);
  } catch {
    // keep what we have
  }
  const s = app.settings;
  fillOptions($("set-lang"), languages.map((code) => [code, LANGUAGE_NAMES[code] || code]), s.lang);
  $("set-four").checked = Boolean(s.four_colour);
  fillOptions($("set-anim"), ["off", "fast", "normal", "slow"].map((v) => [v, speedName(v)]), s.animation || "normal");
  if (s.presets) presets = s.presets;
  const parts = s.rules_parts || { preset: "classic", options: (presets.classic || {}).options || {} };
  fillOptions($("set-preset"), Object.keys(presets).map((p) => [p, presetName(p)]), parts.preset);
  setRuleFields(parts.options);
  openDialog("dlg-settings");
}

async function saveSettings() {
  const body = {
    lang: $("set-lang").value,
    four_colour: $("set-four").checked,
    animation: $("set-anim").value,
    rules: composeRules(),
  };
  try {
    const saved = await api("POST", "/api/settings", body);
    Object.assign(app.settings, body, saved && typeof saved === "object" && !saved.view ? saved : {});
  } catch (error) {
    $("settings-error").textContent = error.message;
    return;
  }
  closeDialog("dlg-settings");
  await loadStrings();
  applyStrings();
  preload();
  try {
    const next = await api("GET", "/api/game");
    app.state = next;
  } catch {
    // the old state is still right apart from its language
  }
  render();
}

// ------------------------------------------------------------------- input
function onPlaceActivate(place, viaKeyboard) {
  if (place === "stock") {
    app.selected = null;
    dealOrRedeal();
    return;
  }
  const now = performance.now();
  if (app.selected === null) {
    if (selectable(place)) {
      app.lastPick = { place, time: now };
      select(place);
    }
    return;
  }
  if (app.selected === place) {
    // a double-click, or Enter on the card already picked: its one move
    const repeat = app.lastPick.place === place && now - app.lastPick.time < 450;
    app.lastPick = { place: null, time: 0 };
    if (repeat || viaKeyboard) autoMove(place);
    else select(null);
    return;
  }
  if (place === "talon") {
    if (selectable("talon")) select("talon");
    return;
  }
  const from = app.selected;
  app.selected = null;
  playDrop(from, place);
}

function autoMove(place) {
  const targets = targetsFrom(place);
  if (targets.length === 1) {
    app.selected = null;
    playDrop(place, targets[0]);
  } else if (targets.length === 0) {
    select(null);
    showMessage(t("That card cannot be built anywhere now."));
  } else {
    showMessage(t("That card fits in more than one place: pick one."));
  }
}

function onClick(event) {
  if (app.suppressClick) {
    app.suppressClick = false;
    return;
  }
  if (app.viewer) return; // the best line is only watched
  const place = placeOf(event.target);
  if (place === null) return;
  onPlaceActivate(place, false);
}

// drag and drop with pointer events (mouse, pen and touch)
function onPointerDown(event) {
  if (event.button !== 0 || app.drag || app.viewer) return;
  const place = placeOf(event.target);
  if (place === null || place === "stock" || !selectable(place)) return;
  const source = place === "talon" ? $("talon").querySelector(".fan.top") : cellEls[place].querySelector("img");
  if (!source) return;
  app.drag = { place, source, x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null, over: null };
  placeEl(place).setPointerCapture(event.pointerId);
}

function onPointerMove(event) {
  const d = app.drag;
  if (!d || event.pointerId !== d.id) return;
  const dx = event.clientX - d.x;
  const dy = event.clientY - d.y;
  if (!d.ghost) {
    if (Math.hypot(dx, dy) < 6) return;
    const r = rectOf(d.source);
    const ghost = document.createElement("img");
    ghost.className = "ghost";
    ghost.alt = "";
    ghost.src = d.source.src;
    ghost.style.left = r.left + "px";
    ghost.style.top = r.top + "px";
    ghost.style.width = r.width + "px";
    ghost.style.height = r.height + "px";
    $("fly-layer").append(ghost);
    d.ghost = ghost;
    d.rect = r;
    d.source.classList.add("lifted");
    app.selected = d.place;
    clearHint();
    render();
    document.body.classList.add("dragging");
  }
  d.ghost.style.transform = `translate(${dx}px, ${dy}px) rotate(${Math.max(-6, Math.min(6, dx / 30))}deg)`;
  const over = placeOf(document.elementFromPoint(event.clientX, event.clientY));
  if (over !== d.over) {
    if (d.over !== null) placeEl(d.over).classList.remove("over");
    d.over = over;
    if (over !== null && over !== d.place && typeof over === "number") placeEl(over).classList.add("over");
  }
}

async function snapBack(ghost) {
  const { el, rect } = ghost;
  if (!el.isConnected) return;
  const factor = speed();
  if (factor) {
    const now = el.getBoundingClientRect();
    const anim = el.animate([
      { transform: `translate(${now.left - rect.left}px, ${now.top - rect.top}px)` },
      { transform: "translate(0, 0)" },
    ], { duration: 220 * factor, easing: "cubic-bezier(.2,.8,.3,1)", fill: "both" });
    await anim.finished.catch(() => {});
  }
  el.remove();
}

function endDrag(event, cancelled) {
  const d = app.drag;
  if (!d || event.pointerId !== d.id) return;
  app.drag = null;
  document.body.classList.remove("dragging");
  if (d.over !== null && typeof d.over === "number") placeEl(d.over).classList.remove("over");
  if (!d.ghost) return; // a plain click: the click event handles it
  app.suppressClick = true;
  window.setTimeout(() => { app.suppressClick = false; }, 0);
  const ghost = { el: d.ghost, rect: d.rect, place: d.place };
  const restore = () => d.source.classList.remove("lifted");
  const target = cancelled ? null : placeOf(document.elementFromPoint(event.clientX, event.clientY));
  app.selected = null;
  if (target === null || target === d.place || typeof target !== "number") {
    snapBack(ghost).then(() => { restore(); render(); });
    return;
  }
  playDrop(d.place, target, { ghost, swap: event.shiftKey && typeof d.place === "number" }).then(restore);
}

// keyboard
function neighbour(place, key) {
  if (place === "stock") {
    if (key === "ArrowRight") return "talon";
    if (key === "ArrowDown") return 0;
    return place;
  }
  if (place === "talon") {
    if (key === "ArrowLeft") return "stock";
    if (key === "ArrowDown") return 1;
    return place;
  }
  const row = Math.floor(place / COLUMNS);
  const column = place % COLUMNS;
  if (key === "ArrowLeft") return column > 0 ? place - 1 : place;
  if (key === "ArrowRight") return column < COLUMNS - 1 ? place + 1 : place;
  if (key === "ArrowDown") return row < 2 ? place + COLUMNS : place;
  if (key === "ArrowUp") {
    if (row > 0) return place - COLUMNS;
    return column === 0 ? "stock" : "talon";
  }
  return place;
}

function onKeyDown(event) {
  if (document.querySelector("dialog[open]")) return;
  const tag = event.target && event.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const place = placeOf(event.target);
  const key = event.key;
  if (app.viewer) {
    // watching the best line: no key plays; Esc closes, the arrows step
    if (key === "Escape") { event.preventDefault(); leaveViewer(); }
    else if (key.startsWith("Arrow") && place !== null) { event.preventDefault(); placeEl(neighbour(place, key)).focus(); }
    else if (key === "ArrowRight") { event.preventDefault(); viewerStep(1); }
    else if (key === "ArrowLeft") { event.preventDefault(); viewerStep(-1); }
    return;
  }
  if (key.startsWith("Arrow") && place !== null) {
    event.preventDefault();
    placeEl(neighbour(place, key)).focus();
    return;
  }
  if ((key === "Enter" || key === " ") && place !== null) {
    event.preventDefault();
    onPlaceActivate(place, true);
    return;
  }
  if (key === "Escape") {
    if (app.selected !== null) {
      select(null);
      say(t("Put back."));
    }
    return;
  }
  if (event.target && event.target.tagName === "BUTTON" && (key === "Enter" || key === " ")) return;
  if (key === "x") {
    // the deliberate swap: the picked-up pile changes places with the cell in focus
    event.preventDefault();
    if (typeof app.selected === "number" && typeof place === "number" && place !== app.selected) {
      const from = app.selected;
      app.selected = null;
      playDrop(from, place, { swap: true });
    } else {
      showMessage(t("To swap two piles, pick one up with Enter, move to the other cell and press x."));
    }
    return;
  }
  if (key === "d") { event.preventDefault(); app.selected = null; play("d"); }
  else if (key === "r") { event.preventDefault(); app.selected = null; play("r"); }
  else if (key === "u") { event.preventDefault(); undo(); }
  else if (key === "U") { event.preventDefault(); redo(); }
  else if (key === "h" || key === "?") { event.preventDefault(); hint(); }
}

// ------------------------------------------------------------------ wiring
function wire() {
  const board = $("board");
  board.addEventListener("click", onClick);
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("pointermove", onPointerMove);
  board.addEventListener("pointerup", (e) => endDrag(e, false));
  board.addEventListener("pointercancel", (e) => endDrag(e, true));
  board.addEventListener("lostpointercapture", (e) => { if (app.drag && app.drag.ghost) endDrag(e, true); });
  document.addEventListener("keydown", onKeyDown);
  const actions = {
    undo: () => undo(),
    redo: () => redo(),
    hint: () => hint(),
    result: () => openEnd(),
    new: () => openNew(),
    restart: () => restartAsk(),
    rules: () => openRules(),
    stats: () => openStats(),
    settings: () => openSettings(),
    help: () => openDialog("dlg-help"),
    menu: () => { buildMenu(); openDialog("dlg-menu"); },
  };
  for (const b of document.querySelectorAll("#toolbar button")) {
    b.addEventListener("click", () => actions[b.dataset.action]());
  }
  for (const b of document.querySelectorAll("dialog .close")) {
    b.addEventListener("click", () => b.closest("dialog").close());
  }
  for (const dlg of document.querySelectorAll("dialog")) {
    // a click on the backdrop closes the dialog
    dlg.addEventListener("click", (e) => { if (e.target === dlg) dlg.close(); });
  }
  $("form-new").addEventListener("submit", (e) => { e.preventDefault(); submitNew(false); });
  $("new-random").addEventListener("click", () => submitNew(true));
  $("form-settings").addEventListener("submit", (e) => { e.preventDefault(); saveSettings(); });
  $("set-preset").addEventListener("change", () => {
    const preset = presets[$("set-preset").value];
    if (preset) setRuleFields(preset.options);
  });
  $("end-again").addEventListener("click", () => { closeDialog("dlg-end"); playAgain(false); });
  $("end-new").addEventListener("click", () => { closeDialog("dlg-end"); newGame({}, false); });
  $("end-best-line").addEventListener("click", () => showSolution());
  $("sol-next").addEventListener("click", () => viewerStep(1));
  $("sol-prev").addEventListener("click", () => viewerStep(-1));
  $("sol-all").addEventListener("click", () => viewerPlay());
  $("sol-stop").addEventListener("click", () => leaveViewer());
  window.setInterval(() => { if (app.clock.running) renderClock(); }, 1000);
  // the clock counts play time: it stops while the page is hidden
  document.addEventListener("visibilitychange", () => clockRunning(document.visibilityState === "visible"));
  window.addEventListener("pagehide", () => clockRunning(false));
}

function clockRunning(running) {
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

const preloaded = [];

function preload() {
  const codes = ["back", null];
  for (const s of "SHDC") for (const r of "23456789TJQK") codes.push(r + s);
  for (const code of codes) {
    const img = new Image();
    img.src = cardUrl(code);
    preloaded.push(img);
  }
  if (preloaded.length > 200) preloaded.splice(0, preloaded.length - 100);
}

async function loadStrings() {
  try {
    const data = await api("GET", "/api/i18n");
    strings = data.strings || {};
    plurals = data.plurals || {};
    pluralRule = data.plural_rule || "n!=1";
    cardLabels = data.cards || {};
    ratingLabels = data.ratings || {};
    presetLabels = data.presets || {};
    if (Array.isArray(data.languages) && data.languages.length) {
      languages = data.languages.map((l) => (typeof l === "string" ? l : l.code));
    }
    if (data.names) Object.assign(LANGUAGE_NAMES, data.names);
    if (data.lang) app.settings.lang = data.lang;
  } catch {
    strings = {};
    plurals = {};
  }
}

async function start() {
  buildGrid();
  wire();
  try {
    Object.assign(app.settings, await api("GET", "/api/settings"));
  } catch {
    // defaults
  }
  await loadStrings();
  applyStrings();
  preload();
  await enqueue(async () => {
    const st = await api("GET", "/api/game");
    document.body.classList.remove("loading");
    await applyState(st, { animate: false, dealIn: st.view.moves === 0, announce: false });
  });
  document.body.classList.remove("loading");
  document.body.dataset.ready = "1";
  if (document.visibilityState === "visible") clockRunning(true);
}

start();
