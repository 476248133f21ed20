import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { createHash, randomUUID } from "node:crypto"
import { describe, expect, it } from "vitest"
import type { ProtectedRecord } from "../../contract/protected-data.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { addAdmin, setAdminRole } from "../../server/admin-users/repository.ts"
import { signIn } from "../support/session.ts"
import { freshEmail, settingsServer } from "../support/settings.ts"

describe.each(engines)("protected data on $name", (engine) => {
  const { staff, url, superToken } = settingsServer(engine)

  it("keeps protected values out of every log and versions them", async () => {
    const token = await superToken()
    for (const other of [staff.admin, staff.moderator]) expect((await call(url(), "GET", "/api/admin/protected-data", { token: other })).status).toBe(403)
    const body = { type: "api-key", key: "pi-network", value: "s3cret-value-never-logged", description: "Payments" }
    const made = await call(url(), "POST", "/api/admin/protected-data", { token, body })
    expect(made.status, made.text).toBe(200)
    const record = (made.body.data as { record: ProtectedRecord }).record
    expect((await call(url(), "POST", "/api/admin/protected-data", { token, body })).status).toBe(409)
    expect((await call(url(), "POST", "/api/admin/protected-data", { token, body: { ...body, type: "Not A Type" } })).status).toBe(400)
    const changed = await call(url(), "PUT", `/api/admin/protected-data/${record._id}`, {
      token,
      body: { ...body, value: "rotated-value-never-logged", version: 1 }
    })
    expect(changed.status, changed.text).toBe(200)
    expect((await call(url(), "PUT", `/api/admin/protected-data/${record._id}`, { token, body: { ...body, version: 1 } })).status).toBe(409)
    const listed = await call(url(), "GET", "/api/admin/protected-data?type=api-key", { token })
    expect((listed.body.data as { records: ReadonlyArray<ProtectedRecord> }).records.find((row) => row._id === record._id)?.value).toBe(
      "rotated-value-never-logged"
    )
    expect((await call(url(), "DELETE", `/api/admin/protected-data/${record._id}?version=2`, { token })).status).toBe(200)
    const log = await staff.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) =>
          sql<{
            action: string
            text: string
          }>`SELECT action, row_to_json(activity_log)::text AS text FROM activity_log WHERE entity_id = ${record._id} ORDER BY id`
      )
    )
    expect(log.map((row) => row.action)).toEqual(["protected-data.create", "protected-data.update", "protected-data.delete"])
    expect(log.some((row) => row.text.includes("never-logged"))).toBe(false)
  })
})

/**
 * Commands, exactly once (docs/api.md), for an answer that holds a protected value: the server
 * keeps the command's outcome without the value, answers a repeat by reading the record again,
 * and a deleted record's kept answers name it no more.
 */
