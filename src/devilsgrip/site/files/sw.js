
// The site's service worker (VERSION and FILES above are written by the build): it
// keeps every file of the site in a cache of this build, so that after one visit the
// game loads and plays with the network off.  A new build installs its own cache and
// the old ones are deleted once it takes over.

const CACHE = `devilsgrip-${VERSION}`;
const SCOPE = new URL("./", self.location.href);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(FILES.map((name) => new Request(new URL(name, SCOPE), { cache: "no-cache" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("devilsgrip-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// The file of the site a request is for: the page for its folder, otherwise the path.
function siteFile(url) {
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return null;
  let name = url.pathname.slice(SCOPE.pathname.length);
  if (name === "") name = "index.html";
  return FILES.includes(name) ? name : null;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const name = siteFile(new URL(request.url));
  if (name === null) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(new URL(name, SCOPE));
    return kept || fetch(request);
  })());
});
