// Cards in flight between the old and the new state, the drag's snap back, the
// win's flourish.

import { cellEls } from "./board.js";
import { $, app, cardUrl, COLUMNS, speed, view } from "./state.js";

// --------------------------------------------------------------- animation
// Every running animation and pause, so that new input can finish them at once.
const running = new Set();
const pauses = new Set();

export function finishAnimations() {
  for (const anim of [...running]) {
    try { anim.finish(); } catch { anim.cancel(); }
  }
  for (const done of [...pauses]) done();
  pauses.clear();
}

// The speed factor for an animation about to start: none while more input waits.
function pace() {
  return app.pending > 1 ? 0 : speed();
}

function track(anim) {
  running.add(anim);
  const forget = () => running.delete(anim);
  anim.finished.then(forget, forget);
  return anim;
}

// A pause between animations (cut short by new input).
export function pause(ms) {
  return new Promise((resolve) => {
    const done = () => { window.clearTimeout(timer); pauses.delete(done); resolve(); };
    const timer = window.setTimeout(done, ms);
    pauses.add(done);
  });
}

export function rectOf(el) {
  const r = el.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
}

export function captureRects() {
  const fans = [...$("talon").querySelectorAll(".fan")];
  return {
    stock: rectOf($("stock-img")),
    fans: fans.map(rectOf),
    shown: view() ? Math.min(3, view().talon.length) : 0,
    cells: cellEls.map((c) => rectOf(c.querySelector("img"))),
  };
}

export function commonPrefix(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
  return n;
}

// The rect of the talon card at index idx in a talon of the given length.
export function talonRect(rects, idx, length) {
  const shown = Math.min(3, length);
  const slot = idx - (length - shown);
  return rects.fans[Math.max(0, Math.min(2, slot < 0 ? 0 : slot))];
}

// Planned flights between the old and the new state: cards that left one
// place and arrived in another are matched by their codes; the rest come
// from, or go back to, the stock.
export function planFlights(ov, nv, before, after) {
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

export async function runFlights(flights, ghost) {
  const factor = pace();
  if (!flights.length || factor === 0) return;
  const layer = $("fly-layer");
  const duration = 240 * factor;
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
    const delay = (f.group === 1 ? duration * 0.7 : 0) + (f.order || 0) * (f.stagger ?? 70) * factor;
    const anim = track(el.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(${sx})`, opacity: f.fromPlace === "stock" ? 0 : 1, offset: 0 },
      { transform: `translate(${dx * 0.45}px, ${dy * 0.45 - 10}px) scale(${(sx + 1) / 2 * 1.06})`, opacity: 1, offset: 0.55 },
      { transform: "translate(0, 0) scale(1)", opacity: 1, offset: 1 },
    ], { duration, delay, easing: "cubic-bezier(.3,.7,.3,1)", fill: "both" }));
    jobs.push(anim.finished.catch(() => {}).then(() => { el.remove(); if (restore) restore(); }));
  }
  await Promise.all(jobs);
  if (ghost && ghost.el.isConnected) ghost.el.remove();
}

export async function flourish() {
  const factor = pace();
  if (!factor) return;
  const grid = $("grid");
  cellEls.forEach((cell, i) => {
    const column = i % COLUMNS;
    const row = Math.floor(i / COLUMNS);
    cell.style.animationDelay = `${(column * 70 + row * 120) * factor}ms`;
    cell.style.animationDuration = `${700 * factor}ms`;
  });
  grid.classList.add("celebrate");
  await pause((700 + 7 * 70 + 2 * 120 + 100) * factor);
  grid.classList.remove("celebrate");
  for (const cell of cellEls) {
    cell.style.animationDelay = "";
    cell.style.animationDuration = "";
  }
}

export async function snapBack(ghost) {
  const { el, rect } = ghost;
  if (!el.isConnected) return;
  const factor = pace();
  if (factor) {
    const now = el.getBoundingClientRect();
    const anim = track(el.animate([
      { transform: `translate(${now.left - rect.left}px, ${now.top - rect.top}px)` },
      { transform: "translate(0, 0)" },
    ], { duration: 220 * factor, easing: "cubic-bezier(.2,.8,.3,1)", fill: "both" }));
    await anim.finished.catch(() => {});
  }
  el.remove();
}
