// Drawing the state: the grid's cells, the stock, the talon, the status, the buttons and
// the page's fixed texts.  It reads the state and changes nothing in it.

import { cellEls } from "./board.js";
import { buildHelp } from "./dialogs.js";
import { renderGuide } from "./guide.js";
import { cardName, formatTime, ratingName, t, tn } from "./i18n.js";
import { showMessage } from "./messages.js";
import { $, app, applies, cardUrl, CELLS, swapsFrom, targetsFrom, view } from "./state.js";
import { renderViewer } from "./viewer.js";

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
    "btn-share": [t("Share"), t("Share the result")],
    "btn-daily": [t("Daily"), t("Daily deal")],
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
  $("lbl-new-winnable").textContent = t("Winnable deals only");
  $("daily-title").textContent = t("Daily deal");
  $("lbl-daily-rules").textContent = t("Rules");
  $("lbl-stats-rules").textContent = t("Rules");
  $("share-title").textContent = t("Share the result");
  $("end-share").textContent = t("Share");
  $("rules-title").textContent = t("Rules");
  $("stats-title").textContent = t("Statistics");
  $("settings-title").textContent = t("Settings");
  $("lbl-set-lang").textContent = t("Language");
  $("lbl-set-four").textContent = t("Four-colour deck");
  $("lbl-set-sounds").textContent = t("Sounds");
  $("lbl-set-anim").textContent = t("Animation speed");
  $("lbl-set-rules").textContent = t("Rules for new games");
  $("lbl-set-preset").textContent = t("Preset");
  $("lbl-set-draw").textContent = t("Cards dealt at a time");
  $("lbl-set-redeals").textContent = t("Redeals");
  $("lbl-set-unit").textContent = t("Grid builds move");
  $("lbl-set-fill").textContent = t("Fill spaces from the talon when the stock is empty");
  $("set-rules-note").textContent = t("New rules apply from the next new game.");
  $("set-save").textContent = t("Save");
  $("lbl-set-pair").textContent = t("Play as this computer's player");
  $("set-pair-note").textContent = t("Its games, history and statistics then show here too.");
  $("lbl-set-pair-code").textContent = t("The code printed where the server runs");
  $("set-pair-go").textContent = t("Let this browser in");
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
  buildHelp();
}

export function pileLabel(i, pile) {
  if (!pile.length) return t("{cell}: empty", { cell: CELLS[i] });
  const card = cardName(pile[pile.length - 1]);
  if (pile.length === 1) return t("{cell}: {card}", { cell: CELLS[i], card });
  return t("{cell}: {card}, pile of {count}", { cell: CELLS[i], card, count: pile.length });
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
  $("btn-hint").disabled = viewing || !applies("hint");
  // once the game has ended, Hint gives way to Result (the end dialog again)
  $("btn-hint").hidden = Boolean(finished);
  $("btn-result").hidden = !finished;
  $("btn-share").hidden = viewing || !finished;
  // once it has ended, Share takes Restart's place (the end dialog and the menu play it again)
  $("btn-restart").hidden = Boolean(finished) && !viewing;
  document.body.classList.toggle("finished", Boolean(finished));
  document.body.classList.toggle("won", Boolean(v.won));
  fitChrome();
  renderGuide();
}

// The cards beneath a pile's top card peek out: an edge each above it on a wide screen, their
// corners in a fan downwards on a phone held upright (style.css decides which).
// The cards are as large as the window's height allows once the bars above and below the
// board have theirs (--chrome): where the toolbar wraps onto more lines (a tablet on its
// side, a language with longer words), the lines past the first are taken off too, so that
// the third row of the grid stays in the window.  A toolbar in a column (a phone on its
// side) takes no height from the board.
export function fitChrome() {
  const bar = $("toolbar");
  const style = getComputedStyle(bar);
  const tops = new Set();
  let line = 0;
  if (style.flexDirection.startsWith("row")) {
    for (const b of bar.querySelectorAll("button")) {
      if (b.hidden || !b.offsetParent) continue;
      tops.add(b.offsetTop);
      line = Math.max(line, b.offsetHeight);
    }
  }
  const gap = parseFloat(style.rowGap) || 0;
  const extra = Math.max(0, tops.size - 1) * (line + gap);
  const root = document.documentElement.style;
  if (root.getPropertyValue("--chrome-extra") !== extra + "px") {
    root.setProperty("--chrome-extra", extra + "px");
  }
}

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
