import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, sep } from "node:path"
import { type Browser, type BrowserContext, chromium, type Page, type Request } from "playwright-core"
import { DEFAULT_MAX_RECORDS } from "../../src/lib/store/browser-store.ts"
import type * as Store from "../../src/lib/store/browser-store.ts"
import type { openConsoleStore } from "../../src/lib/store/console-store.ts"
import { recordBytes } from "../../src/lib/store/console-store.ts"
import { chromiumFlags, findChromium, launchChromium, requireBuiltConsole } from "../support/browser.ts"
import { serveStoreModule } from "../support/store-page.ts"
import { call } from "../support/http.ts"
import { root } from "../support/process.ts"
import { mailedCode } from "../support/product.ts"
import { type BenchRow, benchDatabases, percentile, signInFirstAdmin, startProduct } from "./product.ts"

/**
 * `npm run bench -- sync`: the console as an event-sourced client (docs/architecture.md, "The
 * browser's store"; docs/performance.md), in Chromium against the product as `npm start` runs it,
 * on PGlite and (when it answers) PostgreSQL, with 0, 150 and 400 ms added to every round trip:
 * a key to its decision shown, keys pressed faster than the server writes, arriving on a queue seen
 * before, a colleague's change on an open queue, and the browser's store with 100,000 records.
 *
 * The round trip is added by Chromium's own network emulation (CDP
 * `Network.emulateNetworkConditions`, latency only): it delays every request the page makes, the
 * document and the stream included, and keeps the HTTP cache working, where Playwright's routing
 * would turn the cache off and make a reload fetch every file again. Figures are taken in the page,
 * on its clock.
 */
const ROUND_TRIPS = [0, 150, 400] as const
const TARGETS = { decisionMs: 16, arrivalMs: 100, colleagueMs: 250 }
const QUEUE = 40
const DECISION_GAP_MS = 200
const BURST = { keys: 20, gapMs: 50, writeMs: 300 }
const ARRIVALS = 10
const COLLEAGUE_TRIES = 20
const RECORDS = { seen: 100_000, batch: 1_000 }

const verdict = (value: number, target: number) => (value <= target ? "meets" : "MISSES")
const spread = (values: ReadonlyArray<number>, target: number) =>
  `${percentile(values, 50)} / ${percentile(values, 95)} (${verdict(percentile(values, 95), target)} ≤ ${target})`
const round = (value: number) => Math.round(value * 10) / 10

export interface Staff {
  readonly url: string
  readonly admin: string
  readonly colleague: string
}

interface Listing {
  readonly _id: string
  readonly name: string
  readonly status: string
  readonly version: number
}

let serial = 0
/** `count` pending communities under a prefix nothing else uses; the queue shows the last made first. */
const seed = async (staff: Staff, count: number) => {
  const prefix = `sync-${process.pid}-${++serial}-`
  for (let index = 1; index <= count; index++) {
    const made = await call(staff.url, "POST", "/api/admin/communities", {
      token: staff.admin,
      body: { name: `${prefix}${String(index).padStart(2, "0")}`, description: "Waiting for a decision" }
    })
    if (made.status !== 200) throw new Error(made.text)
  }
  return prefix
}

const onServer = async (staff: Staff, prefix: string): Promise<ReadonlyArray<Listing>> => {
  const answer = await call(staff.url, "GET", `/api/admin/communities/combined?search=${prefix}&limit=100`, { token: staff.admin })
  if (answer.status !== 200) throw new Error(answer.text)
  return (answer.body.data as { communities: ReadonlyArray<Listing> }).communities
}

/** Every request of the page gets `ms` more on its round trip, in Chromium's network stack. */
const addRoundTrip = async (page: Page, ms: number) => {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: ms, downloadThroughput: -1, uploadThroughput: -1 })
}

const QUEUE_CARDS = "[role=list][aria-label='Community Management'] [role=listitem]"

const openQueue = async (context: BrowserContext, staff: Staff, prefix: string, roundTrip: number) => {
  const page = context.pages()[0] ?? (await context.newPage())
  await addRoundTrip(page, roundTrip)
  await page.goto(`${staff.url}/communities?search=${prefix}`)
  await page.locator(QUEUE_CARDS).first().waitFor({ timeout: 60_000 })
  // The console's client is open (its status line is in the page): keys are commands from here.
  await page.locator(".sync-status").waitFor({ state: "attached", timeout: 60_000 })
  return page
}

