import { accessSync, constants, existsSync } from "node:fs"
import { delimiter, join } from "node:path"
import { type Browser, type BrowserContext, chromium, type Locator, type Page, type Request } from "playwright-core"
import { consoleDir } from "../../server/platform/console.ts"
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest"
import { browserEngines, engines, type TestDatabase } from "./database.ts"
import { latestCode, startTestServer, type TestServer } from "./server.ts"

/** The flags every launch uses: headless on a machine with a closed network (docs/testing.md, "The browser"). */
export const chromiumFlags = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run"
]

/**
 * System browsers, the headless shell first: Debian's `chromium-headless-shell` is the same
 * Chromium built for headless use only (what Playwright runs headless tests on), and opens a page
 * in about 160 ms here where the full `chromium` takes 450-700 ms (docs/testing.md, "The browser").
 */
export const systemBrowsers = ["chromium-headless-shell", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"]

const onPath = (name: string): string | undefined =>
  (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => dir !== "")
    .map((dir) => join(dir, name))
    .find((file) => {
      try {
        accessSync(file, constants.X_OK)
        return true
      } catch {
        return false
      }
    })

/**
 * Which Chromium the tests drive, in this order: `CHROMIUM_PATH`; a system Chromium or Chrome
 * (Debian's `chromium-headless-shell`, else its `chromium`, here); else the build shipped inside the `@sparticuz/chromium` npm package,
 * unpacked into the temporary folder. Nothing is ever downloaded.
 */
export const findChromium = async (): Promise<{ readonly path: string; readonly source: string }> => {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv !== undefined && fromEnv !== "") {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH is ${fromEnv}, which does not exist`)
    return { path: fromEnv, source: "CHROMIUM_PATH" }
  }
  for (const name of systemBrowsers) {
    const found = onPath(name)
    if (found !== undefined) return { path: found, source: "system" }
  }
  const packaged = (await import("@sparticuz/chromium")).default
  return { path: await packaged.executablePath(), source: "@sparticuz/chromium" }
}

export const launchChromium = async (): Promise<Browser> =>
  chromium.launch({ executablePath: (await findChromium()).path, headless: true, args: chromiumFlags })

/**
 * Holds the console's start chunk (tools/first-screen/chunk-groups.ts) until `until` settles, so the
 * console starts only after, say, start-up's answers are in. Call the returned check once the
 * page has loaded: it fails unless the chunk was held (a renamed chunk would let the console
 * start early, and the test would be testing something else).
 */
export const holdStartChunk = async (page: Page, until: Promise<unknown>): Promise<() => void> => {
  let held = false
  await page.route(/\/assets\/start-[\w-]+\.js$/, async (route) => {
    held = true
    await until
    await route.continue()
  })
  return () => expect(held, "the console's start chunk was held").toBe(true)
}

export const requireBuiltConsole = () => {
  if (!existsSync(join(consoleDir, "index.html"))) throw new Error("The console is not built: run `npm run build` (npm test does)")
}

const CONTEXT_OPTIONS = { viewport: { width: 1280, height: 800 }, reducedMotion: "reduce" } as const

/** Collects the page's errors: an uncaught one, or a script or style the page's own policy refuses. */
/**
 * The last things a page said (its console, its refused or failed calls), kept for the report a
 * failed test prints (`reportPages`): a chance failure on a loaded CI machine is read from it.
 */
const pageLog = new WeakMap<Page, Array<string>>()
/** Keeps what `page` says for a failed test's report: `newPage` does it; a test that opens its own page calls it. */
export const logTo = (page: Page) => {
  const lines: Array<string> = []
  pageLog.set(page, lines)
  const add = (line: string) => {
    lines.push(`${new Date().toISOString().slice(11, 23)} ${line}`)
    if (lines.length > 40) lines.shift()
  }
  page.on("console", (message) => add(`console.${message.type()}: ${message.text().slice(0, 300)}`))
  page.on("requestfailed", (request) => add(`failed ${request.method()} ${new URL(request.url()).pathname}: ${request.failure()?.errorText ?? ""}`))
  page.on("response", (response) => {
    if (response.status() >= 400) add(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`)
  })
}

/** What a page shows and said last, as a failed test prints it. */
export const pageReport = async (page: Page, heading = `page: ${page.url()}`) => {
  const shown = await page
    .evaluate(() => document.body.innerText)
    .then((text) => text.replace(/\s+/gu, " ").slice(0, 1500))
    .catch((error: unknown) => `(unreadable: ${String(error)})`)
  return [heading, `  shows: ${shown}`, ...(pageLog.get(page) ?? []).map((line) => `  ${line}`)].join("\n")
}

