import { PGlite } from "@electric-sql/pglite"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import type { TestDatabase } from "../support/database.ts"
import { call } from "../support/http.ts"
import { startTestServer } from "../support/server.ts"
import { dashboardCases } from "./dashboard.ts"
import { percentile, seedDatabase, signInFirstAdmin, startProduct, timedGet, verdict } from "./product.ts"

/**
 * `npm run bench -- history` (docs/performance.md): a record with 10,000 versions (its history
 * page and any version rebuilt, p95 ≤ 20 ms), a change's write cost with history kept against
 * the same change with it off (servers of the bench's own, given `historyKept: false`, ≤ 1.3×) beside `HISTORY_BENCH_EVENTS`
 * events (10,000,000 by default) in the log, the activity log's and dashboard's targets at
 * that size, the bytes an event takes on disk, and a restore of a post with a 50 kB body
 * (p95 ≤ 50 ms).
 */
const EVENTS = Number(process.env.HISTORY_BENCH_EVENTS ?? 10_000_000)
const TARGETS = { pageMs: 20, versionMs: 20, ratio: 1.3, restoreMs: 50 }
const HOT = "5eed0000-0000-4000-8000-000000000001"

// Events of a million records, ten versions each, from twenty staff; then one contact with
// 10,000 versions and its snapshots every 100, as the write path would have left them.
const seedSql = `
  INSERT INTO admins (id, email, name, role) SELECT gen_random_uuid(), 'staff' || n || '@example.com', 'Staff ' || n, 'admin' FROM generate_series(0, 19) AS n;
  INSERT INTO activity_log (at, actor_email, action, entity, entity_id, version, changes)
  SELECT now() - make_interval(secs => i / 10), 'staff' || (i % 20) || '@example.com',
         (ARRAY['listing.update', 'blog.update', 'scam-report.status', 'address.update'])[1 + i % 4],
         (ARRAY['listing', 'blog', 'scam-report', 'address'])[1 + i % 4], 'bench-' || (i % ${Math.max(1, Math.floor(EVENTS / 10))}), 1 + i / ${Math.max(1, Math.floor(EVENTS / 10))},
         jsonb_build_object('description', jsonb_build_array('text ' || i, 'text ' || (i + 1)))
  FROM generate_series(1, ${EVENTS}) AS i;
  INSERT INTO core_team_contacts (id, contact_name, contact_role, subject, details, internal_notes, version)
  VALUES ('${HOT}', 'Hot', 'Founder', 'Hot record', 'Details', 'note 10000', 10000);
  INSERT INTO activity_log (at, actor_email, action, entity, entity_id, version, changes)
  SELECT now() - make_interval(secs => 10001 - v), 'staff1@example.com', CASE WHEN v = 1 THEN 'contact.create' ELSE 'contact.update' END, 'contact', '${HOT}', v,
         CASE WHEN v = 1
           THEN jsonb_build_object('contactName', jsonb_build_array(NULL, 'Hot'), 'contactRole', jsonb_build_array(NULL, 'Founder'),
                                   'subject', jsonb_build_array(NULL, 'Hot record'), 'details', jsonb_build_array(NULL, 'Details'),
                                   'internalNotes', jsonb_build_array(NULL, 'note 1'))
           ELSE jsonb_build_object('internalNotes', jsonb_build_array('note ' || (v - 1), 'note ' || v)) END
  FROM generate_series(1, 10000) AS v;
  INSERT INTO record_snapshots (entity, entity_id, version, content)
  SELECT 'contact', '${HOT}', v, jsonb_build_object('contactName', 'Hot', 'contactRole', 'Founder', 'subject', 'Hot record', 'details', 'Details', 'internalNotes', 'note ' || v)
  FROM generate_series(100, 10000, 100) AS v;
  ANALYZE`

export interface HistoryFigures {
  readonly engine: string
  readonly seedSeconds: number
  readonly bytesPerEvent: number
  readonly timings: ReadonlyArray<{ readonly what: string; readonly p50: number; readonly p95: number; readonly target: number }>
  readonly write: { readonly off: number; readonly on: number }
}

const sizeOf = async (env: Record<string, string>, dataDir: string) => {
  const query = "SELECT pg_total_relation_size('activity_log')::float8 / greatest(count(*), 1) AS bytes FROM activity_log"
  if (env.DATABASE_URL === undefined) {
    const db = await PGlite.create(join(dataDir, "db"), { extensions: { pg_trgm } })
    const result = await db.query<{ bytes: number }>(query)
    await db.close()
    return Math.round(result.rows[0]?.bytes ?? 0)
  }
  const client = new pg.Client({ connectionString: env.DATABASE_URL })
  await client.connect()
  const result = await client.query<{ bytes: number }>(query)
  await client.end()
  return Math.round(result.rows[0]?.bytes ?? 0)
}

const timesOf = async (times: number, run: (n: number) => Promise<number>) => {
  for (let warm = 0; warm < 5; warm++) await run(warm)
  const measured: Array<number> = []
  for (let n = 0; n < times; n++) measured.push(await run(n))
  return measured
}

