// The game's own Python in a Web Worker: Pyodide runs the devilsgrip package, whose
// API (devilsgrip.site.worker.WorkerDoor) answers each request of the page as the
// local server would.  The games live in a folder kept in IndexedDB: after each
// request, and before its answer is sent, the folder is written back, so a reload,
// a closed tab or a killed browser loses no move the page was told about.
//
// The first start also keeps a memory snapshot of Python with the game's modules
// imported (in the browser's cache, for this package and this runtime only); later
// starts resume from it instead of starting Python and importing everything again.
//
// Two tabs of the site have a worker each, each with its own copy of the folder: while
// more than one is open, or after another wrote, a request first takes the folder as
// the other left it (and opens the games again from it), all under a lock that the
// workers of the site share, so a move is always played on the games as they stand.
//
// Messages: the page sends {id, method, path, body, languages}; the worker answers
// {id, status, text, took} (text: the JSON answer; took: the milliseconds spent in
// Python and in keeping the folder), and while it starts
// {progress: step, done, total}, then {ready: true} or {failed: reason}.

import { loadPyodide, version } from "./pyodide/pyodide.mjs";

const DATA = "/devilsgrip";
const LIB = "/devilsgrip-lib";
const STEPS = 4;
const SNAPSHOTS = "devilsgrip-snapshot";
const TAB_LOCK = "devilsgrip-tab-";
const FOLDER_LOCK = "devilsgrip-folder";
let door = null;
let doors = null; // the Python module that makes them
let keeps = false;
let stale = false; // another tab wrote the folder since this one last took it
let queue = Promise.resolve();
const locks = self.navigator && self.navigator.locks ? self.navigator.locks : null;
const written = self.BroadcastChannel ? new BroadcastChannel(FOLDER_LOCK) : null;
if (written) written.onmessage = () => { stale = true; };

const progress = (step, done) => postMessage({ progress: step, done, total: STEPS });

function sync(populate) {
  return new Promise((resolve, reject) => {
    self.pyodide.FS.syncfs(populate, (error) => (error ? reject(error) : resolve()));
  });
}

async function digest(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash.slice(0, 12), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The snapshot kept for this package and runtime (null: none, or no cache here).
async function keptSnapshot(key) {
  if (!self.caches) return null;
  try {
    const cache = await caches.open(SNAPSHOTS);
    const kept = await cache.match(key);
    return kept ? new Uint8Array(await kept.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

async function keepSnapshot(key, snapshot) {
  if (!self.caches) return;
  try {
    const cache = await caches.open(SNAPSHOTS);
    for (const old of await cache.keys()) await cache.delete(old);
    await cache.put(key, new Response(snapshot, { headers: { "content-type": "application/octet-stream" } }));
  } catch (error) {
    console.warn("devilsgrip: no snapshot kept:", error);
  }
}

const PREPARE = [
  "import os, sys",
  `sys.path.insert(0, '${LIB}')`,
  "os.environ['DEVILSGRIP_CORE'] = 'python'",
  "os.environ['DEVILSGRIP_CACHE'] = '/tmp/devilsgrip-cache'",
  "from devilsgrip.site import worker",
  "worker.warm_up()",
].join("\n");

async function startPython(zip) {
  const key = new URL(`snapshot/${version}/${await digest(zip)}`, import.meta.url).href;
  const snapshot = await keptSnapshot(key);
  if (snapshot) {
    try {
      const pyodide = await loadPyodide({ _loadSnapshot: snapshot });
      pyodide.unpackArchive(zip, "zip", { extractDir: LIB });
      return pyodide;
    } catch (error) {
      console.warn("devilsgrip: the kept snapshot does not start:", error);
    }
  }
  const pyodide = await loadPyodide({ _makeSnapshot: Boolean(self.caches) });
  progress("Loading the game's rules and solver", 1);
  pyodide.unpackArchive(zip, "zip", { extractDir: LIB });
  pyodide.runPython(PREPARE);
  if (self.caches) await keepSnapshot(key, pyodide.makeMemorySnapshot());
  return pyodide;
}

async function start() {
  progress("Starting Python", 0);
  const response = await fetch(new URL("./devilsgrip.zip", import.meta.url));
  if (!response.ok) throw new Error(`devilsgrip.zip: ${response.status}`);
  const zip = new Uint8Array(await response.arrayBuffer());
  const pyodide = await startPython(zip);
  self.pyodide = pyodide;
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
  doors = pyodide.pyimport("devilsgrip.site.worker");
  door = doors.WorkerDoor.callKwargs(DATA, { persist: keeps });
  await keep();
  if (keeps && locks) {
    // held while this worker lives: the other tabs see that this one is open
    locks.request(TAB_LOCK + crypto.randomUUID(), () => new Promise(() => {}));
  }
  progress("Opening your saved games", 4);
}

// Whether another tab of the site is open now.
async function othersOpen() {
  const held = (await locks.query()).held || [];
  return held.filter((lock) => lock.name.startsWith(TAB_LOCK)).length > 1;
}

// The games opened again from the folder as another tab left it in IndexedDB (also
// after a try that failed halfway, which left no games open).
async function takeFolder() {
  if (door) {
    door.close();
    door.destroy();
    door = null;
  }
  await sync(true);
  door = doors.WorkerDoor.callKwargs(DATA, { persist: keeps });
  stale = false;
}

// What the folder holds: each file's name, time of change and size.  The file system
// writes back to IndexedDB the files whose time of change differs, so when this is
// unchanged a request wrote nothing and there is nothing to write back.
function folderStamp() {
  if (!keeps) return "";
  const FS = self.pyodide.FS;
  return FS.readdir(DATA).filter((name) => name !== "." && name !== "..").map((name) => {
    const stat = FS.stat(`${DATA}/${name}`);
    return `${name}:${stat.mtime.getTime()}:${stat.size}`;
  }).join("|");
}

// The folder written back to IndexedDB (nothing to do when the browser keeps nothing,
// nor when the request changed no file: a request that only reads, most GETs).
async function keep(before = null) {
  if (keeps && (before === null || folderStamp() !== before)) {
    await sync(false);
    if (written) written.postMessage("written");
  }
}

// One request, under the lock of the folder when the games are kept, the folder taken
// first when another tab may have written it.
function serve(message) {
  if (!keeps || !locks) return answer(message);
  return locks.request(FOLDER_LOCK, async () => {
    try {
      if (stale || !door || await othersOpen()) await takeFolder();
    } catch (error) {
      postMessage({ id: message.id, status: 503, text: JSON.stringify({
        error: "store-failed", message: String(error && error.message || error) }) });
      return;
    }
    await answer(message);
  });
}

function answer(message) {
  const { id, method, path, body, languages } = message;
  let status = 500;
  let text = "";
  const began = performance.now();
  const before = folderStamp();
  try {
    const reply = door.answer(method, path, body === undefined ? null : JSON.stringify(body),
      languages || null);
    const pair = reply.toJs();
    reply.destroy();
    [status, text] = pair;
  } catch (error) {
    text = JSON.stringify({ error: "worker-failed", message: String(error && error.message || error) });
  }
  const answered = performance.now();
  // took: milliseconds in Python, then keeping the folder (for the benchmark)
  return keep(before).then(() => postMessage({ id, status, text,
    took: [answered - began, performance.now() - answered] }),
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
  queue = queue.then(() => ready).then(() => serve(message), () => postMessage({
    id: message.id, status: 0, text: "" }));
};
