import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RequestLine } from "../../server/platform/request-log.ts"
import { launchChromium, newPage, requireBuiltConsole } from "../support/browser.ts"
import { freshPostgresOn, type TestDatabase } from "../support/database.ts"
import { storedIdentifiers } from "../support/faults.ts"
import { call, freshIp } from "../support/http.ts"
import { noisePng } from "../support/images.ts"
import { startNginx, type RunningNginx } from "../support/nginx.ts"
import { FIRST_ADMIN, startProduct, type StartedProduct } from "../support/product.ts"
import { readOutbox } from "../support/server.ts"
import { openStream } from "../support/stream.ts"
import { signInTexts } from "../spec/texts.ts"

/**
 * How long, in ms, until `probe` answers `expected` on the server that did not make a change: it
 * learns of sessions ended and of the allowed-address list by NOTIFY once the change has
 * committed (docs/deploy.md, "What the servers share"), so for the moment the notification takes
 * it may still answer the old way. One second at most.
 */
const onOtherServer = async <A>(probe: () => Promise<A>, expected: A) => {
  const started = performance.now()
  await expect.poll(probe, { timeout: 1_000, interval: 2 }).toEqual(expected)
  return Math.round(performance.now() - started)
}

/**
 * Two servers on one PostgreSQL behind nginx, configured as docs/deploy.md shows, and Chromium
 * driving the console through the proxy (docs/deploy.md, "What the servers share"). Each server
 * is `npm start`'s bundle in its own process with its own data folder; nginx sends requests to
 * them in turn. `npm run test:cluster` runs it (.ci/run too, after `npm test`).
 */
const adminUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"

interface Server {
  readonly name: string
  readonly dataDir: string
  process: StartedProduct
}

let database: TestDatabase
let servers: [Server, Server]
let nginx: RunningNginx
let browser: Browser
let page: Page
let token: string
const folders: Array<string> = []

const databaseUrl = () => (database.target.engine === "postgresql" ? database.target.url : "")
const query = async <Row>(text: string, values: ReadonlyArray<unknown> = []): Promise<ReadonlyArray<Row>> => {
  const client = new pg.Client({ connectionString: databaseUrl() })
  await client.connect()
  try {
    return (await client.query(text, [...values])).rows as ReadonlyArray<Row>
  } finally {
    await client.end()
  }
}

/** Every mail to `email` either server sent (each writes its own outbox folder without SMTP). */
const mailsTo = (email: string) => servers.flatMap((server) => readOutbox(server.dataDir)).filter((mail) => mail.to === email)
const waitForOutbox = async (email: string) =>
  expect
    .poll(async () => (await query<{ n: number }>("SELECT count(*)::int AS n FROM mail_outbox WHERE recipient = $1 AND failed_at IS NULL", [email]))[0]?.n)
    .toBe(0)

/** Signs `email` in through `url`, reading the code from whichever server sent it. */
const signIn = async (url: string, email: string, role: string) => {
  const codesBefore = mailsTo(email).length
  const ip = freshIp()
  const asked = await call(url, "POST", "/api/admin/auth", { ip, body: { email, role } })
  expect(asked.status).toBe(200)
  await expect.poll(() => mailsTo(email).length).toBe(codesBefore + 1)
  const code = /(\d{6})/.exec(mailsTo(email).at(-1)!.subject)![1]!
  const answer = await call(url, "POST", "/api/admin/auth", { ip, body: { email, otp: code, attempt: asked.body.attempt } })
  expect(answer.status, answer.text).toBe(200)
  return answer.body.token as string
}

/** The request log lines a server wrote to its standard output. */
const requestsOf = (server: Server): ReadonlyArray<RequestLine> =>
  server.process.run
    .output()
    .split("\n")
    .filter((line) => line.startsWith('{"time"'))
    .map((line) => JSON.parse(line) as RequestLine)

const metric = async (server: Server, name: string) =>
  Number(new RegExp(`^${name} (\\S+)$`, "m").exec(await (await fetch(`${server.process.url}/metrics`)).text())?.[1])

const report = async (url: string, description: string) => {
  const answer = await call(url, "POST", "/api/report-scam", { ip: freshIp(), body: { scamType: "phishing", description } })
  expect(answer.status, answer.text).toBe(200)
}