export const measureHistory = async (engine: "pglite" | "postgresql", databaseUrl?: string): Promise<HistoryFigures> => {
  const dataDir = mkdtempSync(join(tmpdir(), "admin-bench-history-"))
  const env: Record<string, string> = databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }
  try {
    const seedSeconds = await seedDatabase(env, dataDir, seedSql, "activity_log")
    const bytesPerEvent = await sizeOf(env, dataDir)
    const product = await startProduct(env, dataDir)
    const token = await signInFirstAdmin(product.url, dataDir)
    const timings: Array<HistoryFigures["timings"][number]> = []
    const timing = (what: string, times: ReadonlyArray<number>, target: number) =>
      timings.push({ what, p50: percentile(times, 50), p95: percentile(times, 95), target })
    try {
      const get = () => timedGet(product.url, token)
      timing("history, first page", await timesOf(60, () => get()(`/api/admin/history/contact/${HOT}`)), TARGETS.pageMs)
      timing("history, page 250", await timesOf(60, () => get()(`/api/admin/history/contact/${HOT}?page=250&limit=40`)), TARGETS.pageMs)
      timing(
        "any version rebuilt",
        await timesOf(60, (n) => get()(`/api/admin/history/contact/${HOT}/versions/${1 + ((n * 7919) % 10_000)}`)),
        TARGETS.versionMs
      )
      // As many calls as the dashboard bench makes (tests/bench/dashboard.ts): a p95 of 30 is its second-slowest call.
      for (const [what, path, target] of dashboardCases) timing(what, await timesOf(60, () => get()(path)), target)

      // A post with a 50 kB body in two versions, restored back and forth.
      const body = (word: string) => `<p>${`${word} `.repeat(10_000)}</p>`
      const made = await call(product.url, "POST", "/api/blog/admin/posts", { token, body: { title: "Long read", content: body("alpha"), status: "draft" } })
      const post = made.body.post as { _id: string; slug: string }
      const edited = await call(product.url, "PUT", `/api/blog/admin/posts/${post.slug}`, {
        token,
        body: { title: "Long read", content: body("omega"), status: "draft", version: 1 }
      })
      if (edited.status !== 200) throw new Error(edited.text)
      let current = 2
      timing(
        "restore, 50 kB post",
        await timesOf(40, async () => {
          const started = performance.now()
          const answer = await call(product.url, "POST", `/api/admin/history/blog/${post._id}/restore`, {
            token,
            body: { version: current % 2 === 0 ? 1 : 2, expectedVersion: current }
          })
          if (answer.status !== 200) throw new Error(answer.text)
          current = (answer.body.data as { version: number }).version
          return performance.now() - started
        }),
        TARGETS.restoreMs
      )
    } finally {
      await product.stop()
    }

    // One change's cost with history kept and without, in alternating blocks of one server each,
    // both run in this process on the same database: only the bench's own servers keep no history.
    const made = { id: "", version: 0 }
    const database: TestDatabase = {
      target: databaseUrl === undefined ? { engine: "pglite", dataDir: join(dataDir, "db") } : { engine: "postgresql", url: databaseUrl },
      drop: () => Promise.resolve()
    }
    const writes = async (keep: boolean) => {
      const server = await startTestServer(database, {}, { historyKept: keep })
      try {
        if (made.id === "") {
          const answer = await call(server.url, "POST", "/api/core-team-contact", {
            token,
            body: { contactInfo: { name: "Writer", role: "Founder" }, inquiry: { subject: "Write cost", details: "Details" } }
          })
          made.id = (answer.body.data as { _id: string })._id
          made.version = 1
        }
        return await timesOf(100, async (n) => {
          const started = performance.now()
          const answer = await call(server.url, "PUT", `/api/core-team-contact/${made.id}`, {
            token,
            body: {
              contactInfo: { name: "Writer", role: "Founder" },
              inquiry: { subject: "Write cost", details: "Details" },
              internalNotes: `note ${keep ? "on" : "off"} ${n} ${made.version}`,
              version: made.version
            }
          })
          if (answer.status !== 200) throw new Error(answer.text)
          made.version += 1
          return performance.now() - started
        })
      } finally {
        await server.stop()
      }
    }
    const off: Array<number> = []
    const on: Array<number> = []
    for (let block = 0; block < 3; block++) {
      off.push(...(await writes(false)))
      on.push(...(await writes(true)))
    }
    return { engine, seedSeconds, bytesPerEvent, timings, write: { off: percentile(off, 50), on: percentile(on, 50) } }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export const printHistoryFigures = (all: ReadonlyArray<HistoryFigures>) => {
  console.log(`\nRecord history: one contact with 10,000 versions beside ${EVENTS.toLocaleString()} events in the log`)
  for (const figures of all) {
    const ratio = Math.round((figures.write.on / figures.write.off) * 100) / 100
    console.log(`  ${figures.engine} (seeded in ${figures.seedSeconds} s; ${figures.bytesPerEvent} bytes an event on disk, indexes included)`)
    for (const timing of figures.timings) {
      console.log(
        `    ${timing.what.padEnd(26)} p50 ${String(timing.p50).padStart(6)} ms  p95 ${String(timing.p95).padStart(6)} ms  (target ${timing.target}: ${verdict(timing.p95, timing.target)})`
      )
    }
    console.log(
      `    a contact's change, p50: ${figures.write.on} ms with history, ${figures.write.off} ms without: ${ratio}× (target ${TARGETS.ratio}: ${verdict(ratio, TARGETS.ratio)})`
    )
  }
}
