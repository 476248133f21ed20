import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { call } from "../support/http.ts"
import { openStream } from "../support/stream.ts"
import { percentile, seedDatabase, signInFirstAdmin, startProduct, timedGet, verdict } from "./product.ts"

export const REPORTS = 1_000_000
const TARGETS = { pageMs: 50, streamMs: 200 }

// Statuses, types and priorities spread so every filter has a share; one a second apart.
const seedSql = `
  INSERT INTO scam_reports (id, scam_type, description, wallet_address, reporter_contact, ip_address, status, priority, created_at, updated_at)
  SELECT gen_random_uuid(),
         (ARRAY['fake_project', 'phishing', 'suspicious_wallet', 'fake_giveaway', 'impersonation', 'other'])[1 + i % 6],
         'Report number ' || i || ' about a fake wallet site', 'GWALLET' || lpad(i::text, 7, '0'), 'reporter' || i || '@example.com',
         '198.18.' || (i % 250) || '.' || (i % 200),
         (ARRAY['new', 'under_review', 'resolved', 'dismissed'])[1 + (i / 7) % 4],
         (ARRAY['low', 'normal', 'high', 'urgent'])[1 + (i / 5) % 4],
         now() - make_interval(secs => i), now()
  FROM generate_series(1, ${REPORTS}) AS i`

/** The filter combinations timed: each has an index (server/platform/migrations.ts, 0007), a search has the trigram one. */
const combinations: ReadonlyArray<readonly [string, string]> = [
  ["none", ""],
  ["status", "status=new"],
  ["type", "scamType=phishing"],
  ["priority", "priority=urgent"],
  ["status + priority", "status=under_review&priority=high"],
  ["status + type", "status=resolved&scamType=impersonation"],
  ["type + priority", "scamType=other&priority=low"],
  ["status + type + priority", "status=dismissed&scamType=fake_giveaway&priority=normal"],
  ["search (wallet)", "search=GWALLET0123"]
]

/**
 * `npm run bench -- scam-reports`: a million reports on PostgreSQL; a filtered page with its
 * counts for each filter combination; a new report's way to a connected console through the
 * change stream; and 200 public reports a second for 30 s from 50 addresses while staff page.
 */
export const measureScamReports = async (databaseUrl: string) => {
  const dataDir = mkdtempSync(join(tmpdir(), "admin-bench-scam-"))
  const env: Record<string, string> = { DATABASE_URL: databaseUrl, TRUST_PROXY: "127.0.0.1,::1" }
  try {
    const seedSeconds = await seedDatabase(env, dataDir, seedSql, "scam_reports")
    const product = await startProduct(env, dataDir)
    try {
      const token = await signInFirstAdmin(product.url, dataDir)
      const timed = timedGet(product.url, token)
      const pages: Array<{ readonly combination: string; readonly p50: number; readonly p95: number }> = []
      for (const [combination, query] of combinations) {
        for (let warm = 0; warm < 5; warm++) await timed(`/api/report-scam?${query}&page=${warm + 1}`)
        const times: Array<number> = []
        for (let n = 0; n < 60; n++) times.push(await timed(`/api/report-scam?${query}&page=${1 + Math.floor(Math.random() * 50)}`))
        pages.push({ combination, p50: percentile(times, 50), p95: percentile(times, 95) })
      }

      // A report posted, and the moment its notice reaches a console's open stream.
      const stream = await openStream(product.url, token)
      await stream.ready()
      const delivery: Array<number> = []
      for (let n = 0; n < 60; n++) {
        const started = performance.now()
        const answer = await call(product.url, "POST", "/api/report-scam", {
          ip: `203.0.${n % 250}.${n % 200}`,
          body: { scamType: "other", description: `Stream ${n}` }
        })
        const id = (answer.body.data as { _id: string })._id
        await stream.until(() => stream.changes().some((event) => (event.data as { entityId: string }).entityId === id), "the notice")
        delivery.push(stream.changes().find((event) => (event.data as { entityId: string }).entityId === id)!.at - started)
      }
      await stream.close()

      // 200 a second for 30 s from 50 addresses (5 an hour each get in), staff paging meanwhile.
      const marker = `load-${Date.now()}`
      const statuses: Record<string, number> = {}
      let accepted = 0
      let staffPages = 0
      const staffTimes: Array<number> = []
      let running = true
      const staff = (async () => {
        while (running) {
          staffTimes.push(await timed(`/api/report-scam?status=new&page=${1 + Math.floor(Math.random() * 50)}`))
          staffPages++
        }
      })()
      const sends: Array<Promise<void>> = []
      const started = performance.now()
      for (let n = 0; n < 200 * 30; n++) {
        const due = started + (n / 200) * 1000
        const wait = due - performance.now()
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
        sends.push(
          call(product.url, "POST", "/api/report-scam", { ip: `192.0.2.${n % 50}`, body: { scamType: "phishing", description: `${marker} ${n}` } }).then(
            (answer) => {
              statuses[answer.status] = (statuses[answer.status] ?? 0) + 1
              if (answer.status === 200) accepted++
            },
            () => void (statuses.error = (statuses.error ?? 0) + 1)
          )
        )
      }
      await Promise.all(sends)
      const loadSeconds = (performance.now() - started) / 1000
      running = false
      await staff
      const stored = await call(product.url, "GET", `/api/report-scam?search=${marker}&limit=1`, { token })
      const storedCount = (stored.body.data as { pagination: { total: number } }).pagination.total
      return {
        seedSeconds,
        pages,
        delivery: { p50: percentile(delivery, 50), p95: percentile(delivery, 95) },
        load: { seconds: Math.round(loadSeconds * 10) / 10, statuses, accepted, stored: storedCount, staffPages, staffP95: percentile(staffTimes, 95) }
      }
    } finally {
      await product.stop()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export const printScamReportFigures = (figures: Awaited<ReturnType<typeof measureScamReports>>) => {
  console.log(`\nScam reports: ${REPORTS.toLocaleString("en")} on PostgreSQL (seeded in ${figures.seedSeconds} s)`)
  console.table(
    figures.pages.map((page) => ({
      filters: page.combination,
      "page + counts p50/p95 ms": `${page.p50} / ${page.p95} (${verdict(page.p95, TARGETS.pageMs)} ≤ ${TARGETS.pageMs})`
    }))
  )
  console.log(
    `New report → a console's stream: p50 ${figures.delivery.p50} ms, p95 ${figures.delivery.p95} ms (${verdict(figures.delivery.p95, TARGETS.streamMs)} ≤ ${TARGETS.streamMs})`
  )
  const load = figures.load
  const fiveHundreds = Object.entries(load.statuses)
    .filter(([status]) => status.startsWith("5") || status === "error")
    .reduce((sum, [, count]) => sum + count, 0)
  console.log(
    `200 reports/s for 30 s from 50 addresses: took ${load.seconds} s; answers ${JSON.stringify(load.statuses)}; ` +
      `accepted ${load.accepted}, stored ${load.stored} (${load.accepted === load.stored ? "each once" : "MISMATCH"}); 5xx ${fiveHundreds}; ` +
      `staff paged ${load.staffPages} times meanwhile, p95 ${load.staffP95} ms`
  )
}
