import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readConfig } from "../../server/platform/config.ts"
import { engines, freshPostgresOn, type TestDatabase } from "../support/database.ts"
import { call } from "../support/http.ts"
import { FIRST_ADMIN, signInFirstAdmin, startProduct, type StartedProduct } from "../support/product.ts"
import { startTestServer } from "../support/server.ts"
import { rowLocked, stopWhileHolding, withDatabase } from "../support/stall.ts"
import { sleep } from "../support/wait.ts"

/**
 * One of two servers on one PostgreSQL stops dead (SIGSTOP: a debugger, a frozen VM, a swap
 * storm) in the middle of a write, holding the post's row lock (docs/deploy.md, "A stalled
 * server"). The other server must go on: its writes of that post answer 503 with Retry-After
 * within the lock timeout, or succeed once PostgreSQL has ended the stalled transaction; its
 * reads and its readiness stay fast; and when the stalled one wakes up nothing is half-written.
 */
const PAUSE_MS = 10_000
const WRITERS = 16

interface Answered {
  readonly status: number
  readonly ms: number
  readonly at: number
  readonly retryAfter: string | null
  readonly retryAfterSeconds: unknown
}

const timed = async (url: string, method: string, path: string, options: Parameters<typeof call>[3] = {}) => {
  const started = performance.now()
  const answer = await call(url, method, path, options)
  return { answer, ms: performance.now() - started, at: started }
}

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN)
}
const figures = (values: ReadonlyArray<number>) => `p50 ${percentile(values, 50)} ms, p95 ${percentile(values, 95)} ms, max ${percentile(values, 100)} ms`

