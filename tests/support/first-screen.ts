import type { Browser, Request } from "playwright-core"

/**
 * What a first screen may send of JavaScript and CSS, compressed, before it is usable: the sign-in
 * form, or a directory's first rows (docs/performance.md). Held by tests/e2e/lists.test.ts and
 * printed by `npm run bench -- first-screen`.
 */
export const FIRST_SCREEN_BUDGET_KB = 150

/** JS and CSS bytes as they crossed the wire (compressed), for the requests given. */
const wireKb = async (requests: ReadonlyArray<Request>) => {
  let bytes = 0
  for (const request of requests) {
    const path = new URL(request.url()).pathname
    if (!/\.(js|css)$/.test(path)) continue
    bytes += (await request.sizes()).responseBodySize
  }
  return Math.round(bytes / 102.4) / 10
}

const READY = "first screen ready"

/** A link slower than loopback, as Chromium emulates it: each request's added round trip, and the bandwidth both ways. */
export interface SlowLink {
  readonly latencyMs: number
  readonly mbit: number
}

/**
 * Opens `url` in a cold context with the token stored, and returns the time (from navigation
 * start, in the page's clock) of the first frame after `selector` first matched, seen by a
 * mutation observer in the page, and the JS and CSS that had fully arrived by then. The page
 * says when by a console message: polling it from here (`waitForFunction`) would inject
 * Playwright's own script into the page while it loads, 15–50 ms on the main thread measured.
 * Over loopback unless `link` is given.
 */
export const coldLoad = async (browser: Browser, token: string | null, url: string, selector: string, link?: SlowLink) => {
  const context = await browser.newContext()
  await context.addInitScript(
    ([value, wanted, ready]) => {
      if (value !== null) localStorage.setItem("adminToken", value)
      const observer = new MutationObserver(() => {
        if (document.querySelector(wanted) === null) return
        observer.disconnect()
        requestAnimationFrame(() => {
          Object.assign(window, { readyAt: performance.now() })
          console.log(ready)
        })
      })
      observer.observe(document, { childList: true, subtree: true })
    },
    [token, selector, READY] as const
  )
  const page = await context.newPage()
  if (link !== undefined) {
    const cdp = await context.newCDPSession(page)
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: link.latencyMs,
      downloadThroughput: (link.mbit * 1_000_000) / 8,
      uploadThroughput: (link.mbit * 1_000_000) / 8
    })
  }
  const finished: Array<Request> = []
  page.on("requestfinished", (request) => finished.push(request))
  const ready = page.waitForEvent("console", { predicate: (message) => message.text() === READY, timeout: 30_000 })
  await page.goto(url, { waitUntil: "commit" })
  await ready
  const { at, origin } = await page.evaluate(() => ({ at: (window as unknown as { readyAt: number }).readyAt, origin: performance.timeOrigin }))
  // Only what had fully arrived when the screen was ready; later preloads don't count.
  const before = finished.filter((request) => {
    const timing = request.timing()
    return timing.startTime + timing.responseEnd <= origin + at
  })
  const kb = await wireKb(before)
  const waterfall = await Promise.all(
    before.map(async (request) => {
      const timing = request.timing()
      return {
        path: new URL(request.url()).pathname.replace(/-[\w-]{8}(\.\w+)$/, "$1"),
        "start ms": Math.round(timing.startTime - origin),
        "end ms": Math.round(timing.startTime + timing.responseEnd - origin),
        "wire kB": Math.round((await request.sizes()).responseBodySize / 102.4) / 10
      }
    })
  )
  await context.close()
  return { ms: at, kb, waterfall }
}

export const TWENTY_ROWS = "tbody tr:nth-child(20)"
