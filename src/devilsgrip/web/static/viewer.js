// The best line's viewer: it shows the positions the server sent and never
// sends a move.

import { captureRects, pause, planFlights, runFlights } from "./animation.js";
import { api, ApiError, enqueue } from "./api.js";
import { t, tn } from "./i18n.js";
import { clearHint, say } from "./messages.js";
import { render } from "./render.js";
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
  app.viewer = { sol, index: 0, running: false };
  document.body.classList.add("replaying");
  render();
  renderViewer();
  say(tn("The best line from the start of the deal, {total} move. Your game is not changed.", "The best line from the start of the deal, {total} moves. Your game is not changed.", sol.moves.length, { total: sol.moves.length }));
  $("sol-next").focus();
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
  let text;
  if (i === 0) text = tn("Best line: the deal as it was dealt; {total} move to score {score}.", "Best line: the deal as it was dealt; {total} moves to score {score}.", total, { total, score });
  else if (i >= total) text = tn("Best line: the {total} move played: score {score}.", "Best line: all {total} moves played: score {score}.", total, { total, score });
  else text = t("Best line: move {n} of {total}: {move}", { n: i, total, move: moves[i - 1] });
  $("solution-step").textContent = text;
  $("sol-prev").disabled = i === 0;
  $("sol-next").disabled = i >= total;
  $("sol-all").textContent = vw.running ? t("Pause") : t("Play");
  $("sol-all").setAttribute("aria-pressed", vw.running ? "true" : "false");
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
  if (target > 0 && (!vw.running || target === vw.sol.moves.length)) {
    const move = vw.sol.moves[target - 1];
    say(t("Move {n} of {total}: {move}", { n: target, total: vw.sol.moves.length, move }));
  }
  if (Math.abs(target - from) === 1) {
    const after = captureRects();
    await runFlights(planFlights(old, view(), before, after), null);
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

// Closed by the player: the board shows their own game again.
export function leaveViewer() {
  closeViewer();
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
  document.body.classList.remove("replaying");
  render();
}
