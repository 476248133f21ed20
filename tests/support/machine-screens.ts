import type { BrowserContext, Page, Request, Route } from "playwright-core"
import { beforeAll, expect } from "vitest"
import { latestEventId } from "../../server/stream/repository.ts"
import { chromiumWithServer, leavesWithoutAsking, linkLive, newPage, pageReport } from "../support/browser.ts"
import { signedInAs } from "../support/session.ts"
import type { engines } from "../support/database.ts"

/**
 * The shared harness of the machines' generated paths on the real screens (one test file per
 * machine: tests/e2e/machine-*.test.ts; docs/testing.md, "Machines"): each file calls
 * `pathHarness()` once, which gives it its own server and Chromium, a signed-in admin's token, and
 * one page reused from path to path. The test files share a process (`isolate: false` in
 * vite.config.ts), so this module is loaded once for several files: what is a file's own is set
 * up again by each file's call, never at import.
 */
/** The running file's server and browser (set before its tests run; a live binding). */
export let product: ReturnType<typeof chromiumWithServer>
/** The admin's session token (set before the file's tests run; a live binding). */
export let token: string
let counter = 0
/** The page the paths of the running file share (`pathPage`). */
let reused: { readonly context: BrowserContext; readonly page: Page } | undefined
/** A number no other path of this file has used, for names and markers. */
export const nextNumber = () => ++counter

/**
 * Registers the calling file's (or `describe`'s) server on `engine` (the browser stories' engine unless given), its
 * browser and signed-in admin (its `beforeAll`), and forgets the last page.
 */
export const pathHarness = (engine?: (typeof engines)[number]) => {
  const own = chromiumWithServer(engine)
  beforeAll(async () => {
    product = own
    reused = undefined
    counter = 0
    token = await signedInAs(own.server, "admin")
  })
}

/** A call the screen made, held by its route until the path's step decides its answer. */
export interface HeldCall {
  readonly route: Route
  readonly request: Request
}

/** A browser context and its page as one path's run uses them. */
export interface PathRun {
  readonly context: BrowserContext
  readonly page: Page
  readonly errors: Array<string>
}

/**
 * A fresh browser context with the session token stored, as after a sign-in. It registers no
 * service worker: its page is reused from path to path, and a page the console's worker loads
 * takes the built files from the worker's cache, where a path's routes never see them (holding
 * the start chunk, say). tests/e2e/offline.test.ts is the worker's.
 */
export const signedInContext = async (): Promise<PathRun> => {
  const opened = await newPage(product.browser, { serviceWorkers: "block" })
  await opened.context.addInitScript((value) => localStorage.setItem("adminToken", value), token)
  return opened
}

/** Resolves at the next animation frame after `settled` stays true for two frames: nothing more is coming from this step. */
export const quiet = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))

/** The oldest request a path is holding before the server, once the screen has sent one. */
export const firstHeld = async <T>(held: Array<T>): Promise<T> => {
  await expect.poll(() => held.length, { timeout: 10_000 }).toBeGreaterThan(0)
  return held.shift() as T
}

/** Exactly one more request than `before`: the one the step asked for, and none behind it. */
export const exactlyOneMore = async (page: Page, count: () => number, before: number) => {
  await expect.poll(count, { timeout: 10_000 }).toBe(before + 1)
  await quiet(page)
  expect(count()).toBe(before + 1)
}

/**
 * The page a path runs on, where nothing of the browser is arranged beyond routes and listeners:
 * one signed-in page for the whole file, reused from path to path. A new context and page cost
 * about 2 s a path on this machine kind against half a second for a load of the same page
 * (docs/testing.md, "How the suite runs"); each path still starts with a full load of its screen, so no
 * state of the last path's console is left, and `closeRun` takes its routes and listeners off.
 * The browser has run the console once before the first path, as a person's browser has: its
 * store knows where the change stream is, so a path's load resumes the stream and reads its list
 * once (a first visit ever reads it again when its stream goes live: tests/e2e/event-sourced.test.ts).
 */
export const pathPage = async (): Promise<{ readonly context: BrowserContext; readonly page: Page; readonly errors: Array<string> }> => {
  // A test's contexts close after it (tests/support/browser.ts): a file's next test opens its own.
  if (reused === undefined || reused.page.isClosed()) {
    const { context, page } = await signedInContext()
    page.removeAllListeners("pageerror")
    leavesWithoutAsking(page)
    reused = { context, page }
    await page.goto(`${product.server.url}/`)
    await linkLive(page)
    await expect.poll(() => page.evaluate(streamPosition), { timeout: 10_000 }).not.toBe(null)
  }
  const errors: Array<string> = []
  reused.page.on("pageerror", (error) => errors.push(error.message))
  return { ...reused, errors }
}

