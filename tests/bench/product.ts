import { PGlite } from "@electric-sql/pglite"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import autocannon from "autocannon"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { call } from "../support/http.ts"
import { type StartedProduct, startProduct } from "../support/product.ts"

export { signInFirstAdmin, startProduct } from "../support/product.ts"

/** autocannon, 10 connections for 10 s, as every issue asks. */
export const load = (url: string, token?: string) =>
  autocannon({
    url,
    connections: 10,
    duration: 10,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` }
  })

/**
 * Fills a product's database with `seedSql` straight through the driver (the product is started
 * once first, so its migrations have run) and analyses `table`; returns the seconds it took.
 */
export const seedDatabase = async (env: Record<string, string>, dataDir: string, seedSql: string, table: string): Promise<number> => {
  const first = await startProduct(env, dataDir)
  await first.stop()
  const started = performance.now()
  if (env.DATABASE_URL === undefined) {
    const db = await PGlite.create(join(dataDir, "db"), { extensions: { pg_trgm } })
    await db.exec(seedSql)
    await db.exec(`VACUUM ANALYZE ${table}`)
    await db.close()
  } else {
    const client = new pg.Client({ connectionString: env.DATABASE_URL })
    await client.connect()
    await client.query(seedSql)
    await client.query(`VACUUM ANALYZE ${table}`)
    await client.end()
  }
  return Math.round((performance.now() - started) / 100) / 10
}

/** The p-th percentile of `values`, to a tenth. */
export const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round((sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0) * 10) / 10
}

export const verdict = (value: number, target: number) => (value <= target ? "meets" : "MISSES")

/** A GET with the token, timed in ms; anything but 200 stops the bench. */
export const timedGet = (url: string, token: string) => async (path: string) => {
  const started = performance.now()
  const answer = await call(url, "GET", path, { token })
  if (answer.status !== 200) throw new Error(answer.text)
  return performance.now() - started
}

/** Resident memory of a process now, in MB. */
export const rssOf = (pid: number) => Math.round(Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? 0) / 1024)

/** Runs `work` while sampling a server's resident memory every 20 ms: its result, the highest sample, and how long it took in ms. */
export const underWatch = async <A>(pid: number, work: () => Promise<A>) => {
  let peak = rssOf(pid)
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20)
  const started = performance.now()
  try {
    return { result: await work(), peak, ms: Math.round(performance.now() - started) }
  } finally {
    clearInterval(sampler)
  }
}

export type BenchRow = Record<string, string | number>

/** The databases a product bench runs on, each with the environment that selects it: PGlite, and PostgreSQL when a URL is given. */
export const benchDatabases = (postgresUrl: string | undefined): ReadonlyArray<readonly [string, Record<string, string>]> => [
  ["PGlite", {}],
  ...(postgresUrl === undefined ? [] : [["PostgreSQL", { DATABASE_URL: postgresUrl }] as const])
]

/**
 * Runs `measure` on the product as `npm start` runs it, in a new data folder, on PGlite and, when
 * a URL is given, on PostgreSQL: its row of figures per database, the server stopped and the
 * folder removed after each.
 */
export const onEachDatabase = async (
  postgresUrl: string | undefined,
  env: Record<string, string>,
  measure: (product: StartedProduct, dataDir: string) => Promise<BenchRow>
): Promise<Record<string, BenchRow>> => {
  const rows: Record<string, BenchRow> = {}
  for (const [name, database] of benchDatabases(postgresUrl)) {
    const dataDir = mkdtempSync(join(tmpdir(), "admin-bench-"))
    const product = await startProduct({ ...database, ...env }, dataDir)
    try {
      rows[name] = await measure(product, dataDir)
    } finally {
      await product.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  return rows
}

/**
 * A request's answer, or status "closed" when the server closed the connection while the body
 * was still being sent: a refusal (429, 503) is answered before the body is read, and Node's
 * server then closes a connection whose request it left unread, so a sender still writing may
 * see the close before the answer.
 */
export const statusOrClosed = async <A extends { status: number }>(answer: () => Promise<A>): Promise<A | { status: "closed" }> => {
  try {
    return await answer()
  } catch (error) {
    const code = error instanceof TypeError ? (error.cause as { code?: string } | undefined)?.code : undefined
    // Only a connection closed under the sender: a server that is not there (ECONNREFUSED) is a failure.
    if (code === "EPIPE" || code === "ECONNRESET") return { status: "closed" }
    throw error
  }
}
