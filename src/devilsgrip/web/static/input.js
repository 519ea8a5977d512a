// Input: clicks, drags (pointer events for mouse, pen and touch) and keys, turned into
// places and actions (actions.js, menus.js).  It reads the state; what it changes (what
// is picked up, the drag) it changes through state.js.

import {
  autoMove, catchUp, clockRunning, dealOrRedeal, hint, leaveViewer, newGame, openEnd, pick, play, playAgain,
  playDrop, putBack, putGuideAway, redo, showSolution, undo, viewerPlay, viewerStep,
} from "./actions.js";
import { finishAnimations, rectOf, snapBack } from "./animation.js";
import { cellEls, placeEl, placeOf } from "./board.js";
import { closeDialog, openDialog, showPresetOptions } from "./dialogs.js";
import { guideShown, layoutGuide } from "./guide.js";
import { wakeSound } from "./sound.js";
import { t } from "./i18n.js";
import { clearHint, showMessage } from "./messages.js";
import {
  backToHistory, openDaily, openMenu, openNew, openReview, openRules, openSettings, openShare, openStats,
  pairBrowser, playChosenDaily, saveSettings, sendShare, submitNew,
} from "./menus.js";
import { fitChrome, render, renderClock } from "./render.js";
import { drawChart, reviewOpen } from "./review.js";
import { $, app, COLUMNS, selectable, setDragging, setSelected } from "./state.js";
import { showArrows } from "./viewer.js";

// ------------------------------------------------------------------- input
// what only input needs: the last pick (a double-click is two picks of one place), the
// press under way (a tap is acted on when the pointer comes up, whether or not the
// browser follows it with a click), and the tap already acted on, whose click is not
// acted on again
let lastPick = { place: null, time: 0 };
let press = null;
let tapped = { place: null, time: 0 };
let dragEnded = -Infinity;
// the drag under way: where it started, its ghost card, the place under the pointer,
// whether it ever left its own place, whether it is a swap (a touch held still first)
let drag = null;
let holdTimer = 0;

// How far a pointer moves before a press becomes a drag: a finger wobbles more than a mouse.
const DRAG_SLOP = { mouse: 6, pen: 8, touch: 12 };
// How long a finger holds a pile still before dragging it swaps it with the pile it is dropped on.
const HOLD_TO_SWAP_MS = 450;

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

// A tap: a press and release on one place that did not become a drag.
function onTap(place) {
  tapped = { place, time: performance.now() };
  if (app.viewer) return; // the best line is only watched
  onPlaceActivate(place, false);
}

export function onClick(event) {
  if (app.viewer) return; // the best line is only watched
  const place = placeOf(event.target);
  if (place === null) return;
  // the click that follows a tap already acted on (a click from the keyboard or a script
  // has no pointer press, detail 0)
  const since = performance.now();
  if (event.detail > 0 && tapped.place === place && since - tapped.time < 800) return;
  if (event.detail > 0 && since - dragEnded < 400) return; // the click that ends a drag
  onPlaceActivate(place, false);
}

// drag and drop with pointer events (mouse, pen and touch)
export function onPointerDown(event) {
  if (event.button !== 0 || drag || app.viewer) return;
  finishAnimations();
  const place = placeOf(event.target);
  press = place === null ? null : { place, id: event.pointerId };
  if (place === null || place === "stock" || !selectable(place)) return;
  const source = place === "talon" ? $("talon").querySelector(".fan.top") : cellEls[place].querySelector("img");
  if (!source) return;
  drag = { place, source, x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null, over: null,
    left: false, swap: false, slop: DRAG_SLOP[event.pointerType] ?? 6 };
  setDragging(place);
  placeEl(place).setPointerCapture(event.pointerId);
  window.clearTimeout(holdTimer);
  if (event.pointerType !== "mouse" && typeof place === "number") {
    // a pile held still is lifted to swap with the pile it is dropped on
    const held = drag;
    holdTimer = window.setTimeout(() => {
      if (drag !== held || held.ghost) return;
      held.swap = true;
      lift(held);
      showMessage(t("Swap: drop this pile on another to exchange them."));
    }, HOLD_TO_SWAP_MS);
  }
}