/** The change stream's position the browser's store keeps (src/lib/store/browser-store.ts), null before it has one. */
const streamPosition = () =>
  new Promise<string | null>((resolve, reject) => {
    const opening = indexedDB.open("console-store")
    opening.onerror = () => reject(new Error("The browser's store could not be opened"))
    opening.onsuccess = () => {
      const db = opening.result
      if (!db.objectStoreNames.contains("meta")) return (db.close(), resolve(null))
      const read = db.transaction("meta").objectStore("meta").get("lastEventId")
      read.onsuccess = () => (db.close(), resolve((read.result as string | undefined) ?? null))
      read.onerror = () => (db.close(), reject(new Error("The store's position could not be read")))
    }
  })

/**
 * Records a path made through the API before its screen opens are news the browser has heard, as
 * a console left open meanwhile would have: the store's kept stream position moves to the
 * server's newest change. Without it the screen's load catches up on them, and the list reads its
 * rows a second time (a record not on the page may belong on it), a read no step of the model
 * asked for. Call it after the path's records are made, before the screen's load; the page is
 * left on the console's origin, away from the console.
 */
export const heardEverything = async (page: Page) => {
  // Where a stream opened now would start (server/stream/repository.ts).
  const position = await product.server.sql(latestEventId)
  await page.goto(`${product.server.url}/api/health/live`)
  await page.evaluate(
    (value) =>
      new Promise<void>((resolve, reject) => {
        const opening = indexedDB.open("console-store")
        opening.onerror = () => reject(new Error("The browser's store could not be opened"))
        opening.onsuccess = () => {
          const db = opening.result
          const writing = db.transaction("meta", "readwrite")
          writing.objectStore("meta").put(value, "lastEventId")
          writing.oncomplete = () => (db.close(), resolve())
          writing.onerror = () => (db.close(), reject(new Error("The store's position could not be written")))
        }
      }),
    position
  )
}

/** A path's end: no error was thrown in the page; its browser context goes, or its reused page is emptied. */
export const closeRun = async (run: { readonly errors: ReadonlyArray<string>; readonly context: BrowserContext; readonly page: Page }, failure?: unknown) => {
  // A failed path's page is read before it is emptied: a chance failure is read from it.
  if (failure !== undefined) process.stderr.write(`\nwhat the failed path's page showed:\n${await pageReport(run.page)}\n`)
  try {
    expect(run.errors).toEqual([])
  } finally {
    if (run.page === reused?.page) {
      run.page.removeAllListeners("pageerror")
      run.page.removeAllListeners("request")
      await run.page.unrouteAll({ behavior: "ignoreErrors" })
      // The browser's store keeps a command the path left on its way (nothing made is lost,
      // docs/architecture.md, "The browser's store"): the next path starts with none, and with no
      // record or page of this one. A page of the same origin that is not the console empties it
      // once the console's page has gone; who it is for and the stream's position stay.
      const origin = new URL(run.page.url()).origin
      if (origin.startsWith("http")) {
        await run.page.goto(`${origin}/api/health/live`)
        await run.page.evaluate(
          () =>
            new Promise<void>((resolve, reject) => {
              localStorage.removeItem("console-store")
              const opening = indexedDB.open("console-store")
              opening.onerror = () => reject(new Error("The browser's store could not be opened"))
              opening.onsuccess = () => {
                const db = opening.result
                const emptied = [...db.objectStoreNames].filter((name) => name !== "meta")
                if (emptied.length === 0) return (db.close(), resolve())
                const clearing = db.transaction(emptied, "readwrite")
                for (const name of emptied) clearing.objectStore(name).clear()
                clearing.oncomplete = () => (db.close(), resolve())
                clearing.onerror = () => (db.close(), reject(new Error("The browser's store could not be emptied")))
              }
            })
        )
      }
      await run.page.goto("about:blank")
    } else await run.context.close()
  }
}

/**
 * A held write the server fails to make (500, in the API's wrapper). A write whose connection is
 * cut is not a failure for the console: it is a command, sent again when the link is back
 * (docs/architecture.md, "The browser's store").
 */
export const serverFails = (route: Route) =>
  route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ success: false, error: SERVER_FAILED }) })

/** What `serverFails` says. */
export const SERVER_FAILED = "The server failed to save it"
