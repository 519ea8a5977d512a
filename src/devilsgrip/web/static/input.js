// Input: clicks, drags (pointer events for mouse, pen and touch) and keys, turned into
// places and actions (actions.js, menus.js).  It reads the state; what it changes (what
// is picked up, the drag) it changes through state.js.

import {
  autoMove, catchUp, clockRunning, dealOrRedeal, hint, leaveViewer, newGame, openEnd, pick, play, playAgain,
  playDrop, putBack, redo, showSolution, undo, viewerPlay, viewerStep,
} from "./actions.js";
import { finishAnimations, rectOf, snapBack } from "./animation.js";
import { cellEls, placeEl, placeOf } from "./board.js";
import { closeDialog, openDialog, showPresetOptions } from "./dialogs.js";
import { t } from "./i18n.js";
import { clearHint, showMessage } from "./messages.js";
import {
  backToHistory, openDaily, openMenu, openNew, openReview, openRules, openSettings, openShare, openStats, playChosenDaily,
  saveSettings, sendShare, submitNew,
} from "./menus.js";
import { render, renderClock } from "./render.js";
import { drawChart, reviewOpen } from "./review.js";
import { $, app, COLUMNS, selectable, setDragging, setSelected } from "./state.js";
import { showArrows } from "./viewer.js";

// ------------------------------------------------------------------- input
// what only input needs: the last pick (a double-click is two picks of one place) and a
// click that ends a drag, which must not count as a click
let lastPick = { place: null, time: 0 };
let suppressClick = false;
// the drag under way: where it started, its ghost card, the place under the pointer
let drag = null;

export function onPlaceActivate(place, viaKeyboard) {
  finishAnimations(); // the board shows where everything is before anything is picked up
  if (place === "stock") {
    dealOrRedeal();
    return;
  }
  const now = performance.now();
  if (app.selected === null) {
    if (selectable(place)) {
      lastPick = { place, time: now };
      pick(place);
    }
    return;
  }
  if (app.selected === place) {
    // a double-click, or Enter on the card already picked: its one move
    const repeat = lastPick.place === place && now - lastPick.time < 450;
    lastPick = { place: null, time: 0 };
    if (repeat || viaKeyboard) autoMove(place);
    else pick(null);
    return;
  }
  if (place === "talon") {
    if (selectable("talon")) pick("talon");
    return;
  }
  playDrop(app.selected, place);
}

export function onClick(event) {
  if (suppressClick) {
    suppressClick = false;
    return;
  }
  if (app.viewer) return; // the best line is only watched
  const place = placeOf(event.target);
  if (place === null) return;
  onPlaceActivate(place, false);
}

// drag and drop with pointer events (mouse, pen and touch)
export function onPointerDown(event) {
  if (event.button !== 0 || drag || app.viewer) return;
  finishAnimations();
  const place = placeOf(event.target);
  if (place === null || place === "stock" || !selectable(place)) return;
  const source = place === "talon" ? $("talon").querySelector(".fan.top") : cellEls[place].querySelector("img");
  if (!source) return;
  drag = { place, source, x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null, over: null };
  setDragging(place);
  placeEl(place).setPointerCapture(event.pointerId);
}