export const signedInContext = async (browser: Browser, token: string) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  await context.addInitScript((value) => localStorage.setItem("adminToken", value), token)
  return context
}

/** Waits until no change waits for the server ("Saving N changes…" gone). */
const drained = (page: Page) =>
  page.waitForFunction(() => document.querySelector(".sync-status")?.textContent === "", undefined, { timeout: 120_000, polling: 100 })

/** A finished request's round trip as the page saw it, in ms (its timing is from its start). */
const roundTripOf = (request: Request) => request.timing().responseEnd

/** What the bench leaves in the page (a global of its own, not the console's). */
interface Bench {
  decided: Promise<{ readonly name: string; readonly inDom: number; readonly frame: number }>
  keyed: Array<{ readonly at: number; readonly name: string }>
  storeModule: typeof Store & { readonly openConsoleStore: typeof openConsoleStore }
}

/**
 * Arms the page for the next `a`: from its keydown (a listener on the window, capture phase, the
 * first to hear it) to the DOM showing the card that was current as "Approved" and the Pending
 * count card changed (a mutation observer), and to the frame after.
 */
const armDecision = (page: Page) =>
  page.evaluate(() => {
    ;(window as unknown as Bench).decided = new Promise((resolve, reject) => {
      const pending = () =>
        [...document.querySelectorAll("[role=group][aria-label='Listings by status'] .count-card")]
          .find((card) => card.querySelector(".count-card-label")?.textContent === "Pending")
          ?.querySelector(".count-card-value")?.textContent ?? ""
      const heard = (event: KeyboardEvent) => {
        if (event.key !== "a") return
        removeEventListener("keydown", heard, true)
        const started = performance.now()
        const name = document.activeElement?.querySelector("[aria-label]")?.getAttribute("aria-label") ?? ""
        const before = pending()
        const shown = () => {
          const card = [...document.querySelectorAll("[role=listitem]")].find((item) => item.querySelector("[aria-label]")?.getAttribute("aria-label") === name)
          return card !== undefined && [...card.querySelectorAll(".rt-Badge")].some((badge) => badge.textContent === "Approved") && pending() !== before
        }
        const observer = new MutationObserver(() => {
          if (!shown()) return
          observer.disconnect()
          clearTimeout(timer)
          const inDom = performance.now() - started
          requestAnimationFrame(() => resolve({ name, inDom, frame: performance.now() - started }))
        })
        observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
        const timer = setTimeout(() => {
          observer.disconnect()
          reject(new Error(`"${name}" never showed as approved with the count changed`))
        }, 10_000)
      }
      addEventListener("keydown", heard, true)
    })
  })

/** 1. `a` on the current card of a 40-card queue (two pages), each key a person's pace apart. */
const keyToDecision = async (browser: Browser, staff: Staff, roundTrip: number) => {
  const prefix = await seed(staff, QUEUE)
  const context = await signedInContext(browser, staff.admin)
  try {
    // Reads of the queue's rows from the load to the link live and settled (the first, and a
    // second when the stream went live after it: docs/performance.md), then while keys are
    // pressed (not the next page's, asked for by Next).
    let loading = true
    let counting = false
    let startReads = 0
    let listReads = 0
    context.on("request", (request) => {
      if (request.method() !== "GET" || !new URL(request.url()).pathname.startsWith("/api/admin/communities")) return
      if (counting) listReads++
      else if (loading) startReads++
    })
    const page = await openQueue(context, staff, prefix, roundTrip)
    await page.locator('.sync-status[data-link="online"]').waitFor({ state: "attached", timeout: 60_000 })
    await page.waitForTimeout(1_000)
    loading = false
    const writes: Array<number> = []
    page.on("requestfinished", (request) => void (request.method() === "PUT" && writes.push(roundTripOf(request))))
    const inDom: Array<number> = []
    const frame: Array<number> = []
    for (let pageOfQueue = 0; pageOfQueue < QUEUE / 20; pageOfQueue++) {
      if (pageOfQueue > 0) {
        await page.locator("nav[aria-label=Pages]").getByRole("button", { name: "Next" }).click()
        await page.waitForFunction(
          (cards) => [...document.querySelectorAll(cards)].every((card) => card.querySelector(".rt-Badge")?.textContent === "Pending"),
          QUEUE_CARDS,
          { timeout: 30_000 }
        )
      }
      await page.locator(QUEUE_CARDS).first().focus()
      counting = true
      for (let key = 0; key < 20; key++) {
        await armDecision(page)
        await page.keyboard.press("a")
        const decided = await page.evaluate(() => (window as unknown as Bench).decided)
        inDom.push(decided.inDom)
        frame.push(decided.frame)
        await page.waitForTimeout(DECISION_GAP_MS)
      }
      await drained(page)
      // The last answers' news is judged a moment after it comes (src/lib/store/lists.ts).
      await page.waitForTimeout(1_000)
      counting = false
    }
    const applied = (await onServer(staff, prefix)).filter((listing) => listing.status === "approved").length
    return { inDom, frame, writes, applied, listReads, startReads }
  } finally {
    await context.close()
  }
}

