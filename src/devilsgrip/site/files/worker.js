// The game's own Python in a Web Worker: Pyodide runs the devilsgrip package, whose
// API (devilsgrip.site.worker.WorkerDoor) answers each request of the page as the
// local server would.  The games live in a folder kept in IndexedDB: after each
// request, and before its answer is sent, the folder is written back, so a reload,
// a closed tab or a killed browser loses no move the page was told about.
//
// Messages: the page sends {id, method, path, body, languages}; the worker answers
// {id, status, text} (text: the JSON answer), and while it starts
// {progress: step, done, total}, then {ready: true} or {failed: reason}.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const DATA = "/devilsgrip";
const STEPS = 4;
let door = null;
let keeps = false;
let queue = Promise.resolve();

const progress = (step, done) => postMessage({ progress: step, done, total: STEPS });

function sync(populate) {
  return new Promise((resolve, reject) => {
    self.pyodide.FS.syncfs(populate, (error) => (error ? reject(error) : resolve()));
  });
}

async function start() {
  progress("Starting Python", 0);
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
  self.pyodide = pyodide;
  progress("Loading the game's rules and solver", 1);
  const response = await fetch(new URL("./devilsgrip.zip", import.meta.url));
  if (!response.ok) throw new Error(`devilsgrip.zip: ${response.status}`);
  pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/devilsgrip-lib" });
  pyodide.runPython([
    "import os, sys",
    "sys.path.insert(0, '/devilsgrip-lib')",
    "os.environ['DEVILSGRIP_CORE'] = 'python'",
    "os.environ['DEVILSGRIP_CACHE'] = '/tmp/devilsgrip-cache'",
  ].join("\n"));
  progress("Opening your saved games", 2);
  const FS = pyodide.FS;
  FS.mkdirTree(DATA);
  try {
    FS.mount(FS.filesystems.IDBFS, {}, DATA);
    await sync(true);
    keeps = true;
  } catch (error) {
    console.warn("devilsgrip: games are not kept in this browser:", error);
    keeps = false;
  }
  progress("Opening your saved games", 3);
  const worker = pyodide.pyimport("devilsgrip.site.worker");
  door = worker.WorkerDoor.callKwargs(DATA, { persist: keeps });
  await keep();
  progress("Opening your saved games", 4);
}

// The folder written back to IndexedDB (nothing to do when the browser keeps nothing).
async function keep() {
  if (keeps) await sync(false);
}

function answer(message) {
  const { id, method, path, body, languages } = message;
  let status = 500;
  let text = "";
  try {
    const reply = door.answer(method, path, body === undefined ? null : JSON.stringify(body),
      languages || null);
    const pair = reply.toJs();
    reply.destroy();
    [status, text] = pair;
  } catch (error) {
    text = JSON.stringify({ error: "worker-failed", message: String(error && error.message || error) });
  }
  return keep().then(() => postMessage({ id, status, text }),
    (error) => postMessage({ id, status: 503, text: JSON.stringify({
      error: "store-failed", message: String(error && error.message || error) }) }));
}

const ready = start().then(
  () => postMessage({ ready: true }),
  (error) => {
    postMessage({ failed: String(error && error.message || error) });
    throw error;
  });

// One request at a time, in the order sent: each answered once its changes are kept.
self.onmessage = (event) => {
  const message = event.data;
  if (!message || typeof message.id !== "number") return;
  queue = queue.then(() => ready).then(() => answer(message), () => postMessage({
    id: message.id, status: 0, text: "" }));
};
