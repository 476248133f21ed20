import react from "@vitejs/plugin-react"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { cpSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { build } from "vite"
import { consoleDir } from "../../server/platform/console.ts"
import { precompress } from "../../tools/first-screen/precompress.ts"
import { launchChromium, requireBuiltConsole } from "../support/browser.ts"
import { coldLoad, FIRST_SCREEN_BUDGET_KB, TWENTY_ROWS } from "../support/first-screen.ts"
import { measureLighthouse } from "./lighthouse.ts"
import { engines } from "../support/database.ts"
import { root } from "../support/process.ts"
import { startTestServer } from "../support/server.ts"
import { signedInAs } from "../support/session.ts"
import { call } from "../support/http.ts"

const DIRECTORY_ROWS = 10_000
// The rows' budget is 2.0 times the bare page since keys act on arrival (1.5 was the first
// budget, never met on this machine kind: docs/architecture.md, "First screen").
const TARGETS = {
  rowsRatio: 2.0,
  wireKb: FIRST_SCREEN_BUDGET_KB,
  paletteMs: 50,
  nextPageMs: 100,
  searchMs: 100,
  arrivalMs: 100,
  nextRowMs: 16,
  moderationMs: 50
}

const median = (values: ReadonlyArray<number>) => percentile(values, 50)
const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round((sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0) * 10) / 10
}
const verdict = (ok: boolean) => (ok ? "meets" : "MISSES")

/** The console's files with the bare React page built beside them under /bare/. */
const consoleWithBarePage = async () => {
  const served = mkdtempSync(join(tmpdir(), "bench-console-"))
  cpSync(consoleDir, served, { recursive: true })
  await build({
    root: join(root, "tests/bench/bare"),
    base: "/bare/",
    configFile: false,
    logLevel: "error",
    plugins: [react(), precompress()],
    build: { outDir: join(served, "bare"), emptyOutDir: true }
  })
  return served
}

const twentyRows = (page: Page) =>
  page.waitForFunction(() => document.querySelectorAll("tbody tr").length >= 20, undefined, { polling: "raf", timeout: 30_000 }).then(() => undefined)

/** Times, in the page, from an action to the first frame after `done` holds; fails after 10 s, naming `done`. */
const timeInPage = (page: Page, action: string, done: string) =>
  page.evaluate(
    ([actionSource, doneSource]) =>
      new Promise<number>((resolve, reject) => {
        // The bench hands the page the source of its action and its end condition.
        // eslint-disable-next-line @typescript-eslint/no-implied-eval
        const isDone = new Function(`return (${doneSource})()`) as () => boolean
        const started = performance.now()
        const check = () => {
          if (isDone()) return requestAnimationFrame(() => resolve(performance.now() - started))
          if (performance.now() - started > 10_000) return reject(new Error(`never true: ${doneSource}`))
          requestAnimationFrame(check)
        }
        // eslint-disable-next-line @typescript-eslint/no-implied-eval
        ;(new Function(actionSource) as () => void)()
        requestAnimationFrame(check)
      }),
    [action, done] as const
  )