/** 2. Twenty `a` keys 50 ms apart while each write takes 300 ms more: applied, to the card current at its key, once. */
const keysFasterThanWrites = async (browser: Browser, staff: Staff, roundTrip: number) => {
  const prefix = await seed(staff, BURST.keys + 4)
  const context = await signedInContext(browser, staff.admin)
  try {
    const page = await openQueue(context, staff, prefix, roundTrip)
    await page.route("**/api/admin/listings/**", async (route) => {
      if (route.request().method() !== "GET") await new Promise((resolve) => setTimeout(resolve, BURST.writeMs))
      await route.continue()
    })
    await page.evaluate(() => {
      ;(window as unknown as Bench).keyed = []
      addEventListener(
        "keydown",
        (event) => {
          if (event.key === "a")
            (window as unknown as Bench).keyed.push({
              at: performance.now(),
              name: document.activeElement?.querySelector("[aria-label]")?.getAttribute("aria-label") ?? ""
            })
        },
        true
      )
    })
    await page.locator(QUEUE_CARDS).first().focus()
    for (let key = 0; key < BURST.keys; key++) {
      await page.keyboard.press("a")
      await page.waitForTimeout(BURST.gapMs)
    }
    const keyed = await page.evaluate(() => (window as unknown as Bench).keyed)
    const names = keyed.map((one) => one.name)
    const shownAtOnce = await page.evaluate(
      ([cards, wanted]) =>
        [...document.querySelectorAll(cards)].filter(
          (card) =>
            wanted.includes(card.querySelector("[aria-label]")?.getAttribute("aria-label") ?? "") && card.querySelector(".rt-Badge")?.textContent === "Approved"
        ).length,
      [QUEUE_CARDS, names] as const
    )
    const started = performance.now()
    await drained(page)
    const drainedMs = performance.now() - started
    const listings = await onServer(staff, prefix)
    const approved = listings.filter((listing) => listing.status === "approved")
    const gaps = keyed.slice(1).map((one, index) => one.at - keyed[index]!.at)
    return {
      keys: keyed.length,
      distinctCards: new Set(names).size,
      meanGap: gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length,
      shownAtOnce,
      applied: approved.length,
      toCurrent: approved.filter((listing) => names.includes(listing.name)).length,
      once: approved.filter((listing) => listing.version === 2).length,
      untouchedAtOne: listings.filter((listing) => listing.status === "pending" && listing.version === 1).length,
      drainedMs
    }
  } finally {
    await context.close()
  }
}

/**
 * A browser profile on disk, as a person's is (Playwright's `newContext` keeps IndexedDB and the
 * HTTP cache in memory): the store and the cache are read from disk after a reload.
 */
