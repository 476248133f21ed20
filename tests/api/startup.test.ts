import { Effect, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { type AddressInfo, createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { platformLayer } from "../../server/app.ts"
import { migrate, migrations } from "../../server/platform/migrations.ts"
import { databaseLayer } from "../../server/platform/database.ts"
import * as Migrator from "effect/sql/Migrator"
import { SqlClient } from "effect/sql/SqlClient"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { runScript } from "../support/process.ts"
import { PRODUCT_SERVER } from "../support/product.ts"
import { readOutbox } from "../support/server.ts"

const dirs: Array<string> = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "admin-start-"))
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

describe("start-up", () => {
  it.each([
    [{ PORT: "abc" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ TRUST_PROXY: "maybe" }, "TRUST_PROXY"],
    // "on" trusted any peer's header; the proxies must be named now.
    [{ TRUST_PROXY: "on" }, "TRUST_PROXY"],
    [{ ADMIN_EMAIL: "root" }, "ADMIN_EMAIL"],
    [{ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test" }, "OTP_SECRET"],
    [{ DATABASE_LOCK_TIMEOUT_MS: "soon" }, "DATABASE_LOCK_TIMEOUT_MS"],
    [{ DATABASE_POOL_WAIT_MS: "0" }, "DATABASE_POOL_WAIT_MS"]
  ])("stops on bad configuration %o with one clear line", async (env, name) => {
    const run = runScript(PRODUCT_SERVER, [], { DATA_DIR: tempDir(), ...env })
    expect(await run.exited).toBe(1)
    const lines = run.errors().trim().split("\n")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(new RegExp(`^Invalid configuration: ${name}: `))
  })

  it("stops with one line naming the port and PORT when the port is taken", async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve))
    const port = (taken.address() as AddressInfo).port
    try {
      const run = runScript(PRODUCT_SERVER, [], { DATA_DIR: tempDir(), PORT: String(port) })
      expect(await run.exited).toBe(1)
      expect(run.errors().trim().split("\n")).toEqual([
        `Port ${port} on 127.0.0.1 is in use by another program: stop it, or start on another port with PORT (PORT=${port + 1} npm start).`
      ])
    } finally {
      taken.close()
    }
  })

  it("creates the first admin on an empty data folder, mails and logs codes, and stops on SIGTERM within 5 s", async () => {
    const dataDir = tempDir()
    const server = runScript(PRODUCT_SERVER, [], { DATA_DIR: dataDir, PORT: "0" })
    try {
      await server.waitFor(/Created the first admin admin@example\.com \(Super Admin\)\. Sign in at .*\/login/, 60_000)
      const [, url] = await server.waitFor(/Listening on (http:\/\/\S+)/)
      // The built console, found from the bundle as from the sources (tools/build-server.ts).
      const page = await call(url!, "GET", "/login")
      expect(page.status).toBe(200)
      expect(page.text).toContain('<div id="root">')
      const requested = await call(url!, "POST", "/api/admin/auth", { body: { email: "admin@example.com", role: "super_admin" } })
      expect(requested.status).toBe(200)
      const [, logged] = await server.waitFor(/OTP for admin@example\.com: (\d{6})/)
      // The code is logged when asked for; the mail worker writes the mail just after.
      await expect.poll(() => readOutbox(dataDir).length, { timeout: 15_000 }).toBeGreaterThan(0)
      const mail = readOutbox(dataDir).at(-1)
      expect(mail?.to).toBe("admin@example.com")
      expect(mail?.subject).toContain(logged)
      const signedIn = await call(url!, "POST", "/api/admin/auth", { body: { email: "admin@example.com", otp: logged, attempt: requested.body.attempt } })
      expect(signedIn.status).toBe(200)
      const token = signedIn.body.token as string
      expect((await call(url!, "GET", "/api/admin/auth/check", { token })).status).toBe(200)
    } finally {
      const stopping = Date.now()
      server.child.kill("SIGTERM")
      await server.exited
      expect(Date.now() - stopping).toBeLessThan(5_000)
    }
  })

  // The command opens the embedded database itself when no server holds it (a cold start of
  // 4-8 s here), and runs in the server through its admin channel when one does (about 1 s): the
  // first commands take the first way, the rest the second, so both are shown without nineteen
  // cold starts (docs/testing.md, "How the suite runs"). Still some twenty processes: 45 s alone,
  // up to two minutes beside a browser file on a loaded machine, hence its own time limit.
  it("manages admins from the command line, with and without a running server", { timeout: 300_000 }, async () => {
    const env = { DATA_DIR: tempDir() }
    const admin = async (...args: Array<string>) => {
      const run = runScript("server/cli/admin.ts", args, env)
      return { code: await run.exited, out: run.output(), err: run.errors() }
    }
    // No server: the command opens the data folder.
    expect(await admin("add", "Ops@Example.com", "admin")).toMatchObject({ code: 0, out: "Added ops@example.com as admin.\n" })
    expect(await admin("add", "ops@example.com", "moderator")).toMatchObject({ code: 1, err: "An admin with the e-mail ops@example.com exists already.\n" })
    // Refused from their words alone, before the folder is opened: they may run side by side.
    expect(await Promise.all([admin("add", "ops2@example.com", "root"), admin("add", "not-an-email", "admin"), admin("frobnicate")])).toMatchObject([
      { code: 1, err: expect.stringContaining('"root" is not a role') },
      { code: 1, err: expect.stringContaining("is not an e-mail address") },
      { code: 1, err: expect.stringContaining("Usage:") }
    ])
    // A server holds the folder: a command can no longer open it, and runs in the server instead.
    const server = runScript(PRODUCT_SERVER, [], { ...env, PORT: "0" })
    try {
      await server.waitFor(/Listening on (http:\/\/\S+)/, 60_000)
      expect(await admin("disable", "ops@example.com")).toMatchObject({ code: 0, out: "ops@example.com is disabled.\n" })
      expect((await admin("list")).out).toBe("ops@example.com\tadmin\tdisabled\n")
      // Refusals that change nothing, side by side.
      expect(
        await Promise.all([
          admin("disable", "ghost@example.com"),
          admin("name", "ops@example.com", " "),
          admin("role", "ops@example.com", "root"),
          admin("allow-ip", "10.0.0.300")
        ])
      ).toMatchObject([
        { code: 1, err: "ghost@example.com is not an admin\n" },
        { code: 1, err: expect.stringContaining("display name must be") },
        { code: 1, err: expect.stringContaining('"root" is not a role') },
        { code: 1, err: expect.stringContaining("is not an IP address or CIDR range") }
      ])
      expect(await admin("name", "ops@example.com", "  Ops Desk ")).toMatchObject({ code: 0, out: "ops@example.com is now shown as Ops Desk.\n" })
      expect((await admin("list")).out).toBe("ops@example.com\tadmin\tdisabled\tOps Desk\n")
      expect(await admin("role", "ops@example.com", "moderator")).toMatchObject({ code: 0, out: "ops@example.com is now moderator.\n" })
      expect(await admin("ips")).toMatchObject({ code: 0, out: "No allowed addresses: every address may sign in.\n" })
      expect(await admin("allow-ip", "10.1.2.3/8", "Office VPN")).toMatchObject({ code: 0, out: expect.stringContaining("Allowed 10.0.0.0/8.") })
      expect(await admin("allow-ip", "10.0.0.0/8")).toMatchObject({ code: 1, err: "10.0.0.0/8 is already allowed.\n" })
      expect(await admin("ips")).toMatchObject({ code: 0, out: "10.0.0.0/8\tOffice VPN\n" })
      expect(await admin("clear-ips")).toMatchObject({ code: 0, out: "Removed 1 allowed address: every address may sign in again.\n" })
      // The folder had an admin, so the server made none of its own.
      expect(server.output()).not.toContain("Created the first admin")
    } finally {
      server.child.kill("SIGTERM")
      await server.exited
    }
  })
})

