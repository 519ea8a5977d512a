// Devil's Grip in the browser.
//
// The page renders the server's state and turns pointer, click and key input
// into places: a card picked up at one place and dropped on another is sent
// as a drop ({"from": "a1", "to": "c2"}), and the server's table layer decides
// what it means (a build, a swap into an empty cell, or a refusal with its
// reason in the player's language).  The page holds no game rules and no
// lifecycle decision: what may move where comes from view.legal, whether
// leaving a game must be confirmed from game.leave_asks, and every sentence,
// label, preset and card name from the server.
//
// Every visible string is written as a literal t("...") call so the
// translations' extractor finds it.
//
// This module starts the page; the others are named after what they do:
// api, state, i18n, messages, render, animation, play, viewer, dialogs, input.

import { api, enqueue } from "./api.js";
import { loadStrings } from "./i18n.js";
import { wire } from "./input.js";
import { applyState, clockRunning } from "./play.js";
import { applyStrings, buildGrid, preload } from "./render.js";
import { app } from "./state.js";

async function start() {
  buildGrid();
  wire();
  try {
    Object.assign(app.settings, await api("GET", "/api/settings"));
  } catch {
    // defaults
  }
  await loadStrings();
  applyStrings();
  preload();
  await enqueue(async () => {
    const st = await api("GET", "/api/game");
    document.body.classList.remove("loading");
    await applyState(st, { animate: false, dealIn: st.view.moves === 0, announce: false });
  });
  document.body.classList.remove("loading");
  document.body.dataset.ready = "1";
  if (document.visibilityState === "visible") clockRunning(true);
}

start();