const onDisk = async (token?: string) => {
  const dir = mkdtempSync(join(tmpdir(), "bench-sync-profile-"))
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: (await findChromium()).path,
    headless: true,
    args: chromiumFlags,
    viewport: { width: 1280, height: 800 }
  })
  if (token !== undefined) await context.addInitScript((value) => localStorage.setItem("adminToken", value), token)
  return {
    context,
    dir,
    close: async () => {
      await context.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

const PAINTED = "queue's first card painted"

/**
 * Marks, in every document the context loads, when the queue's first card was first painted (the
 * frame after a mutation showed it), on the page's clock (0 = the navigation's start), and
 * whether the list was still asking the server then (the rows came from the store). The page says
 * when by a console message: polling it from here would put Playwright's own script in the page
 * while it loads (tests/support/first-screen.ts).
 */
const markFirstCard = (context: BrowserContext) =>
  context.addInitScript(
    ([cards, painted]) => {
      let firstCard: { at: number; busy: boolean } | undefined
      const observer = new MutationObserver(() => {
        // Any card first (a reload's picture of the page, src/lib/list/kept-paint.ts, included),
        // then the console's own, in #root, with no picture over it.
        const card = document.querySelector(firstCard === undefined ? cards : `#root ${cards}`)
        if (card === null || (firstCard !== undefined && document.getElementById("kept-page") !== null)) return
        const busy = card.closest("[role=list]")?.getAttribute("aria-busy") === "true"
        if (firstCard === undefined) {
          firstCard = { at: 0, busy }
          requestAnimationFrame(() => {
            firstCard = { at: performance.now(), busy }
            Object.assign(window, { firstCard })
          })
        }
        if (card.closest("#root") === null) return
        observer.disconnect()
        requestAnimationFrame(() => {
          Object.assign(window, { ownCard: performance.now() })
          console.log(painted)
        })
      })
      observer.observe(document, { childList: true, subtree: true })
    },
    [QUEUE_CARDS, PAINTED] as const
  )

/** Navigates with `go` and resolves with when the queue's first card was painted in the new document. */
const firstCardAfter = async (page: Page, go: () => Promise<unknown>) => {
  const painted = page.waitForEvent("console", { predicate: (message) => message.text() === PAINTED, timeout: 60_000 })
  await go()
  await painted
  return page.evaluate(() => {
    const marked = window as unknown as { firstCard: { at: number; busy: boolean }; ownCard: number }
    return { ...marked.firstCard, own: marked.ownCard }
  })
}

/** 3. Rows painted when arriving on a queue: first visit ever, history back from the dashboard, a reload. */
const arrivals = async (staff: Staff, roundTrip: number) => {
  const prefix = await seed(staff, 20)
  const first: Array<number> = []
  for (let run = 0; run < ARRIVALS; run++) {
    const fresh = await onDisk(staff.admin)
    try {
      await markFirstCard(fresh.context)
      const page = fresh.context.pages()[0] ?? (await fresh.context.newPage())
      await addRoundTrip(page, roundTrip)
      first.push((await firstCardAfter(page, () => page.goto(`${staff.url}/communities?search=${prefix}`, { waitUntil: "commit" }))).at)
    } finally {
      await fresh.close()
    }
  }
  const seen = await onDisk(staff.admin)
  try {
    const page = await openQueue(seen.context, staff, prefix, roundTrip)
    await markFirstCard(seen.context)
    // The page is kept once its answer has come: give the store its moment (as the KEPT test does).
    await page.waitForTimeout(500)
    const back: Array<number> = []
    const backFromStore: Array<boolean> = []
    for (let run = 0; run < ARRIVALS; run++) {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click()
      await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor()
      await page.waitForTimeout(500)
      const arrived = await page.evaluate(
        ([cards, wanted]) =>
          new Promise<{ at: number; busy: boolean }>((resolve, reject) => {
            const started = performance.now()
            const observer = new MutationObserver(() => {
              const card = document.querySelector(cards)
              if (card?.querySelector("[aria-label]")?.getAttribute("aria-label")?.startsWith(wanted) !== true) return
              observer.disconnect()
              const busy = card.closest("[role=list]")?.getAttribute("aria-busy") === "true"
              requestAnimationFrame(() => resolve({ at: performance.now() - started, busy }))
            })
            observer.observe(document.body, { childList: true, subtree: true, attributes: true })
            setTimeout(() => reject(new Error("no card after history back")), 30_000)
            history.back()
          }),
        [QUEUE_CARDS, prefix] as const
      )
      back.push(arrived.at)
      backFromStore.push(arrived.busy)
      await page.locator(".sync-status").waitFor({ state: "attached" })
      await page.waitForFunction(() => document.querySelector("[role=list][aria-busy]")?.getAttribute("aria-busy") === "false")
    }
    const reload: Array<number> = []
    const reloadOwn: Array<number> = []
    const reloadFromStore: Array<boolean> = []
    for (let run = 0; run < ARRIVALS; run++) {
      const painted = await firstCardAfter(page, () => page.reload({ waitUntil: "commit" }))
      reload.push(painted.at)
      reloadOwn.push(painted.own)
      reloadFromStore.push(painted.busy)
      await page.locator(".sync-status").waitFor({ state: "attached", timeout: 60_000 })
      await page.waitForFunction(() => document.querySelector("[role=list][aria-busy]")?.getAttribute("aria-busy") === "false", undefined, {
        timeout: 60_000
      })
    }
    return {
      first,
      back,
      backFromStore: backFromStore.filter(Boolean).length,
      reload,
      reloadOwn,
      reloadFromStore: reloadFromStore.filter(Boolean).length
    }
  } finally {
    await seen.close()
  }
}

/** 4. A colleague rejects a pending listing through the API; from the call's send to the card showing "Rejected" on an open queue. */
const colleaguesChange = async (browser: Browser, staff: Staff) => {
  const prefix = await seed(staff, COLLEAGUE_TRIES)
  const context = await signedInContext(browser, staff.admin)
  try {
    const page = await openQueue(context, staff, prefix, 0)
    // The stream is open once the client is; give it its moment to be live.
    await page.waitForTimeout(500)
    const listings = await onServer(staff, prefix)
    const shown: Array<number> = []
    const answered: Array<number> = []
    for (const listing of listings) {
      // Both clocks are the machine's: the page's timeOrigin + now() and this process's, in ms since 1970.
      await page.evaluate((name) => {
        ;(window as unknown as Bench).decided = new Promise((resolve, reject) => {
          const rejected = () => {
            const card = [...document.querySelectorAll("[role=listitem]")].find(
              (item) => item.querySelector("[aria-label]")?.getAttribute("aria-label") === name
            )
            return card !== undefined && [...card.querySelectorAll(".rt-Badge")].some((badge) => badge.textContent === "Rejected")
          }
          const observer = new MutationObserver(() => {
            if (!rejected()) return
            observer.disconnect()
            const inDom = performance.timeOrigin + performance.now()
            requestAnimationFrame(() => resolve({ name, inDom, frame: performance.timeOrigin + performance.now() }))
          })
          observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
          setTimeout(() => reject(new Error(`"${name}" never showed as rejected`)), 10_000)
        })
      }, listing.name)
      const sent = performance.timeOrigin + performance.now()
      const answer = await call(staff.url, "PUT", `/api/admin/listings/${listing._id}`, {
        token: staff.colleague,
        body: { action: "reject", version: listing.version }
      })
      if (answer.status !== 200) throw new Error(answer.text)
      answered.push(performance.timeOrigin + performance.now() - sent)
      const seenAt = await page.evaluate(() => (window as unknown as Bench).decided)
      shown.push(seenAt.frame - sent)
      await page.waitForTimeout(300)
    }
    return { shown, answered }
  } finally {
    await context.close()
  }
}

/** Bytes of the IndexedDB files in a browser profile, as they lie on disk. */
const indexedDbOnDisk = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && join(entry.parentPath, entry.name).includes(`${sep}IndexedDB${sep}`))
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0)