// The dragged card follows the pointer as a ghost; the card at its place is shown lifted.
function lift(d) {
  const r = rectOf(d.source);
  const ghost = document.createElement("img");
  ghost.className = d.swap ? "ghost swap" : "ghost";
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
  document.body.classList.toggle("swapping", d.swap);
}

export function onPointerMove(event) {
  const d = drag;
  if (!d || event.pointerId !== d.id) return;
  const dx = event.clientX - d.x;
  const dy = event.clientY - d.y;
  if (!d.ghost) {
    if (Math.hypot(dx, dy) < d.slop) return;
    window.clearTimeout(holdTimer);
    lift(d);
  }
  d.ghost.style.transform = `translate(${dx}px, ${dy}px) rotate(${Math.max(-6, Math.min(6, dx / 30))}deg)`;
  const over = placeOf(document.elementFromPoint(event.clientX, event.clientY));
  if (over !== d.place) d.left = true;
  if (over !== d.over) {
    if (d.over !== null) placeEl(d.over).classList.remove("over");
    d.over = over;
    if (over !== null && over !== d.place && typeof over === "number") placeEl(over).classList.add("over");
  }
}

export function endDrag(event, cancelled) {
  const p = press;
  if (p && p.id === event.pointerId) press = null;
  const d = drag;
  const at = cancelled ? null : placeOf(document.elementFromPoint(event.clientX, event.clientY));
  if (!d || event.pointerId !== d.id) {
    // a press on the stock or an empty cell: a tap when it ends where it began
    if (p && p.id === event.pointerId && at === p.place) onTap(p.place);
    return;
  }
  window.clearTimeout(holdTimer);
  drag = null;
  setDragging(null);
  document.body.classList.remove("dragging", "swapping");
  if (d.over !== null && typeof d.over === "number") placeEl(d.over).classList.remove("over");
  const restore = () => d.source.classList.remove("lifted");
  // a press that never left its place is a tap, however the finger wobbled
  const tap = !cancelled && !d.swap && at === d.place && (!d.ghost || !d.left);
  if (!d.ghost) {
    if (tap) onTap(d.place);
    return;
  }
  const ghost = { el: d.ghost, rect: d.rect, place: d.place };
  setSelected(null);
  if (!tap) dragEnded = performance.now();
  if (tap) {
    ghost.el.remove();
    restore();
    render();
    onTap(d.place);
    return;
  }
  if (d.swap) showMessage("");
  if (at === null || at === d.place || typeof at !== "number") {
    snapBack(ghost).then(() => { restore(); render(); });
    return;
  }
  playDrop(d.place, at, { ghost, swap: (d.swap || event.shiftKey) && typeof d.place === "number" }).then(restore);
}

// The first-game guide goes with the player's first action, which plays as usual: a
// pointer pressed anywhere (the guide's words let it through to what lies beneath), or a
// key other than Tab and the modifiers.
const NOT_ACTIONS = new Set(["Tab", "Shift", "Control", "Alt", "Meta", "CapsLock"]);

export function onFirstAction(event) {
  if (!guideShown()) return;
  if (event.type === "keydown" && NOT_ACTIONS.has(event.key)) return;
  const button = Boolean(event.target && event.target.id === "guide-close");
  putGuideAway();
  // put away by its button: the focus goes to the stock it pointed at
  if (button) window.setTimeout(() => $("stock").focus(), 0);
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
  document.addEventListener("pointerdown", onFirstAction, true);
  document.addEventListener("keydown", onFirstAction, true);
  // the sounds wait for the player's first gesture
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, wakeSound, true);
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
  // a finger held on a pile lifts it to swap: no menu of the browser's then
  board.addEventListener("contextmenu", (e) => { if (drag) e.preventDefault(); });
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
  $("set-pair-go").addEventListener("click", () => pairBrowser());
  $("set-pair-code").addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); pairBrowser(); }  // not the settings' Save
  });
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
      fitChrome();
      if (app.viewer) showArrows();
      if (reviewOpen()) drawChart();
      layoutGuide();
    });
  });
}
