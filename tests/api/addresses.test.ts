import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { addressMessages } from "../spec/texts.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { serverWithStaff } from "../support/session.ts"

/** Each directory: its path, the fields of a valid new address, and the field staff rename. */
const directories = [
  { kind: "generated", nameField: "Name", extra: { Category: "Wallet", Rank: 3, Website: "https://pi.example" } },
  { kind: "cex", nameField: "name", extra: { category: "Exchange", buy: "https://buy.example", website: "" } },
  { kind: "core-team", nameField: "name", extra: { role: "Founder", description: "Core team member" } }
] as const

describe.each(engines)("addresses on $name", (engine) => {
  const staff = serverWithStaff(engine)

  const count = (statement: string) =>
    staff.server
      .sql(Effect.flatMap(SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.unsafe(statement)}`))
      .then((rows) => rows[0]?.n ?? -1)

  describe.each(directories)("$kind", ({ kind, nameField, extra }) => {
    const base = `/api/admin/addresses/${kind}`
    let serial = 0
    const fresh = (overrides: Record<string, unknown> = {}) => ({
      identifier: `${kind}-id-${++serial}`,
      [nameField]: `Name ${serial}`,
      ...extra,
      ...overrides
    })
    const create = (body: Record<string, unknown>, token = staff.admin) => call(staff.server.url, "POST", base, { body, token })

    it("creates, lists, updates and deletes, logging each change", async () => {
      const created = await create(fresh())
      expect(created.status).toBe(200)
      const address = (created.body.data as { address: Record<string, unknown> }).address
      expect(address).toMatchObject({ version: 1, ...extra })
      const id = address._id as string

      const listed = await call(staff.server.url, "GET", `${base}?search=${encodeURIComponent(address.identifier as string)}`, { token: staff.admin })
      expect(listed.status).toBe(200)
      expect((listed.body.data as { addresses: Array<{ _id: string }> }).addresses.map((a) => a._id)).toEqual([id])

      const updated = await call(staff.server.url, "PUT", `${base}/${id}`, {
        token: staff.admin,
        body: { ...fresh({ identifier: address.identifier }), [nameField]: "Renamed", version: 1 }
      })
      expect(updated.status).toBe(200)
      expect((updated.body.data as { address: Record<string, unknown> }).address).toMatchObject({ [nameField]: "Renamed", version: 2 })

      const removed = await call(staff.server.url, "DELETE", `${base}/${id}?version=2`, { token: staff.admin })
      expect(removed.status).toBe(200)
      expect(await count(`addresses WHERE id = '${id}'`)).toBe(0)
      const log = await staff.server.sql(
        Effect.flatMap(
          SqlClient,
          (sql) =>
            sql<{ action: string; fromState: string | null; toState: string | null }>`
          SELECT action, from_state, to_state FROM activity_log WHERE entity_id = ${id} ORDER BY id`
        )
      )
      expect(log).toEqual([
        { action: "address.create", fromState: null, toState: "v1" },
        { action: "address.update", fromState: "v1", toState: "v2" },
        { action: "address.delete", fromState: "v2", toState: null }
      ])
    })

    it("requires identifier and name, with a message naming the field, and writes nothing", async () => {
      const before = await count("addresses")
      for (const body of [fresh({ identifier: "  " }), fresh({ [nameField]: "" }), { [nameField]: "x" }]) {
        const answer = await create(body)
        expect(answer.status).toBe(400)
        expect(answer.body.error).toMatch(/identifier|Name|name/)
      }
      expect(await count("addresses")).toBe(before)
    })

    it("refuses a duplicate identifier with 409, case-insensitively", async () => {
      const first = fresh()
      expect((await create(first)).status).toBe(200)
      const again = await create(fresh({ identifier: first.identifier.toUpperCase() }))
      expect(again.status).toBe(409)
      expect(again.body.error).toBe(addressMessages.duplicate(first.identifier.toUpperCase()))
      expect(again.body.issues).toEqual([{ path: "identifier", message: addressMessages.duplicate(first.identifier.toUpperCase()) }])
    })

    it("refuses an update or delete against an old version with 409 and overwrites nothing", async () => {
      const created = await create(fresh())
      const address = (created.body.data as { address: Record<string, unknown> }).address
      const id = address._id as string
      const first = await call(staff.server.url, "PUT", `${base}/${id}`, {
        token: staff.admin,
        body: { ...fresh({ identifier: address.identifier }), [nameField]: "First edit", version: 1 }
      })
      expect(first.status).toBe(200)
      const stale = await call(staff.server.url, "PUT", `${base}/${id}`, {
        token: staff.admin,
        body: { ...fresh({ identifier: address.identifier }), [nameField]: "Lost edit", version: 1 }
      })
      expect(stale.status).toBe(409)
      expect(stale.body.error).toBe(addressMessages.stale)
      const staleDelete = await call(staff.server.url, "DELETE", `${base}/${id}?version=1`, { token: staff.admin })
      expect(staleDelete.status).toBe(409)
      const listed = await call(staff.server.url, "GET", `${base}?search=${encodeURIComponent(address.identifier as string)}`, { token: staff.admin })
      expect((listed.body.data as { addresses: Array<Record<string, unknown>> }).addresses[0]).toMatchObject({ [nameField]: "First edit", version: 2 })
      const gone = await call(staff.server.url, "DELETE", `${base}/00000000-0000-4000-8000-000000000000?version=1`, { token: staff.admin })
      expect(gone.status).toBe(404)
    })

    it("lets a moderator read but not change, with 403 and a message", async () => {
      expect((await call(staff.server.url, "GET", base, { token: staff.moderator })).status).toBe(200)
      const before = await count("addresses")
      const refused = await create(fresh(), staff.moderator)
      expect(refused.status).toBe(403)
      expect(refused.body.error).toBe(addressMessages.readOnly)
      expect(await count("addresses")).toBe(before)
    })

    it("needs a signed-in token", async () => {
      expect((await call(staff.server.url, "GET", base)).status).toBe(401)
      expect((await call(staff.server.url, "POST", base, { body: fresh() })).status).toBe(401)
    })
  })

  it("searches, sorts and pages on the server, with the page metadata", async () => {
    const stamp = `page-${engine.name}`
    for (let n = 1; n <= 25; n++) {
      const answer = await call(staff.server.url, "POST", "/api/admin/addresses/generated", {
        token: staff.admin,
        body: { identifier: `${stamp}-${String(n).padStart(2, "0")}`, Name: `Zeta ${n}`, Category: n % 2 === 0 ? "Even" : "Odd", Rank: 100 - n }
      })
      expect(answer.status).toBe(200)
    }
    const page = async (query: string) => {
      const answer = await call(staff.server.url, "GET", `/api/admin/addresses/generated?${query}`, { token: staff.admin })
      expect(answer.status).toBe(200)
      return answer.body.data as { addresses: Array<{ identifier: string; Rank: number }>; pagination: Record<string, number> }
    }
    const all = await page("limit=1")
    const stored = await count("addresses WHERE kind = 'generated'")
    expect(all.pagination.total).toBe(stored)
    const first = await page(`search=${stamp}&sort=identifier&order=asc&limit=10`)
    expect(first.pagination).toEqual({ page: 1, limit: 10, total: 25, pages: 3 })
    expect(first.addresses.map((a) => a.identifier)).toEqual(Array.from({ length: 10 }, (_, i) => `${stamp}-${String(i + 1).padStart(2, "0")}`))
    const third = await page(`search=${stamp}&sort=identifier&order=asc&limit=10&page=3`)
    expect(third.addresses.map((a) => a.identifier)).toEqual(Array.from({ length: 5 }, (_, i) => `${stamp}-${21 + i}`))
    const byRank = await page(`search=${stamp}&sort=rank&order=asc&limit=3`)
    expect(byRank.addresses.map((a) => a.Rank)).toEqual([75, 76, 77])
    const even = await page(`search=${encodeURIComponent(`${stamp}-`)}&limit=100`)
    expect(even.addresses).toHaveLength(25)
    expect((await page(`search=even ${stamp}`)).pagination.total).toBe(0)
    expect((await page(`search=${encodeURIComponent("%_")}`)).pagination.total).toBe(0)
    const bad = await call(staff.server.url, "GET", "/api/admin/addresses/generated?limit=1000&page=0&sort=colour", { token: staff.admin })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatch(/limit: must be between 1 and 100/)
    expect(bad.body.error).toMatch(/page: must be between 1 and 1000000/)
  })

  it("finds addresses across the three directories", async () => {
    for (const [kind, body] of [
      ["generated", { identifier: "findme-gen", Name: "A" }],
      ["cex", { identifier: "findme-cex", name: "B" }],
      ["core-team", { identifier: "other", name: "Findme person" }]
    ] as const) {
      expect((await call(staff.server.url, "POST", `/api/admin/addresses/${kind}`, { token: staff.admin, body })).status).toBe(200)
    }
    const found = await call(staff.server.url, "GET", "/api/admin/addresses/search?q=findme", { token: staff.moderator })
    expect(found.status).toBe(200)
    const hits = (found.body.data as { hits: Array<{ kind: string; identifier: string }> }).hits
    expect(hits.map((h) => `${h.kind}:${h.identifier}`)).toEqual(["cex:findme-cex", "generated:findme-gen", "core-team:other"])
  })

  it("rejects a Website that is not a URL and a Rank that is not an integer", async () => {
    const answer = await call(staff.server.url, "POST", "/api/admin/addresses/generated", {
      token: staff.admin,
      body: { identifier: "bad-web", Name: "x", Website: "javascript:alert(1)", Rank: 1.5 }
    })
    expect(answer.status).toBe(400)
    expect(answer.body.error).toMatch(/Website/)
    expect(answer.body.error).toMatch(/Rank/)
  })
})
