import { ExpirationPlugin } from "workbox-expiration"
import { cleanupOutdatedCaches, type PrecacheEntry, precacheAndRoute } from "workbox-precaching"
import { NavigationRoute, registerRoute } from "workbox-routing"
import { CacheFirst, StaleWhileRevalidate } from "workbox-strategies"

/**
 * The console's own files, kept in the browser so a reload with no link still opens the console
 * (docs/decisions.md, "The service worker"). Built by vite-plugin-pwa (vite.config.ts), which
 * writes the build's file list into `__WB_MANIFEST`. Nothing here calls `skipWaiting`: a new
 * version waits until no page runs the old one, so a page keeps the code it started with for as
 * long as it is open (a deploy never swaps code in the middle of work). Once active, it takes the
 * open pages no worker serves (`clients.claim`): by then no page runs an older worker, so it takes
 * only a first visit's page, whose screens and dialogs loaded later then come from it, with no link too.
 * API answers are never kept: no route below matches `/api/`.
 */
declare const self: {
  readonly __WB_MANIFEST: Array<PrecacheEntry | string>
  readonly clients: { claim(): Promise<void> }
  addEventListener(type: "install" | "activate", listener: (event: { waitUntil(done: Promise<unknown>): void }) => void): void
}

/** The pages the server answers itself, never the console's: the API and its docs, uploaded files, metrics. */
const notConsole = [/^\/api\//, /^\/uploads\//, /^\/metrics/]

// Every built file but index.html: fetched when this version installs, and still there for a page
// of this version after a deploy has taken its files off the server.
precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()

// Any console path is the same page (the server's fallback to index.html), so every navigation is
// kept under one key, "/": the page last seen at once, whatever the round trip, and asked again
// behind it for the next load (docs/decisions.md, "A reload opens at once").
const PAGES = "console-pages"
registerRoute(
  new NavigationRoute(
    new StaleWhileRevalidate({
      cacheName: PAGES,
      plugins: [{ cacheKeyWillBeUsed: () => Promise.resolve("/") }]
    }),
    { denylist: notConsole }
  )
)

// A new build's worker, found (by a load, or by the open page's checks: ./register.ts), drops the
// page kept by the old one: the next load asks the server, so it is the new build's page.
self.addEventListener("install", (event) => event.waitUntil(caches.open(PAGES).then((pages) => pages.delete("/"))))

// A first visit's page is served by the worker from the moment it is active, not from the next load.
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()))

// A hashed file never changes under its name: a file of a newer build than this worker's list
// (a page loaded from the network after a deploy) is kept the first time it is fetched.
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith("/assets/"),
  new CacheFirst({ cacheName: "console-assets", plugins: [new ExpirationPlugin({ maxEntries: 300, purgeOnQuotaError: true })] })
)