describe.each(engines)("keyed protected-data commands on $name", (engine) => {
  const { staff, url, superToken } = settingsServer(engine)
  /** Every kept command: the whole row, and its answer (the bytes, a refusal, the record it named). */
  const kept = () =>
    staff.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql<{ row: string; answer: string }>`SELECT row_to_json(k)::text AS row,
          concat_ws(' ', convert_from(k.body, 'UTF8'), k.failure, k.record_id) AS answer FROM idempotency_keys k`
      )
    )
  /** Whether any kept command holds `text` (in clear, as bytes, or as the hex a bytea is shown in), or only its answer. */
  const keptHolds = async (text: string, where: "row" | "answer" = "row") => {
    const hex = Buffer.from(text).toString("hex")
    return (await kept()).some((row) => row.answer.includes(text) || (where === "row" && (row.row.includes(text) || row.row.includes(hex))))
  }
  const send = async (method: string, path: string, key: string, body?: unknown) =>
    call(url(), method, path, { token: await superToken(), headers: { "idempotency-key": key }, ...(body === undefined ? {} : { body }) })
  const recordOf = (answer: { body: Record<string, unknown> }) => (answer.body.data as { record: ProtectedRecord }).record
  const count = (key: string) =>
    staff.server
      .sql(Effect.flatMap(SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM protected_data WHERE key = ${key}`))
      .then((rows) => rows[0]?.n ?? 0)

  it("keeps no value, answers a repeat from the record as it is, and forgets a deleted record", async () => {
    const body = { type: "api-key", key: `kept-${engine.name}`, value: "value-never-kept-9f3a", description: "Keyed" }
    const [createKey, updateKey, removeKey] = [randomUUID(), randomUUID(), randomUUID()]
    const made = await send("POST", "/api/admin/protected-data", createKey, body)
    expect(made.status, made.text).toBe(200)
    const record = recordOf(made)
    expect(record.value).toBe(body.value)
    const change = { ...body, value: "rotated-never-kept-7c1d", version: 1 }
    const changed = await send("PUT", `/api/admin/protected-data/${record._id}`, updateKey, change)
    expect(changed.status, changed.text).toBe(200)
    for (const secret of [body.value, change.value]) expect(await keptHolds(secret), secret).toBe(false)
    // Nor the request's plain hash: a copy of the database cannot test guesses of a value with it.
    const plainHash = createHash("sha256").update(JSON.stringify(body)).digest("hex")
    expect(await keptHolds(plainHash)).toBe(false)

    // A repeat: no second record, no second version; the record as it is now, said to be a repeat.
    const again = await send("POST", "/api/admin/protected-data", createKey, body)
    expect(again.status, again.text).toBe(200)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(recordOf(again)).toEqual({ ...record, value: change.value, version: 2, updatedAt: recordOf(changed).updatedAt })
    const changedAgain = await send("PUT", `/api/admin/protected-data/${record._id}`, updateKey, change)
    expect(changedAgain.status, changedAgain.text).toBe(200)
    expect(changedAgain.text).toBe(changed.text)
    expect(await count(body.key)).toBe(1)
    // The same key with another request is still refused.
    expect((await send("POST", "/api/admin/protected-data", createKey, { ...body, value: "another" })).status).toBe(422)

    expect((await send("DELETE", `/api/admin/protected-data/${record._id}?version=2`, removeKey)).status).toBe(200)
    // The answers kept name it no more (the update's and the removal's request lines still name its id, which is no secret).
    for (const named of [record._id, body.key]) expect(await keptHolds(named, "answer"), named).toBe(false)
    expect(await keptHolds(body.key)).toBe(false)
    // Its create sent again is answered, not applied again: the record is gone.
    const afterRemoval = await send("POST", "/api/admin/protected-data", createKey, body)
    expect(afterRemoval.status, afterRemoval.text).toBe(404)
    expect(afterRemoval.body).toMatchObject({ success: false, error: "This record no longer exists. Reload the list." })
    expect(await count(body.key)).toBe(0)
  })

  it("answers a repeat with the rights of now: a demoted super admin's repeat reads nothing", async () => {
    const email = freshEmail("demoted-keeper")
    await staff.server.sql(addAdmin(email, "super_admin"))
    const token = await signIn(staff.server, email, "super_admin")
    const key = randomUUID()
    const body = { type: "api-key", key: email, value: "demoted-never-reads-3b8e", description: "Before the demotion" }
    const create = () => call(url(), "POST", "/api/admin/protected-data", { token, body, headers: { "idempotency-key": key } })
    expect((await create()).status).toBe(200)
    await staff.server.sql(setAdminRole(email, "admin"))
    const again = await create()
    expect(again.status, again.text).toBe(403)
    expect(again.text).not.toContain(body.value)
    expect(await count(email)).toBe(1)
  })

  it("applies 20 copies of one keyed create sent at once once, every answer the same record, no value kept", async () => {
    const body = { type: "api-key", key: `twenty-${engine.name}`, value: "twenty-never-kept-5e2b", description: "At once" }
    const key = randomUUID()
    const answers = await Promise.all(Array.from({ length: 20 }, () => send("POST", "/api/admin/protected-data", key, body)))
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 200))
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1)
    expect(answers.filter((answer) => answer.headers.get("idempotent-replayed") === "true")).toHaveLength(19)
    expect(recordOf(answers[0]!).value).toBe(body.value)
    expect(await count(body.key)).toBe(1)
    expect(await keptHolds(body.value)).toBe(false)
  })
})
