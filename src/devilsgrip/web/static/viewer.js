// The viewer's bar: the line on show (the best line, or a reviewed game as it was
// played), where it is in it, and for a costly move of a review the move played and the
// better one, in words and as arrows.  It draws; the viewer's actions are in actions.js.

import { clearMoveArrows, drawMoveArrows } from "./arrows.js";
import { t, tn } from "./i18n.js";
import { $, app } from "./state.js";

// The review's words for the position on show: the move that follows it, when it cost
// cards, with the better one, each beside the colour of its arrow.
function renderReviewStep(vw) {
  const { moves } = vw.sol;
  const total = moves.length;
  const i = vw.index;
  const c = vw.review.costly.get(i + 1);
  let text;
  if (c) text = tn("{deal}, before move {n} of {total}: it cost {cost} card.", "{deal}, before move {n} of {total}: it cost {cost} cards.", c.cost, { deal: vw.review.deal, n: i + 1, total, cost: c.cost });
  else if (i === 0) text = t("{deal}, as it was dealt.", { deal: vw.review.deal });
  else text = t("{deal}, after move {n} of {total}: {move}", { deal: vw.review.deal, n: i, total, move: moves[i - 1] });
  $("solution-step").textContent = text;
  const legend = $("sol-legend");
  legend.hidden = !c;
  if (!c) {
    legend.replaceChildren();
    clearMoveArrows();
    return;
  }
  const item = (kind, words) => {
    const row = Object.assign(document.createElement("span"), { className: "legend-item " + kind });
    row.append(Object.assign(document.createElement("span"), { className: "swatch", ariaHidden: "true" }),
      Object.assign(document.createElement("span"), { textContent: words }));
    return row;
  };
  const items = [item("played", c.played_text)];
  if (c.better_text) items.push(item("better", c.better_text));
  if (c.seen_text) items.push(Object.assign(document.createElement("span"), { className: "legend-note", textContent: c.seen_text }));
  legend.replaceChildren(...items);
  showArrows();
}

// The arrows are drawn for one layout: they are drawn again after a change of size.
export function showArrows() {
  const vw = app.viewer;
  const c = vw && vw.review ? vw.review.costly.get(vw.index + 1) : null;
  if (!c) {
    clearMoveArrows();
    return;
  }
  const arrows = [{ from: c.arrows.played[0], to: c.arrows.played[1], kind: "played" }];
  if (c.arrows.better) arrows.push({ from: c.arrows.better[0], to: c.arrows.better[1], kind: "better" });
  drawMoveArrows(arrows);
}

export function renderViewer() {
  const bar = $("solution-bar");
  const vw = app.viewer;
  bar.hidden = !vw;
  if (!vw) return;
  const { moves, score } = vw.sol;
  const total = moves.length;
  const i = vw.index;
  bar.dataset.index = String(i);
  bar.dataset.total = String(total);
  bar.classList.toggle("review", Boolean(vw.review));
  $("sol-prev").disabled = i === 0;
  $("sol-next").disabled = i >= total;
  $("sol-all").textContent = vw.running ? t("Pause") : t("Play");
  $("sol-all").setAttribute("aria-pressed", vw.running ? "true" : "false");
  if (vw.review) {
    bar.setAttribute("aria-label", t("Your game as it was played"));
    renderReviewStep(vw);
    return;
  }
  bar.setAttribute("aria-label", t("The best line"));
  $("sol-legend").hidden = true;
  let text;
  if (i === 0) text = tn("Best line: the deal as it was dealt; {total} move to score {score}.", "Best line: the deal as it was dealt; {total} moves to score {score}.", total, { total, score });
  else if (i >= total) text = tn("Best line: the {total} move played: score {score}.", "Best line: all {total} moves played: score {score}.", total, { total, score });
  else text = t("Best line: move {n} of {total}: {move}", { n: i, total, move: moves[i - 1] });
  $("solution-step").textContent = text;
}
