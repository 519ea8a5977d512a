// The message line and the live region.

import { $, app } from "./state.js";

// --------------------------------------------------------------- messages
export function say(text) {
  const live = $("announce");
  live.textContent = "";
  // a fresh text node each time so screen readers announce repeats too
  window.requestAnimationFrame(() => { live.textContent = text; });
}

// The message line; offer is an action the player may take instead ({label, action}),
// for example swapping two piles after a drop that does not build.
let messageTimer = 0;

// It is also spoken: the page has one live region (#announce), and the message line is not one.
export function showMessage(text, kind = "info", offer = null) {
  const el = $("message");
  if (text) say(text);
  el.textContent = text || "";
  el.className = "message " + kind;
  if (text && offer) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "offer";
    b.textContent = offer.label;
    b.addEventListener("click", () => { showMessage(""); offer.action(); });
    el.replaceChildren(Object.assign(document.createElement("span"), { textContent: text, className: "said" }), " ", b);
  }
  window.clearTimeout(messageTimer);
  if (text && kind !== "sticky") {
    messageTimer = window.setTimeout(() => { el.textContent = ""; el.className = "message"; }, offer ? 12000 : 7000);
  }
}

export function clearHint() {
  window.clearTimeout(app.hintTimer);
  for (const el of document.querySelectorAll(".place.hint")) el.classList.remove("hint");
  $("hint-layer").replaceChildren();
}
