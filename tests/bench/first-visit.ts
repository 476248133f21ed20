import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, Request } from "playwright-core"
import { destinations, paletteDestinations } from "../../src/app/navigation.ts"
import { launchChromium, requireBuiltConsole } from "../support/browser.ts"
import { call, freshIp } from "../support/http.ts"
import { type BenchRow, benchDatabases, percentile, signInFirstAdmin, startProduct } from "./product.ts"

/**
 * `npm run bench -- first-visit [RUNS]` (docs/performance.md, "The first visit"): every route of
 * the console opened in a new browser context (nothing cached), signed in, at +0, +150 and +400 ms
 * a round trip (Chromium's emulation), RUNS times each (3 unless told), on each engine. For each:
 * when its content shows (a list's rows or its empty line, the dashboard's activity, the desk's
 * card), when its keys act (a current row), how many requests had answered before the content
 * and their longest chain, and the JavaScript that had crossed the wire by then (compressed).
 */

const ROUND_TRIPS = [0, 150, 400] as const
const TARGETS = { keysAt400Ms: 2_400, chain: 4, jsKb: 250, rowsAt0Ms: 350 } as const

/** What shows a route has its content, and what shows its keys act; none for a screen without row keys. */
interface Route {
  readonly path: string
  readonly content: string
  readonly keys?: string
}

const LIST: Omit<Route, "path"> = { content: '[data-current], [aria-busy="false"]', keys: '[data-current="true"]' }
const special: Readonly<Record<string, Omit<Route, "path">>> = {
  "/": { content: "ol[aria-label='Recent Activity'] li" },
  "/triage": { content: ".triage-card", keys: "[aria-current='true'] .triage-card" },
  "/settings": { content: "main h1" }
}
/** Every screen the sidebar and the palette reach. */
const routes: ReadonlyArray<Route> = [...destinations, ...paletteDestinations].map(({ path }) => ({ path, ...(special[path] ?? LIST) }))

/** Records in every area the console lists, through the API as staff and the public make them. */
const seed = async (url: string, admin: string) => {
  const send = async (path: string, body: object, token: string | undefined = admin) => {
    const answer = await call(url, "POST", path, { token, body, ip: freshIp() })
    if (answer.status !== 200) throw new Error(`POST ${path}: ${answer.status} ${answer.text}`)
  }
  for (let index = 1; index <= 25; index++) {
    const name = `First visit ${String(index).padStart(2, "0")}`
    await send("/api/admin/communities", { name, description: "Waiting for a decision" })
    await send("/api/admin/influencers", { name, description: "Waiting for a decision" })
    await send("/api/admin/businesses", { name, category: "Retail", industry: "Retail", description: "A business" })
    await send("/api/admin/startups", { name, category: "Fintech", stage: "mvp", description: "A startup" })
    await send("/api/admin/projects", { name, category: "Tools", projectStatus: "beta", description: "A project" })
    await send("/api/ecosystem?type=events", { name, description: "An event" })
    await send("/api/ecosystem?type=hackathons", { name, description: "A hackathon" })
    await send("/api/admin/addresses/generated", { identifier: `G${index}FIRSTVISIT`, Name: name })
    await send("/api/admin/addresses/cex", { identifier: `C${index}FIRSTVISIT`, name })
    await send("/api/admin/addresses/core-team", { identifier: `T${index}FIRSTVISIT`, name })
    await send("/api/blog/admin/posts", { title: name, content: "<p>Body</p>", status: "draft" })
    await send("/api/core-team-contact", { contactInfo: { name, role: "Founder" }, inquiry: { subject: name, details: "Details", priority: "medium" } })
    await send("/api/advertising-inquiries", { companyName: name, contactName: "Ann", email: "ann@example.com", industry: "Gaming" }, undefined)
    await send("/api/report-scam", { scamType: "phishing", description: name }, undefined)
  }
}

/** The first time each selector matched, to the frame after, in the page's clock (ms from navigation). */
interface Seen {
  content?: number
  keys?: number
  empty?: boolean
}

/**
 * One cold visit: a new context with the token stored, the link slowed by `roundTrip`. The page
 * notes when each selector first matches (a mutation observer, then the next frame), so nothing
 * of the bench's runs in the page while it loads.
 */
