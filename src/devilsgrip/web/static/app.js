// Devil's Grip in the browser.
//
// The page draws the server's state and turns pointer, click and key input into
// places: a card picked up at one place and dropped on another is sent as a drop
// ({"from": "a1", "to": "c2"}), and the server's table layer decides what it means (a
// build, a swap into an empty cell, or a refusal with its reason in the player's
// language).  The page holds no game rules and no lifecycle decision: what may be picked
// up, built on or swapped with, what the stock plays, whether leaving a game must be
// confirmed, every sentence, label, preset and card name come from the server.
//
// Every visible string is written as a literal t("...") call so the translations'
// extractor finds it.
//
// The modules go one way, input -> actions -> transport -> state -> render:
//   input.js                 pointer, click and keys, turned into actions
//   actions.js, menus.js     the player's actions: a request, the answer to the state, drawn
//   transport.js             request(method, path, body): the one way to the server
//   state.js                 what the page knows; the only module that changes it
//   render.js, board.js, animation.js, arrows.js, messages.js, dialogs.js, history.js,
//   review.js, viewer.js     drawing (they read the state and change nothing in it)
//   i18n.js, markdown.js     the words and the rules text
// No module imports one above it (tests/web/test_page_modules.py checks: no cycle).
// This module starts the page.

import { start } from "./actions.js";
import { buildGrid } from "./board.js";
import { wire } from "./input.js";

buildGrid();
wire();
start();