/** What each open page of `contexts` shows and said last: printed when a browser test fails. */
const reportPages = async (contexts: ReadonlyArray<BrowserContext>) => {
  const pages = contexts.flatMap((context) => context.pages())
  const reports = await Promise.all(pages.map((page, index) => pageReport(page, `page ${index + 1}: ${page.url()}`)))
  if (reports.length > 0) process.stderr.write(`\nwhat the failed test's pages showed:\n${reports.join("\n")}\n`)
}

const watchErrors = (page: Page) => {
  logTo(page)
  const errors: Array<string> = []
  page.on("pageerror", (error) => errors.push(error.message))
  // A script or style the page's own policy refuses is a defect (the early start in index.html
  // runs only because the server allows it by its hash).
  page.on("console", (message) => {
    if (message.type() === "error" && message.text().includes("Content Security Policy")) errors.push(message.text())
  })
  return errors
}

export const newPage = async (browser: Browser, options: Parameters<Browser["newContext"]>[0] = {}) => {
  const context: BrowserContext = await browser.newContext({ ...CONTEXT_OPTIONS, ...options })
  const page = await context.newPage()
  return { context, page, errors: watchErrors(page) }
}

/**
 * A file's kept tab (docs/testing.md, "Where the time goes"): a console opened in a new browser
 * context costs about 3.5 s of this machine's CPU, the same in a tab that has loaded it before
 * about 1.5 (the compiled scripts and the files are at hand). `openSignedIn` hands it to the
 * first page a test opens; after the test it is emptied as if new: its other tabs closed, its
 * listeners, routes and added scripts gone, the link up, its cookies, storage, databases, caches
 * and service workers deleted, and the screen's size and media as a new context's. A test that
 * closes its context closes nothing: the next test finds the tab emptied.
 */
interface Kept {
  readonly context: BrowserContext
  readonly page: Page
  errors: Array<string>
  readonly added: Array<{ readonly dispose: () => Promise<void> }>
  /** Closes the context for good (its own `close` empties nothing and closes nothing). */
  readonly close: () => Promise<void>
  taken: boolean
}
const keptTabs = new WeakMap<object, Kept>()

const keptPage = async (product: { readonly browser: Browser }): Promise<{ readonly page: Page; readonly errors: Array<string> } | undefined> => {
  if (!fileState.has(product)) return undefined
  let kept = keptTabs.get(product)
  if (kept?.page.isClosed() === true) {
    await kept.close()
    kept = undefined
  }
  if (kept?.taken === true) return undefined
  if (kept === undefined) {
    const context = await product.browser.newContext(CONTEXT_OPTIONS)
    const page = await context.newPage()
    const added: Kept["added"] = []
    // What a test adds to the tab goes when the tab is emptied.
    for (const target of [context, page] as const) {
      const add = target.addInitScript.bind(target) as (...args: Array<unknown>) => Promise<{ dispose: () => Promise<void> }>
      Object.assign(target, { addInitScript: async (...args: Array<unknown>) => (added.push(await add(...args)), added.at(-1)) })
    }
    const close = context.close.bind(context)
    Object.assign(context, { close: () => Promise.resolve() })
    kept = { context, page, errors: watchErrors(page), added, close: () => close(), taken: false }
    keptTabs.set(product, kept)
  }
  kept.taken = true
  return kept
}

/** Leaving a screen with unsaved changes asks before unloading: the page's next load goes ahead. */
export const leavesWithoutAsking = (page: Page) => page.on("dialog", (dialog) => void (dialog.type() === "beforeunload" ? dialog.accept() : dialog.dismiss()))

/** Empties a kept tab for the next test, or forgets it when its page went. */
const emptyKept = async (product: object, origin: string) => {
  const kept = keptTabs.get(product)
  if (kept === undefined) return
  kept.taken = false
  const { context, page } = kept
  for (const other of context.pages()) if (other !== page) await other.close()
  if (page.isClosed()) {
    keptTabs.delete(product)
    return kept.close()
  }
  page.removeAllListeners()
  await page.unrouteAll({ behavior: "ignoreErrors" })
  await context.unrouteAll({ behavior: "ignoreErrors" })
  for (const script of kept.added.splice(0)) await script.dispose()
  await context.setOffline(false)
  await context.clearCookies()
  await context.clearPermissions()
  await page.setViewportSize(CONTEXT_OPTIONS.viewport)
  await page.emulateMedia({ media: null, colorScheme: "light", reducedMotion: "reduce", forcedColors: null })
  leavesWithoutAsking(page)
  await page.goto(`${origin}/api/health/live`)
  await page.evaluate(async () => {
    for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister()
    for (const name of await caches.keys()) await caches.delete(name)
    localStorage.clear()
    sessionStorage.clear()
    for (const { name } of await indexedDB.databases()) {
      if (name === undefined) continue
      await new Promise<void>((resolve, reject) => {
        const deleting = indexedDB.deleteDatabase(name)
        deleting.onsuccess = () => resolve()
        deleting.onerror = () => reject(new Error(`the database ${name} could not be deleted`))
      })
    }
  })
  await page.goto("about:blank")
  page.removeAllListeners()
  kept.errors = watchErrors(page)
}

