// The review of a finished game as the page draws it: how far the server's review is
// while it runs, then a chart of the best score still reachable after each move (an SVG
// drawn here), the story in words and the moves that cost cards.  Every sentence about
// the game comes from the server; what choosing a costly move does is given (onMove(n):
// actions.js opens the viewer on the position before it).

import { openDialog } from "./dialogs.js";
import { t, tn } from "./i18n.js";
import { $, app } from "./state.js";

const SVG = "http://www.w3.org/2000/svg";

// The dialog opened for a review (from "history": it offers the way back there).
export function showReviewOpening(from) {
  $("review-title").textContent = t("Review of the game");
  $("review-game").textContent = "";
  $("review-history").hidden = from !== "history";
  openDialog("dlg-review");
}

export function showReviewError(message) {
  $("review-body").replaceChildren(Object.assign(document.createElement("p"), { className: "form-error", textContent: message }));
}
// While it runs: how long it has taken, of the most it may take.
export function showProgress(data) {
  const body = $("review-body");
  let box = body.querySelector(".review-progress");
  if (!box) {
    box = document.createElement("div");
    box.className = "review-progress";
    const text = Object.assign(document.createElement("p"), { id: "review-progress-text" });
    const bar = document.createElement("progress");
    bar.max = 1;
    bar.setAttribute("aria-labelledby", "review-progress-text");
    const note = Object.assign(document.createElement("p"), {
      className: "note",
      textContent: t("The solver works out, for every move, the best score still reachable, knowing the whole stock now that the game has ended."),
    });
    const found = Object.assign(document.createElement("p"), { className: "note found-note", hidden: true, textContent: t("The values found so far:") });
    const sketch = Object.assign(document.createElement("div"), { className: "review-chart" });
    sketch.append(Object.assign(document.createElement("div"), { className: "chart", id: "review-sketch" }));
    box.append(text, bar, note, found, sketch);
    body.replaceChildren(box);
  }
  const text = box.querySelector("p");
  const bar = box.querySelector("progress");
  if (!data) {
    text.textContent = t("Starting the review…");
    bar.removeAttribute("value");
    return;
  }
  bar.value = data.share;
  text.textContent = t("Reviewing the game… {elapsed} s of at most {limit} s", {
    elapsed: Math.round(data.elapsed), limit: Math.round(data.limit),
  });
  if (data.known && data.known.some((k) => k)) {
    box.querySelector(".found-note").hidden = false;
    drawSketch(box.querySelector("#review-sketch"), data.known);
  }
}

// -------------------------------------------------------------- the review
export function showDone(onMove, onLonger) {
  const doc = app.review.doc;
  const review = doc.review;
  $("review-game").textContent = t("{deal} · {rules} · score {score}", { deal: doc.deal, rules: doc.rules, score: review.final_score });
  const story = Object.assign(document.createElement("p"), { className: "story", textContent: doc.story });
  const figure = document.createElement("figure");
  figure.className = "review-chart";
  const chart = document.createElement("div");
  chart.className = "chart";
  chart.id = "review-chart";
  const caption = document.createElement("figcaption");
  caption.append(...legend(doc));
  figure.append(chart, caption);
  // a costly move's mark on the chart (drawn again at each size) opens it too
  chart.addEventListener("click", (event) => {
    const mark = event.target.closest ? event.target.closest(".costly-mark") : null;
    if (mark) onMove(Number(mark.dataset.n));
  });
  const parts = [story, figure];
  // values left open: said under the chart (as the table layer words it), with the offer
  // to look longer for them
  if (doc.open_values) {
    const note = Object.assign(document.createElement("p"), { className: "note open-values", textContent: doc.open_values });
    parts.push(note);
    if (onLonger) {
      const longer = Object.assign(document.createElement("button"), { type: "button", id: "review-longer", textContent: t("Look longer") });
      longer.addEventListener("click", () => onLonger());
      note.append(" ", longer);
    }
  }
  const costly = doc.costly || [];
  parts.push(Object.assign(document.createElement("h3"), { textContent: t("Moves that cost cards") }));
  if (!costly.length) {
    parts.push(Object.assign(document.createElement("p"), { textContent: t("No move cost a card.") }));
  } else {
    parts.push(Object.assign(document.createElement("p"), { className: "note", textContent: t("Choose one to see the position before it, with the move played and a better one.") }));
    const list = document.createElement("ol");
    list.className = "costly";
    for (const c of costly) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.n = String(c.n);
      const cost = Object.assign(document.createElement("span"), { className: "cost", textContent: "+" + c.cost });
      cost.setAttribute("aria-hidden", "true");
      button.append(cost, Object.assign(document.createElement("span"), { className: "what", textContent: c.text }));
      if (c.seen_text) button.append(Object.assign(document.createElement("span"), { className: "seen " + (c.seen || ""), textContent: c.seen_text }));
      button.addEventListener("click", () => onMove(c.n));
      item.append(button);
      list.append(item);
    }
    parts.push(list);
  }
  $("review-body").replaceChildren(...parts);
  drawChart();
  const focusN = app.review.focusN;
  const again = focusN !== null ? $("review-body").querySelector(`.costly button[data-n="${focusN}"]`) : null;
  if (again) again.focus();
}

