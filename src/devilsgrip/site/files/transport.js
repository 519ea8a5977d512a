// The way to the game in the static site: every request of the page goes through
// request(), as with the local server, but it is answered by the project's own Python
// running under Pyodide in a Web Worker (worker.js), not by the network.  The page's
// other modules are the server's own; this one also starts the worker, registers the
// service worker that keeps the site for playing offline, and shows the progress
// while the runtime loads.

import { ApiError, readJSON, refusalOf } from "./answers.js";
import { t } from "./i18n.js";

const SITE = new URL("../", import.meta.url);
const languages = Array.from(navigator.languages || [navigator.language || "en"]);
const acceptLanguage = languages.map((lang, i) => (i ? `${lang};q=${Math.max(0.1, 1 - i / 10).toFixed(1)}` : lang)).join(",");

// The loader's sentences, from the site's table before the page has its words, then
// from the page's own (the player's chosen language).
let siteWords = {};
const fill = (text, params) => text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
function word(key, params) {
  if (t(key) !== key) return t(key, params);
  const text = siteWords[key] || key;
  return params ? fill(text, params) : text;
}

async function loadWords() {
  try {
    const response = await fetch(new URL("site-words.json", SITE));
    const table = await response.json();
    for (const lang of languages) {
      const code = lang.toLowerCase().split("-")[0];
      if (table[code]) {
        siteWords = table[code];
        return;
      }
    }
  } catch {
    siteWords = {};
  }
}

// The progress shown while the runtime loads (removed once the game answers).
let panel = null;
function showProgress(step, done, total) {
  if (!panel) {
    panel = document.createElement("div");
    panel.id = "site-loading";
    panel.setAttribute("role", "status");
    panel.style.cssText = "position:fixed;inset:auto 0 0 0;z-index:50;padding:0.8rem 1rem;"
      + "background:#0d3b2a;color:#ffffff;font:inherit;text-align:center;"
      + "border-top:2px solid #d8b25c";
    panel.innerHTML = '<p id="site-loading-step" style="margin:0 0 0.4rem"></p>'
      + '<progress id="site-loading-bar" style="width:min(20rem,80vw)"></progress>';
    document.body.append(panel);
  }
  panel.querySelector("#site-loading-step").textContent = word(step) + "…";
  const bar = panel.querySelector("#site-loading-bar");
  bar.setAttribute("aria-label", word("Starting the game"));
  bar.max = total;
  if (done > 0) bar.value = done;
  else bar.removeAttribute("value"); // under way, how far unknown: the bar moves on its own
}

function hideProgress() {
  if (panel) panel.remove();
  panel = null;
}

// The service worker: once it has every file of the site, the game plays offline.  On
// the first visit the runtime is fetched once, by the service worker, before the
// worker starts (a browser without service workers fetches it directly).
async function offlineReady() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  let registration;
  try {
    registration = await navigator.serviceWorker.register(new URL("sw.js", SITE), { scope: SITE.pathname });
  } catch (error) {
    console.warn("devilsgrip: no service worker:", error);
    return;
  }
  if (!registration) return; // registration refused without an error (a blocking policy)
  if (navigator.serviceWorker.controller && !registration.installing) return;
  showProgress("Downloading the game (only on the first visit)", 0, 4);
  await new Promise((resolve) => {
    const settled = () => {
      const pending = registration.installing || registration.waiting;
      if (navigator.serviceWorker.controller || (!pending && registration.active)) resolve();
      else if (!pending) resolve();
    };
    navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    for (const sw of [registration.installing, registration.waiting]) {
      if (sw) sw.addEventListener("statechange", () => {
        if (sw.state === "redundant" || sw.state === "activated") settled();
      });
    }
    settled();
  });
}

let worker = null;
let nextId = 1;
const waiting = new Map();
let stopped = null;

function stop(reason) {
  stopped = new ApiError(word("The game stopped: {reason}. Reload the page to go on.", { reason }),
    "worker-failed", 0);
  for (const { reject } of waiting.values()) reject(stopped);
  waiting.clear();
}

// The worker, listened to from its first message; resolves once it answers requests.
function launch() {
  worker = new Worker(new URL("worker.js", SITE), { type: "module" });
  return new Promise((resolve, reject) => {
    worker.onmessage = (event) => {
      const data = event.data || {};
      if (data.progress) {
        performance.mark(`devilsgrip:${data.progress}:${data.done}`); // timings, for benchmarks
        if (panel) showProgress(data.progress, data.done, data.total);
      }
      if (data.ready) {
        performance.mark("devilsgrip:ready");
        resolve();
      }
      if (data.failed) reject(new ApiError(word("This browser cannot run the game: {reason}",
        { reason: data.failed }), "worker-failed", 0));
      if (typeof data.id === "number") {
        if (data.took) { // the last answer's timings, for benchmarks (one mark kept)
          performance.clearMarks("devilsgrip:answer");
          performance.mark("devilsgrip:answer", { detail: data.took });
        }
        const pending = waiting.get(data.id);
        waiting.delete(data.id);
        if (pending) pending.resolve(data);
      }
    };
    worker.onerror = (event) => {
      const reason = event.message || "error";
      reject(new ApiError(word("This browser cannot run the game: {reason}", { reason }),
        "worker-failed", 0));
      stop(reason);
    };
  });
}

const started = (async () => {
  // Once the service worker keeps every file, Python starts at once, beside the rest.
  const kept = "serviceWorker" in navigator && navigator.serviceWorker.controller !== null;
  const running = kept ? launch() : null;
  running?.catch(() => null);
  await loadWords();
  await offlineReady();
  showProgress("Starting Python", 0, 4);
  await (running ?? launch());
  hideProgress();
})();
started.catch((error) => {
  stopped = error;
  showProgress("Starting the game", 0, 4);
  panel.setAttribute("role", "alert");
  panel.querySelector("#site-loading-step").textContent = error.message;
  panel.querySelector("#site-loading-bar").remove();
});

// method "GET" or "POST"; path with its query ("/api/review?id=3"); body an object (POST).
export async function request(method, path, body) {
  await started.catch(() => null);
  if (stopped) throw stopped;
  const id = nextId++;
  const answer = await new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, method, path, body: method === "GET" ? undefined : (body ?? {}),
      languages: acceptLanguage });
  });
  let data = null;
  try {
    data = readJSON(answer.text);
  } catch {
    data = null;
  }
  if (answer.status < 200 || answer.status >= 300) {
    throw refusalOf(data, answer.status, t("The server refused ({status}).", { status: answer.status }));
  }
  return data;
}
