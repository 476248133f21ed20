import type { Page } from "playwright-core"

/**
 * Waits until the console's service worker is active, which the console registers once its first
 * screen is quiet, and has taken the page (a first visit's: no worker served it), then loads the
 * page again: the next load is the worker's, the page itself from its cache (docs/console.md,
 * "Offline").
 */
export const underServiceWorker = async (page: Page) => {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
  await page.reload()
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
}
