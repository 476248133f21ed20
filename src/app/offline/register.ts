/**
 * Registers the service worker that keeps the console's own files (./service-worker.ts;
 * docs/decisions.md, "The service worker"). Called once the first screen is quiet (`whenQuiet`,
 * src/app/AuthenticatedApp.tsx), so its install, which fetches every built file, never competes
 * with the first rows. The browser asks for the worker's script again on each load, past its
 * HTTP cache (`updateViaCache`), and the open page asks too, so a deploy is found; the page a
 * load opens at once is the one the worker kept, and a new worker drops it (./service-worker.ts).
 */
export const registerServiceWorker = async (): Promise<void> => {
  if (!("serviceWorker" in navigator)) return
  const registration = await navigator.serviceWorker.register("/service-worker.js", { updateViaCache: "none" })
  // A page kept open for days still finds a deploy: when it comes back into view, and every hour.
  // The new worker drops the page the old one kept, so the next load is the new build's.
  const look = () => void registration.update().catch(() => undefined)
  setInterval(look, UPDATE_CHECK_MS)
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && look())
}

/** How often an open console asks whether a new build has been deployed. */
const UPDATE_CHECK_MS = 60 * 60 * 1000