/**
 * A tab of the console's origin with `token` stored, as after an earlier sign-in, before any load:
 * a file's first such tab each test is its kept tab (`keptPage`), emptied since the last test.
 * With `countPointer`, its pages count every pointer event in `window.pointerEvents`, so a test
 * can show it used the keyboard alone (`pointerEventsOf`); `colorScheme` is the one the system
 * prefers.
 */
export const signedInTab = async (
  product: { readonly browser: Browser; readonly server: TestServer },
  token: string,
  options: { readonly countPointer?: boolean; readonly colorScheme?: "light" | "dark" } = {}
) => {
  const { page, errors } = (await keptPage(product)) ?? (await newPage(product.browser))
  if (options.colorScheme !== undefined) await page.emulateMedia({ colorScheme: options.colorScheme })
  await page.addInitScript(
    ([value, countPointer]) => {
      localStorage.setItem("adminToken", value)
      if (!countPointer) return
      Object.assign(window, { pointerEvents: 0 })
      for (const type of ["pointerdown", "mousedown", "click"]) {
        window.addEventListener(
          type,
          (event) => {
            if (event.isTrusted && (event as MouseEvent).detail > 0) (window as unknown as { pointerEvents: number }).pointerEvents++
          },
          true
        )
      }
    },
    [token, options.countPointer === true] as const
  )
  return { page, context: page.context(), errors }
}

/** `signedInTab` opened at `path`, after `before` (routes, say). */
export const openSignedIn = async (
  product: { readonly browser: Browser; readonly server: TestServer },
  token: string,
  path: string,
  options: { readonly countPointer?: boolean; readonly before?: (page: Page) => Promise<unknown> } = {}
) => {
  const { page, errors } = await signedInTab(product, token, options)
  await options.before?.(page)
  await page.goto(`${product.server.url}${path}`)
  return { page, errors }
}

/** The pointer events a page opened with `countPointer` has seen. */
export const pointerEventsOf = (page: Page) => page.evaluate(() => (window as unknown as { pointerEvents: number }).pointerEvents)

/**
 * Counts the requests a page has in flight, the change stream left out (it stays open while a
 * live screen is shown). Made right after the page, before its first request.
 */
export const requestsInFlight = (page: Page) => {
  const open = new Set<Request>()
  let changed = Date.now()
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/admin/stream") return
    open.add(request)
    changed = Date.now()
  })
  const finished = (request: Request) => {
    if (open.delete(request)) changed = Date.now()
  }
  page.on("requestfinished", finished)
  page.on("requestfailed", finished)
  return {
    /** Resolves once nothing has been in flight for `quietMs`: what a screen asked for has arrived. */
    quiet: async (quietMs = 150, timeoutMs = 30_000) => {
      const until = Date.now() + timeoutMs
      while (open.size > 0 || Date.now() - changed < quietMs) {
        if (Date.now() > until) throw new Error(`still in flight after ${timeoutMs} ms: ${[...open].map((request) => request.url()).join(", ")}`)
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    }
  }
}

/**
 * Goes to `path` inside the console already loaded in `page` as its own links do (a history entry
 * and a popstate, which the router follows) and waits for the new screen's heading: no reload, so
 * each screen costs its own requests only.
 */
export const visitInApp = async (page: Page, path: string) => {
  if (await page.evaluate((to) => `${location.pathname}${location.search}` === to, path)) return
  const before = await page.evaluate(() => document.querySelector("h1")?.textContent ?? null)
  await page.evaluate((to) => {
    history.pushState(null, "", to)
    dispatchEvent(new PopStateEvent("popstate"))
  }, path)
  await page.waitForFunction((old) => {
    const heading = document.querySelector("h1")
    return heading !== null && heading.textContent !== old
  }, before)
}

