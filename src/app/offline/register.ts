/**
 * Registers the service worker that keeps the console's own files (./service-worker.ts;
 * docs/decisions.md, "The service worker"). Called once the first screen is quiet (`whenQuiet`,
 * src/app/AuthenticatedApp.tsx), so its install, which fetches every built file, never competes
 * with the first rows. The browser asks for the worker's script again on each load, past its
 * HTTP cache (`updateViaCache`), so a deploy is found at the next load.
 */
export const registerServiceWorker = async (): Promise<void> => {
  if (!("serviceWorker" in navigator)) return
  await navigator.serviceWorker.register("/service-worker.js", { updateViaCache: "none" })
}