/** The store's two modules bundled as the console bundles them, served from a localhost origin: the page's `storeModule`. */
const storePages = async () => {
  const entry = join(mkdtempSync(join(tmpdir(), "bench-sync-store-")), "entry.ts")
  writeFileSync(
    entry,
    `export * from ${JSON.stringify(join(root, "src/lib/store/browser-store.ts"))}\n` +
      `export { openConsoleStore } from ${JSON.stringify(join(root, "src/lib/store/console-store.ts"))}\n`
  )
  const served = await serveStoreModule(entry)
  rmSync(dirname(entry), { recursive: true, force: true })
  const origin = served.origin
  /** A new profile on disk with the store's page open, and how to read its figures. */
  const open = async () => {
    const profile = await onDisk()
    const page = profile.context.pages()[0] ?? (await profile.context.newPage())
    const cdp = await profile.context.newCDPSession(page)
    await page.goto(origin)
    await page.waitForFunction(() => (window as unknown as Bench).storeModule !== undefined)
    return {
      page,
      close: profile.close,
      /** IndexedDB as the page's quota sees it, on disk, and the tab's JS heap after a collection, in bytes. */
      figures: async () => {
        await cdp.send("HeapProfiler.collectGarbage")
        return {
          usage: await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0),
          disk: indexedDbOnDisk(profile.dir),
          heap: (await cdp.send("Runtime.getHeapUsage")).usedSize
        }
      }
    }
  }
  return { open, close: served.close }
}

