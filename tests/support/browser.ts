import { accessSync, constants, existsSync } from "node:fs"
import { delimiter, join } from "node:path"
import { type Browser, type BrowserContext, chromium, type Locator, type Page, type Request } from "playwright-core"
import { consoleDir } from "../../server/platform/console.ts"
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest"
import { engines, type TestDatabase } from "./database.ts"
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

export const newPage = async (browser: Browser, options: Parameters<Browser["newContext"]>[0] = {}) => {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: "reduce", ...options })
  const page = await context.newPage()
  const errors: Array<string> = []
  page.on("pageerror", (error) => errors.push(error.message))
  // A script or style the page's own policy refuses is a defect (the early start in index.html
  // runs only because the server allows it by its hash).
  page.on("console", (message) => {
    if (message.type() === "error" && message.text().includes("Content Security Policy")) errors.push(message.text())
  })
  return { context, page, errors }
}

/**
 * A page of the console opened at `path` with `token` stored, as after an earlier sign-in. With
 * `countPointer`, the page counts every pointer event in `window.pointerEvents`, so a test can
 * show it used the keyboard alone (`pointerEventsOf`).
 */
export const openSignedIn = async (
  product: { readonly browser: Browser; readonly server: TestServer },
  token: string,
  path: string,
  options: { readonly countPointer?: boolean; readonly before?: (page: Page) => Promise<unknown> } = {}
) => {
  const { page, errors } = await newPage(product.browser)
  await options.before?.(page)
  await page.context().addInitScript(
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

/** One test file's product in Chromium: a fresh database (PGlite unless another engine is given), a server on it, and the worker's browser; all closed after but the browser, whose contexts are. */
export const chromiumWithServer = (engine: (typeof engines)[number] = engines[0]!, options: Parameters<typeof startTestServer>[2] = {}) => {
  const state = {} as { database: TestDatabase; server: TestServer; browser: Browser }
  beforeAll(async () => {
    requireBuiltConsole()
    state.database = await engine.fresh()
    state.server = await startTestServer(state.database, {}, options)
    state.browser = await sharedChromium()
  })
  // A test's pages go with it: a console left open hears every later test's changes on its stream
  // and reads its lists again, and the file's later tests ran up to twice as slow (docs/testing.md,
  // "Where the time goes"). What the file's `beforeAll` opened stays for its tests.
  let before = new Set<BrowserContext>()
  beforeEach(() => void (before = new Set(state.browser.contexts())))
  afterEach(async () => {
    await Promise.all(state.browser.contexts().flatMap((context) => (before.has(context) ? [] : [context.close()])))
  })
  afterAll(async () => {
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
