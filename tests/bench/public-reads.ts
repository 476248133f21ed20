import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { benchDatabases, type BenchRow, percentile, seedDatabase, signInFirstAdmin, startProduct } from "./product.ts"

/** Approved communities the public lists page through (a tenth more are pending, for the staff's queue). */
const LISTINGS = 100_000
/** Anonymous connections, each asking for deep pages back to back. */
const FLOOD_CONNECTIONS = 24
/** Staff reads timed in each phase, one after another. */
const STAFF_READS = 150

const seedSql = `
  INSERT INTO listings (id, type, name, description, status, created_at, updated_at)
  SELECT gen_random_uuid(), 'community', 'Community ' || lpad(i::text, 6, '0'), 'A listing about Pi number ' || i,
         CASE WHEN i % 11 = 0 THEN 'pending' ELSE 'approved' END, now() - make_interval(secs => i), now()
  FROM generate_series(1, ${Math.round(LISTINGS * 1.1)}) AS i`

const histogram = (statuses: ReadonlyArray<number>) =>
  Object.entries(statuses.reduce<Record<string, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {}))
    .map(([status, count]) => `${count}×${status}`)
    .join(" ")

/** The staff's list, read `STAFF_READS` times one after another: each read's time in ms. */
const staffReads = async (url: string, token: string) => {
  const times: Array<number> = []
  for (let n = 0; n < STAFF_READS; n++) {
    const started = performance.now()
    const response = await fetch(`${url}/api/admin/communities/combined?status=pending&page=${1 + (n % 5)}`, { headers: { authorization: `Bearer ${token}` } })
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`the staff's list answered ${response.status}`)
    times.push(performance.now() - started)
  }
  return times
}

/**
 * What the flood asks for: deep pages (100 rows past row 40,000), the deepest the public may open
 * (rows 901-1,000), or valid reads of every kind a visitor makes (pages, the deepest, searches).
 */
type Pages = "deep" | "deepest allowed" | "valid"

const randomWord = () => Math.random().toString(36).slice(2, 5)
const validReads = [
  () => `/api/listings/community?page=${1 + Math.floor(Math.random() * 50)}`,
  () => "/api/listings/community?limit=100&page=10",
  () => `/api/listings/community?search=${randomWord()}`,
  () => `/api/blog/posts?search=${randomWord()}`
]

const pathOf = (pages: Pages, n: number) =>
  pages === "valid"
    ? validReads[n % validReads.length]!()
    : `/api/listings/community?limit=100&page=${pages === "deep" ? 400 + Math.floor(Math.random() * 500) : 10}`
/** Whom the flood comes from: each connection from one address of its own, or each request from a new one (many machines). */
type Addresses = "one per connection" | "new per request"

/** Anonymous connections asking for pages back to back until `done`: every answer's status and time. */
const flood = (url: string, pages: Pages, addresses: Addresses, done: () => boolean, connections = FLOOD_CONNECTIONS) =>
  Promise.all(
    Array.from({ length: connections }, async (_, connection) => {
      const answers: Array<{ status: number; ms: number }> = []
      for (let n = 0; !done(); n++) {
        const address = addresses === "one per connection" ? `198.18.0.${connection + 1}` : `198.19.${n % 250}.${connection + 1}`
        const started = performance.now()
        const response = await fetch(`${url}${pathOf(pages, n + connection)}`, { headers: { "x-forwarded-for": address } })
        await response.arrayBuffer()
        answers.push({ status: response.status, ms: performance.now() - started })
      }
      return answers
    })
  ).then((perConnection) => perConnection.flat())

