import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { percentile, seedDatabase, signInFirstAdmin, startProduct, timedGet, verdict } from "./product.ts"

/** The listings bench's size (100,000 of each of the seven types), 100,000 reports, 10,000 posts, a million events. */
const SIZES = { listingsPerType: 100_000, reports: 100_000, posts: 10_000, events: 1_000_000 }
const TARGETS = { analyticsMs: 20, activityMs: 50 }

// Spread over the last 400 days, so every period has a share; the triggers keep the counts.
const seedSql = `
  INSERT INTO listings (id, type, name, description, status, created_at, updated_at)
  SELECT gen_random_uuid(), t, initcap(t) || ' ' || i, 'A listing', (ARRAY['pending', 'approved', 'rejected'])[1 + i % 3],
         now() - make_interval(mins => i % 576000), now()
  FROM generate_series(1, ${SIZES.listingsPerType}) AS i, unnest(ARRAY['community', 'influencer', 'business', 'startup', 'project', 'event', 'hackathon']) AS t;
  INSERT INTO scam_reports (id, scam_type, description, status, priority, created_at, updated_at)
  SELECT gen_random_uuid(), 'phishing', 'Report ' || i, (ARRAY['new', 'under_review', 'resolved', 'dismissed'])[1 + i % 4], 'normal',
         now() - make_interval(mins => i * 5), now()
  FROM generate_series(1, ${SIZES.reports}) AS i;
  INSERT INTO blog_posts (id, slug, title, content, status, author, created_at, updated_at)
  SELECT gen_random_uuid(), 'post-' || i, 'Post ' || i, '<p>Body</p>', 'draft', '{"username": "Bench"}'::jsonb, now() - make_interval(hours => i), now()
  FROM generate_series(1, ${SIZES.posts}) AS i;
  INSERT INTO admins (id, email, name, role) SELECT gen_random_uuid(), 'staff' || n || '@example.com', 'Staff ' || n, 'admin' FROM generate_series(0, 19) AS n;
  INSERT INTO activity_log (at, actor_id, actor_email, action, entity, entity_id, to_state)
  SELECT now() - make_interval(secs => i), a.id, a.email,
         (ARRAY['listing.status', 'blog.update', 'scam-report.status', 'address.update'])[1 + i % 4],
         (ARRAY['listing', 'blog', 'scam-report', 'address'])[1 + i % 4], gen_random_uuid()::text, 'approved'
  FROM generate_series(1, ${SIZES.events}) AS i
  JOIN (SELECT id, email, (row_number() OVER (ORDER BY email) - 1) % 20 AS n FROM admins WHERE email LIKE 'staff%') AS a ON a.n = i % 20;
  ANALYZE`

export interface DashboardFigures {
  readonly engine: string
  readonly seedSeconds: number
  readonly timings: ReadonlyArray<{ readonly what: string; readonly p50: number; readonly p95: number; readonly target: number }>
}

export const dashboardCases: ReadonlyArray<readonly [what: string, path: string, target: number]> = [
  ["analytics 7d", "/api/admin/analytics?period=7d", TARGETS.analyticsMs],
  ["analytics 30d", "/api/admin/analytics?period=30d", TARGETS.analyticsMs],
  ["analytics all", "/api/admin/analytics?period=all", TARGETS.analyticsMs],
  ["recent activity (10)", "/api/admin/activity-logs?limit=10", TARGETS.activityMs],
  ["activity, one area", "/api/admin/activity-logs?area=blog", TARGETS.activityMs],
  // One of twenty admins: 50,000 events, found by part of the e-mail.
  ["activity, one actor", "/api/admin/activity-logs?username=staff7%40", TARGETS.activityMs],
  ["activity, actor page 100", "/api/admin/activity-logs?username=staff7%40&page=100", TARGETS.activityMs],
  ["activity, one day", "/api/admin/activity-logs?from=2026-01-01&to=2026-01-01", TARGETS.activityMs]
]

/**
 * `npm run bench -- dashboard`: the dashboard's figures and the activity log at the listings
 * bench's size, p50 and p95 of 60 calls each after 5 to warm up.
 */
export const measureDashboard = async (engine: "pglite" | "postgresql", databaseUrl?: string): Promise<DashboardFigures> => {
  const dataDir = mkdtempSync(join(tmpdir(), "admin-bench-dashboard-"))
  const env: Record<string, string> = databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }
  try {
    const seedSeconds = await seedDatabase(env, dataDir, seedSql, "activity_log")
    const product = await startProduct(env, dataDir)
    try {
      const token = await signInFirstAdmin(product.url, dataDir)
      const timed = timedGet(product.url, token)
      const timings = []
      for (const [what, path, target] of dashboardCases) {
        for (let warm = 0; warm < 5; warm++) await timed(path)
        const times: Array<number> = []
        for (let n = 0; n < 60; n++) times.push(await timed(path))
        timings.push({ what, p50: percentile(times, 50), p95: percentile(times, 95), target })
      }
      return { engine, seedSeconds, timings }
    } finally {
      await product.stop()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export const printDashboardFigures = (all: ReadonlyArray<DashboardFigures>) => {
  console.log(
    `\nDashboard: ${SIZES.listingsPerType.toLocaleString()} listings of each of 7 types, ${SIZES.reports.toLocaleString()} reports, ${SIZES.posts.toLocaleString()} posts, ${SIZES.events.toLocaleString()} events`
  )
  for (const figures of all) {
    console.log(`  ${figures.engine} (seeded in ${figures.seedSeconds} s)`)
    for (const timing of figures.timings) {
      console.log(
        `    ${timing.what.padEnd(24)} p50 ${String(timing.p50).padStart(6)} ms  p95 ${String(timing.p95).padStart(6)} ms  (target ${timing.target}: ${verdict(timing.p95, timing.target)})`
      )
    }
  }
}
