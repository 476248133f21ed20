import { connect } from "node:net"
import { Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { metricsMessages, serverStates } from "../../contract/system.ts"
import type { RequestLine } from "../../server/platform/request-log.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { apiOperations } from "../support/openapi.ts"
import { latestCode, startTestServer } from "../support/server.ts"
import { signedInAs } from "../support/session.ts"
import { addAdmin } from "../../server/admin-users/repository.ts"

const linesOf = (log: ReadonlyArray<string>) => log.map((line) => JSON.parse(line) as RequestLine)

/** The value of one series (name and labels, written as the text format writes them) in a scrape. */
const seriesIn = (text: string) => (series: string) => Number(new RegExp(`^${series.replace(/[{}()[\].*+?^$|\\]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1])

describe.each(engines)("running a server, on $name", (engine) => {
  it("logs one JSON line per request with its id (sent back), route, status, time and admin, and never a token, a code or a protected value", async () => {
    const database = await engine.fresh()
    const server = await startTestServer(database)
    try {
      const email = "logged@example.com"
      const admin = await server.sql(addAdmin(email, "super_admin"))
      const ip = freshIp()
      const asked = await call(server.url, "POST", "/api/admin/auth", { body: { email, role: "super_admin" }, ip })
      const code = await latestCode(server, email)
      const signedIn = await call(server.url, "POST", "/api/admin/auth", { body: { email, otp: code, attempt: asked.body.attempt }, ip })
      const token = signedIn.body.token as string
      const secret = "sk_live_protected_value_0123456789"
      const stored = await call(server.url, "POST", "/api/admin/protected-data", { token, ip, body: { type: "api-key", key: "payments", value: secret } })
      expect(stored.status, stored.text).toBe(200)
      const given = await call(server.url, "GET", `/api/blog/posts?search=${encodeURIComponent(code)}`, { headers: { "x-request-id": "proxy-given-id-42" } })
      const refused = await call(server.url, "GET", "/api/health", { headers: { "x-request-id": "has spaces and ; semicolons" } })
      const missing = await call(server.url, "GET", "/uploads/blog/nothing.png")

      expect(given.headers.get("x-request-id")).toBe("proxy-given-id-42")
      expect(refused.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
      await expect.poll(() => server.requestLog().length).toBeGreaterThanOrEqual(6)
      const log = server.requestLog()
      const text = log.join("\n")
      for (const hidden of [token, code, secret, email]) expect(text, hidden).not.toContain(hidden)
      const lines = linesOf(log)
      for (const line of lines) {
        expect(Object.keys(line).sort()).toEqual(["adminId", "durationMs", "method", "requestId", "route", "status", "time"])
        expect(Number.isNaN(Date.parse(line.time))).toBe(false)
        expect(line.durationMs).toBeGreaterThanOrEqual(0)
      }
      const byId = (id: string | null) => lines.find((line) => line.requestId === id)
      expect(byId(stored.headers.get("x-request-id"))).toMatchObject({ method: "POST", route: "/api/admin/protected-data", status: 200, adminId: admin.id })
      expect(byId(given.headers.get("x-request-id"))).toMatchObject({ method: "GET", route: "/api/blog/posts", status: 200, adminId: null })
      expect(byId(refused.headers.get("x-request-id"))).toMatchObject({ route: "/api/health", status: 200 })
      expect(byId(missing.headers.get("x-request-id"))).toMatchObject({ route: "/uploads/:type/:name", status: 404 })
      // Every request its own id.
      expect(new Set(lines.map((line) => line.requestId)).size).toBe(lines.length)
    } finally {
      await server.stop()
      await database.drop()
    }
  })

  it("logs and counts every route of the OpenAPI document, history's included, under its own pattern, never /api/*", async () => {
    const database = await engine.fresh()
    const server = await startTestServer(database)
    try {
      const operations = await apiOperations(server.url)
      expect(operations.map((operation) => operation.path)).toContain("/api/admin/history/{kind}/{id}/restore")
      const sent = new Map<string, string>()
      for (const operation of operations) {
        // Without a token: refused or not, the request is logged, and under its route.
        const answer = await call(server.url, operation.method, operation.example, { ip: freshIp(), body: operation.method === "GET" ? undefined : {} })
        sent.set(answer.headers.get("x-request-id") ?? "", `${operation.method} ${operation.pattern}`)
      }
      await expect.poll(() => server.requestLog().length).toBeGreaterThanOrEqual(operations.length)
      const logged = new Map(linesOf(server.requestLog()).map((line) => [line.requestId, `${line.method} ${line.route}`]))
      expect([...sent].map(([id]) => logged.get(id))).toEqual([...sent.values()])
      const scrape = await (await fetch(`${server.url}/metrics`)).text()
      for (const operation of operations) {
        expect(scrape, operation.pattern).toContain(`http_request_duration_seconds_count{route="${operation.pattern}"}`)
      }
      expect(scrape).not.toContain('route="/api/*"')
    } finally {
      await server.stop()
      await database.drop()
    }
  })

  it("answers liveness and readiness apart, and its metrics to this host or the configured token only", async () => {
    const database = await engine.fresh()
    const token = "m".repeat(40)
    const server = await startTestServer(database, { metricsToken: Redacted.make(token) })
    try {
      expect((await call(server.url, "GET", "/api/health/live")).body).toEqual({ success: true, status: "alive" })
      expect((await call(server.url, "GET", "/api/health/ready")).body).toEqual({ success: true, status: "ready" })
      const admin = await signedInAs(server, "admin")
      for (let n = 0; n < 3; n++) await call(server.url, "GET", "/api/core-team-contact", { token: admin })
      await call(server.url, "GET", "/api/core-team-contact", { token: "not-a-session" })

      const local = await fetch(`${server.url}/metrics`)
      expect(local.status).toBe(200)
      expect(local.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8")
      const text = await local.text()
      const value = seriesIn(text)
      expect(value('http_requests_total{route="/api/core-team-contact",method="GET",status="200"}')).toBe(3)
      expect(value('http_requests_total{route="/api/core-team-contact",method="GET",status="401"}')).toBe(1)
      expect(value('http_request_duration_seconds_count{route="/api/core-team-contact"}')).toBe(4)
      expect(value('http_request_duration_seconds_bucket{route="/api/core-team-contact",le="+Inf"}')).toBe(4)
      expect(value("change_streams_open")).toBe(0)
      expect(value("mail_outbox_pending")).toBeGreaterThanOrEqual(0)
      expect(value("db_pool_max_connections")).toBe(engine.name === "pglite" ? 1 : 10)
      expect(text).toMatch(/^db_pool_connections\{state="\w+"\} [1-9]\d*$/m)
      expect(value("server_draining")).toBe(0)
      // Every line is a comment or a series with a number (the text format).
      for (const line of text.trimEnd().split("\n")) expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+(\{[^}]*\})? -?[\d.e+-]+)$/)

      const scrape = async (series: string) => seriesIn(await (await fetch(`${server.url}/metrics`)).text())(series)
      const stream = await fetch(`${server.url}/api/admin/stream`, { headers: { authorization: `Bearer ${admin}` } })
      await expect.poll(() => scrape("change_streams_open")).toBe(1)
      await stream.body?.cancel()
      await expect.poll(() => scrape("change_streams_open")).toBe(0)

      const remote = await call(server.url, "GET", "/metrics", { ip: freshIp() })
      expect(remote).toMatchObject({ status: 403, body: { error: metricsMessages.refused } })
      expect((await call(server.url, "GET", "/metrics", { ip: freshIp(), token: "x".repeat(40) })).status).toBe(403)
      expect((await call(server.url, "GET", "/metrics", { ip: freshIp(), token })).status).toBe(200)
    } finally {
      await server.stop()
      await database.drop()
    }
  })

  it("answers its metrics at /metrics exactly, not at another spelling of it", async () => {
    const database = await engine.fresh()
    const server = await startTestServer(database)
    try {
      const exact = await call(server.url, "GET", "/metrics")
      expect(exact.status).toBe(200)
      expect(exact.text).toContain("http_requests_total")
      // Spellings the router folds onto /metrics (case, slashes, a `;` parameter, an escaped letter).
      for (const path of ["/metrics/", "/METRICS", "/Metrics", "/metrics;x", "//metrics", "/%6detrics", "/metrics/?x=1"]) {
        const answer = await call(server.url, "GET", path)
        expect(answer.text, path).not.toContain("http_requests_total")
        expect(answer.status, path).toBe(404)
      }
    } finally {
      await server.stop()
      await database.drop()
    }
  })

  it("stops gracefully: lets its change streams go at once with a short retry, finishes a request in flight, and says it is not ready meanwhile", async () => {
    const database = await engine.fresh()
    const server = await startTestServer(database)
    const admin = await signedInAs(server, "admin")
    const { port } = new URL(server.url)
    // A change stream, read raw to see its retry field.
    const stream = await fetch(`${server.url}/api/admin/stream`, { headers: { authorization: `Bearer ${admin}` } })
    const reader = stream.body!.getReader()
    let received = ""
    const streamEnded = (async () => {
      for (let read = await reader.read(); !read.done; read = await reader.read()) received += new TextDecoder().decode(read.value)
      return performance.now()
    })()
    await expect.poll(() => received).toContain("event: ready")

    // A contact posted slowly on one connection, with a readiness check pipelined behind it.
    const body = JSON.stringify({ contactInfo: { name: "Late", role: "Founder" }, inquiry: { subject: "In flight", details: "Sent while the server stops" } })
    const socket = connect(Number(port), "127.0.0.1")
    let answer = ""
    socket.on("data", (chunk) => (answer += chunk.toString()))
    const closed = new Promise((resolve) => socket.on("close", resolve))
    socket.write(
      `POST /api/core-team-contact HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
        body.slice(0, 20)
    )
    await new Promise((resolve) => setTimeout(resolve, 200))
    const stopAsked = performance.now()
    const stopping = server.stop().then(() => performance.now())
    const streamEndedAt = await streamEnded
    expect(streamEndedAt - stopAsked).toBeLessThan(1_000)
    expect(received).toMatch(/retry: \d{3}\n\n$/)
    const retry = Number(/retry: (\d+)\n\n$/.exec(received)?.[1])
    expect(retry).toBeGreaterThanOrEqual(100)
    expect(retry).toBeLessThan(1_000)
    // The rest of the write, and the question behind it, arrive once the stop has begun.
    socket.write(`${body.slice(20)}GET /api/health/ready HTTP/1.1\r\nHost: x\r\n\r\n`)
    await closed
    const [first, second] = answer.split(/(?=HTTP\/1\.1 )/)
    expect(first).toMatch(/^HTTP\/1\.1 200 /)
    expect(first).toContain('"success":true')
    expect(second).toMatch(/^HTTP\/1\.1 503 /)
    expect(second).toContain(serverStates.stopping)
    expect((await stopping) - stopAsked).toBeLessThan(5_000)
    await database.drop()
  })
})
