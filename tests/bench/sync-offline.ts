import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { STORE_NAME } from "../../src/lib/store/browser-store.ts"
import { listingPaths } from "../../src/lib/paths.ts"
import { launchChromium, requireBuiltConsole } from "../support/browser.ts"
import { call } from "../support/http.ts"
import { freePort } from "../support/nginx.ts"
import { FIRST_ADMIN } from "../support/product.ts"
import { linkTexts } from "../spec/texts.ts"
import { type BenchRow, benchDatabases, startProduct } from "./product.ts"
import { type Staff, signedInContext, staffOf } from "./sync.ts"

/**
 * `npm run bench -- sync-offline`: the offline figures (docs/performance.md), in Chromium against the product as
 * `npm start` runs it, on PGlite and (when it answers) PostgreSQL, with no round trip added. Fifty
 * decisions on three queues with the link cut (two reloads in between, the console coming back
 * from its service worker and its outbox in IndexedDB), five of the records moved meanwhile by a
 * colleague; then the link back, once as it is and once with the server killed (SIGKILL) in the
 * middle of sending and started again on its address and data. The server's activity log says
 * what was applied, how often and in which order; the console says which were refused.
 */
const SCREENS = [
  { path: listingPaths.community, title: "Community Management", create: "/api/admin/communities", tag: "c", count: 17, fields: {} },
  { path: listingPaths.influencer, title: "Influencer Management", create: "/api/admin/influencers", tag: "i", count: 17, fields: {} },
  {
    path: listingPaths.business,
    title: "Business Listings",
    create: "/api/admin/businesses",
    tag: "b",
    count: 16,
    fields: { category: "Retail", industry: "Food" }
  }
] as const
type Screen = (typeof SCREENS)[number]
const DECISIONS = SCREENS.reduce((sum, screen) => sum + screen.count, 0)
/** The decisions (by their order) whose records a colleague moves meanwhile, on each of the three screens. */
const CONFLICTED = [3, 14, 25, 36, 47]
const KILL_AFTER = 10
const SLOW_WRITE_MS = 400
const DRAIN_TIMEOUT_MS = 120_000

type Action = "approve" | "reject"
const KEYS = { approve: "a", reject: "r" } as const
const SHOWN = { approve: "Approved", reject: "Rejected" } as const
const STATUS = { approve: "approved", reject: "rejected" } as const
const OPPOSITE = { approve: "reject", reject: "approve" } as const

interface Decision {
  readonly id: string
  readonly name: string
  readonly action: Action
  readonly conflicted: boolean
}

const meets = (ok: boolean) => (ok ? "meets" : "MISSES")

/** Reads until `done` says so or `timeoutMs` has passed: the last reading. */
const poll = async <A>(read: () => Promise<A>, done: (value: A) => boolean, timeoutMs: number): Promise<A> => {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value) || Date.now() > until) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Each screen's pending records under `prefix` (nothing else's name contains it), by name: their ids. */
const seed = async (staff: Staff, prefix: string) => {
  for (const screen of SCREENS)
    for (let index = 1; index <= screen.count; index++) {
      const body = { name: `${prefix}${screen.tag}${String(index).padStart(2, "0")}`, description: "Waiting for a decision", ...screen.fields }
      const made = await call(staff.url, "POST", screen.create, { token: staff.admin, body })
      if (made.status !== 200) throw new Error(made.text)
    }
  const listed = await call(staff.url, "GET", `/api/admin/listings?search=${prefix}&limit=100`, { token: staff.admin })
  const { listings } = listed.body.data as { listings: ReadonlyArray<{ _id: string; name: string; status: string; version: number }> }
  return new Map(listings.map((listing) => [listing.name, listing]))
}

/** The moderation events of the listings in `ids`, in the order the server wrote them (the log's ids are a sequence). */
const statusEvents = async (staff: Staff, ids: ReadonlySet<string>) => {
  type Logged = { readonly _id: string; readonly actorEmail: string | null; readonly entityId: string | null; readonly toState: string | null }
  const logged: Array<Logged> = []
  for (let page = 1; ; page++) {
    const answer = await call(staff.url, "GET", `/api/admin/activity-logs?area=listing&action=listing.status&limit=100&page=${page}`, { token: staff.admin })
    if (answer.status !== 200) throw new Error(answer.text)
    const { logs, pagination } = answer.body.data as { logs: ReadonlyArray<Logged>; pagination: { pages: number } }
    logged.push(...logs)
    if (page >= pagination.pages) break
  }
  return logged.filter((event) => event.entityId !== null && ids.has(event.entityId)).sort((a, b) => Number(BigInt(a._id) - BigInt(b._id)))
}

