// rummykit's service worker: the page's own files, kept for a fast start and a start
// without a connection (the lobby then says "No connection"); never the API.
//
// - The API (api/..., the WebSocket too) is never answered from here: a game is always what
//   the server says now, never a stale copy.
// - A page's files come from the network first (the server asks the browser to check each
//   with its ETag, so a page never runs an older rummykit's scripts), and each answer is
//   kept; only when the network fails is the kept copy used.
// - A page that had to start from the kept copies (no answer within NAVIGATION_WAIT) takes
//   all its files from them, so that its scripts are of one version.

const CACHE = "rummykit-app-2";
const NAVIGATION_WAIT = 4000; // ms
const FILES = [
  "./",
  "index.html",
  "app.css",
  "manifest.webmanifest",
  "icon.svg",
  "icon-turn.svg",
  "icon-app.svg",
  "icon-maskable.svg",
  "icon-192.png",
  "icon-512.png",
  "icon-maskable-512.png",
  "icon-180.png",
  "i18n/en.json",
  "i18n/sv.json",
  "js/account.js",
  "js/alerts.js",
  "js/api.js",
  "js/app.js",
  "js/cards.js",
  "js/chat.js",
  "js/commands.js",
  "js/drag.js",
  "js/i18n.js",
  "js/install.js",
  "js/kontrakt.js",
  "js/learn.js",
  "js/live.js",
  "js/lobby.js",
  "js/mytables.js",
  "js/pace.js",
  "js/playnow.js",
  "js/profile.js",
  "js/puzzles.js",
  "js/replay.js",
  "js/review.js",
  "js/spec.js",
  "js/store.js",
  "js/table.js",
  "js/ui.js",
  "js/vatikanen.js",
  "js/words.js",
  "vendor/preact/hooks.module.js",
  "vendor/preact/preact.module.js",
  "vendor/qrcode-generator/qrcode.module.js",
];

const fromCache = new Set(); // the pages (client ids) that started from the kept copies

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES.map((file) => new Request(file, { cache: "no-cache" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

function isApi(url) {
  const root = new URL(self.registration.scope).pathname;
  return !url.pathname.startsWith(root) || url.pathname.startsWith(root + "api/");
}

function keep(request, response) {
  if (response.ok && response.type === "basic" && !/no-store/.test(response.headers.get("cache-control") || "")) {
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

function waited(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no answer in time")), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

async function navigate(event) {
  const request = event.request;
  const shell = new URL("./", self.registration.scope).href;
  try {
    const response = await waited(fetch(request), NAVIGATION_WAIT);
    const url = new URL(request.url);
    if (url.href.split("#")[0].split("?")[0] === shell && response.ok) keep(new Request(shell), response.clone());
    fromCache.delete(event.resultingClientId);
    return response;
  } catch (err) {
    const kept = (await caches.match(shell)) || (await caches.match(new URL("index.html", shell).href));
    if (!kept) throw err;
    if (event.resultingClientId) fromCache.add(event.resultingClientId);
    return kept;
  }
}

async function file(event) {
  const request = event.request;
  if (fromCache.has(event.clientId)) {
    const kept = await caches.match(request, { ignoreSearch: true });
    if (kept) return kept;
  }
  try {
    return keep(request, await fetch(request));
  } catch (err) {
    const kept = await caches.match(request, { ignoreSearch: true });
    if (kept) return kept;
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || isApi(url)) return; // the network, always
  event.respondWith(request.mode === "navigate" ? navigate(event) : file(event));
});

// a tap on a "your turn" notification: to the table's page, in a window already open if any
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = (event.notification.data && event.notification.data.url) || self.registration.scope;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const same = windows.find((w) => w.url === target) || windows[0];
      if (same) {
        return same.focus().then((w) => (w && w.url !== target && "navigate" in w ? w.navigate(target) : w));
      }
      return self.clients.openWindow(target);
    }),
  );
});
