// The board's elements: the grid's 24 cells (built once), and places to elements and back
// (a place is "stock", "talon" or a cell's index).

import { $, CELLS } from "./state.js";

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
