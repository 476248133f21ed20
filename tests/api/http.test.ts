import fc from "fast-check"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { engines, type TestDatabase } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { rawConnection } from "../support/raw-http.ts"
import { startTestServer, type TestServer } from "../support/server.ts"

const securityHeaders = (headers: Headers) => ({
  csp: headers.get("content-security-policy"),
  nosniff: headers.get("x-content-type-options"),
  referrer: headers.get("referrer-policy")
})

const expectSecured = (headers: Headers) => {
  const seen = securityHeaders(headers)
  expect(seen.csp).toContain("frame-ancestors 'none'")
  expect(seen.csp).toContain("default-src 'self'")
  expect(seen.nosniff).toBe("nosniff")
  expect(seen.referrer).toBe("no-referrer")
}

/** Bodies that can never be a valid sign-in request. */
const badBodies = fc.oneof(
  fc
    .anything()
    .filter((value) => value !== undefined)
    .map((value) => JSON.stringify(value)),
  fc.string().filter((text) => {
    try {
      JSON.parse(text)
      return false
    } catch {
      return true
    }
  }),
  fc
    .record({
      email: fc.oneof(
        fc.string().filter((s) => !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s)),
        fc.integer(),
        fc.constant(null)
      ),
      role: fc.constantFrom("super_admin", "admin", "moderator", "root", 7)
    })
    .map((value) => JSON.stringify(value)),
  fc
    .record({
      email: fc.constant("someone@example.com"),
      role: fc.string().filter((s) => !["super_admin", "admin", "moderator"].includes(s))
    })
    .map((value) => JSON.stringify(value)),
  fc
    .record({
      email: fc.constant("someone@example.com"),
      otp: fc.string().filter((s) => !/^\d{6}$/.test(s))
    })
    .map((value) => JSON.stringify(value))
)

/** An inline script such as the build's early start; its SHA-256, worked out by hand with `openssl dgst -sha256 -binary | base64`. */
const EARLY_SCRIPT = `document.title="early"`
const EARLY_SCRIPT_HASH = "'sha256-PhGwb9sbDR+86g82drdaR6a64bLr952X0zlV3kuI6TQ='"