const cards = (page: Page, screen: Screen) => page.getByRole("list", { name: screen.title }).getByRole("listitem")
const cardOf = (page: Page, screen: Screen, name: string) => cards(page, screen).filter({ has: page.locator(`[aria-label="${name}"]`) })
/** The status each card shows, by name, in the order shown. */
const shown = (page: Page, screen: Screen) =>
  cards(page, screen).evaluateAll((items) =>
    items.map((item) => ({
      name: item.querySelector("[aria-label]")?.getAttribute("aria-label") ?? "",
      badges: [...item.querySelectorAll(".rt-Badge")].map((badge) => badge.textContent)
    }))
  )
const screenReady = async (page: Page, screen: Screen) => {
  await cards(page, screen)
    .nth(screen.count - 1)
    .waitFor({ timeout: 60_000 })
  await page.locator(".sync-status").waitFor({ state: "attached", timeout: 60_000 })
}

/** The commands waiting in this browser's outbox in IndexedDB (what a reload finds), in the order made: each one's listing and action. */
const outboxOf = (page: Page) =>
  page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const opening = indexedDB.open(name)
      opening.onsuccess = () => resolve(opening.result)
      opening.onerror = () => reject(opening.error)
    })
    try {
      const commands = await new Promise<ReadonlyArray<{ path: string; body: { action?: string } }>>((resolve, reject) => {
        const reading = db.transaction("outbox").objectStore("outbox").getAll()
        reading.onsuccess = () => resolve(reading.result)
        reading.onerror = () => reject(reading.error)
      })
      return commands.map((command) => ({ id: decodeURIComponent(command.path.split("/").at(-1) ?? ""), action: command.body.action }))
    } finally {
      db.close()
    }
  }, STORE_NAME)

/** Online, each queue once, so its page is kept (the first with the service worker made to control the page first, when asked). */
const openScreens = async (page: Page, staff: Staff, prefix: string, serviceWorker: boolean) => {
  for (const screen of [...SCREENS.slice(1), SCREENS[0]]) {
    await page.goto(`${staff.url}${screen.path}?search=${prefix}`)
    await screenReady(page, screen)
    if (serviceWorker && !(await page.evaluate(() => navigator.serviceWorker.controller !== null))) {
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
      await page.reload()
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
      await screenReady(page, screen)
    }
    // The page is kept once its answer has come: give the store its moment (as the KEPT test does).
    await page.waitForTimeout(500)
  }
}

/** A reload with the link cut: the console from its service worker, the decisions from its outbox, in order and shown on their cards. */
const reloadOffline = async (page: Page, screen: Screen, decisions: ReadonlyArray<Decision>) => {
  await poll(
    () => outboxOf(page),
    (waiting) => waiting.length === decisions.length,
    10_000
  )
  await page.reload()
  await screenReady(page, screen)
  await page.getByRole("status").getByText(`${decisions.length} changes are waiting: they are sent, in order, when the connection is back.`).waitFor()
  const waiting = await outboxOf(page)
  const inOrder =
    waiting.length === decisions.length && waiting.every((command, at) => command.id === decisions[at]?.id && command.action === decisions[at]?.action)
  const here = new Map(decisions.map((decision) => [decision.name, SHOWN[decision.action]]))
  const showing = await poll(
    async () => (await shown(page, screen)).filter((card) => card.badges.includes(here.get(card.name) ?? "")).length,
    (count) => count === screen.count,
    5_000
  )
  return `${waiting.length}${inOrder ? "" : " NOT IN ORDER"} waiting, ${showing}/${screen.count} shown`
}

/** With the link cut: every card of the three queues decided by its key (every third rejected), a reload after the first two when asked. */
const decideOffline = async (page: Page, prefix: string, records: ReadonlyMap<string, { readonly _id: string }>, reloads: boolean) => {
  await page.context().setOffline(true)
  await page.getByRole("status").getByText(linkTexts.offline).waitFor()
  const decisions: Array<Decision> = []
  const kept: Array<string> = []
  for (const [at, screen] of SCREENS.entries()) {
    // A link to the queue's search inside the console (wouter hears history.pushState): no document is loaded.
    if (at > 0) await page.evaluate((to) => history.pushState(null, "", to), `${screen.path}?search=${prefix}`)
    await screenReady(page, screen)
    for (const { name } of await shown(page, screen)) {
      const id = records.get(name)?._id
      if (id === undefined) throw new Error(`"${name}" is not one of the seeded records`)
      const action: Action = decisions.length % 3 === 2 ? "reject" : "approve"
      const card = cardOf(page, screen, name)
      await card.focus()
      await page.keyboard.press(KEYS[action])
      await card.getByText(SHOWN[action], { exact: true }).waitFor({ timeout: 5_000 })
      decisions.push({ id, name, action, conflicted: CONFLICTED.includes(decisions.length) })
    }
    if (reloads && at < SCREENS.length - 1) kept.push(await reloadOffline(page, screen, decisions))
  }
  return { decisions, kept }
}

