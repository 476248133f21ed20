import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { launchChromium, requireBuiltConsole } from "../support/browser.ts"
import { call } from "../support/http.ts"
import { percentile, seedDatabase, signInFirstAdmin, startProduct, timedGet, verdict } from "./product.ts"

export const LISTINGS_PER_TYPE = 100_000
const TARGETS = { pageMs: 30, shownMs: 50, confirmedMs: 100 }

// A third of each type pending, a third approved, a third rejected, one a second apart.
const seedSql = `
  INSERT INTO listings (id, type, name, description, status, created_at, updated_at)
  SELECT gen_random_uuid(), t, initcap(t) || ' ' || lpad(i::text, 6, '0'), 'A listing about Pi number ' || i,
         (ARRAY['pending', 'approved', 'rejected'])[1 + i % 3], now() - make_interval(secs => i), now()
  FROM generate_series(1, ${LISTINGS_PER_TYPE}) AS i, unnest(ARRAY['community', 'influencer', 'business', 'startup', 'project']) AS t`

export interface ListingFigures {
  readonly engine: string
  readonly seedSeconds: number
  readonly page: { readonly p50: number; readonly p95: number }
  readonly searched: { readonly p50: number; readonly p95: number }
  readonly shown: { readonly p50: number; readonly p95: number }
  readonly confirmed: { readonly p50: number; readonly p95: number }
  readonly bulk: ReadonlyArray<number>
}

/** Keyboard `a` on the focused card, timed in the page: to its new status, and to the server's answer (the toast). */
const keyboardFigures = async (url: string, token: string) => {
  const browser = await launchChromium()
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    await context.addInitScript((value) => localStorage.setItem("adminToken", value), token)
    const page = await context.newPage()
    await page.goto(`${url}/communities?status=pending`)
    const cards = page.getByRole("list", { name: "Community Management" }).getByRole("listitem")
    await cards.nth(19).waitFor()
    await cards.first().focus()
    const shown: Array<number> = []
    const confirmed: Array<number> = []
    for (let run = 0; run < 22; run++) {
      await page.waitForFunction(() => document.querySelector("[role=list][aria-busy]")?.getAttribute("aria-busy") === "false")
      const [toShown, toConfirmed] = await page.evaluate(
        () =>
          new Promise<[number, number]>((resolve) => {
            const card = document.activeElement as HTMLElement
            const name = card.querySelector("[aria-label]")?.getAttribute("aria-label") ?? ""
            const started = performance.now()
            let shownAt = 0
            const check = () => {
              if (shownAt === 0 && [...card.querySelectorAll(".rt-Badge")].some((badge) => badge.textContent === "Approved"))
                shownAt = performance.now() - started
              const toast = [...document.querySelectorAll("[role=status]")].some((element) => element.textContent?.includes(`Approved "${name}"`))
              if (shownAt > 0 && toast) resolve([shownAt, performance.now() - started])
              else requestAnimationFrame(check)
            }
            card.dispatchEvent(new KeyboardEvent("keydown", { key: "a", bubbles: true }))
            requestAnimationFrame(check)
          })
      )
      if (run >= 2) {
        shown.push(toShown)
        confirmed.push(toConfirmed)
      }
    }
    return { shown, confirmed }
  } finally {
    await browser.close()
  }
}

/**
 * `npm run bench -- listings`: 100,000 listings of each type; a filtered page with its four
 * counts, keyboard moderation in Chromium, and bulk approvals of 500 in one call.
 */
export const measureListings = async (engine: "pglite" | "postgresql", databaseUrl?: string): Promise<ListingFigures> => {
  requireBuiltConsole()
  const dataDir = mkdtempSync(join(tmpdir(), "admin-bench-listings-"))
  const env: Record<string, string> = databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }
  try {
    const seedSeconds = await seedDatabase(env, dataDir, seedSql, "listings")

    const product = await startProduct(env, dataDir)
    try {
      const token = await signInFirstAdmin(product.url, dataDir)
      const timed = timedGet(product.url, token)
      for (let warm = 0; warm < 20; warm++) await timed(`/api/admin/communities/combined?status=pending&page=${warm + 1}`)
      const pages: Array<number> = []
      const searched: Array<number> = []
      for (let n = 0; n < 200; n++) {
        const status = ["pending", "approved", "rejected"][n % 3]
        pages.push(await timed(`/api/admin/communities/combined?status=${status}&page=${1 + Math.floor(Math.random() * 100)}`))
        if (n % 4 === 0)
          searched.push(await timed(`/api/admin/influencers/combined?search=${String(Math.floor(Math.random() * LISTINGS_PER_TYPE)).padStart(6, "0")}`))
      }
      const { shown, confirmed } = await keyboardFigures(product.url, token)

      const bulk: Array<number> = []
      for (const type of ["business", "startup", "project"]) {
        const ids: Array<string> = []
        for (let page = 1; page <= 5; page++) {
          const answer = await call(product.url, "GET", `/api/admin/listings?type=${type}&status=pending&limit=100&page=${page}`, { token })
          ids.push(...(answer.body.data as { listings: ReadonlyArray<{ _id: string }> }).listings.map((listing) => listing._id))
        }
        const started = performance.now()
        const answer = await call(product.url, "POST", "/api/admin/listings/bulk", { token, body: { ids, action: "approve" } })
        if (answer.status !== 200) throw new Error(answer.text)
        bulk.push(Math.round(performance.now() - started))
      }
      return {
        engine,
        seedSeconds,
        page: { p50: percentile(pages, 50), p95: percentile(pages, 95) },
        searched: { p50: percentile(searched, 50), p95: percentile(searched, 95) },
        shown: { p50: percentile(shown, 50), p95: percentile(shown, 95) },
        confirmed: { p50: percentile(confirmed, 50), p95: percentile(confirmed, 95) },
        bulk
      }
    } finally {
      await product.stop()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export const printListingFigures = (figures: ReadonlyArray<ListingFigures>) => {
  console.log(`\nListings: ${LISTINGS_PER_TYPE.toLocaleString("en")} of each of the five types`)
  console.table(
    figures.map((f) => ({
      engine: f.engine,
      "seed s": f.seedSeconds,
      "page + counts p50/p95 ms": `${f.page.p50} / ${f.page.p95} (${verdict(f.page.p95, TARGETS.pageMs)} ≤ ${TARGETS.pageMs})`,
      "search page p50/p95 ms": `${f.searched.p50} / ${f.searched.p95}`,
      "key a → new status p50/p95 ms": `${f.shown.p50} / ${f.shown.p95} (${verdict(f.shown.p95, TARGETS.shownMs)} ≤ ${TARGETS.shownMs})`,
      "key a → server answer p50/p95 ms": `${f.confirmed.p50} / ${f.confirmed.p95} (${verdict(f.confirmed.p95, TARGETS.confirmedMs)} ≤ ${TARGETS.confirmedMs})`,
      "bulk approve 500 ms (3 runs)": f.bulk.join(" / "),
      "bulk p95 ms": percentile(f.bulk, 95)
    }))
  )
}