const interactions = async (browser: Browser, token: string, url: string) => {
  const context = await browser.newContext()
  await context.addInitScript((value) => localStorage.setItem("adminToken", value), token)
  const page = await context.newPage()
  await page.goto(`${url}/generated-addresses`)
  await twentyRows(page)
  const palette: Array<number> = []
  const nextPage: Array<number> = []
  const search: Array<number> = []
  for (let run = 0; run < 20; run++) {
    await page.locator("body").click({ position: { x: 5, y: 5 } })
    palette.push(
      await timeInPage(
        page,
        `document.dispatchEvent(new KeyboardEvent("keydown", { key: "k", ctrlKey: true, bubbles: true }))`,
        `() => document.querySelector("dialog[open] [cmdk-input]") !== null`
      )
    )
    await page.keyboard.press("Escape")
    // The palette stays in the page once made, closed (src/ui/ThemedCommandDialog.tsx).
    await page.locator("[cmdk-input]").waitFor({ state: "hidden" })
  }
  for (let run = 0; run < 20; run++) {
    const target = run + 2
    nextPage.push(
      await timeInPage(
        page,
        `[...document.querySelectorAll("nav[aria-label=Pages] button")].find((b) => b.textContent === "Next").click()`,
        `() => document.querySelector("nav[aria-label=Pages]")?.textContent.includes("Page ${target} of") &&
        document.querySelector("[aria-busy]")?.getAttribute("aria-busy") === "false"`
      )
    )
  }
  for (let run = 0; run < 20; run++) {
    const term = `generated-addr-00${String(1000 + run * 37).slice(0, 3)}`
    const elapsed = await timeInPage(
      page,
      `const input = document.querySelector("input[type=search]");
       Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set.call(input, ${JSON.stringify(term)});
       input.dispatchEvent(new Event("input", { bubbles: true }))`,
      `() => new URL(location.href).searchParams.get("search") === ${JSON.stringify(term)} &&
        document.querySelector("[aria-busy]")?.getAttribute("aria-busy") === "false"`
    )
    search.push(Math.max(0, elapsed - 250))
  }
  // Arriving by `g g` from the dashboard (reached by `g d`, untimed): the first row current and focused.
  const arrival: Array<number> = []
  const key = (name: string) =>
    `document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key: ${JSON.stringify(name)}, bubbles: true, cancelable: true }))`
  for (let run = 0; run < 20; run++) {
    await page.keyboard.press("g")
    await page.keyboard.press("d")
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor()
    arrival.push(
      await timeInPage(
        page,
        `${key("g")}; ${key("g")}`,
        `() => document.querySelectorAll("tbody tr").length >= 20 && document.activeElement?.matches("tbody tr[data-current='true']") === true`
      )
    )
  }
  // `j`: from the key to the next row marked current in the page, the work the key costs before
  // the browser draws it (timed to the next frame instead, every figure here includes up to a
  // frame of waiting, 16.7 ms, whatever the work).
  const nextRow: Array<number> = []
  for (let run = 0; run < 20; run++) {
    // Twice down the first half of the page (twenty rows): back to the top, untimed, between.
    if (run === 10) for (let back = 0; back < 10; back++) await page.keyboard.press("k")
    nextRow.push(
      await page.evaluate(
        (index) =>
          new Promise<number>((resolve) => {
            const target = document.querySelector(`tbody tr:nth-child(${index + 1})`)
            if (target === null) throw new Error(`no row ${index + 1}`)
            const observer = new MutationObserver(() => {
              if (target.getAttribute("data-current") !== "true") return
              observer.disconnect()
              resolve(performance.now() - started)
            })
            observer.observe(target, { attributes: true })
            const started = performance.now()
            document.activeElement?.dispatchEvent(new KeyboardEvent("keydown", { key: "j", bubbles: true, cancelable: true }))
          }),
        (run % 10) + 1
      )
    )
  }
  await context.close()
  return { palette, nextPage, search, arrival, nextRow }
}

/** `a` on the current pending card of a queue: its new status shown (the change at once, the server later). */
const moderation = async (browser: Browser, token: string, url: string) => {
  const context = await browser.newContext()
  await context.addInitScript((value) => localStorage.setItem("adminToken", value), token)
  const page = await context.newPage()
  await page.goto(`${url}/communities?status=pending`)
  await page.waitForFunction(() => document.activeElement?.matches("[data-current='true']") === true, undefined, { timeout: 30_000 })
  const times: Array<number> = []
  for (let run = 0; run < 20; run++) {
    const name = await page.evaluate(() => document.querySelector("[data-current='true'] [aria-label]")?.getAttribute("aria-label") ?? "")
    times.push(
      await timeInPage(
        page,
        `document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key: "a", bubbles: true, cancelable: true }))`,
        `() => [...document.querySelectorAll("[aria-label]")].find((card) => card.getAttribute("aria-label") === ${JSON.stringify(name)})?.textContent.includes("Approved") === true`
      )
    )
    // One change at a time (machines/listing-moderation.ts): the server's answer (its undo toast)
    // and the queue read again before the next key.
    await page.waitForFunction(
      (approved) =>
        document.querySelector(".undo-toast")?.textContent?.includes(approved) === true &&
        document.querySelector("[aria-busy]")?.getAttribute("aria-busy") === "false",
      `"${name}"`
    )
  }
  await context.close()
  return times
}

/**
 * `npm run bench -- console` (first screen): rows painted on a list against a bare React page
 * doing the same fetch, bytes on the wire before the sign-in form and before the rows, and
 * interaction times on a 10,000-row directory, each printed beside its target.
 */
