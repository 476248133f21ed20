import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import { describe, expect, it } from "vitest"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { purgeExpired } from "../../server/platform/housekeeping.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { serverWithStaff, signIn } from "../support/session.ts"

/**
 * Commands, exactly once (docs/api.md): every write takes an `Idempotency-Key`; the server keeps
 * the key with its answer in the write's transaction, answers a repeat with the first answer,
 * refuses the key with another request (422), and applies twenty copies sent at once once.
 */
describe.each(engines)("commands with an Idempotency-Key on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  const count = (table: string, where = "true") =>
    staff.server
      .sql(Effect.flatMap(SqlClient, (sql) => sql.unsafe<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`)))
      .then((rows) => rows[0]?.n ?? 0)
  const addressesNamed = (identifier: string) => count("addresses", `identifier = '${identifier}'`)
  const create = (identifier: string, key: string | undefined, body: Record<string, unknown> = {}, token = staff.admin) =>
    call(url(), "POST", "/api/admin/addresses/cex", {
      token,
      body: { identifier, name: "Idempotent Exchange", ...body },
      ...(key === undefined ? {} : { headers: { "idempotency-key": key } })
    })

  it("applies a command once and answers its repeat with the first answer, said to be one", async () => {
    const key = randomUUID()
    const first = await create("idem-once", key)
    expect(first.status, first.text).toBe(200)
    const again = await create("idem-once", key)
    expect(again.status).toBe(200)
    expect(again.text).toBe(first.text)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(first.headers.get("idempotent-replayed")).toBeNull()
    expect(await addressesNamed("idem-once")).toBe(1)
    // Without a key, the same request is a new command: here, a duplicate refused.
    expect((await create("idem-once", undefined)).status).toBe(409)
  })

  it("never keeps a sign-in's answer, which carries a session's token: a keyed repeat runs again", async () => {
    const key = randomUUID()
    const ask = () =>
      call(url(), "POST", "/api/admin/auth", { ip: freshIp(), body: { email: "nobody-idem@example.com", role: "admin" }, headers: { "idempotency-key": key } })
    const first = await ask()
    const again = await ask()
    expect(first.status, first.text).toBe(200)
    expect(again.headers.get("idempotent-replayed")).toBeNull()
    expect(again.body.attempt).not.toBe(first.body.attempt)
    expect(await count("idempotency_keys", `key = '${key}'`)).toBe(0)
  })

  it("applies 20 copies of one command sent at once once: one effect, 19 first answers repeated", async () => {
    const key = randomUUID()
    const answers = await Promise.all(Array.from({ length: 20 }, () => create("idem-twenty", key)))
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 200))
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1)
    expect(answers.filter((answer) => answer.headers.get("idempotent-replayed") === "true")).toHaveLength(19)
    expect(await addressesNamed("idem-twenty")).toBe(1)
    expect(await count("activity_log", "action = 'address.create' AND details->>'identifier' = 'idem-twenty'")).toBeLessThanOrEqual(1)
  })

  it("refuses the key with another request (another body, another path) with 422 and a message, changing nothing", async () => {
    const key = randomUUID()
    expect((await create("idem-body", key)).status).toBe(200)
    const otherBody = await create("idem-body", key, { name: "Another name" })
    expect(otherBody.status).toBe(422)
    expect(otherBody.body).toMatchObject({
      success: false,
      _tag: "KeyReused",
      error: "This Idempotency-Key was sent before with another request. A new command needs a new key."
    })
    const otherPath = await call(url(), "POST", "/api/admin/addresses/generated", {
      token: staff.admin,
      body: { identifier: "idem-body", Name: "Idempotent Exchange" },
      headers: { "idempotency-key": key }
    })
    expect(otherPath.status).toBe(422)
    expect(await count("addresses", "identifier = 'idem-body'")).toBe(1)
  })

  it("answers a refused command's repeat with the same refusal, without running it again", async () => {
    const made = await create("idem-stale", undefined)
    const address = (made.body.data as { address: { _id: string; version: number } }).address
    const key = randomUUID()
    const update = () =>
      call(url(), "PUT", `/api/admin/addresses/cex/${address._id}`, {
        token: staff.admin,
        body: { identifier: "idem-stale", name: "Renamed", version: address.version + 5 },
        headers: { "idempotency-key": key }
      })
    const refused = await update()
    expect(refused.status).toBe(409)
    const again = await update()
    expect(again.status).toBe(409)
    expect(again.body).toEqual(refused.body)
    expect(again.headers.get("idempotent-replayed")).toBeNull()
  })

  it("keeps a key the person's across sessions, and apart from anyone else's", async () => {
    const email = `idem-${process.pid}-${engine.name}@example.com`
    await staff.server.sql(addAdmin(email, "admin"))
    const first = await signIn(staff.server, email, "admin")
    const key = randomUUID()
    expect((await create("idem-person", key, {}, first)).status).toBe(200)
    // The same person in a new session: the command is answered, not applied again.
    const second = await signIn(staff.server, email, "admin")
    const repeated = await create("idem-person", key, {}, second)
    expect(repeated.status).toBe(200)
    expect(repeated.headers.get("idempotent-replayed")).toBe("true")
    // Someone else's key of the same text is theirs: it is a new command (here, a duplicate refused).
    expect((await create("idem-person", key, {}, staff.admin)).status).toBe(409)
    expect(await addressesNamed("idem-person")).toBe(1)
  })

  it("refuses a key that is no random id with 400 naming the header, and runs nothing", async () => {
    const answer = await create("idem-badkey", "short")
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ issues: [{ path: "idempotency-key", message: expect.stringContaining("16 to 100") }] })
    expect(await addressesNamed("idem-badkey")).toBe(0)
  })

  it("applies a public form once per key, keeping no refusal of the public's", async () => {
    const key = randomUUID()
    const ip = freshIp()
    const report = (description: string) =>
      call(url(), "POST", "/api/report-scam", { ip, body: { scamType: "phishing", description }, headers: { "idempotency-key": key } })
    expect((await report("Idempotent phishing report")).status).toBe(200)
    const again = await report("Idempotent phishing report")
    expect(again.status).toBe(200)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(await count("scam_reports", "description = 'Idempotent phishing report'")).toBe(1)
    // A refused public request keeps no key: its key is free for the corrected request.
    const badKey = randomUUID()
    const refused = await call(url(), "POST", "/api/report-scam", { ip: freshIp(), body: { scamType: "nonsense" }, headers: { "idempotency-key": badKey } })
    expect(refused.status).toBe(400)
    expect(await count("idempotency_keys", `key = '${badKey}'`)).toBe(0)
  })

  it("keeps keys at least a day and lets housekeeping drop them after two", async () => {
    const key = randomUUID()
    expect((await create("idem-day", key)).status).toBe(200)
    const age = (interval: string) =>
      staff.server.sql(
        Effect.flatMap(SqlClient, (sql) => sql.unsafe(`UPDATE idempotency_keys SET created_at = now() - interval '${interval}' WHERE key = '${key}'`))
      )
    await age("25 hours")
    await staff.server.sql(purgeExpired)
    expect((await create("idem-day", key)).headers.get("idempotent-replayed")).toBe("true")
    await age("49 hours")
    expect((await staff.server.sql(purgeExpired)).keys).toBeGreaterThanOrEqual(1)
    expect(await count("idempotency_keys", `key = '${key}'`)).toBe(0)
  })
})