/** `count` listings shaped as `fields` (a real one), each its own id and name, from number `from`. */
const listingsLike = (fields: Readonly<Record<string, unknown>>, from: number, count: number) =>
  Array.from({ length: count }, (_, index) => {
    const id = `00000000-0000-4000-8000-${String(from + index).padStart(12, "0")}`
    return { id, version: 1, fields: { ...fields, _id: id, name: `Community ${from + index}`, version: 1 } }
  })

/**
 * 5. The browser's store (src/lib/store/), bundled as the console bundles it, in a profile on disk,
 * with 100,000 listings shaped as the server sends them: kept 1,000 at a time by the IndexedDB
 * layer (browser-store.ts `keep`), then `evict()` to its default bound; and the same 100,000 as
 * the console keeps them (console-store.ts `keepPage`: its copies in memory, a page in IndexedDB,
 * the bound after each page).
 */
const recordsSeen = async (listing: Readonly<Record<string, unknown>>) => {
  const pages = await storePages()
  try {
    const direct = await pages.open()
    let layer
    try {
      const { page } = direct
      await page.evaluate(async () => (await (window as unknown as Bench).storeModule.openBrowserStore("bench-admin")).close())
      const before = await direct.figures()
      const keepMs: Array<number> = []
      for (let batch = 0; batch < RECORDS.seen / RECORDS.batch; batch++) {
        const rows = listingsLike(listing, batch * RECORDS.batch, RECORDS.batch)
        keepMs.push(
          await page.evaluate(async (rows) => {
            const store = await (window as unknown as Bench).storeModule.openBrowserStore("bench-admin")
            const started = performance.now()
            await store.keep("listing", rows)
            const ms = performance.now() - started
            store.close()
            return ms
          }, rows)
        )
      }
      const filled = await direct.figures()
      const evicted = await page.evaluate(async () => {
        const store = await (window as unknown as Bench).storeModule.openBrowserStore("bench-admin")
        const before = await store.count()
        const started = performance.now()
        const dropped = await store.evict()
        const ms = performance.now() - started
        const after = await store.count()
        store.close()
        return { before, dropped, ms, after }
      })
      layer = { before, filled, after: await direct.figures(), keepMs, evicted }
    } finally {
      await direct.close()
    }
    const viaConsole = await pages.open()
    try {
      const { page } = viaConsole
      await page.evaluate(async () => {
        const module = (window as unknown as Bench).storeModule
        // No server: nothing is sent, no change arrives; only the keeping is measured.
        const store = await module.openConsoleStore({
          owner: "bench-admin",
          transport: { send: () => Promise.reject(new Error("no server")), listen: () => () => {}, sessionEnded: () => {} }
        })
        Object.assign(window, { consoleStore: store })
      })
      const before = await viaConsole.figures()
      const kept = await page.evaluate(
        async ([fields, seen, batch]) => {
          const module = (window as unknown as Bench).storeModule
          const store = (window as unknown as { consoleStore: Awaited<ReturnType<typeof module.openConsoleStore>> }).consoleStore
          const started = performance.now()
          for (let from = 0; from < seen; from += batch) {
            const rows = Array.from({ length: batch }, (_, index) => {
              const id = `00000000-0000-4000-8000-${String(from + index).padStart(12, "0")}`
              return { id, fields: { ...fields, _id: id, name: `Community ${from + index}`, version: 1 } }
            })
            store.keepPage("listing", `page-${from}`, rows, { total: seen })
          }
          // The writes go in order: the last page's set is written after its records, the bound after it.
          const check = await module.openBrowserStore("bench-admin")
          const last = `page-${seen - batch}`
          while ((await store.keptPage(last)) === undefined || (await check.count()) > module.DEFAULT_MAX_RECORDS)
            await new Promise((resolve) => setTimeout(resolve, 100))
          const ms = performance.now() - started
          const count = await check.count()
          check.close()
          return { ms, count }
        },
        [listing, RECORDS.seen, RECORDS.batch] as const
      )
      return { layer, console: { before, after: await viaConsole.figures(), ...kept } }
    } finally {
      await viaConsole.close()
    }
  } finally {
    await pages.close()
  }
}

