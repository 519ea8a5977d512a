// Drawing the state: the grid's cells, the stock, the talon, the status and the
// page's fixed texts.

import { buildHelp, buildMenu } from "./dialogs.js";
import { cardName, ratingName, t, tn } from "./i18n.js";
import { showMessage } from "./messages.js";
import { $, app, cardUrl, CELLS, swapsFrom, targetsFrom, view } from "./state.js";
import { renderViewer } from "./viewer.js";

// ------------------------------------------------------------------- building
export const cellEls = [];

export function buildGrid() {
  const grid = $("grid");
  for (let i = 0; i < 24; i += 1) {
    const cell = document.createElement("div");
    cell.className = "cell place";
    cell.tabIndex = i === 0 ? 0 : -1; // one Tab stop for the grid: the arrows move inside it
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
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.setAttribute("aria-hidden", "true");
    stack.append(img, badge);
    cell.append(stack);
    grid.append(cell);
    cellEls.push(cell);
  }
}

export function placeEl(place) {
  if (place === "stock") return $("stock");
  if (place === "talon") return $("talon");
  return cellEls[place];
}

export function placeOf(el) {
  const node = el && el.closest ? el.closest(".place") : null;
  if (!node) return null;
  const p = node.dataset.place;
  return p === "stock" || p === "talon" ? p : Number(p);
}

