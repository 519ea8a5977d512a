// Talking to the server: JSON requests, refusals as errors, and one queue so fast
// clicks and keys play in order.

import { t } from "./i18n.js";
import { finishAnimations } from "./animation.js";
import { showMessage } from "./messages.js";
import { app } from "./state.js";

// ---------------------------------------------------------------- the server
export class ApiError extends Error {
  constructor(message, code, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

// Deal numbers go up to 2**63-1: the page keeps each "number" as the text the server
// wrote, never as a JavaScript number (exact only up to 2**53).
export function readJSON(text) {
  return JSON.parse(text, (key, value, context) => (
    key === "number" && typeof value === "number" && context && typeof context.source === "string"
      ? context.source : value));
}

export async function api(method, path, body) {
  const options = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (method !== "GET") {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body ?? {});
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(t("The game server does not answer. Is it still running?"), "offline", 0);
  }
  let data = null;
  try {
    data = readJSON(await response.text());
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = data && data.message ? data.message
      : t("The server refused ({status}).", { status: response.status });
    throw new ApiError(message, data && data.error, response.status);
  }
  return data;
}

// Work is done one task at a time, so fast clicks and keys play in order; a new task
// finishes the running animation at once (the page never makes the player wait for it).
let queue = Promise.resolve();

export function enqueue(task) {
  app.pending += 1;
  document.body.dataset.busy = "1";
  finishAnimations();
  const run = queue.then(task).catch((error) => { showMessage(error.message, "error"); });
  queue = run.finally(() => {
    app.pending -= 1;
    if (app.pending === 0) delete document.body.dataset.busy;
  });
  return queue;
}