/** The colleague moves the conflicted records the other way, at the version the person saw: the person's decision is then refused (409). */
const colleagueMoves = async (staff: Staff, decisions: ReadonlyArray<Decision>) => {
  for (const decision of decisions.filter((one) => one.conflicted)) {
    const moved = await call(staff.url, "PUT", `/api/admin/listings/${decision.id}`, {
      token: staff.colleague,
      body: { action: OPPOSITE[decision.action], version: 1 }
    })
    if (moved.status !== 200) throw new Error(moved.text)
  }
}

/** The outbox empty in IndexedDB and nothing said waiting: ms since `from`. */
const drainedSince = async (page: Page, from: number) => {
  const left = await poll(
    async () => ((await page.locator(".sync-status").textContent()) === "" ? (await outboxOf(page)).length : -1),
    (count) => count === 0,
    DRAIN_TIMEOUT_MS
  )
  if (left !== 0) throw new Error(`the outbox still held commands ${DRAIN_TIMEOUT_MS} ms after the link came back`)
  return Math.round(performance.now() - from)
}

/** The refusals the console shows ("Failed to update status"), and the conflicted records whose history opened from one (two versions at least). */
const conflictsShown = async (page: Page, conflicted: ReadonlyArray<Decision>) => {
  const alerts = page.getByRole("alert").filter({ hasText: "Failed to update status" })
  await poll(
    () => alerts.count(),
    (count) => count >= conflicted.length,
    10_000
  )
  await page.waitForTimeout(500)
  const reported = await alerts.count()
  // A refusal by a colleague's change stays, kept, with "Compare in history" (docs/console.md).
  const offering = alerts.filter({ has: page.getByRole("button", { name: "Compare in history" }) })
  const histories = new Set<string>()
  for (let index = 0, count = await offering.count(); index < count; index++) {
    await offering.nth(index).getByRole("button", { name: "Compare in history" }).click()
    const dialog = page.getByRole("dialog")
    await dialog.getByRole("option").nth(1).waitFor({ timeout: 10_000 })
    const title = (await dialog.getByRole("heading").first().textContent()) ?? ""
    const named = conflicted.find((decision) => title.includes(`"${decision.name}"`))
    if (named !== undefined) histories.add(named.name)
    await page.keyboard.press("Escape")
    await dialog.waitFor({ state: "hidden" })
  }
  return { reported, withHistory: histories.size }
}

/** What the server did with the person's decisions: applied once, in order, lost, twice; the colleague's records left to the colleague. */
const judged = async (staff: Staff, prefix: string, decisions: ReadonlyArray<Decision>) => {
  const ids = new Set(decisions.map((decision) => decision.id))
  const theirs = (await statusEvents(staff, ids)).filter((event) => event.actorEmail === FIRST_ADMIN)
  const listed = await call(staff.url, "GET", `/api/admin/listings?search=${prefix}&limit=100`, { token: staff.admin })
  const now = new Map((listed.body.data as { listings: ReadonlyArray<{ _id: string; status: string; version: number }> }).listings.map((one) => [one._id, one]))
  const eventsOf = (id: string) => theirs.filter((event) => event.entityId === id)
  const kept = decisions.filter((decision) => !decision.conflicted)
  const appliedOnce = kept.filter((one) => eventsOf(one.id).length === 1 && now.get(one.id)?.status === STATUS[one.action] && now.get(one.id)?.version === 2)
  const refused = decisions.filter((one) => one.conflicted && eventsOf(one.id).length === 0 && now.get(one.id)?.status === STATUS[OPPOSITE[one.action]])
  const order = theirs.map((event) => event.entityId)
  return {
    kept: kept.length,
    appliedOnce: appliedOnce.length,
    refused: refused.length,
    inOrder: order.length === kept.length && kept.every((one, at) => order[at] === one.id && theirs[at]?.toState === STATUS[one.action]),
    lost: kept.filter((one) => eventsOf(one.id).length === 0).length,
    twice: decisions.filter((one) => eventsOf(one.id).length > 1 || (now.get(one.id)?.version ?? 0) > 2).length
  }
}

interface Run {
  readonly made: number
  readonly kept: ReadonlyArray<string>
  readonly judged: Awaited<ReturnType<typeof judged>>
  readonly conflicts: Awaited<ReturnType<typeof conflictsShown>>
  readonly drainedMs: number
  readonly sent: ReadonlyArray<string>
  readonly reachedBeforeKill?: number
}

/**
 * One run: seeded, opened online, decided offline, moved by the colleague, the link back, drained,
 * judged. Without `crash`, two reloads while offline; with it, every write slowed and `crash`
 * (kill the server, start it again) once some of the decisions have been applied.
 */
