import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { launchChromium, requireBuiltConsole } from "../support/browser.ts"
import { call } from "../support/http.ts"
import { percentile, seedDatabase, signInFirstAdmin, startProduct, timedGet, verdict } from "./product.ts"

export const REPORTS = 1_000_000
export const LISTINGS = 100_000
const TARGETS = { pageMs: 50, leaveMs: 250 }
const LEAVES = 20

// Half the reports wait (new, under review), with every priority; the listings all wait. One a second apart.
const seedSql = `
  INSERT INTO scam_reports (id, scam_type, description, wallet_address, status, priority, created_at, updated_at)
  SELECT gen_random_uuid(), 'phishing', 'Report number ' || i, 'GDESK' || lpad(i::text, 7, '0'),
         (ARRAY['new', 'under_review', 'resolved', 'dismissed'])[1 + (i / 7) % 4],
         (ARRAY['low', 'normal', 'high', 'urgent'])[1 + (i / 5) % 4],
         now() - make_interval(secs => i), now()
  FROM generate_series(1, ${REPORTS}) AS i;
  INSERT INTO listings (id, type, name, description, created_at, updated_at)
  SELECT gen_random_uuid(), (ARRAY['community', 'influencer', 'business', 'startup', 'project', 'event', 'hackathon'])[1 + i % 7],
         'Listing number ' || i, 'Waiting for a decision', now() - make_interval(secs => i * 3), now()
  FROM generate_series(1, ${LISTINGS}) AS i;
  ANALYZE scam_reports;
  ANALYZE listings;`

/** The desk's filters timed: each has its index on triage_items (server/platform/migrations.ts, 0020). */
const combinations: ReadonlyArray<readonly [string, string]> = [
  ["everything, oldest first", ""],
  ["newest first", "order=newest"],
  ["scam reports", "area=scam-report"],
  ["listings", "area=listing"],
  ["urgent", "priority=urgent"],
  ["scam reports, high", "area=scam-report&priority=high"],
  ["nobody's", "owner=none"],
  ["mine", "owner=me"],
  ["snoozed", "view=snoozed"]
]

/**
 * `npm run bench -- triage`: the triage desk over a million scam reports and 100,000 pending
 * listings: its first page with its counts for each filter, and a decision made by one person to
 * the item leaving another console's open desk in Chromium (the change through the stream, the
 * store's copy taking it off at once).
 */
export const measureTriage = async (engine: "pglite" | "postgresql", databaseUrl?: string) => {
  requireBuiltConsole()
  const dataDir = mkdtempSync(join(tmpdir(), "admin-bench-triage-"))
  const env: Record<string, string> = { TRUST_PROXY: "127.0.0.1,::1", ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }) }
  try {
    const seedSeconds = await seedDatabase(env, dataDir, seedSql, "triage_items")
    const product = await startProduct(env, dataDir)
    try {
      const token = await signInFirstAdmin(product.url, dataDir)
      const timed = timedGet(product.url, token)
      const pages: Array<{ readonly filter: string; readonly p50: number; readonly p95: number; readonly verdict: string }> = []
      for (const [filter, query] of combinations) {
        for (let warm = 0; warm < 5; warm++) await timed(`/api/admin/triage?${query}`)
        const times: Array<number> = []
        for (let n = 0; n < 60; n++) times.push(await timed(`/api/admin/triage?${query}`))
        pages.push({ filter, p50: percentile(times, 50), p95: percentile(times, 95), verdict: verdict(percentile(times, 95), TARGETS.pageMs) })
      }
      const total = ((await call(product.url, "GET", "/api/admin/triage?limit=1", { token })).body.data as { pagination: { total: number } }).pagination.total

      // Another console's desk, newest first: each report made is decided by this one, and timed until its card leaves that desk.
      const browser = await launchChromium()
      const leave: Array<number> = []
      try {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
        await context.addInitScript((value) => localStorage.setItem("adminToken", value), token)
        const page = await context.newPage()
        await page.goto(`${product.url}/triage?order=newest`)
        await page.locator(".sync-status").waitFor({ state: "attached" })
        for (let n = 0; n < LEAVES + 3; n++) {
          const wallet = `GLEAVE${String(n).padStart(4, "0")}`
          const made = await call(product.url, "POST", "/api/report-scam", {
            ip: `203.0.113.${n}`,
            body: { scamType: "other", description: `Leaves ${n}`, walletAddress: wallet }
          })
          const id = (made.body.data as { _id: string })._id
          const card = page.locator(`.triage-card[aria-label="${wallet}"]`)
          await card.waitFor()
          const started = performance.now()
          const decided = await call(product.url, "PATCH", `/api/report-scam/${id}`, { token, body: { status: "resolved", version: 1 } })
          if (decided.status !== 200) throw new Error(decided.text)
          await card.waitFor({ state: "detached" })
          if (n >= 3) leave.push(performance.now() - started)
        }
        await context.close()
      } finally {
        await browser.close()
      }
      return {
        engine,
        seedSeconds,
        waiting: total,
        pages,
        leave: { p50: percentile(leave, 50), p95: percentile(leave, 95), verdict: verdict(percentile(leave, 95), TARGETS.leaveMs) }
      }
    } finally {
      await product.stop()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export const printTriageFigures = (all: ReadonlyArray<Awaited<ReturnType<typeof measureTriage>>>) => {
  for (const figures of all) {
    console.log(
      `\nThe triage desk on ${figures.engine}: ${REPORTS.toLocaleString("en")} scam reports and ${LISTINGS.toLocaleString("en")} pending listings ` +
        `(seeded in ${figures.seedSeconds} s; ${figures.waiting.toLocaleString("en")} waiting). First page with its counts, 60 each, ms (p95 ≤ ${TARGETS.pageMs}):`
    )
    console.table(figures.pages)
    console.log(
      `A decision to the item leaving another console's desk in Chromium (${LEAVES}): p50 ${figures.leave.p50} ms, p95 ${figures.leave.p95} ms (${figures.leave.verdict} ≤ ${TARGETS.leaveMs})`
    )
  }
}
