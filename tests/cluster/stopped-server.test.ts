import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RequestLine } from "../../server/platform/request-log.ts"
import { requireBuiltConsole } from "../support/browser.ts"
import { freshPostgresOn, type TestDatabase } from "../support/database.ts"
import { storedIdentifiers } from "../support/faults.ts"
import { type Answer, call } from "../support/http.ts"
import { startNginx, type RunningNginx } from "../support/nginx.ts"
import { FIRST_ADMIN, signInFirstAdmin, startProduct, type StartedProduct } from "../support/product.ts"
import { rowLocked, stopWhileHolding, withDatabase } from "../support/stall.ts"
import { openStream } from "../support/stream.ts"
import { sleep } from "../support/wait.ts"

/**
 * One of two servers behind nginx, configured as docs/deploy.md shows, stops dead for 12 s
 * (SIGSTOP) while it holds a post's row lock, under writers and a reader going through the proxy
 * (docs/deploy.md, "Behind nginx" and "A stalled server"). nginx notices the stopped one only by
 * its silence (its open source edition checks passively), so what counts is how long a request
 * sent to it waits before it goes to the other, and that the other, whose writes of the locked
 * post answer 503 after the lock timeout, is never taken for failed: then nginx had no server
 * left and answered 502 "no live upstreams" to everyone.
 */
const adminUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"
/** Longer than a request may wait with the stop unnoticed: nginx's read timeout and the other server's own bounds. */
const STOP_MS = 12_000
/** `proxy_read_timeout` in docs/deploy.md's block: how long nginx waits for a silent server. */
const READ_TIMEOUT_MS = 6_000
/** The read timeout, then the other server's waits: a connection 2 s, a row lock 2 s, and some. */
const LONGEST_WAIT_MS = READ_TIMEOUT_MS + 4_500

interface Timed {
  readonly what: string
  readonly status: number
  readonly started: number
  readonly ms: number
  readonly requestId: string | null
}

let database: TestDatabase
let a: StartedProduct
let b: StartedProduct
let nginx: RunningNginx
let token: string
let streams: Array<Awaited<ReturnType<typeof openStream>>> = []
const folders: Array<string> = []
const databaseUrl = () => (database.target.engine === "postgresql" ? database.target.url : "")
const portOf = (server: StartedProduct) => new URL(server.url).port

const requestsOf = (server: StartedProduct): ReadonlyArray<RequestLine> =>
  server.run
    .output()
    .split("\n")
    .filter((line) => line.startsWith('{"time"'))
    .map((line) => JSON.parse(line) as RequestLine)

/** Which server answered each of `answers` (its request log names nginx's request id), or nobody. */
const answeredBy = (answers: ReadonlyArray<{ readonly requestId: string | null }>) => {
  const onA = new Set(requestsOf(a).map((line) => line.requestId))
  const onB = new Set(requestsOf(b).map((line) => line.requestId))
  return answers.map(({ requestId }) => (onA.has(requestId ?? "") ? "a" : onB.has(requestId ?? "") ? "b" : "none"))
}

const metric = async (server: StartedProduct, name: string) =>
  Number(new RegExp(`^${name} (\\S+)$`, "m").exec(await (await fetch(`${server.url}/metrics`)).text())?.[1])

beforeAll(async () => {
  requireBuiltConsole()
  database = await freshPostgresOn(adminUrl)
  const start = async (name: string) => {
    const dataDir = mkdtempSync(join(tmpdir(), `admin-stopped-${name}-`))
    folders.push(dataDir)
    return { dataDir, product: await startProduct({ DATABASE_URL: databaseUrl(), TRUST_PROXY: "127.0.0.1", ADMIN_EMAIL: FIRST_ADMIN }, dataDir) }
  }
  // One after the other: the first creates the first admin and mails its code.
  const first = await start("a")
  a = first.product
  token = await signInFirstAdmin(a.url, first.dataDir)
  b = (await start("b")).product
  nginx = await startNginx([a, b].map((server) => Number(portOf(server))))
}, 180_000)