const offlineRun = async (browser: Browser, staff: Staff, crash?: () => Promise<void>): Promise<Run> => {
  const variant = crash === undefined ? "reloads" : "crash"
  const prefix = `${variant}-${process.pid}-`
  const records = await seed(staff, prefix)
  const context = await signedInContext(browser, staff.admin)
  try {
    const page = context.pages()[0] ?? (await context.newPage())
    // The service worker would hide the page's requests from its routes: the crash run has no reloads, so no worker.
    await openScreens(page, staff, prefix, variant === "reloads")
    const { decisions, kept } = await decideOffline(page, prefix, records, variant === "reloads")
    await colleagueMoves(staff, decisions)
    const sent: Array<string> = []
    page.on(
      "request",
      (request) => void (request.method() === "PUT" && request.url().includes("/api/admin/listings/") && sent.push(request.headers()["idempotency-key"] ?? ""))
    )
    if (crash !== undefined)
      await page.route("**/api/admin/listings/**", async (route) => {
        if (route.request().method() !== "GET") await new Promise((resolve) => setTimeout(resolve, SLOW_WRITE_MS))
        await route.continue().catch(() => undefined)
      })
    const linkBack = performance.now()
    await context.setOffline(false)
    let reachedBeforeKill: number | undefined
    if (crash !== undefined) {
      const ids = new Set(decisions.map((decision) => decision.id))
      const reached = () => statusEvents(staff, ids).then((events) => events.filter((event) => event.actorEmail === FIRST_ADMIN).length)
      reachedBeforeKill = await poll(reached, (count) => count >= KILL_AFTER, 60_000)
      await crash()
    }
    const drainedMs = await drainedSince(page, linkBack)
    const conflicts = await conflictsShown(
      page,
      decisions.filter((decision) => decision.conflicted)
    )
    return {
      made: decisions.length,
      kept,
      judged: await judged(staff, prefix, decisions),
      conflicts,
      drainedMs,
      sent,
      ...(reachedBeforeKill === undefined ? {} : { reachedBeforeKill })
    }
  } finally {
    await context.close()
  }
}

const rowOf = (run: Run): BenchRow => {
  const { judged: figures, conflicts } = run
  const settled = figures.appliedOnce + figures.refused
  const conflicted = CONFLICTED.length
  return {
    "decisions made": run.made,
    "after each offline reload": run.kept.length === 0 ? "—" : run.kept.join("; "),
    "applied once + refused = settled once": `${figures.appliedOnce} + ${figures.refused} = ${settled} / ${run.made} (${meets(run.made === DECISIONS && settled === DECISIONS)})`,
    "in order": `${figures.inOrder ? "yes" : "NO"} (${meets(figures.inOrder)})`,
    lost: `${figures.lost} (${meets(figures.lost === 0)})`,
    "applied twice": `${figures.twice} (${meets(figures.twice === 0)})`,
    "colleague's: reported / with history": `${conflicts.reported} / ${conflicts.withHistory} of ${conflicted} (${meets(conflicts.reported === conflicted && conflicts.withHistory === conflicted)})`,
    "link back → outbox empty ms": run.drainedMs,
    "writes sent / keys": `${run.sent.length} / ${new Set(run.sent).size}`,
    "applied before the kill": run.reachedBeforeKill === undefined ? "—" : `${run.reachedBeforeKill} / ${figures.kept}`
  }
}

export const measureSyncOffline = async (postgresUrl: string | undefined) => {
  requireBuiltConsole()
  const rows: Record<string, BenchRow> = {}
  for (const [engine, env] of benchDatabases(postgresUrl)) {
    const dataDir = mkdtempSync(join(tmpdir(), "admin-bench-sync-offline-"))
    // A fixed port: the server killed comes back on the same address, as a supervisor restarts it.
    const onPort = { ...env, PORT: String(await freePort()) }
    let product = await startProduct(onPort, dataDir)
    const browser = await launchChromium()
    try {
      const staff = await staffOf(product.url, dataDir)
      rows[`${engine}, offline, 2 reloads`] = rowOf(await offlineRun(browser, staff))
      const crash = async () => {
        await product.kill()
        product = await startProduct(onPort, dataDir)
      }
      rows[`${engine}, server killed mid-send`] = rowOf(await offlineRun(browser, staff, crash))
    } finally {
      await browser.close()
      await product.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  console.log(
    `\nOffline: ${DECISIONS} decisions on three queues with the link cut (${SCREENS.map((screen) => screen.count).join("/")}), ${CONFLICTED.length} of their records moved by a colleague meanwhile, then the link back (+0 ms)`
  )
  console.log(`(killed: every write ${SLOW_WRITE_MS} ms slower, SIGKILL once ${KILL_AFTER} had been applied, started again on the same port and data)`)
  console.table(rows)
}