export const measureFirstScreen = async () => {
  requireBuiltConsole()
  const served = await consoleWithBarePage()
  const database = await engines[0]!.fresh()
  const server = await startTestServer(database, {}, { consoleDir: served })
  const browser = await launchChromium()
  try {
    const token = await signedInAs(server, "admin")
    await server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql`INSERT INTO addresses (id, kind, identifier, name, category, rank, created_at)
      SELECT gen_random_uuid(), 'generated', 'generated-addr-' || lpad(i::text, 6, '0'), 'Address ' || i, 'Wallet', i % 1000,
        now() - make_interval(secs => i)
      FROM generate_series(1, ${DIRECTORY_ROWS}) AS i`
      )
    )

    const product: Array<number> = []
    const bare: Array<number> = []
    let listKb = 0
    let waterfall: ReadonlyArray<Record<string, string | number>> = []
    // Two warm-up pairs, then eleven: a cold load on this 2-core machine varies by ±30 ms from
    // one to the next, and the median of five moved the ratio by a tenth between runs.
    for (let run = 0; run < 13; run++) {
      const console = await coldLoad(browser, token, `${server.url}/generated-addresses`, TWENTY_ROWS)
      const plain = await coldLoad(browser, token, `${server.url}/bare/index.html`, TWENTY_ROWS)
      if (run >= 2) {
        product.push(console.ms)
        bare.push(plain.ms)
      }
      listKb = console.kb
      waterfall = [...console.waterfall, { path: "(20 rows painted)", "start ms": Math.round(console.ms), "end ms": "", "wire kB": "" }]
    }
    const login = await coldLoad(browser, null, `${server.url}/login`, "input[name=email]")
    const ratio = Math.round((median(product) / median(bare)) * 100) / 100
    const times = await interactions(browser, token, server.url)
    for (let n = 0; n < 40; n++) {
      await call(server.url, "POST", "/api/admin/communities", { token, body: { name: `Queue ${String(n).padStart(2, "0")}`, description: "Pending" } })
    }
    const approvals = await moderation(browser, token, server.url)

    console.log(`\nFirst screen, cold Chromium context, stored token, ${DIRECTORY_ROWS.toLocaleString("en")}-row directory`)
    console.table({
      "20 rows painted, console (median of 11, ms)": { value: median(product), target: "", verdict: "" },
      "20 rows painted, bare React page (median of 11, ms)": { value: median(bare), target: "", verdict: "" },
      "ratio console / bare": { value: ratio, target: `≤ ${TARGETS.rowsRatio}`, verdict: verdict(ratio <= TARGETS.rowsRatio) },
      "JS+CSS on the wire before the sign-in form (kB)": { value: login.kb, target: `≤ ${TARGETS.wireKb}`, verdict: verdict(login.kb <= TARGETS.wireKb) },
      "JS+CSS on the wire before the first rows (kB)": { value: listKb, target: `≤ ${TARGETS.wireKb}`, verdict: verdict(listKb <= TARGETS.wireKb) },
      "palette open, p95 of 20 (ms)": {
        value: percentile(times.palette, 95),
        target: `≤ ${TARGETS.paletteMs}`,
        verdict: verdict(percentile(times.palette, 95) <= TARGETS.paletteMs)
      },
      "next page, p95 of 20 (ms)": {
        value: percentile(times.nextPage, 95),
        target: `≤ ${TARGETS.nextPageMs}`,
        verdict: verdict(percentile(times.nextPage, 95) <= TARGETS.nextPageMs)
      },
      "search result after the debounce, p95 of 20 (ms)": {
        value: percentile(times.search, 95),
        target: `≤ ${TARGETS.searchMs}`,
        verdict: verdict(percentile(times.search, 95) <= TARGETS.searchMs)
      },
      "g g to the first row current, p95 of 20 (ms)": {
        value: percentile(times.arrival, 95),
        target: `≤ ${TARGETS.arrivalMs}`,
        verdict: verdict(percentile(times.arrival, 95) <= TARGETS.arrivalMs)
      },
      "j to the next row marked in the page, p95 of 20 (ms)": {
        value: percentile(times.nextRow, 95),
        target: `≤ ${TARGETS.nextRowMs}`,
        verdict: verdict(percentile(times.nextRow, 95) <= TARGETS.nextRowMs)
      },
      "a to the card's new status, p95 of 20 (ms)": {
        value: percentile(approvals, 95),
        target: `≤ ${TARGETS.moderationMs}`,
        verdict: verdict(percentile(approvals, 95) <= TARGETS.moderationMs)
      }
    })
    // The p95 of twenty is the second-slowest: the medians say what a usual one takes.
    console.log(
      `Medians of the same twenty: palette open ${median(times.palette)} ms, next page ${median(times.nextPage)} ms, search ${median(times.search)} ms, ` +
        `g g arrival ${median(times.arrival)} ms, j ${median(times.nextRow)} ms, a ${median(approvals)} ms`
    )
    console.log("\nThe last cold load of the list, what had arrived before its rows (ms after navigation):")
    console.table(waterfall)
    await measureLighthouse(`${server.url}/login`)
  } finally {
    await browser.close()
    await server.stop()
    await database.drop()
    rmSync(served, { recursive: true, force: true })
  }
}