const addAdmin = async (email: string, role: string) => {
  const answer = await call(nginx.url, "POST", "/api/admin/users", { token, body: { email, role } })
  expect(answer.status, answer.text).toBe(200)
  return (answer.body.data as { user: { _id: string; version: number } }).user
}

beforeAll(async () => {
  requireBuiltConsole()
  database = await freshPostgresOn(adminUrl)
  const start = async (name: string): Promise<Server> => {
    const dataDir = mkdtempSync(join(tmpdir(), `admin-cluster-${name}-`))
    folders.push(dataDir)
    const env = { DATABASE_URL: databaseUrl(), TRUST_PROXY: "127.0.0.1", ADMIN_EMAIL: FIRST_ADMIN }
    return { name, dataDir, process: await startProduct(env, dataDir) }
  }
  // One after the other: the first creates the first admin.
  const a = await start("a")
  servers = [a, await start("b")]
  nginx = await startNginx(servers.map((server) => Number(new URL(server.process.url).port)))
  browser = await launchChromium()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await nginx?.stop()
  for (const server of servers ?? []) await server.process.stop()
  await database?.drop()
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

describe("two servers behind nginx on one PostgreSQL", () => {
  it("signs in through the proxy in Chromium, with the sign-in mail sent once, and both servers serve the console", async () => {
    ;({ page } = await newPage(browser))
    await page.goto(`${nginx.url}/login`)
    await page.getByLabel("Email").fill(FIRST_ADMIN)
    await page.getByRole("button", { name: signInTexts.send }).click()
    await page.getByPlaceholder(signInTexts.codePlaceholder).waitFor()
    await waitForOutbox(FIRST_ADMIN)
    const mails = mailsTo(FIRST_ADMIN)
    expect(mails).toHaveLength(1)
    await page.getByPlaceholder(signInTexts.codePlaceholder).fill(/(\d{6})/.exec(mails[0]!.subject)![1]!)
    await page.getByRole("button", { name: signInTexts.verify }).click()
    await page.getByText("Welcome back").waitFor()
    token = (await page.evaluate(() => localStorage.getItem("adminToken")))!
    expect(token).toMatch(/\S{20,}/)
    // Round robin: each server answered some of the console's requests.
    for (const server of servers) expect(requestsOf(server).filter((line) => line.route.startsWith("/api/")).length, server.name).toBeGreaterThan(0)
  })

  it("lets the admin in on the first try from their browser while 200 addresses ask for codes and guess at both servers", async () => {
    // The same browser as the first sign-in: its key, and a new tab with no session.
    const browserKey = await page.evaluate(() => localStorage.getItem("knownBrowser"))
    expect(browserKey).toMatch(/^[\w-]{43}$/)
    const own = await newPage(browser)
    await own.context.addInitScript((key) => localStorage.setItem("knownBrowser", key), browserKey!)
    const strangers = Array.from({ length: 200 }, () => freshIp())
    const pick = <A>(items: ReadonlyArray<A>) => items[Math.floor(Math.random() * items.length)]!
    // Straight at the servers, past nginx: each stranger's address as a proxy in front would pass it on.
    const direct = (body: Record<string, unknown>) => call(pick(servers).process.url, "POST", "/api/admin/auth", { ip: pick(strangers), body })
    const statuses: Array<number> = []
    let attacking = true
    const attack = (async () => {
      while (attacking) {
        const asked = await direct({ email: FIRST_ADMIN, role: "super_admin" })
        const attempt = typeof asked.body.attempt === "string" ? asked.body.attempt : "x".repeat(43)
        const guesses = await Promise.all(Array.from({ length: 5 }, (_, n) => direct({ email: FIRST_ADMIN, otp: String(100_000 + n), attempt })))
        statuses.push(asked.status, ...guesses.map((answer) => answer.status))
        await new Promise((resolve) => setTimeout(resolve, 1_000))
      }
    })()
    try {
      // The strangers use up the day's guesses for the e-mail, and the owner is told codes are
      // paused, but for browsers they signed in from before: the admin's is one.
      await expect.poll(() => mailsTo(FIRST_ADMIN).some((mail) => mail.subject === "Sign-in codes for your account are paused"), { timeout: 60_000 }).toBe(true)
      await waitForOutbox(FIRST_ADMIN)
      const before = new Set(mailsTo(FIRST_ADMIN).map((mail) => mail.file))
      await own.page.goto(`${nginx.url}/login`)
      await own.page.getByLabel("Email").fill(FIRST_ADMIN)
      await own.page.getByRole("button", { name: signInTexts.send }).click()
      await own.page.getByRole("heading", { name: signInTexts.codeTitle }).waitFor()
      await waitForOutbox(FIRST_ADMIN)
      // The one new mail is the admin's code: the strangers' tries mail nothing more.
      const mailed = mailsTo(FIRST_ADMIN).filter((mail) => !before.has(mail.file))
      expect(mailed.map((mail) => mail.subject)).toEqual([expect.stringMatching(/code: \d{6}/)])
      const code = /(\d{6})/.exec(mailed[0]!.subject)![1]!
      await new Promise((resolve) => setTimeout(resolve, 2_000))
      await own.page.getByPlaceholder(signInTexts.codePlaceholder).fill(code)
      await own.page.getByRole("button", { name: signInTexts.verify }).click()
      await own.page.getByText("Welcome back").waitFor()
    } finally {
      attacking = false
      await attack
      await own.context.close()
    }
    expect(statuses.filter((status) => ![200, 401, 429].includes(status))).toEqual([])
    // The strangers' guesses were compared until the day's were used up, then refused.
    expect(statuses.filter((status) => status === 401).length).toBeGreaterThan(0)
    const [compared] = await query<{ n: number }>(
      "SELECT count(*)::int AS n FROM activity_log WHERE actor_email = $1 AND action = 'session.verify_failed' AND details ? 'attempts'",
      [FIRST_ADMIN]
    )
    expect(compared?.n).toBeLessThanOrEqual(20)
  })

  it("serves an image uploaded through one server from the other, byte for byte", async () => {
    const form = new FormData()
    form.set("image", new Blob([Uint8Array.from(noisePng(400, 400))]), "shared.png")
    form.set("type", "blog")
    const [a, b] = servers
    const uploaded = await fetch(`${a.process.url}/api/upload/image`, { method: "POST", body: form, headers: { authorization: `Bearer ${token}` } })
    expect(uploaded.status).toBe(200)
    const { url } = (await uploaded.json()) as { url: string }
    const bytes = async (base: string) => {
      const response = await fetch(`${base}${url}`)
      expect(response.status).toBe(200)
      return Buffer.from(await response.arrayBuffer())
    }
    const original = await bytes(a.process.url)
    expect((await bytes(b.process.url)).equals(original)).toBe(true)
    for (let n = 0; n < 4; n++) expect((await bytes(nginx.url)).equals(original)).toBe(true)
    expect(await page.evaluate(async (path) => (await fetch(path)).status, url)).toBe(200)
  })

  it("brings a change made through one server to the other's change stream at once, and to the console", async () => {
    const [a, b] = servers
    const onB = await openStream(b.process.url, token)
    const onA = await openStream(a.process.url, token)
    await Promise.all([onA.ready(), onB.ready()])
    const posted = performance.now()
    await report(a.process.url, "Posted through server a")
    await onB.until(() => onB.changes().length === 1, "a's report on b's stream", 2_000)
    await report(b.process.url, "Posted through server b")
    await onA.until(() => onA.changes().length === 2, "b's report on a's stream", 2_000)
    console.log(`a change through one server on the other's stream after ${Math.round(onB.changes()[0]!.at - posted)} ms`)
    await Promise.all([onA.close(), onB.close()])

    await page.goto(`${nginx.url}/scam-reports`)
    await page.locator("[data-current=true]").waitFor()
    await report(a.process.url, "Shown by the console one")
    await report(b.process.url, "Shown by the console two")
    await page.getByRole("status").filter({ hasText: "new report" }).getByText("2 new reports ·").waitFor()
  })

  it("ends a session at once on the server that ended it, and on the other as soon as the notification lands, on logout and on disabling", async () => {
    const [a, b] = servers
    const check = (server: Server, session: string) =>
      call(server.process.url, "GET", "/api/admin/auth/check", { token: session }).then((answer) => answer.status)
    await addAdmin("leaving@example.com", "admin")
    const leaving = await signIn(a.process.url, "leaving@example.com", "admin")
    expect([await check(a, leaving), await check(b, leaving)]).toEqual([200, 200])
    expect((await call(b.process.url, "POST", "/api/admin/auth/logout", { token: leaving })).status).toBe(200)
    expect(await check(b, leaving)).toBe(401)
    const afterLogout = await onOtherServer(() => check(a, leaving), 401)

    const account = await addAdmin("disabled@example.com", "admin")
    const disabled = await signIn(b.process.url, "disabled@example.com", "admin")
    const stream = await openStream(a.process.url, disabled)
    await stream.ready()
    expect([await check(a, disabled), await check(b, disabled)]).toEqual([200, 200])
    const answer = await call(b.process.url, "PUT", `/api/admin/users/${account._id}`, { token, body: { disabled: true, version: account.version } })
    expect(answer.status, answer.text).toBe(200)
    expect(await check(b, disabled)).toBe(401)
    const afterDisabling = await onOtherServer(() => check(a, disabled), 401)
    await stream.until(() => stream.ended(), "the disabled admin's stream on the other server ends", 2_000)
    console.log(`a session ended on the other server ${afterLogout} ms after a logout, ${afterDisabling} ms after its admin was disabled`)
  })

  it("counts a public form's rate limit across both servers", async () => {
    const ip = freshIp()
    const statuses: Array<number> = []
    for (let n = 0; n < 6; n++) {
      const answer = await call(servers[n % 2]!.process.url, "POST", "/api/report-scam", { ip, body: { scamType: "phishing", description: `Limited ${n}` } })
      statuses.push(answer.status)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
  })

  it("keeps /metrics from the public through nginx, however its path is spelled, while each server still answers its own host", async () => {
    // Spellings that name the same route to the server's router (case, slashes, a `;` parameter, escapes).
    for (const path of ["/metrics", "/metrics/", "/METRICS", "/Metrics", "/metrics;x", "//metrics", "/%6detrics", "/metrics%3Bx", "/metrics/?a=1"]) {
      const answer = await call(nginx.url, "GET", path)
      expect(answer.status, path).toBe(404)
      expect(answer.text, path).not.toContain("http_requests_total")
      // nginx answered it itself: a server sends every answer back with its X-Request-Id.
      expect(answer.headers.get("x-request-id"), path).toBeNull()
    }
    for (const server of servers) expect(await metric(server, "server_draining")).toBe(0)
  })

  it("applies a change of the allowed addresses at once on the server that made it, and on the other as soon as the notification lands", async () => {
    const [a, b] = servers
    const allowed = "198.51.100.7"
    const add = async (ip: string) => {
      const answer = await call(a.process.url, "POST", "/api/admin/ip-management", { token, body: { ip, description: "cluster test" } })
      expect(answer.status, answer.text).toBe(200)
      return (answer.body.data as { ip: { _id: string; version: number } }).ip
    }
    // This machine's own address first: a change that locks its maker out is refused.
    const entries = [await add("127.0.0.1"), await add(allowed)]
    const from = (server: Server, ip: string) => call(server.process.url, "GET", "/api/admin/auth/check", { token, ip }).then((answer) => answer.status)
    const stranger = freshIp()
    expect([await from(a, stranger), await from(a, allowed)]).toEqual([403, 200])
    const afterAdding = await onOtherServer(async () => [await from(b, stranger), await from(b, allowed)], [403, 200])
    for (const entry of entries.reverse()) {
      const removed = await call(a.process.url, "DELETE", `/api/admin/ip-management/${entry._id}?version=${entry.version}`, { token })
      expect(removed.status, removed.text).toBe(200)
    }
    expect(await from(a, stranger)).toBe(200)
    const afterRemoving = await onOtherServer(() => from(b, stranger), 200)
    console.log(
      `the allowed-address list changed on the other server ${afterAdding} ms after an address was added, ${afterRemoving} ms after the list was emptied`
    )
  })

  it("publishes each due scheduled post once, whichever server's job comes first", async () => {
    const at = new Date(Date.now() + 1_000).toISOString()
    const slugs: Array<string> = []
    for (let n = 0; n < 6; n++) {
      const answer = await call(nginx.url, "POST", "/api/blog/admin/posts", {
        token,
        body: { title: `Due ${n}`, content: "<p>Due</p>", status: "scheduled", scheduledAt: at }
      })
      expect(answer.status, answer.text).toBe(200)
      slugs.push((answer.body.post as { slug: string }).slug)
    }
    // Each server's job runs every 15 s: within 20 s both have looked.
    await expect
      .poll(
        async () => (await query<{ n: number }>("SELECT count(*)::int AS n FROM blog_posts WHERE status = 'published' AND slug = ANY($1)", [slugs]))[0]?.n,
        { timeout: 25_000 }
      )
      .toBe(slugs.length)
    await new Promise((resolve) => setTimeout(resolve, 16_000))
    const published = await query<{ slug: string; times: number }>(
      `SELECT p.slug, count(*)::int AS times FROM activity_log l JOIN blog_posts p ON p.id::text = l.entity_id
       WHERE l.action = 'blog.publish_scheduled' AND p.slug = ANY($1) GROUP BY p.slug ORDER BY p.slug`,
      [slugs]
    )
    expect(published).toEqual([...slugs].sort().map((slug) => ({ slug, times: 1 })))
  }, 60_000)

  it("stops one server with SIGTERM under 8 writers through the proxy: no request fails, no acknowledged write is lost, the console's stream comes back on the other", async () => {
    // The server that holds the console's change stream is the one stopped.
    await expect.poll(async () => (await metric(servers[0], "change_streams_open")) + (await metric(servers[1], "change_streams_open"))).toBe(1)
    const victim = (await metric(servers[0], "change_streams_open")) === 1 ? servers[0] : servers[1]
    const survivor = victim === servers[0] ? servers[1] : servers[0]
    const handledBefore = requestsOf(victim).length
    // Every report posted so far is announced on the console's /scam-reports ("N new reports · Show").
    const newReports = async () => Number(/(\d+) new reports? ·/.exec((await page.getByRole("status").allTextContents()).join(" "))?.[1] ?? 0)
    await expect.poll(newReports).toBeGreaterThan(0)
    const announcedBefore = await newReports()

    let writing = true
    const acknowledged: Array<string> = []
    const failures: Array<string> = []
    const writer = async (w: number) => {
      for (let i = 0; writing; i++) {
        const identifier = `sigterm-${w}-${i}`
        try {
          // With its Idempotency-Key, as the console sends it: nginx may send it on to the other server (docs/deploy.md, "Behind nginx").
          const answer = await call(nginx.url, "POST", "/api/admin/addresses/generated", {
            token,
            headers: { "idempotency-key": randomUUID() },
            body: { identifier, Name: identifier }
          })
          if (answer.status === 200) acknowledged.push(identifier)
          else failures.push(`${identifier}: ${answer.status} ${answer.text.slice(0, 200)}`)
        } catch (error) {
          failures.push(`${identifier}: ${String(error)}`)
        }
      }
    }
    const writers = Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)))
    await expect.poll(() => acknowledged.length, { timeout: 30_000 }).toBeGreaterThan(200)
    const stopAsked = performance.now()
    const atStop = acknowledged.length
    victim.process.run.child.kill("SIGTERM")
    const code = await victim.process.run.exited
    const stoppedMs = performance.now() - stopAsked
    await expect.poll(() => acknowledged.length, { timeout: 30_000 }).toBeGreaterThan(atStop + 200)
    writing = false
    await writers
    console.log(
      `SIGTERM under 8 writers: ${acknowledged.length} writes acknowledged (${atStop} before the signal), ${failures.length} failed; ` +
        `the stopped server took ${Math.round(stoppedMs)} ms and served ${requestsOf(victim).length - handledBefore} of them`
    )
    expect(failures).toEqual([])
    expect(code).toBe(0)
    expect(stoppedMs).toBeLessThan(12_000)
    // The stopped server was taking the writers' requests until it stopped.
    expect(requestsOf(victim).filter((line) => line.route === "/api/admin/addresses/generated").length).toBeGreaterThan(20)
    const stored = await storedIdentifiers(survivor.process.url, token)
    expect(acknowledged.filter((identifier) => !stored.has(identifier))).toEqual([])

    // The console reconnected to the server left, which now holds its stream and tells it news.
    await expect.poll(() => metric(survivor, "change_streams_open"), { timeout: 10_000 }).toBe(1)
    await report(survivor.process.url, "After the stop")
    await expect.poll(newReports).toBe(announcedBefore + 1)
  }, 120_000)
})