describe("HTTP hygiene", () => {
  let database: TestDatabase
  let server: TestServer
  let consoleDir: string

  beforeAll(async () => {
    consoleDir = mkdtempSync(join(tmpdir(), "console-"))
    mkdirSync(join(consoleDir, "assets"))
    writeFileSync(join(consoleDir, "index.html"), `<!doctype html><script>${EARLY_SCRIPT}</script><title>console</title><div id=root></div>`)
    writeFileSync(join(consoleDir, "assets", "app-abc123.js"), "console.log('app')")
    database = await engines[0]!.fresh()
    server = await startTestServer(database, {}, { consoleDir })
  })
  afterAll(async () => {
    await server?.stop()
    await database?.drop()
    rmSync(consoleDir, { recursive: true, force: true })
  })

  it("refuses generated bad bodies with a 400 and a message, never a 500", async () => {
    await fc.assert(
      fc.asyncProperty(badBodies, async (raw) => {
        const answer = await call(server.url, "POST", "/api/admin/auth", { raw, ip: freshIp() })
        expect(answer.status).toBe(400)
        expect(answer.body.success).toBe(false)
        expect(typeof answer.body.error).toBe("string")
        expect((answer.body.error as string).length).toBeGreaterThan(0)
      }),
      { numRuns: 150 }
    )
  })

  it("names each bad field in the message", async () => {
    const answer = await call(server.url, "POST", "/api/admin/auth", { body: { email: "nope", role: "root" }, ip: freshIp() })
    expect(answer.status).toBe(400)
    expect(answer.body.error).toContain("email: must be a valid e-mail address")
    expect(answer.body.error).toContain("role:")
    expect(answer.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: "email" })]))
  })

  it("answers bad JSON with 400 JSON", async () => {
    const answer = await call(server.url, "POST", "/api/admin/auth", { raw: "{bad", ip: freshIp() })
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ success: false, error: "Invalid request body: Expected a valid JSON body" })
  })

  it("answers a body that is not JSON with 415 JSON", async () => {
    const answer = await call(server.url, "POST", "/api/admin/auth", {
      raw: "email=a",
      headers: { "content-type": "application/x-www-form-urlencoded" }
    })
    expect(answer.status).toBe(415)
    expect(answer.body).toMatchObject({ success: false })
  })

  it("answers a body over 1 MiB with 413 JSON", async () => {
    const answer = await call(server.url, "POST", "/api/admin/auth", {
      raw: JSON.stringify({ email: "a@example.com", role: "admin", padding: "x".repeat(1024 * 1024) }),
      ip: freshIp()
    })
    expect(answer.status).toBe(413)
    expect(answer.body).toMatchObject({ success: false, error: "Request body too large: at most 1 MiB" })
  })

  it("answers an unknown /api path with 404 JSON, whatever the method", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const answer = await call(server.url, method, "/api/no/such/thing")
      expect(answer.status).toBe(404)
      expect(answer.body).toEqual({ success: false, error: `Not found: ${method} /api/no/such/thing` })
      expectSecured(answer.headers)
    }
  })

  it("puts security headers on every answer and no-store on the API", async () => {
    for (const path of ["/api/health", "/", "/blog", "/api/openapi.json"]) {
      const answer = await call(server.url, "GET", path)
      expectSecured(answer.headers)
      if (path.startsWith("/api/")) expect(answer.headers.get("cache-control")).toBe("no-store")
    }
  })

  it("allows index.html's inline script by its hash, and no other page any inline script", async () => {
    for (const path of ["/", "/blog", "/index.html"]) {
      const csp = (await call(server.url, "GET", path)).headers.get("content-security-policy") ?? ""
      expect(csp).toContain(`script-src 'self' ${EARLY_SCRIPT_HASH};`)
      expect(csp.split("; ").find((part) => part.startsWith("script-src"))).toBe(`script-src 'self' ${EARLY_SCRIPT_HASH}`)
    }
    for (const path of ["/assets/app-abc123.js", "/api/health"]) {
      expect((await call(server.url, "GET", path)).headers.get("content-security-policy")).toContain("script-src 'self';")
    }
  })

  it("keeps CORS closed", async () => {
    const preflight = await call(server.url, "OPTIONS", "/api/admin/auth", {
      headers: { origin: "https://elsewhere.example", "access-control-request-method": "POST" }
    })
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull()
    const simple = await call(server.url, "GET", "/api/health", { headers: { origin: "https://elsewhere.example" } })
    expect(simple.headers.get("access-control-allow-origin")).toBeNull()
  })

  it("serves the console with an SPA fallback and caches hashed assets for long", async () => {
    const page = await call(server.url, "GET", "/cex-addresses?search=x")
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toContain("text/html")
    expect(page.text).toContain("<div id=root>")
    const asset = await call(server.url, "GET", "/assets/app-abc123.js")
    expect(asset.headers.get("content-type")).toContain("javascript")
    expect(asset.headers.get("cache-control")).toContain("immutable")
    expect((await call(server.url, "GET", "/assets/missing.js")).status).toBe(404)
  })

  it("publishes OpenAPI and a docs page", async () => {
    const spec = await call(server.url, "GET", "/api/openapi.json")
    expect(spec.status).toBe(200)
    expect(Object.keys(spec.body.paths as object)).toEqual(
      expect.arrayContaining(["/api/admin/auth", "/api/admin/auth/check", "/api/admin/auth/logout", "/api/health"])
    )
    // Built on the first visit (server/platform/api-docs.ts), then served as built.
    for (const visit of [1, 2]) {
      const docs = await call(server.url, "GET", "/api/docs")
      expect(docs.status, `visit ${visit}`).toBe(200)
      expect(docs.headers.get("content-type")).toContain("text/html")
      expect(docs.text).toContain("Scalar.createApiReference")
      expect(docs.text).toContain("/api/admin/auth/check")
    }
  })

  it("reports health with a real database ping", async () => {
    const health = await call(server.url, "GET", "/api/health")
    expect(health.status).toBe(200)
    expect(health.body).toMatchObject({ success: true, status: "ok", database: { status: "connected", engine: "pglite" } })
  })
  it("answers a request that reached a kept-alive connection while the server was busy past its idle timeout, and closes an idle one cleanly after the timeout it announced", async () => {
    const busy = await rawConnection(server.url)
    const idle = await rawConnection(server.url)
    try {
      busy.send("/api/health/live")
      idle.send("/api/health/live")
      const [first] = await Promise.all([busy.answer(), idle.answer()])
      const answeredAt = performance.now()
      expect(first.headers["keep-alive"]).toBe("timeout=5")
      // One second later, well within the five announced, the next request leaves; it arrives after
      // the server's last look at its sockets in this turn of its loop (hence setImmediate), and a
      // long synchronous piece of work (a busy core, a long statement of the embedded database)
      // keeps the server from reading it until its idle timer has run out.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          busy.send("/api/health/live")
          while (performance.now() < answeredAt + 6_500) {
            // busy
          }
          resolve()
        })
      )
      const second = await busy.answer()
      expect(second.status).toBe(200)
      // The connection nobody used again is closed with a FIN, never before the announced timeout.
      const closed = await idle.closed
      expect(closed.how).toBe("end")
      expect(closed.at - answeredAt).toBeGreaterThanOrEqual(5_000)
    } finally {
      busy.destroy()
      idle.destroy()
    }
  }, 20_000)
})