function legend(doc) {
  const item = (kind, text) => {
    const span = Object.assign(document.createElement("span"), { className: "key " + kind });
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.setAttribute("aria-hidden", "true");
    span.append(mark, document.createTextNode(text));
    return span;
  };
  const values = [doc.review.start, ...doc.review.moves];
  const items = [item("proven", t("best score still reachable, proven"))];
  if (values.some((v) => !v.proven)) items.push(item("unproven", t("~ the best line found, not proven")));
  if ((doc.costly || []).length) items.push(item("costly", t("a move that cost cards")));
  if (doc.review.final_score > values[values.length - 1].best) items.push(item("ended", t("the score the game ended with")));
  return items;
}

// ------------------------------------------------------------------- chart
// The best score still reachable after each move (move 0: the deal), a step each time a
// move costs cards; a value not proven is drawn dashed.  Sized to the dialog in pixels so
// its text stays readable on a phone; drawn again when the window changes size.
export function drawChart() {
  const box = $("review-chart");
  const doc = app.review.doc;
  if (!box || !doc) return;
  const review = doc.review;
  const values = [review.start, ...review.moves].map((m) => ({ best: m.best, proven: m.proven }));
  box.replaceChildren(chart(box, values, { costly: doc.costly || [], lost: review.first_lost_win, end: review.final_score }));
}

// While the review runs: the values found so far, as dots joined by a light line (the
// chart is drawn again, whole, once the review is made).
function drawSketch(box, known) {
  const values = known.map((k) => (k ? { best: k.best, proven: k.proven } : null));
  if (values.length < 2 || !values.some((v) => v)) return;
  box.replaceChildren(chart(box, values, { sketch: true }));
}