const visit = async (browser: Browser, url: string, token: string, route: Route, roundTrip: number) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  await context.addInitScript(
    ([value, content, keys]) => {
      localStorage.setItem("adminToken", value)
      const seen: Seen = {}
      Object.assign(window, { firstVisit: seen })
      const observer = new MutationObserver(() => {
        for (const [name, selector] of [
          ["content", content],
          ["keys", keys]
        ] as const) {
          if (selector === null || seen[name] !== undefined || document.querySelector(selector) === null) continue
          seen[name] = -1
          requestAnimationFrame(() => (seen[name] = performance.now()))
          // An empty list (nothing seeded there): no row for keys to act on.
          if (name === "content" && keys !== null && document.querySelector("[data-current]") === null && document.querySelector(keys) === null)
            seen.empty = true
        }
        if ((seen.content ?? -1) >= 0 && (keys === null || seen.empty === true || (seen.keys ?? -1) >= 0)) observer.disconnect()
      })
      observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-current", "aria-busy", "aria-current"] })
    },
    [token, route.content, route.keys ?? null] as const
  )
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: roundTrip, downloadThroughput: -1, uploadThroughput: -1 })
  const finished: Array<Request> = []
  page.on("requestfinished", (request) => finished.push(request))
  await page.goto(`${url}${route.path}`, { waitUntil: "commit" })
  await page
    .waitForFunction(
      (withKeys) => {
        const seen = (window as unknown as { firstVisit: Seen }).firstVisit
        return (seen.content ?? -1) >= 0 && (!withKeys || seen.empty === true || (seen.keys ?? -1) >= 0)
      },
      route.keys !== undefined,
      { timeout: 30_000, polling: 100 }
    )
    .catch(async (error: unknown) => {
      const seen = await page.evaluate(() => (window as unknown as { firstVisit: Seen }).firstVisit).catch(() => undefined)
      throw new Error(`first-visit: ${route.path} at +${roundTrip} ms never showed its content and keys (saw ${JSON.stringify(seen)}): ${String(error)}`)
    })
  const { seen, origin } = await page.evaluate(() => ({ seen: (window as unknown as { firstVisit: Seen }).firstVisit, origin: performance.timeOrigin }))
  const contentAt = seen.content ?? 0
  // What had answered by the time the content showed; later preloads don't count.
  const before = finished
    .map((request) => ({ request, start: request.timing().startTime - origin, end: request.timing().startTime + request.timing().responseEnd - origin }))
    .filter((one) => one.end <= contentAt)
  // A request's place in the chain: one more than the deepest that had answered before it began.
  const depth = new Map<(typeof before)[number], number>()
  for (const one of [...before].sort((a, b) => a.start - b.start)) {
    const deepest = Math.max(0, ...before.filter((other) => other.end <= one.start).map((other) => depth.get(other) ?? 0))
    depth.set(one, deepest + 1)
  }
  let jsBytes = 0
  for (const { request } of before) if (/\.js$/.test(new URL(request.url()).pathname)) jsBytes += (await request.sizes()).responseBodySize
  await context.close()
  return {
    content: contentAt,
    keys: seen.empty === true ? undefined : seen.keys,
    requests: before.length,
    chain: Math.max(0, ...depth.values()),
    jsKb: jsBytes / 1024
  }
}

type Visit = Awaited<ReturnType<typeof visit>>

const round = (value: number) => Math.round(value)
const verdict = (ok: boolean) => (ok ? "meets" : "MISSES")

export const measureFirstVisit = async (postgresUrl: string | undefined, args: ReadonlyArray<string> = []) => {
  requireBuiltConsole()
  const runs = Number(args[0] ?? "3")
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`first-visit: RUNS must be a whole number, not ${args[0]}`)
  for (const [engine, env] of benchDatabases(postgresUrl)) {
    const dataDir = mkdtempSync(join(tmpdir(), "admin-bench-first-visit-"))
    const product = await startProduct(env, dataDir)
    const browser = await launchChromium()
    try {
      const admin = await signInFirstAdmin(product.url, dataDir)
      await seed(product.url, admin)
      const table: Record<string, BenchRow> = {}
      const worst = { keysAt400: 0, chain: 0, jsKb: 0, rowsAt0: 0 }
      for (const route of routes) {
        const row: BenchRow = {}
        for (const roundTrip of ROUND_TRIPS) {
          const visits: Array<Visit> = []
          for (let run = 0; run < runs; run++) visits.push(await visit(browser, product.url, admin, route, roundTrip))
          const content = percentile(
            visits.map((one) => one.content),
            50
          )
          // No keys on a screen without row keys, nor on an empty list.
          const keyed = visits.flatMap((one) => (one.keys === undefined ? [] : [one.keys]))
          const keys = keyed.length === 0 ? undefined : percentile(keyed, 50)
          row[`+${roundTrip}: content / keys ms`] = `${round(content)} / ${keys === undefined ? "—" : round(keys)}`
          if (roundTrip === 0) worst.rowsAt0 = Math.max(worst.rowsAt0, content)
          if (roundTrip === 400) {
            worst.keysAt400 = Math.max(worst.keysAt400, keys ?? content)
            const chain = Math.max(...visits.map((one) => one.chain))
            const jsKb = Math.max(...visits.map((one) => one.jsKb))
            worst.chain = Math.max(worst.chain, chain)
            worst.jsKb = Math.max(worst.jsKb, jsKb)
            row["+400: requests, longest chain"] = `${Math.max(...visits.map((one) => one.requests))}, ${chain}`
            row["JS before content, kB compressed"] = Math.round(jsKb)
          }
        }
        table[route.path] = row
      }
      console.log(`\nThe first visit on ${engine}: every route in a new context, signed in, p50 of ${runs} (chain and JS: the most of them)`)
      console.table(table)
      console.table({
        [`${engine}, the slowest route`]: {
          "keys live at +400 ms": `${round(worst.keysAt400)} ms (${verdict(worst.keysAt400 <= TARGETS.keysAt400Ms)} ≤ ${TARGETS.keysAt400Ms})`,
          "longest chain at +400 ms": `${worst.chain} (${verdict(worst.chain <= TARGETS.chain)} ≤ ${TARGETS.chain})`,
          "JS before the content": `${Math.round(worst.jsKb)} kB (${verdict(worst.jsKb <= TARGETS.jsKb)} ≤ ${TARGETS.jsKb})`,
          "content at +0 ms": `${round(worst.rowsAt0)} ms (${verdict(worst.rowsAt0 <= TARGETS.rowsAt0Ms)} ≤ ${TARGETS.rowsAt0Ms})`
        }
      })
    } finally {
      await browser.close()
      await product.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}