/**
 * Waits until the console's change stream is live (the sync machine's `online`, on the status
 * line's `data-link`): from then on the store starts no read of its own for the link coming up
 * (a failed list read is retried when the stream goes live, docs/architecture.md, "The
 * browser's store"). The one wait for the store to settle (docs/testing.md, "No test fails by
 * chance"): never a sleep.
 */
export const linkLive = (page: Page) => page.locator('.sync-status[data-link="online"]').waitFor({ state: "attached" })

/** Whether the console shows its dark theme. */
export const isDark = (page: Page) => page.evaluate(() => document.querySelector(".radix-themes")?.classList.contains("dark") ?? false)

/**
 * The sign-in's e-mail and code steps as a person types them, reading the code from the outbox, at
 * `address` (the server's own by default; passkeys need `localhost`); what follows the code (the
 * dashboard, a passkey's second step) is the caller's to wait for.
 */
export const typeCodeOnScreen = async (page: Page, server: TestServer, email: string, role?: string, address = server.url) => {
  await page.goto(`${address}/login`)
  await page.getByLabel("Email").fill(email)
  if (role !== undefined) {
    await page.getByLabel("Role").selectOption({ label: role })
  }
  await page.getByRole("button", { name: "Send OTP" }).click()
  await page.getByRole("heading", { name: "Enter OTP Code" }).waitFor()
  await page.getByPlaceholder("Enter 6-digit code").fill(await latestCode(server, email))
  await page.getByRole("button", { name: "Verify & Login" }).click()
}

/** Signs in through the screen as a person does, reading the code from the outbox. */
export const signInThroughScreen = async (page: Page, server: TestServer, email: string, role?: string) => {
  await typeCodeOnScreen(page, server, email, role)
  await page.getByText("Welcome back").waitFor()
}

let workerBrowser: Promise<Browser> | undefined
/**
 * The worker process's Chromium, launched by its first browser file and kept for the files after
 * it (docs/testing.md, "Where the time goes"); launched again if it went away. Files share
 * nothing through it: each works in contexts of its own, all closed after the file.
 */
const sharedChromium = async (): Promise<Browser> => {
  const running = await workerBrowser?.catch(() => undefined)
  if (running?.isConnected() === true) return running
  workerBrowser = launchChromium()
  return workerBrowser
}

/** The states `chromiumWithServer` made: a kept tab belongs to one of them. */
const fileState = new WeakSet<object>()

/** One test file's product in Chromium: a fresh database (on the browser stories' engine, `browserEngines`, unless another is given), a server on it, and the worker's browser; all closed after but the browser, whose contexts are. */
export const chromiumWithServer = (engine: (typeof engines)[number] = browserEngines[0]!, options: Parameters<typeof startTestServer>[2] = {}) => {
  const state = {} as { database: TestDatabase; server: TestServer; browser: Browser }
  fileState.add(state)
  beforeAll(async () => {
    requireBuiltConsole()
    state.database = await engine.fresh()
    state.server = await startTestServer(state.database, {}, options)
    state.browser = await sharedChromium()
  })
  // A test's pages go with it: a console left open hears every later test's changes on its stream
  // and reads its lists again, and the file's later tests ran up to twice as slow (docs/testing.md,
  // "Where the time goes"). What the file's `beforeAll` opened stays for its tests; the kept tab
  // is emptied instead.
  let before = new Set<BrowserContext>()
  beforeEach(() => void (before = new Set(state.browser.contexts())))
  afterEach(async (test) => {
    const kept = keptTabs.get(state)?.context
    if (test.task.result?.state === "fail") await reportPages(state.browser.contexts().filter((context) => !before.has(context) || context === kept))
    await Promise.all(state.browser.contexts().flatMap((context) => (before.has(context) || context === kept ? [] : [context.close()])))
    await emptyKept(state, state.server.url)
  })
  afterAll(async () => {
    const kept = keptTabs.get(state)
    keptTabs.delete(state)
    await kept?.close()
    await Promise.all(state.browser?.contexts().map((context) => context.close()) ?? [])
    await state.server?.stop()
    await state.database?.drop()
  })
  return state
}

/**
 * What the form pattern says under a field (docs/architecture.md, "Forms"): the text of the
 * message its control names first in `aria-describedby`, when the control is marked invalid;
 * undefined when it is not.
 */
export const fieldMessage = (control: Locator) =>
  control.evaluate((element) => {
    if (element.getAttribute("aria-invalid") !== "true") return undefined
    const id = (element.getAttribute("aria-describedby") ?? "").split(" ").find((part) => part.endsWith("-error"))
    return id === undefined ? undefined : (document.getElementById(id)?.textContent ?? undefined)
  })
