// The arrows over the board: the hint's, and the review's (the move played, a better one).

import { cellEls } from "./board.js";
import { $, CELLS, placeIndex } from "./state.js";

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
    const a = placeIndex(from);
    const b = placeIndex(to);
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
