// The first-game guide as the page draws it: a note beside the stock pointing at it, and
// the three build orders written across the rows of the grid.  Its words come from the
// server (settings.guide, null once the player has put it away).  It is not a dialog: it
// takes no input but its own button, so the grid, the stock and the keys play as usual.

import { cellEls } from "./board.js";
import { $, app } from "./state.js";

const ROOM = ["tight", "tighter", "tightest", "scrolls"];

export function guideShown() {
  return !$("guide").hidden;
}

// Draw the guide when the settings hold one, else take it away.
export function renderGuide() {
  const guide = app.settings.guide;
  const box = $("guide");
  const want = Boolean(guide) && !app.viewer;
  box.hidden = !want;
  $("stock").classList.toggle("guide-point", want);
  if (!want) return;
  $("guide-title").textContent = guide.title;
  $("guide-stock").textContent = guide.stock;
  $("guide-build").textContent = guide.build;
  $("guide-away").textContent = guide.away;
  $("guide-close").textContent = guide.close;
  const rows = [...box.querySelectorAll(".guide-row")];
  rows.forEach((el, k) => { el.textContent = guide.rows[k] || ""; });
  layoutGuide();
}

// Place the note in the free room beside the stock (over the empty talon and the message
// line) and each build order across its row.
export function layoutGuide() {
  const box = $("guide");
  if (box.hidden) return;
  const board = $("board").getBoundingClientRect();
  const at = (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left - board.left, top: r.top - board.top, right: r.right - board.left,
      bottom: r.bottom - board.top, width: r.width, height: r.height };
  };
  const stock = at($("stock"));
  const talon = at($("talon"));
  const grid = at($("grid"));
  const firstCell = at(cellEls[0]);
  const note = $("guide-note");
  const pad = 6;
  const beside = grid.top > stock.bottom - 1; // the grid below the stock: the note at its right
  note.classList.toggle("point-left", beside);
  note.classList.toggle("point-up", !beside);
  let place;
  if (beside) {
    // above the grid's column letters, where the board shows them
    const letters = getComputedStyle(cellEls[0], "::before").display !== "none" ? 20 : 4;
    const bottom = Math.min(grid.top, firstCell.top) - letters;
    place = { left: talon.left, top: Math.min(stock.top, talon.top), right: board.width - pad, bottom };
  } else {
    place = { left: talon.left, top: talon.top, right: grid.left - pad, bottom: board.height - pad };
  }
  Object.assign(note.style, {
    left: place.left + "px", top: place.top + "px",
    width: Math.max(80, place.right - place.left) + "px",
    maxHeight: Math.max(60, place.bottom - place.top) + "px",
  });
  // where the room is short, the note gives up what matters least first: how it goes
  // away (its button says it), then its title, then a little of its type size; where even
  // that is too tall (a small phone on its side), the rest scrolls under the finger
  note.classList.remove(...ROOM);
  for (const level of ROOM) {
    if (note.scrollHeight <= note.clientHeight) break;
    note.classList.add(level);
  }
  // each order beside its row where the board leaves room right of the grid (a wide
  // screen), else below its row's cards where the cells leave room (a phone held
  // upright), else across their lower half: on the cards only where nothing else fits
  const rows = [...box.querySelectorAll(".guide-row")];
  rows.forEach((el) => el.classList.remove("beside"));
  // the room right of the grid, to the window's edge (the board is as wide as the grid)
  const side = document.documentElement.clientWidth - board.left - grid.right - 2 * pad;
  const besides = rows.length > 0 && rows.every((el) => {
    el.classList.add("beside");
    return el.offsetWidth <= side;
  });
  rows.forEach((el, row) => {
    el.classList.toggle("beside", besides);
    const first = at(cellEls[row * 8].querySelector("img"));
    const last = at(cellEls[row * 8 + 7].querySelector("img"));
    let left = (first.left + last.right) / 2;
    let middle;
    if (besides) {
      left = grid.right + pad + el.offsetWidth / 2;
      middle = first.top + first.height / 2;
    } else {
      const room = at(cellEls[row * 8]).bottom - first.bottom;
      const high = el.offsetHeight || 24;
      middle = room > high + 8 ? first.bottom + room / 2 : first.top + first.height * 0.62;
    }
    Object.assign(el.style, { left: left + "px", top: middle + "px" });
  });
}