export function onPointerMove(event) {
  const d = drag;
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
    setSelected(d.place);
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


export function endDrag(event, cancelled) {
  const d = drag;
  if (!d || event.pointerId !== d.id) return;
  drag = null;
  setDragging(null);
  document.body.classList.remove("dragging");
  if (d.over !== null && typeof d.over === "number") placeEl(d.over).classList.remove("over");
  if (!d.ghost) return; // a plain click: the click event handles it
  suppressClick = true;
  window.setTimeout(() => { suppressClick = false; }, 0);
  const ghost = { el: d.ghost, rect: d.rect, place: d.place };
  const restore = () => d.source.classList.remove("lifted");
  const target = cancelled ? null : placeOf(document.elementFromPoint(event.clientX, event.clientY));
  setSelected(null);
  if (target === null || target === d.place || typeof target !== "number") {
    snapBack(ghost).then(() => { restore(); render(); });
    return;
  }
  playDrop(d.place, target, { ghost, swap: event.shiftKey && typeof d.place === "number" }).then(restore);
}

// keyboard
export function neighbour(place, key) {
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

export function onKeyDown(event) {
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
    putBack();
    return;
  }
  if (event.target && event.target.tagName === "BUTTON" && (key === "Enter" || key === " ")) return;
  if (key === "x") {
    // the deliberate swap: the picked-up pile changes places with the cell in focus
    event.preventDefault();
    if (typeof app.selected === "number" && typeof place === "number" && place !== app.selected) {
      playDrop(app.selected, place, { swap: true });
    } else {
      showMessage(t("To swap two piles, pick one up with Enter, move to the other cell and press x."));
    }
    return;
  }
  if (key === "d") { event.preventDefault(); play("d"); }
  else if (key === "r") { event.preventDefault(); play("r"); }
  else if (key === "u") { event.preventDefault(); undo(); }
  else if (key === "U") { event.preventDefault(); redo(); }
  else if (key === "h" || key === "?") { event.preventDefault(); hint(); }
}

// ------------------------------------------------------------------ wiring
export function wire() {
  const board = $("board");
  // roving tabindex: the cell that last had the focus is the grid's one Tab stop
  $("grid").addEventListener("focusin", (event) => {
    const cell = event.target.closest ? event.target.closest("[data-cell]") : null;
    if (!cell) return;
    for (const el of cellEls) el.tabIndex = el === cell ? 0 : -1;
  });
  board.addEventListener("click", onClick);
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("pointermove", onPointerMove);
  board.addEventListener("pointerup", (e) => endDrag(e, false));
  board.addEventListener("pointercancel", (e) => endDrag(e, true));
  board.addEventListener("lostpointercapture", (e) => { if (drag && drag.ghost) endDrag(e, true); });
  document.addEventListener("keydown", onKeyDown);
  const actions = {
    undo: () => undo(),
    redo: () => redo(),
    hint: () => hint(),
    result: () => openEnd(),
    share: () => openShare(),
    daily: () => openDaily(),
    new: () => openNew(),
    restart: () => playAgain(true),
    rules: () => openRules(),
    stats: () => openStats(),
    settings: () => openSettings(),
    help: () => openDialog("dlg-help"),
    menu: () => openMenu(),
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
  $("set-preset").addEventListener("change", () => showPresetOptions());
  $("end-again").addEventListener("click", () => { closeDialog("dlg-end"); playAgain(false); });
  $("end-new").addEventListener("click", () => { closeDialog("dlg-end"); newGame({}, false); });
  $("end-best-line").addEventListener("click", () => showSolution());
  $("end-review").addEventListener("click", () => { closeDialog("dlg-end"); openReview(null, "end"); });
  $("review-history").addEventListener("click", () => backToHistory());
  $("end-share").addEventListener("click", () => { closeDialog("dlg-end"); openShare(); });
  $("daily-play").addEventListener("click", () => playChosenDaily());
  $("share-send").addEventListener("click", () => sendShare());
  $("sol-next").addEventListener("click", () => viewerStep(1));
  $("sol-prev").addEventListener("click", () => viewerStep(-1));
  $("sol-all").addEventListener("click", () => viewerPlay());
  $("sol-stop").addEventListener("click", () => leaveViewer());
  window.setInterval(() => { if (app.clock.running) renderClock(); }, 1000);
  // the clock counts play time: it stops while the page is hidden
  document.addEventListener("visibilitychange", () => {
    clockRunning(document.visibilityState === "visible");
    if (document.visibilityState === "visible") catchUp();
  });
  // another tab of the same game may have played meanwhile: coming back shows it as it stands
  window.addEventListener("focus", () => catchUp());
  window.addEventListener("pagehide", () => clockRunning(false));
  // the hint's arrow is drawn for one layout: another size takes it away
  // the review's arrows and chart are drawn again for the new size
  let redraw = 0;
  window.addEventListener("resize", () => {
    clearHint();
    window.cancelAnimationFrame(redraw);
    redraw = window.requestAnimationFrame(() => {
      if (app.viewer) showArrows();
      if (reviewOpen()) drawChart();
    });
  });
}