describe.each(engines)("migrations on $name", (engine) => {
  it("run twice are a no-op", async () => {
    const database = await engine.fresh()
    const config = { dataDir: tempDir(), databaseUrl: undefined, smtpUrl: undefined, mailFrom: "x <x@example.com>" }
    try {
      const appliedAgain = await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const context = yield* Layer.build(platformLayer(config as never, database.target))
            return yield* Effect.provideContext(migrate, context)
          })
        )
      )
      expect(appliedAgain).toEqual([])
    } finally {
      await database.drop()
    }
  })
})

describe.each(engines)("migration 0009 on a database with history, on $name", (engine) => {
  it("renames old activity events to area.verb with one entity per area, and counts what was there", async () => {
    const database = await engine.empty()
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0009"))
    const migrateTo = (record: Record<string, Effect.Effect<void, unknown, SqlClient>>) =>
      Migrator.make({})({ loader: Migrator.fromRecord(record), table: "schema_migrations" })
    try {
      const rows = await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const context = yield* Layer.build(databaseLayer(database.target))
            return yield* Effect.provideContext(
              Effect.gen(function* () {
                yield* migrateTo(before)
                const sql = yield* SqlClient
                yield* sql`INSERT INTO activity_log (action, entity, entity_id, details) VALUES
            ('auth.sign_in', 'session', 's1', NULL),
            ('address.update', 'address:cex', 'a1', '{"identifier": "BINANCE"}'::jsonb),
            ('listing.status', 'listing:community', 'l1', '{"version": 2}'::jsonb),
            ('blog.publish', 'blog_post', 'b1', NULL)`
                yield* sql`INSERT INTO listings (id, type, name, description) VALUES (gen_random_uuid(), 'event', 'Meetup', 'x')`
                yield* migrateTo(migrations)
                const events = yield* sql<{ action: string; entity: string; details: unknown }>`SELECT action, entity, details FROM activity_log ORDER BY id`
                const counts = yield* sql<{ entity: string; total: string }>`SELECT entity, total::text FROM activity_counts ORDER BY entity`
                const daily = yield* sql<{ area: string; total: string }>`SELECT area, sum(total)::text AS total FROM daily_counts GROUP BY area`
                return { events, counts, daily }
              }),
              context
            )
          })
        )
      )
      expect(rows.events.map((event) => [event.action, event.entity])).toEqual([
        ["session.sign_in", "session"],
        ["address.update", "address"],
        ["listing.status", "listing"],
        ["blog.publish", "blog"]
      ])
      const details = rows.events.map((event) => (typeof event.details === "string" ? JSON.parse(event.details) : event.details))
      expect(details[1]).toEqual({ identifier: "BINANCE", kind: "cex" })
      expect(details[2]).toEqual({ version: 2, type: "community" })
      expect(rows.counts).toEqual([
        { entity: "address", total: "1" },
        { entity: "blog", total: "1" },
        { entity: "listing", total: "1" },
        { entity: "session", total: "1" }
      ])
      expect(rows.daily).toEqual([{ area: "event", total: "1" }])
    } finally {
      await database.drop()
    }
  })
})