afterAll(async () => {
  a?.run.child.kill("SIGCONT")
  // nginx's graceful stop waits for the streams it passes on.
  await Promise.all(streams.map((stream) => stream.close()))
  await nginx?.stop()
  for (const server of [a, b]) await server?.stop()
  await database?.drop()
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

/** Loops of requests through nginx until stopped, each timed. */
const through = (loops: ReadonlyArray<(n: number) => Promise<Array<Timed>>>) => {
  let stopped = false
  const answers: Array<Timed> = []
  const running = Promise.all(
    loops.map(async (loop) => {
      for (let n = 0; !stopped; n++) answers.push(...(await loop(n)))
    })
  )
  return {
    answers,
    stop: async () => {
      stopped = true
      await running
    }
  }
}

const timed = async (what: string, method: string, path: string, options: Parameters<typeof call>[3] = {}): Promise<[Answer, Timed]> => {
  const started = performance.now()
  const answer = await call(nginx.url, method, path, { token, ...options })
  return [answer, { what, status: answer.status, started, ms: performance.now() - started, requestId: answer.headers.get("x-request-id") }]
}

const percentile = (values: ReadonlyArray<number>, p: number) =>
  Math.round([...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? Number.NaN)

describe("a server stopped dead behind nginx", () => {
  it("sends its share to the other within seconds, never takes the healthy one for failed, and loses no acknowledged write", async () => {
    const created = await call(a.url, "POST", "/api/blog/admin/posts", { token, body: { title: "Contended", content: "<p>first</p>", status: "draft" } })
    expect(created.status, created.text).toBe(200)
    const post = created.body.post as { _id: string; slug: string }

    // A change stream on each server, opened through nginx as the console opens it.
    streams = [await openStream(nginx.url, token)]
    while ((await metric(a, "change_streams_open")) === 0 || (await metric(b, "change_streams_open")) === 0) {
      if (streams.length > 6) throw new Error("nginx never sent a change stream to each server")
      streams.push(await openStream(nginx.url, token))
    }
    await Promise.all(streams.map((stream) => stream.ready()))

    // Every write carries an Idempotency-Key, as the console's do (docs/api.md, "Commands, exactly once").
    const contended = async (n: number) => {
      const [read, reading] = await timed("read the post", "GET", `/api/blog/posts/${post.slug}`)
      const version = (read.body.post as { version: number } | undefined)?.version
      if (version === undefined) return [reading]
      const [, writing] = await timed("save the post", "PUT", `/api/blog/admin/posts/${post.slug}`, {
        headers: { "idempotency-key": randomUUID() },
        body: { title: "Contended", content: `<p>write ${n}</p>`, status: "draft", version }
      })
      return [reading, writing]
    }
    const acknowledged: Array<string> = []
    const creator = (w: number) => async (n: number) => {
      const identifier = `stopped-${w}-${n}`
      const [answer, creating] = await timed("add an address", "POST", "/api/admin/addresses/generated", {
        headers: { "idempotency-key": randomUUID() },
        body: { identifier, Name: identifier }
      })
      if (answer.status === 200) acknowledged.push(identifier)
      return [creating]
    }
    const reader = async () => [(await timed("list posts", "GET", "/api/blog/posts?status=draft"))[1]]
    const load = through([contended, contended, contended, contended, creator(0), creator(1), creator(2), reader])

    await expect.poll(() => load.answers.length).toBeGreaterThan(20)
    const stoppedAt = await stopWhileHolding(a.run.child, () => rowLocked(databaseUrl(), "blog_posts", post._id))
    await sleep(STOP_MS - (performance.now() - stoppedAt))
    a.run.child.kill("SIGCONT")
    const wokenAt = performance.now()
    // A change made after the wake reaches both streams.
    await call(b.url, "POST", "/api/report-scam", { body: { scamType: "phishing", description: "After the stop" } })
    // Both servers answer again before the load stops.
    await expect.poll(() => new Set(answeredBy(load.answers.filter((answer) => answer.started > wokenAt))).size).toBe(2)
    await load.stop()

    // Every request under way while the server was stopped, and those begun once nginx has had time to notice.
    const during = load.answers.filter((answer) => answer.started < wokenAt && answer.started + answer.ms > stoppedAt)
    const late = during.filter((answer) => answer.started >= stoppedAt + 7_000)
    const count = (answers: ReadonlyArray<Timed>, key: (answer: Timed) => string) =>
      answers.reduce<Record<string, number>>((counts, answer) => ({ ...counts, [key(answer)]: (counts[key(answer)] ?? 0) + 1 }), {})
    const longest = (answers: ReadonlyArray<Timed>) => Math.round(Math.max(...answers.map((answer) => answer.ms)))
    console.log(
      `${STOP_MS} ms stopped: ${during.length} requests under way meanwhile, statuses ${JSON.stringify(count(during, (answer) => String(answer.status)))}, ` +
        `p50 ${percentile(
          during.map((answer) => answer.ms),
          50
        )} ms, longest ${longest(during)} ms; ` +
        `${late.length} begun 7 s into the stop, longest ${longest(late)} ms; ` +
        `all ${load.answers.length}: ${JSON.stringify(count(load.answers, (answer) => String(answer.status)))}, ` +
        `${answeredBy(load.answers).filter((server) => server === "a").length} answered by the stopped one`
    )
    // Every request is answered by a server: no 502 (no live server left) and no 504 (nginx gave up).
    expect(
      count(
        load.answers.filter((answer) => ![200, 409, 503].includes(answer.status)),
        (answer) => `${answer.what}: ${answer.status}`
      )
    ).toEqual({})
    // Nor did either server answer a 500, to nginx or to a connection nginx had given up.
    for (const server of [a, b]) {
      const failed = requestsOf(server).filter((line) => line.status >= 500 && line.status !== 503)
      expect(
        failed.map((line) => `${line.method} ${line.route}: ${line.status}`),
        server.run.output().slice(-3_000) + server.run.errors().slice(-3_000)
      ).toEqual([])
    }
    // nginx took the stopped one out, never the other.
    const log = nginx.errors()
    expect(log).not.toContain("no live upstreams")
    expect(log.split("\n").filter((line) => line.includes("temporarily disabled") && line.includes(`127.0.0.1:${portOf(b)}`))).toEqual([])
    expect(log.split("\n").some((line) => line.includes("timed out") && line.includes(`127.0.0.1:${portOf(a)}`))).toBe(true)
    // A request sent to the stopped server waits for nginx's read timeout, not for the stop; once
    // nginx has taken it out, none is sent to it: none waits for the read timeout, and the stopped
    // one's log, read after it woke, names none of them.
    expect(longest(during)).toBeLessThan(LONGEST_WAIT_MS)
    expect(late.length).toBeGreaterThan(0)
    expect(longest(late)).toBeLessThan(READ_TIMEOUT_MS)
    const reachedA = new Set(requestsOf(a).map((line) => line.requestId))
    expect(late.filter((answer) => reachedA.has(answer.requestId ?? "")).map((answer) => answer.what)).toEqual([])

    // Nothing acknowledged is lost, nothing is applied twice.
    const stored = await storedIdentifiers(b.url, token)
    expect(acknowledged.filter((identifier) => !stored.has(identifier))).toEqual([])
    const saved = load.answers.filter((answer) => answer.what === "save the post" && answer.status === 200).length
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
    expect(row!.version).toBe(1 + row!.events)
    expect(row!.events).toBeGreaterThanOrEqual(saved)

    // The change streams outlived the stop and nginx's read timeout for the API: each, the one on
    // the stopped server too, is still open and told of the change made after the wake.
    const toldOfIt = (stream: (typeof streams)[number]) => stream.changes().some((change) => JSON.stringify(change.data).includes("After the stop"))
    for (const stream of streams) await stream.until(() => toldOfIt(stream) || stream.ended(), "the change after the wake", 10_000)
    expect(streams.map((stream) => [stream.ended(), toldOfIt(stream)])).toEqual(streams.map(() => [false, true]))
  }, 120_000)
})
