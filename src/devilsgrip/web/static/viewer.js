// The viewer: it shows positions the server sent (the best line, or the game as it
// was played, from a review) and never sends a move.

import { captureRects, pause, planFlights, runFlights } from "./animation.js";
import { api, ApiError, enqueue } from "./api.js";
import { t, tn } from "./i18n.js";
import { clearHint, say } from "./messages.js";
import { clearMoveArrows, drawMoveArrows, render } from "./render.js";
import { $, app, gameIdentity, speed, view } from "./state.js";

export async function fetchSolution() {
  const key = gameIdentity();
  if (app.solutionCache && app.solutionCache.key === key) return app.solutionCache.sol;
  const sol = await api("GET", "/api/solution");
  if (!sol || !Array.isArray(sol.moves) || !Array.isArray(sol.positions)
      || sol.positions.length !== sol.moves.length + 1) {
    throw new ApiError(t("The best line could not be read."), "bad-solution", 0);
  }
  app.solutionCache = { key, sol };
  return sol;
}


export function openViewer(sol) {
  closeViewer();
  app.selected = null;
  clearHint();
  app.viewer = { sol, index: 0, running: false, review: null };
  document.body.classList.add("replaying");
  render();
  renderViewer();
  say(tn("The best line from the start of the deal, {total} move. Your game is not changed.", "The best line from the start of the deal, {total} moves. Your game is not changed.", sol.moves.length, { total: sol.moves.length }));
  $("sol-next").focus();
}

// A reviewed game as it was played, shown from the position before move n: the move
// played and the better one are arrows.  onClose runs when the player closes it (back to
// the review).
export function openReviewViewer(doc, n, onClose) {
  closeViewer();
  app.selected = null;
  clearHint();
  const moves = doc.review.moves.map((m) => m.move);
  const costly = new Map(doc.costly.map((c) => [c.n, c]));
  const sol = { moves, positions: doc.positions, score: doc.review.final_score };
  app.viewer = { sol, index: Math.max(0, Math.min(moves.length, n - 1)), running: false,
    review: { costly, deal: doc.deal, onClose }, number: doc.number ?? null, rules: doc.rules };
  document.body.classList.add("replaying", "reviewing");
  render();
  renderViewer();
  const c = costly.get(n);
  if (c) say([c.text, c.played_text, c.better_text, c.seen_text].filter(Boolean).join(" "));
  $("sol-next").focus();
}

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

// Show position index of the line (a step of one move flies the cards).
export async function showPosition(index) {
  const vw = app.viewer;
  if (!vw) return;
  const target = Math.max(0, Math.min(vw.sol.positions.length - 1, index));
  if (target === vw.index) return;
  const from = vw.index;
  const old = view();
  const before = captureRects();
  vw.index = target;
  render();
  renderViewer();
  const costly = vw.review ? vw.review.costly.get(target + 1) : null;
  if (costly && !vw.running) {
    say([$("solution-step").textContent, costly.played_text, costly.better_text].filter(Boolean).join(" "));
  } else if (target > 0 && (!vw.running || target === vw.sol.moves.length)) {
    const move = vw.sol.moves[target - 1];
    say(t("Move {n} of {total}: {move}", { n: target, total: vw.sol.moves.length, move }));
  }
  if (Math.abs(target - from) === 1) {
    clearMoveArrows(); // drawn again once the cards have landed
    const after = captureRects();
    await runFlights(planFlights(old, view(), before, after), null);
    if (app.viewer === vw) showArrows();
  }
}

export function viewerStep(delta) {
  return enqueue(() => (app.viewer ? showPosition(app.viewer.index + delta) : null));
}

export async function viewerPlay() {
  const vw = app.viewer;
  if (!vw) return;
  if (vw.running) {
    vw.running = false;
    renderViewer();
    return;
  }
  if (vw.index >= vw.sol.moves.length) await enqueue(() => showPosition(0));
  vw.running = true;
  renderViewer();
  while (app.viewer === vw && vw.running && vw.index < vw.sol.moves.length) {
    await enqueue(() => (app.viewer === vw ? showPosition(vw.index + 1) : null));
    await pause(Math.max(30, 160 * speed()));
  }
  vw.running = false;
  if (app.viewer === vw) renderViewer();
}

// Closed by the player: the board shows their own game again (a review's viewer goes back
// to the review).
export function leaveViewer() {
  const back = app.viewer && app.viewer.review ? app.viewer.review.onClose : null;
  closeViewer();
  if (back) {
    back();
    return;
  }
  say(t("Back to your game."));
  const result = $("btn-result");
  if (!result.hidden) result.focus();
}

export function closeViewer() {
  const vw = app.viewer;
  if (!vw) return;
  vw.running = false;
  app.viewer = null;
  $("solution-bar").hidden = true;
  $("sol-legend").hidden = true;
  clearMoveArrows();
  document.body.classList.remove("replaying", "reviewing");
  render();
}