// The SVG of values (one per position, the deal first; null: not known yet).
function chart(box, values, { costly = [], lost = null, end = 0, sketch = false }) {
  const total = values.length - 1;
  const known = values.filter((v) => v);
  const width = Math.max(240, Math.floor(box.clientWidth || 320));
  const narrow = width < 420;
  const height = narrow ? 190 : 230;
  const font = narrow ? 12 : 13;
  const m = { left: narrow ? 30 : 36, right: 12, top: 22, bottom: 34 };
  const top = Math.max(4, ...known.map((v) => v.best), end);
  const yStep = niceStep(top / (narrow ? 3 : 4));
  const yMax = Math.ceil(top / yStep) * yStep;
  const x = (i) => m.left + (total ? (i / total) : 0) * (width - m.left - m.right);
  const y = (v) => m.top + (1 - v / yMax) * (height - m.top - m.bottom);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", String(width));
  svg.setAttribute("height", String(height));
  svg.setAttribute("role", "img");
  const first = known[0];
  const last = known[known.length - 1];
  svg.setAttribute("aria-label", sketch
    ? t("Chart of the values found so far: {start} at the deal.", { start: values[0] ? values[0].best : first.best })
    : tn(
      "Chart of the best score still reachable after each move: {start} at the deal, {end} after the last of {total} move.",
      "Chart of the best score still reachable after each move: {start} at the deal, {end} after the last of {total} moves.",
      total, { start: first.best, end: last.best, total }));
  svg.style.fontSize = font + "px";
  const el = (name, attrs, text) => {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  };
  // the axes: cards on the left, moves below
  for (let v = 0; v <= yMax; v += yStep) {
    svg.append(el("line", { class: "grid-line", x1: m.left, x2: width - m.right, y1: y(v), y2: y(v) }));
    svg.append(el("text", { class: "tick", x: m.left - 6, y: y(v) + font * 0.35, "text-anchor": "end" }, String(v)));
  }
  for (const i of ticks(total, narrow ? 4 : 8)) {
    svg.append(el("text", { class: "tick", x: x(i), y: height - m.bottom + font + 4, "text-anchor": "middle" }, String(i)));
  }
  svg.append(el("text", { class: "axis", x: width - m.right, y: height - 4, "text-anchor": "end" }, t("move")));
  svg.append(el("text", { class: "axis", x: m.left + 4, y: m.top - 6 }, t("cards")));
  if (sketch) {
    // a step from each known value to the next: the cards are lost somewhere between
    let d = "";
    let from = null;
    values.forEach((v, i) => {
      if (!v) return;
      if (from !== null) d += `M ${x(from).toFixed(1)} ${y(values[from].best).toFixed(1)} H ${x(i).toFixed(1)} V ${y(v.best).toFixed(1)} `;
      from = i;
    });
    if (d) svg.append(el("path", { class: "best sketch", d }));
    values.forEach((v, i) => {
      if (v) svg.append(el("circle", { class: "found", cx: x(i), cy: y(v.best), r: 3 }));
    });
    return svg;
  }
  // where the win was lost
  if (lost) {
    const at = x(lost);
    svg.append(el("line", { class: "lost", x1: at, x2: at, y1: m.top, y2: height - m.bottom }));
  }
  // the line: proven parts solid, the others dashed
  let proven = "";
  let unproven = "";
  for (let i = 0; i < total; i += 1) {
    const flat = `M ${x(i).toFixed(1)} ${y(values[i].best).toFixed(1)} H ${x(i + 1).toFixed(1)} `;
    if (values[i].proven) proven += flat; else unproven += flat;
    if (values[i + 1].best !== values[i].best) {
      const rise = `M ${x(i + 1).toFixed(1)} ${y(values[i].best).toFixed(1)} V ${y(values[i + 1].best).toFixed(1)} `;
      if (values[i + 1].proven) proven += rise; else unproven += rise;
    }
  }
  if (!total) proven = `M ${x(0) - 3} ${y(values[0].best)} H ${x(0) + 3}`;
  if (proven) svg.append(el("path", { class: "best proven", d: proven }));
  if (unproven) svg.append(el("path", { class: "best unproven", d: unproven }));
  // a game given up (or left) with more cards out than it could still have got to: where it
  // ended, above the end of the line
  const lastBest = values[total].best;
  if (end > lastBest) {
    const ex = x(total);
    svg.append(el("line", { class: "ended-gap", x1: ex, x2: ex, y1: y(lastBest), y2: y(end) }));
    svg.append(el("circle", { class: "ended", cx: ex, cy: y(end), r: narrow ? 5 : 4.5 }));
    svg.append(el("text", { class: "ended-label", x: ex - 9, y: y(end) + font * 0.35, "text-anchor": "end" },
      t("ended at {score}", { score: end })));
  }
  // the costly moves: a mark where the value rose, clicked to see the position before it;
  // a label too near the one before goes below its mark, or is left out
  const labelled = [];
  for (const c of costly) {
    const g = el("g", { class: "costly-mark", "data-n": c.n });
    const cx = x(c.n);
    const cy = y(c.best);
    g.append(el("circle", { class: "hit", cx, cy, r: 14 }));
    g.append(el("circle", { class: "dot", cx, cy, r: narrow ? 5.5 : 5 }));
    const text = (c.proven ? "+" : "~+") + c.cost;
    const room = text.length * font * 0.62 + 4;
    const free = (ly) => labelled.every((l) => Math.abs(l.x - cx) > (l.room + room) / 2 || Math.abs(l.y - ly) > font);
    const above = cy - 9;
    const below = cy + font + 6;
    const ly = free(above) ? above : free(below) && below < height - m.bottom ? below : null;
    if (ly !== null) {
      labelled.push({ x: cx, y: ly, room });
      g.append(el("text", { class: "cost", x: cx, y: ly, "text-anchor": cx > width - 30 ? "end" : "middle" }, text));
    }
    svg.append(g);
  }
  return svg;
}

// a round step at least raw: 1, 2, 5, 10, 20, 25, 50 ...
function niceStep(raw) {
  const steps = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500];
  return steps.find((s) => s >= raw) || Math.ceil(raw / 500) * 500;
}

// about count round values from 0 to max, max itself last (the last move)
function ticks(max, count) {
  if (max <= 0) return [0];
  const step = niceStep(max / count);
  const out = [];
  for (let v = 0; v < max - step * 0.4; v += step) out.push(v);
  out.push(max);
  return out;
}

export function reviewOpen() {
  return $("dlg-review").open && app.review.doc !== null;
}
