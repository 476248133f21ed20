import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { consoleDir } from "../../server/platform/console.ts"
import { chromiumWithServer, visitInApp } from "../support/browser.ts"
import { browserEngines, type engines, type TestDatabase } from "../support/database.ts"
import { call } from "../support/http.ts"
import { startTestServer, type TestServer } from "../support/server.ts"
import { underServiceWorker } from "../support/service-worker.ts"
import { signedInAs } from "../support/session.ts"

/**
 * A new build under an open console (docs/decisions.md, "The service worker"): the page keeps its
 * code and files while it stays open, and the next load is the new build's. Two builds are served
 * in turn from one address on one database, in real Chromium; the console with no link is
 * tests/e2e/offline.test.ts.
 */

const GENERATED_TITLE = "Generated Addresses"
const CEX_TITLE = "CEX Addresses"

/** A database that outlives a server, so two builds served in turn share their sessions. */
const lastingDatabase = async (engine: (typeof engines)[number]): Promise<TestDatabase> => {
  if (engine.name !== "pglite") return engine.fresh()
  const folder = mkdtempSync(join(tmpdir(), "offline-db-"))
  return { target: { engine: "pglite", dataDir: join(folder, "db") }, drop: () => Promise.resolve(rmSync(folder, { recursive: true, force: true })) }
}

/**
 * Two builds to serve in turn: the built console marked "A", and a copy marked "B" standing for
 * the next build. B no longer has one of A's files, as a new build has none of the old one's
 * renamed files, and its service worker's list says so (so the worker itself is new).
 */
const twoBuilds = () => {
  const root = mkdtempSync(join(tmpdir(), "two-builds-"))
  const worker = readFileSync(join(consoleDir, "service-worker.js"), "utf8")
  const gone = /"url":"(assets\/SettingsScreen-[\w-]+\.js)"/.exec(worker)?.[1]
  if (gone === undefined) throw new Error("the service worker's list names no settings screen chunk")
  const make = (mark: string) => {
    const dir = join(root, mark)
    cpSync(consoleDir, dir, { recursive: true })
    const index = readFileSync(join(dir, "index.html"), "utf8").replace("<head>", `<head>\n    <meta name="console-build" content="${mark}">`)
    writeFileSync(join(dir, "index.html"), index)
    // The precompressed copies would still be the unmarked files.
    for (const file of ["index.html", "service-worker.js"]) for (const copy of [".br", ".gz"]) rmSync(join(dir, `${file}${copy}`), { force: true })
    return dir
  }
  const a = make("A")
  const b = make("B")
  for (const file of [gone, `${gone}.br`, `${gone}.gz`]) rmSync(join(b, file), { force: true })
  const listed = `{"revision":null,"url":"${gone}"},`
  if (!worker.includes(listed)) throw new Error(`the service worker's list has no entry ${listed}`)
  writeFileSync(join(b, "service-worker.js"), worker.replace(listed, ""))
  return { a, b, gone: `/${gone}`, remove: () => rmSync(root, { recursive: true, force: true }) }
}

describe.each(browserEngines)("a new build, on $name", (engine) => {
  const product = chromiumWithServer(engine)
  let database: TestDatabase
  let builds: ReturnType<typeof twoBuilds>
  let server: TestServer | undefined

  beforeAll(async () => {
    database = await lastingDatabase(engine)
    builds = twoBuilds()
  })
  afterAll(async () => {
    await server?.stop()
    await database?.drop()
    builds?.remove()
  })

  const buildOf = (page: Page) => page.evaluate(() => document.querySelector("meta[name=console-build]")?.getAttribute("content") ?? null)

  it("is not taken under an open page: the page keeps its code and files, and the next load is the new build", async () => {
    server = await startTestServer(database, {}, { consoleDir: builds.a })
    const port = Number(new URL(server.url).port)
    const token = await signedInAs(server, "admin")
    const context = await product.browser.newContext({ viewport: { width: 1280, height: 800 } })
    await context.addInitScript((value) => localStorage.setItem("adminToken", value), token)
    const page = await context.newPage()
    const errors: Array<string> = []
    page.on("pageerror", (error) => errors.push(error.message))
    try {
      await page.goto(`${server.url}/generated-addresses`)
      await page.getByRole("heading", { name: GENERATED_TITLE }).waitFor()
      await underServiceWorker(page)
      await page.getByRole("heading", { name: GENERATED_TITLE }).waitFor()
      expect(await buildOf(page)).toBe("A")
      await page.evaluate(() => Object.assign(window, { openSince: performance.timeOrigin, firstWorker: navigator.serviceWorker.controller }))

      // The deploy: the same address serves build B on the same database.
      await server.stop()
      server = await startTestServer(database, { port }, { consoleDir: builds.b })
      expect((await call(server.url, "GET", builds.gone)).status).toBe(404)

      // The open page goes on with build A: its screens work, and A's files still come (from the worker).
      await visitInApp(page, "/cex-addresses")
      await page.getByRole("heading", { name: CEX_TITLE }).waitFor()
      expect(await page.evaluate((path) => fetch(path).then((response) => response.status), builds.gone)).toBe(200)
      // The browser finds the new worker; it waits while a page of the old one is open.
      const found = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration()
        if (registration === undefined) return "no registration"
        await registration.update()
        const incoming = registration.installing ?? registration.waiting
        if (incoming === null) return "no new worker"
        if (incoming.state === "installing") await new Promise((resolve) => incoming.addEventListener("statechange", resolve, { once: true }))
        // Nothing is to happen now: a worker that took over would be activating within this second.
        await new Promise((resolve) => setTimeout(resolve, 1_000))
        const first = (window as unknown as { firstWorker: ServiceWorker }).firstWorker
        const kept = registration.waiting === incoming && incoming.state === "installed" && registration.active === first
        return kept && navigator.serviceWorker.controller === first ? "waiting" : `taken over (${incoming.state})`
      })
      expect(found).toBe("waiting")
      expect(await buildOf(page)).toBe("A")
      expect(await page.evaluate(() => (window as unknown as { openSince: number }).openSince === performance.timeOrigin)).toBe(true)

      // The next load is build B's, still signed in.
      await page.reload()
      await page.getByRole("heading", { name: CEX_TITLE }).waitFor()
      expect(await buildOf(page)).toBe("B")
      await page.getByRole("navigation", { name: "Main" }).waitFor()
      expect(errors).toEqual([])
    } finally {
      await context.close()
    }
  })
})
