import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import type { ProtectedRecord } from "../../contract/protected-data.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { settingsServer } from "../support/settings.ts"

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