/** The staff's reads while a flood runs, and what the flood was answered. */
const underFlood = async (url: string, token: string, pages: Pages, addresses: Addresses): Promise<BenchRow> => {
  let done = false
  const flooding = flood(url, pages, addresses, () => done)
  // Let the flood fill the server before the staff's reads are timed.
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  const staff = await staffReads(url, token)
  done = true
  const answers = await flooding
  const served = answers.filter((answer) => answer.status === 200)
  return {
    "staff list p95 ms": percentile(staff, 95),
    "flood's answers": histogram(answers.map((answer) => answer.status)),
    "flood's page served p50 ms":
      served.length === 0
        ? "none served"
        : percentile(
            served.map((answer) => answer.ms),
            50
          )
  }
}

/** The visitor's flood: 20 loops of valid reads, a new address each, for 15 s. */
const VISITOR_FLOOD = { connections: 20, ms: 15_000 }

/**
 * An ordinary visitor reading the first page every half second while 20 loops of valid reads,
 * each from a new address, run for 15 s: how many of the visitor's reads were answered 200.
 */
const visitorUnderFlood = async (url: string): Promise<BenchRow> => {
  let done = false
  const flooding = flood(url, "valid", "new per request", () => done, VISITOR_FLOOD.connections)
  const visitor: Array<{ status: number; ms: number }> = []
  for (const until = performance.now() + VISITOR_FLOOD.ms; performance.now() < until;) {
    const started = performance.now()
    const response = await fetch(`${url}/api/listings/community`, { headers: { "x-forwarded-for": "203.0.113.77" } })
    await response.arrayBuffer()
    visitor.push({ status: response.status, ms: performance.now() - started })
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  done = true
  const answers = await flooding
  return {
    "visitor's first page": `${visitor.filter((read) => read.status === 200).length} of ${visitor.length} 200`,
    "visitor p95 ms": percentile(
      visitor.map((read) => read.ms),
      95
    ),
    "flood's answers": histogram(answers.map((answer) => answer.status))
  }
}

const phases: ReadonlyArray<readonly [Pages, Addresses]> = [
  ["deep", "one per connection"],
  ["deep", "new per request"],
  ["deepest allowed", "new per request"]
]

/**
 * Part of `npm run bench -- abuse` (alone: `npm run bench -- public-reads`): 100,000 approved
 * communities; the staff's queue read alone, then while 24 anonymous connections ask for pages of
 * the public list: deep ones, each connection from its own address, then each request from a
 * new one, then the deepest page the public may open, from new addresses. Prints the staff's
 * p95 in each phase, the flood's answers and the time of a page served to it. Last, 20 loops of
 * valid reads from new addresses for 15 s beside a visitor reading the first page every half
 * second: how many of the visitor's reads were answered (docs/performance.md).
 */
export const measurePublicFlood = async (postgresUrl: string | undefined) => {
  const rows: Record<string, BenchRow> = {}
  for (const [name, database] of benchDatabases(postgresUrl)) {
    const dataDir = mkdtempSync(join(tmpdir(), "admin-bench-public-"))
    const env = { ...database, TRUST_PROXY: "127.0.0.1,::1" }
    try {
      await seedDatabase(env, dataDir, seedSql, "listings")
      const product = await startProduct(env, dataDir)
      try {
        const token = await signInFirstAdmin(product.url, dataDir)
        await staffReads(product.url, token)
        rows[`${name}: staff alone`] = { "staff list p95 ms": percentile(await staffReads(product.url, token), 95) }
        for (const [pages, addresses] of phases) {
          rows[`${name}: ${pages} pages, ${addresses === "one per connection" ? `${FLOOD_CONNECTIONS} addresses` : "a new address each"}`] = await underFlood(
            product.url,
            token,
            pages,
            addresses
          )
        }
        rows[`${name}: valid reads, a new address each, a visitor beside them`] = await visitorUnderFlood(product.url)
      } finally {
        await product.stop()
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  console.log(
    `\nPublic read flood: ${FLOOD_CONNECTIONS} anonymous connections on deep pages of ${LISTINGS.toLocaleString("en")} listings, the staff's queue read beside them`
  )
  console.table(rows)
}