describe.runIf(engines.length > 1)("a server stalled while it holds a row lock, on postgresql", () => {
  let database: TestDatabase
  let a: StartedProduct
  let b: StartedProduct
  let token: string
  const folders: Array<string> = []
  const databaseUrl = () => (database.target.engine === "postgresql" ? database.target.url : "")

  beforeAll(async () => {
    database = await freshPostgresOn(process.env.TEST_DATABASE_URL ?? "")
    const start = async (name: string) => {
      const dataDir = mkdtempSync(join(tmpdir(), `admin-stalled-${name}-`))
      folders.push(dataDir)
      return { dataDir, product: await startProduct({ DATABASE_URL: databaseUrl(), ADMIN_EMAIL: FIRST_ADMIN }, dataDir) }
    }
    // One after the other: the first creates the first admin and mails its code.
    const first = await start("a")
    a = first.product
    token = await signInFirstAdmin(a.url, first.dataDir)
    b = (await start("b")).product
  }, 180_000)

  afterAll(async () => {
    a?.run.child.kill("SIGCONT")
    await a?.stop()
    await b?.stop()
    await database?.drop()
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  })

  /** Writers that read the post and save it at the version read, one after another, until stopped. */
  const writeUntilStopped = (url: string, slug: string, writers: number) => {
    let stopped = false
    const answers: Array<Answered> = []
    const writeOnce = async (w: number, n: number) => {
      const read = await call(url, "GET", `/api/blog/posts/${slug}`, { token })
      const version = (read.body.post as { version: number } | undefined)?.version
      if (version === undefined) {
        answers.push({ status: read.status, ms: 0, at: performance.now(), retryAfter: read.headers.get("retry-after"), retryAfterSeconds: undefined })
        return
      }
      const { answer, ms, at } = await timed(url, "PUT", `/api/blog/admin/posts/${slug}`, {
        token,
        body: { title: "Contended", content: `<p>writer ${w} write ${n}</p>`, status: "draft", version }
      })
      answers.push({ status: answer.status, ms, at, retryAfter: answer.headers.get("retry-after"), retryAfterSeconds: answer.body.retryAfterSeconds })
    }
    const writer = async (w: number) => {
      for (let n = 0; !stopped; n++) {
        await writeOnce(w, n)
      }
    }
    const running = Promise.all(Array.from({ length: writers }, (_, w) => writer(w)))
    return {
      answers,
      stop: async () => {
        stopped = true
        await running
      }
    }
  }

  it("keeps the other server's writes bounded (503 with Retry-After, or 200), its reads and readiness fast, and loses nothing", async () => {
    const created = await call(a.url, "POST", "/api/blog/admin/posts", { token, body: { title: "Contended", content: "<p>first</p>", status: "draft" } })
    expect(created.status, created.text).toBe(200)
    const post = created.body.post as { _id: string; slug: string }

    const writesOnA = writeUntilStopped(a.url, post.slug, 4)
    const stalledAt = await stopWhileHolding(a.run.child, () => rowLocked(databaseUrl(), "blog_posts", post._id))

    // While `a` is stopped: sixteen writers on `b`, and a reader and a readiness probe beside them.
    const woken = sleep(PAUSE_MS - (performance.now() - stalledAt)).then(() => void a.run.child.kill("SIGCONT"))
    const writesOnB = writeUntilStopped(b.url, post.slug, WRITERS)
    const reads: Array<{ status: number; ms: number }> = []
    const ready: Array<{ status: number; ms: number }> = []
    const probe = async (into: typeof reads, path: string, withToken: boolean) => {
      while (performance.now() - stalledAt < PAUSE_MS) {
        const { answer, ms } = await timed(b.url, "GET", path, withToken ? { token } : {})
        into.push({ status: answer.status, ms })
        await sleep(50)
      }
    }
    await Promise.all([probe(reads, "/api/blog/posts?status=draft", true), probe(ready, "/api/health/ready", false), woken])
    await writesOnB.stop()
    await writesOnA.stop()

    const onB = writesOnB.answers.filter((answer) => answer.ms > 0)
    const busy = onB.filter((answer) => answer.status === 503)
    const firstSaved = Math.min(...onB.filter((answer) => answer.status === 200).map((answer) => answer.at + answer.ms - stalledAt))
    console.log(
      `while a stalled for ${PAUSE_MS} ms: b's ${onB.length} writes ${figures(onB.map((answer) => answer.ms))}, ` +
        `${onB.filter((answer) => answer.status === 200).length} saved (the first ${Math.round(firstSaved)} ms into the stall), ` +
        `${busy.length} answered 503 (${figures(busy.map((answer) => answer.ms))}); ` +
        `b's ${reads.length} reads ${figures(reads.map((read) => read.ms))}; ` +
        `b's ${ready.length} readiness checks ${figures(ready.map((check) => check.ms))}`
    )
    expect(onB.length).toBeGreaterThan(0)
    expect(writesOnB.answers.filter((answer) => ![200, 409, 503].includes(answer.status))).toEqual([])
    for (const answer of busy) {
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1)
      expect(answer.retryAfterSeconds).toBe(Number(answer.retryAfter))
    }
    // Bounded by the lock timeout and the wait for a connection (2 s each by default), not by the stall.
    expect(Math.max(...onB.map((answer) => answer.ms))).toBeLessThan(5_500)
    // Once PostgreSQL ended the stalled transaction (5 s idle in it, by default), b saves again while a still sleeps.
    expect(onB.some((answer) => answer.status === 200 && answer.at - stalledAt < PAUSE_MS)).toBe(true)
    expect(reads.filter((read) => read.status !== 200)).toEqual([])
    expect(Math.max(...reads.map((read) => read.ms))).toBeLessThan(2_000)
    expect(ready.filter((check) => check.status !== 200)).toEqual([])
    expect(Math.max(...ready.map((check) => check.ms))).toBeLessThan(2_000)

    // After SIGCONT: a answers again, both servers save, and every saved write is there once, with its event.
    // A woken server reads what reached it while it slept before it closes an idle connection
    // (docs/deploy.md, "Idle connections"): no request of a's writers met a reset.
    expect(writesOnA.answers.filter((answer) => ![200, 409, 503].includes(answer.status))).toEqual([])
    expect((await call(a.url, "GET", "/api/health/ready")).status).toBe(200)
    const saved = [...writesOnA.answers, ...writesOnB.answers].filter((answer) => answer.status === 200).length
    for (const url of [a.url, b.url]) {
      const read = await call(url, "GET", `/api/blog/posts/${post.slug}`, { token })
      const again = await call(url, "PUT", `/api/blog/admin/posts/${post.slug}`, {
        token,
        body: { title: "Contended", content: "<p>after</p>", status: "draft", version: (read.body.post as { version: number }).version }
      })
      expect(again.status, again.text).toBe(200)
    }
    const [row] = await withDatabase(
      databaseUrl(),
      async (client) =>
        (
          await client.query<{ version: number; events: number }>(
            "SELECT version, (SELECT count(*)::int FROM activity_log WHERE action = 'blog.update' AND entity_id = $1::text) AS events FROM blog_posts WHERE id = $1::uuid",
            [post._id]
          )
        ).rows
    )
    expect(row).toEqual({ version: 1 + saved + 2, events: saved + 2 })
  }, 120_000)

  it("answers 503, never 500, a keyed write it refused while it slept once PostgreSQL has ended the write's transaction", async () => {
    const created = await call(a.url, "POST", "/api/blog/admin/posts", { token, body: { title: "Refused", content: "<p>first</p>", status: "draft" } })
    expect(created.status, created.text).toBe(200)
    const post = created.body.post as { _id: string; slug: string }
    // Every write names a version long gone and carries its own key, as the console's do: each is
    // refused (409) inside its key's transaction, between locking the post and letting it go, which
    // is where the server is stopped.
    let writing = true
    const answers: Array<{ status: number; ms: number; at: number; error: unknown }> = []
    const writer = async () => {
      while (writing) {
        const { answer, ms, at } = await timed(a.url, "PUT", `/api/blog/admin/posts/${post.slug}`, {
          token,
          headers: { "idempotency-key": randomUUID() },
          body: { title: "Refused", content: "<p>stale</p>", status: "draft", version: 999 }
        })
        answers.push({ status: answer.status, ms, at, error: answer.body.error })
      }
    }
    const writers = Promise.all([writer(), writer()])
    await stopWhileHolding(a.run.child, () => rowLocked(databaseUrl(), "blog_posts", post._id))
    // PostgreSQL ends the stopped transaction once it has idled past its timeout (5 s), freeing the lock.
    await expect.poll(() => rowLocked(databaseUrl(), "blog_posts", post._id), { timeout: 20_000, interval: 250 }).toBe(false)
    a.run.child.kill("SIGCONT")
    const wokenAt = performance.now()
    await expect.poll(() => answers.filter((answer) => answer.at > wokenAt).length).toBeGreaterThan(4)
    writing = false
    await writers

    expect(answers.filter((answer) => answer.status !== 409 && answer.status !== 503)).toEqual([])
    // The write the server was in when it stopped: its transaction is gone, nothing of it was kept.
    // Which of the two writers' requests held the lock is the machine's order (the other may have
    // waited for the lock and then been refused, 409, once it was free): one of those under way
    // through the stop says so.
    const throughTheStop = answers.filter((answer) => answer.at < wokenAt && answer.at + answer.ms > wokenAt)
    expect(throughTheStop.length).toBeGreaterThan(0)
    expect(throughTheStop.filter((answer) => answer.status === 503)).toContainEqual(
      expect.objectContaining({ status: 503, error: "The database is busy: nothing was changed. Try again in a moment." })
    )
  }, 60_000)
})

describe.runIf(engines.length > 1)("the database limits, on postgresql", () => {
  it("reach every connection of the server as PostgreSQL's own settings, from the environment", async () => {
    const database = await freshPostgresOn(process.env.TEST_DATABASE_URL ?? "")
    const { databaseLimits } = Effect.runSync(
      readConfig({ DATABASE_LOCK_TIMEOUT_MS: "700", DATABASE_STATEMENT_TIMEOUT_MS: "9000", DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: "4000" })
    )
    const server = await startTestServer(database, { databaseLimits })
    try {
      const settings = await server.sql(
        Effect.flatMap(
          SqlClient,
          (sql) => sql`SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS statement,
            current_setting('idle_in_transaction_session_timeout') AS idle`
        )
      )
      expect(settings).toEqual([{ lock: "700ms", statement: "9s", idle: "4s" }])
      expect(databaseLimits?.poolWaitMs).toBe(2_000)
    } finally {
      await server.stop()
      await database.drop()
    }
  })
})