/** The product's first admin, and a moderator made by them and signed in: the colleague. */
export const staffOf = async (url: string, dataDir: string): Promise<Staff> => {
  const admin = await signInFirstAdmin(url, dataDir)
  const email = `colleague-${process.pid}@example.com`
  const made = await call(url, "POST", "/api/admin/users", { token: admin, body: { email, role: "moderator" } })
  if (made.status !== 200) throw new Error(made.text)
  const asked = await call(url, "POST", "/api/admin/auth", { body: { email, role: "moderator" } })
  const answer = await call(url, "POST", "/api/admin/auth", { body: { email, otp: await mailedCode(dataDir, email), attempt: asked.body.attempt } })
  if (answer.status !== 200) throw new Error(`the colleague's sign-in failed: ${answer.text}`)
  return { url, admin, colleague: answer.body.token as string }
}

/** The parts `npm run bench -- sync PART…` can run alone (all without one). */
const PARTS = ["decisions", "bursts", "arrivals", "colleague", "records"] as const

export const measureSync = async (postgresUrl: string | undefined, parts: ReadonlyArray<string> = []) => {
  requireBuiltConsole()
  const unknown = parts.filter((part) => !(PARTS as ReadonlyArray<string>).includes(part))
  if (unknown.length > 0) throw new Error(`sync has no part ${unknown.join(", ")}: ${PARTS.join(", ")}`)
  const want = (part: (typeof PARTS)[number]) => parts.length === 0 || parts.includes(part)
  const decisions: Record<string, BenchRow> = {}
  const bursts: Record<string, BenchRow> = {}
  const arrived: Record<string, BenchRow> = {}
  const colleague: Record<string, BenchRow> = {}
  let listing: Readonly<Record<string, unknown>> | undefined
  for (const [engine, env] of benchDatabases(postgresUrl)) {
    const dataDir = mkdtempSync(join(tmpdir(), "admin-bench-sync-"))
    const product = await startProduct(env, dataDir)
    const browser = await launchChromium()
    try {
      const staff = await staffOf(product.url, dataDir)
      for (const roundTrip of ROUND_TRIPS) {
        const row = `${engine}, +${roundTrip} ms`
        if (want("decisions")) {
          const one = await keyToDecision(browser, staff, roundTrip)
          decisions[row] = {
            "in the DOM p50 / p95 ms": spread(one.inDom, TARGETS.decisionMs),
            "next frame p50 / p95 ms": `${percentile(one.frame, 50)} / ${percentile(one.frame, 95)}`,
            keys: one.inDom.length,
            "a write's round trip p50 ms": percentile(one.writes, 50),
            "applied on the server": `${one.applied} / ${QUEUE}`,
            "list reads while deciding": `${one.listReads} (${one.listReads === 0 ? "meets" : "MISSES"} 0)`,
            "list reads at the load": one.startReads
          }
        }
        if (want("bursts")) {
          const two = await keysFasterThanWrites(browser, staff, roundTrip)
          bursts[row] = {
            keys: two.keys,
            "mean gap ms": round(two.meanGap),
            "cards keyed": two.distinctCards,
            "shown after the last key": two.shownAtOnce,
            "applied on the server": `${two.applied} / ${BURST.keys} (${two.applied === BURST.keys ? "meets" : "MISSES"})`,
            "to the card current at its key": two.toCurrent,
            "at version 2": two.once,
            "others pending at 1": two.untouchedAtOne,
            "outbox empty after ms": Math.round(two.drainedMs)
          }
        }
        if (want("arrivals")) {
          const three = await arrivals(staff, roundTrip)
          arrived[row] = {
            "first visit p50 / p95 ms": `${percentile(three.first, 50)} / ${percentile(three.first, 95)}`,
            "history back p50 / p95 ms": spread(three.back, TARGETS.arrivalMs),
            "back, rows from the store": `${three.backFromStore} / ${ARRIVALS}`,
            "reload p50 / p95 ms": spread(three.reload, TARGETS.arrivalMs),
            "reload, the console's own rows p50 / p95 ms": `${percentile(three.reloadOwn, 50)} / ${percentile(three.reloadOwn, 95)}`,
            "reload, rows from the store": `${three.reloadFromStore} / ${ARRIVALS}`
          }
        }
      }
      if (want("colleague")) {
        const four = await colleaguesChange(browser, staff)
        colleague[`${engine}, +0 ms`] = {
          "send → card shows Rejected p50 / p95 ms": spread(four.shown, TARGETS.colleagueMs),
          tries: four.shown.length,
          "the call's answer p50 ms": percentile(four.answered, 50)
        }
      }
      listing ??= (await onServer(staff, "sync-"))[0] as unknown as Readonly<Record<string, unknown>>
    } finally {
      await browser.close()
      await product.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  const five = want("records") ? await recordsSeen(listing!) : undefined

  const table = (title: string, rows: Record<string, BenchRow>) => {
    if (Object.keys(rows).length === 0) return
    console.log(title)
    console.table(rows)
  }
  table(`\n1. Key a → the card shows "Approved" and the Pending count changed (${QUEUE} keys, ${DECISION_GAP_MS} ms apart), timed in the page`, decisions)
  table(`\n2. ${BURST.keys} keys ${BURST.gapMs} ms apart, every write ${BURST.writeMs} ms slower`, bursts)
  table(`\n3. Arriving on the queue: to its first card painted (${ARRIVALS} each; first visit: a new profile each time)`, arrived)
  table(`\n4. A colleague's change on an open queue (${COLLEAGUE_TRIES} rejections through the API)`, colleague)
  if (five === undefined) return
  const mb = (bytes: number) => round(bytes / 1024 / 1024)
  const { layer, console: viaConsole } = five
  console.log(`\n5. ${RECORDS.seen.toLocaleString("en")} listings seen, in the browser's store in a profile on disk`)
  console.table({
    "IndexedDB, quota's usage MB": { empty: mb(layer.before.usage), "100,000 kept": mb(layer.filled.usage), "after evict()": mb(layer.after.usage) },
    "IndexedDB files on disk MB": { empty: mb(layer.before.disk), "100,000 kept": mb(layer.filled.disk), "after evict()": mb(layer.after.disk) },
    "tab's JS heap used MB": { empty: mb(layer.before.heap), "100,000 kept": mb(layer.filled.heap), "after evict()": mb(layer.after.heap) },
    records: { empty: 0, "100,000 kept": layer.evicted.before, "after evict()": layer.evicted.after }
  })
  const perRecord = (bytes: number) => Math.round(bytes / RECORDS.seen)
  console.log(
    `browser-store.ts: bytes per record ${perRecord(layer.filled.usage - layer.before.usage)} (quota's usage), ${perRecord(layer.filled.disk - layer.before.disk)} (files); ` +
      `one listing's JSON (console-store.ts recordBytes) ${recordBytes(listing!)} B; keep 1,000 p50 / p95 ${percentile(layer.keepMs, 50)} / ${percentile(layer.keepMs, 95)} ms; ` +
      `evict() dropped ${layer.evicted.dropped.toLocaleString("en")} in ${Math.round(layer.evicted.ms)} ms; ` +
      `the bound ${DEFAULT_MAX_RECORDS.toLocaleString("en")} ${layer.evicted.after === DEFAULT_MAX_RECORDS ? "holds" : "DOES NOT HOLD"}`
  )
  console.log(
    `console-store.ts, 100 pages of 1,000 through keepPage (the bound after each): ${Math.round(viaConsole.ms / 100) / 10} s, ${viaConsole.count.toLocaleString("en")} records left ` +
      `(${viaConsole.count <= DEFAULT_MAX_RECORDS ? "the bound holds" : "THE BOUND DOES NOT HOLD"}); IndexedDB ${mb(viaConsole.after.usage)} MB (usage), ${mb(viaConsole.after.disk)} MB (files); ` +
      `the tab's JS heap ${mb(viaConsole.before.heap)} → ${mb(viaConsole.after.heap)} MB (its copies in memory)`
  )
}
