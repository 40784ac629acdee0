// Errandly's service worker (docs/decisions/062-web-push-and-installable-app.md): shows pushes and
// opens their page, and shows the offline page when a navigation finds no network. It caches only
// that page and its icon: never a page, a script or an API answer, so a figure on screen is never
// an old one, and every other request goes to the network as if there were no worker.
const CACHE = "errandly-v1";
const OFFLINE_URL = "/offline.html";
const PRECACHE = [OFFLINE_URL, "/icon-192.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE_URL)));
    return;
  }
});

// A push carries {title, body, url, kind} (src/shared/push.ts).
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const url = typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/dashboard";
  event.waitUntil(
    self.registration.showNotification(data.title || "Errandly", {
      body: data.body || "",
      icon: "/icon-192.png",
      badge: "/icon-192.png",
      // One notification per page: a newer push about the same task replaces the older one.
      tag: url,
      data: { url },
    }),
  );
});

/**
 * Opens `url` of this site: the tab already showing it, else an open tab of the app moved to it,
 * else a new tab. Focusing needs the click's user activation; without it the tab still moves.
 */
async function openPage(url) {
  const target = new URL(url, self.location.origin).href;
  const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const same = tabs.find((tab) => tab.url === target);
  const tab = same ?? tabs.find((candidate) => new URL(candidate.url).origin === self.location.origin);
  if (!tab) return self.clients.openWindow(target);
  const shown = same ? tab : ((await tab.navigate(target)) ?? tab);
  return shown.focus().catch(() => shown);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openPage(event.notification.data?.url || "/dashboard"));
});