// ------------------------------------------------------------ static strings
export function applyStrings() {
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
  $("end-review").textContent = t("Review this game");
  $("review-history").textContent = t("Back to the game history");
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

export function pileLabel(i, pile) {
  if (!pile.length) return t("{cell}: empty", { cell: CELLS[i] });
  const card = cardName(pile[pile.length - 1]);
  if (pile.length === 1) return t("{cell}: {card}", { cell: CELLS[i], card });
  return t("{cell}: {card}, pile of {count}", { cell: CELLS[i], card, count: pile.length });
}

export function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

export function renderClock() {
  const c = app.clock;
  const seconds = c.base + (c.running ? (performance.now() - c.at) / 1000 : 0);
  $("time").textContent = formatTime(seconds);
}

let shownWarning = ""; // the saving warning is shown once, not on every render

export function render() {
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
  // a reviewed game of the history may be another deal than the one in play
  const number = viewing && app.viewer.number !== undefined ? app.viewer.number : game.number;
  $("deal-number").textContent = number ? "#" + number : t("custom");
  const finished = own.over || own.won || own.given_up;
  app.clock = { base: Number(game.elapsed) || 0, at: performance.now(), running: Boolean(game.clock_running) };
  renderClock();
  // the rules by their label in the player's language: those of a reviewed game of the
  // history come with its review, the best line's are the game's own
  const label = viewing && app.viewer.rules ? app.viewer.rules : st.labels && st.labels.rules;
  const parts = [t("Rules: {rules}", { rules: label || v.rules })];
  if (number) parts.push(t("Deal #{number}", { number }));
  if (v.redeals_left !== null && v.redeals_left !== undefined) {
    parts.push(t("Redeals left: {count}", { count: v.redeals_left }));
  }
  $("rules-line").textContent = parts.join(" · ");
  if (game.warning && game.warning !== shownWarning) showMessage(game.warning, "error");
  shownWarning = game.warning || "";
  // stock
  const stock = $("stock");
  stock.dataset.count = String(v.stock);
  stock.classList.toggle("empty", v.stock === 0);
  const canRedeal = !viewing && st.stock === "redeal";
  stock.classList.toggle("can-redeal", canRedeal);
  $("stock-img").src = v.stock ? cardUrl("back") : cardUrl(null);
  $("stock-count").textContent = String(v.stock);
  if (v.stock) stock.setAttribute("aria-label", tn("Stock: {count} card. Press Enter to deal.", "Stock: {count} cards. Press Enter to deal.", v.stock, { count: v.stock }));
  else if (canRedeal) stock.setAttribute("aria-label", t("Stock: empty. Press Enter to redeal."));
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
  const swaps = new Set(swapsFrom(app.selected));
  v.grid.forEach((pile, i) => {
    const cell = cellEls[i];
    const top = pile.length ? pile[pile.length - 1] : "";
    cell.dataset.count = String(pile.length);
    cell.dataset.top = top;
    cell.querySelector("img").src = cardUrl(top || null);
    cell.querySelector(".badge").textContent = pile.length > 1 ? String(pile.length) : "";
    showPileEdges(cell, pile);
    cell.classList.toggle("empty", pile.length === 0);
    cell.classList.toggle("selected", app.selected === i);
    cell.classList.toggle("target", targets.has(i));
    cell.classList.toggle("swap-target", swaps.has(i));
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

// The cards beneath a pile's top card peek out: an edge each above it on a wide screen, their
// corners in a fan downwards on a phone held upright (style.css decides which).
export function showPileEdges(cell, pile) {
  const stack = cell.querySelector(".stack");
  const want = Math.max(0, Math.min(3, pile.length - 1));
  let edges = [...stack.querySelectorAll(".under")];
  if (edges.length !== want) {
    for (const el of edges) el.remove();
    for (let k = 1; k <= want; k += 1) { // the deepest card first, under the others
      const el = document.createElement("span");
      el.className = "card under u" + k;
      el.setAttribute("aria-hidden", "true");
      stack.prepend(el);
    }
    edges = [...stack.querySelectorAll(".under")];
  }
  // edges[0] is the deepest (u<want>), the last one lies right under the top card
  edges.forEach((el, index) => {
    const code = pile[pile.length - 1 - (want - index)];
    el.style.backgroundImage = `url("${cardUrl(code)}")`;
  });
  stack.style.setProperty("--depth", String(want));
}

export const preloaded = [];

export function preload() {
  const codes = ["back", null];
  for (const s of "SHDC") for (const r of "23456789TJQK") codes.push(r + s);
  for (const code of codes) {
    const img = new Image();
    img.src = cardUrl(code);
    preloaded.push(img);
  }
  if (preloaded.length > 200) preloaded.splice(0, preloaded.length - 100);
}

// The hint's arrow: from the card to move to the pile it goes on, in the hint's own colour.
const SVG = "http://www.w3.org/2000/svg";

function cardRectOf(place) {
  if (place === "talon") return ($("talon").querySelector(".fan.top") || $("talon")).getBoundingClientRect();
  if (place === "stock") return $("stock-img").getBoundingClientRect();
  return cellEls[place].querySelector("img").getBoundingClientRect();
}

// One arrow from the card at one place to another, as SVG shapes in layer's coordinates:
// a gentle curve bowed to one side (side: 1 or -1, or 0 to choose), the head set back along
// its last direction (downwards along a row, so it never runs over the line above the grid).
function arrowShapes(layer, from, to, kind, side = 0) {
  const box = layer.getBoundingClientRect();
  const a = cardRectOf(from);
  const b = cardRectOf(to);
  const x1 = a.left + a.width / 2 - box.left;
  const y1 = a.top + a.height * 0.45 - box.top;
  const x2 = b.left + b.width / 2 - box.left;
  const y2 = b.top + b.height * 0.45 - box.top;
  const dx = x2 - x1;
  const dy = y2 - y1;
  const length = Math.max(1, Math.hypot(dx, dy));
  const bow = side || (Math.abs(dx) > Math.abs(dy) && dx < 0 ? -1 : 1);
  const bend = Math.min(60, length * 0.2) * bow;
  const cx = (x1 + x2) / 2 - (dy / length) * bend;
  const cy = (y1 + y2) / 2 + (dx / length) * bend;
  const head = Math.max(12, Math.min(22, a.width * 0.3));
  const tx = x2 - cx;
  const ty = y2 - cy;
  const tl = Math.max(1, Math.hypot(tx, ty));
  const ux = tx / tl;
  const uy = ty / tl;
  const ex = x2 - ux * head * 0.8;
  const ey = y2 - uy * head * 0.8;
  const group = document.createElementNS(SVG, "g");
  group.setAttribute("class", kind);
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("class", "arrow");
  path.setAttribute("d", `M ${x1.toFixed(1)} ${y1.toFixed(1)} Q ${cx.toFixed(1)} ${cy.toFixed(1)} ${ex.toFixed(1)} ${ey.toFixed(1)}`);
  const tip = document.createElementNS(SVG, "polygon");
  tip.setAttribute("class", "head");
  const px = -uy * head * 0.55;
  const py = ux * head * 0.55;
  const points = [[x2, y2], [x2 - ux * head + px, y2 - uy * head + py], [x2 - ux * head - px, y2 - uy * head - py]];
  tip.setAttribute("points", points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "));
  const dot = document.createElementNS(SVG, "circle");
  dot.setAttribute("class", "dot");
  dot.setAttribute("cx", x1.toFixed(1));
  dot.setAttribute("cy", y1.toFixed(1));
  dot.setAttribute("r", String(Math.max(4, head * 0.3)));
  group.append(path, dot, tip);
  group.dataset.from = typeof from === "number" ? CELLS[from] : from;
  group.dataset.to = typeof to === "number" ? CELLS[to] : to;
  return { group, side: bow };
}

export function drawHintArrow(from, to) {
  const layer = $("hint-layer");
  const { group } = arrowShapes(layer, from, to, "hint");
  layer.replaceChildren(...group.childNodes);
  layer.dataset.from = group.dataset.from;
  layer.dataset.to = group.dataset.to;
}

// The review's arrows on the viewer's board: the move played and the better one, each in
// its own colour and line (neither is the hint's).  arrows: [{from, to, kind}], places as
// the server names them ("a1", "talon", "stock").
export function drawMoveArrows(arrows) {
  const layer = $("move-layer");
  const groups = [];
  let first = null;
  for (const { from, to, kind } of arrows) {
    const a = CELLS.includes(from) ? CELLS.indexOf(from) : from;
    const b = CELLS.includes(to) ? CELLS.indexOf(to) : to;
    // a second arrow leaving the same card bows to the other side
    const side = first && first.from === from ? -first.side : 0;
    const drawn = arrowShapes(layer, a, b, kind, side);
    if (!first) first = { from, side: drawn.side };
    groups.push(drawn.group);
  }
  layer.replaceChildren(...groups);
}

export function clearMoveArrows() {
  $("move-layer").replaceChildren();
}
