import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { listingMessages } from "../../contract/listing-rules.ts"
import { csvObjects } from "../support/csv.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { serverWithStaff } from "../support/session.ts"

/** Each venture type: its path, the answer's field, a full valid record, its own filter, and a value that filter refuses. */
const types = [
  {
    type: "business",
    path: "/api/admin/businesses",
    field: "businesses",
    valid: {
      name: "Pi Café",
      category: "Food",
      industry: "Hospitality",
      description: "Coffee for Pi",
      website: "https://cafe.example",
      location: "Lisbon",
      founded: "2021",
      employees: 12,
      revenue: "$1M-$5M"
    },
    required: ["name", "category", "industry", "description"],
    own: { key: "industry", filter: undefined, bad: { employees: -1 } }
  },
  {
    type: "startup",
    path: "/api/admin/startups",
    field: "startups",
    valid: {
      name: "PiPay",
      category: "Fintech",
      stage: "mvp",
      description: "Payments",
      website: "",
      location: "Berlin",
      founded: "2023",
      teamSize: 4,
      funding: "Seed"
    },
    required: ["name", "category", "stage", "description"],
    own: { key: "stage", filter: "stage=mvp", bad: { stage: "unicorn" } }
  },
  {
    type: "project",
    path: "/api/admin/projects",
    field: "projects",
    valid: {
      name: "PiScan",
      category: "Tools",
      projectStatus: "beta",
      description: "An explorer",
      github: "https://github.com/pi/scan",
      team: ["Ana", "Bo"],
      technologies: ["TypeScript"]
    },
    required: ["name", "category", "projectStatus", "description"],
    own: { key: "projectStatus", filter: "projectStatus=beta", bad: { projectStatus: "abandoned" } }
  }
] as const

describe.each(engines)("businesses, startups and projects on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  let serial = 0

  describe.each(types)("$type", ({ type, path, field, valid, required, own }) => {
    const fresh = (overrides: Record<string, unknown> = {}) => ({ ...valid, name: `${valid.name} ${++serial}`, ...overrides })
    const create = async (body: Record<string, unknown> = fresh()) => {
      const answer = await call(url(), "POST", path, { token: staff.admin, body })
      expect(answer.status, answer.text).toBe(200)
      return (answer.body.data as { listing: Record<string, unknown> & { _id: string; version: number } }).listing
    }

    it("creates pending and active with every field, lists and filters with the counts, edits, hides and deletes, logging each", async () => {
      const body = fresh()
      const made = await create(body)
      expect(made).toMatchObject({ ...body, type, status: "pending", isActive: true, version: 1, moderationNotes: "" })
      const search = encodeURIComponent(String(body.name))
      const filtered = await call(
        url(),
        "GET",
        `${path}?search=${search}&category=${encodeURIComponent(valid.category)}${own.filter === undefined ? "" : `&${own.filter}`}&isActive=true`,
        { token: staff.moderator }
      )
      expect(filtered.status).toBe(200)
      expect((filtered.body.data as Record<string, ReadonlyArray<{ _id: string }>>)[field]!.map((row) => row._id)).toEqual([made._id])
      expect((filtered.body.data as { pagination: { total: number } }).pagination.total).toBe(1)
      const other = await call(url(), "GET", `${path}?search=${search}&category=Other`, { token: staff.moderator })
      expect((other.body.data as Record<string, ReadonlyArray<unknown>>)[field]).toEqual([])

      // An edit sends the whole record: a field left out is cleared.
      const { website: _website, ...withoutWebsite } = body as Record<string, unknown>
      const edited = await call(url(), "PUT", `${path}/${made._id}`, { token: staff.admin, body: { ...withoutWebsite, description: "Edited", version: 1 } })
      expect(edited.status, edited.text).toBe(200)
      expect((edited.body.data as { listing: Record<string, unknown> }).listing).toMatchObject({ description: "Edited", version: 2 })
      expect((edited.body.data as { listing: Record<string, unknown> }).listing.website ?? "").toBe("")

      const hidden = await call(url(), "PUT", `${path}/${made._id}/active`, { token: staff.moderator, body: { isActive: false, version: 2 } })
      expect(hidden.status).toBe(200)
      expect((hidden.body.data as { listing: Record<string, unknown> }).listing).toMatchObject({ isActive: false, version: 3 })
      const inactive = await call(url(), "GET", `${path}?search=${search}&isActive=false`, { token: staff.moderator })
      expect((inactive.body.data as Record<string, ReadonlyArray<{ _id: string }>>)[field]!.map((row) => row._id)).toEqual([made._id])

      expect((await call(url(), "DELETE", `${path}/${made._id}?version=3`, { token: staff.admin })).status).toBe(200)
      const log = await staff.server.sql(
        Effect.flatMap(SqlClient, (sql) => sql<{ action: string }>`SELECT action FROM activity_log WHERE entity_id = ${made._id} ORDER BY id`)
      )
      expect(log.map((row) => row.action)).toEqual(["listing.create", "listing.update", "listing.active", "listing.delete"])
    })

    it("names each missing required field, and refuses a bad enumeration, URL, year or count", async () => {
      const empty = await call(url(), "POST", path, { token: staff.admin, body: {} })
      expect(empty.status).toBe(400)
      for (const name of required) expect(empty.text).toContain(name)
      const year = "founded" in valid ? [{ founded: "21" }, { founded: "3021" }] : [{ github: "http:/x y" }]
      for (const bad of [own.bad, { website: "javascript:alert(1)" }, { website: "ftp://files.example" }, ...year]) {
        const answer = await call(url(), "POST", path, { token: staff.admin, body: fresh(bad) })
        expect(answer.status, JSON.stringify(bad)).toBe(400)
      }
    })

    it("lets moderators moderate and hide but not create, edit or delete; 409 on stale, 404 when gone", async () => {
      const made = await create()
      expect((await call(url(), "POST", path, { token: staff.moderator, body: fresh() })).status).toBe(403)
      expect((await call(url(), "PUT", `${path}/${made._id}`, { token: staff.moderator, body: { ...fresh(), version: 1 } })).status).toBe(403)
      expect((await call(url(), "DELETE", `${path}/${made._id}?version=1`, { token: staff.moderator })).status).toBe(403)
      const approved = await call(url(), "PUT", `/api/listings/admin/${type}/${made._id}/status`, {
        token: staff.moderator,
        body: { status: "approved", version: 1 }
      })
      expect(approved.status).toBe(200)
      const illegal = await call(url(), "PUT", `/api/listings/admin/${type}/${made._id}/status`, {
        token: staff.moderator,
        body: { status: "rejected", version: 2 }
      })
      expect(illegal.status).toBe(409)
      expect(illegal.body.error).toBe(listingMessages.illegal("approved", "rejected"))
      const queue = await call(url(), "GET", `/api/listings/admin/${type}?status=approved`, { token: staff.moderator })
      expect((queue.body.data as { listings: ReadonlyArray<{ _id: string }> }).listings.map((row) => row._id)).toContain(made._id)
      expect((await call(url(), "PUT", `${path}/${made._id}/active`, { token: staff.moderator, body: { isActive: false, version: 1 } })).status).toBe(409)
      expect((await call(url(), "DELETE", `${path}/${made._id}?version=2`, { token: staff.admin })).status).toBe(200)
      expect((await call(url(), "PUT", `${path}/${made._id}/active`, { token: staff.moderator, body: { isActive: false, version: 2 } })).status).toBe(404)
    })

    it("takes public submissions as pending and shows the public only approved, active ones", async () => {
      const ip = freshIp()
      const body = fresh({ status: "approved", isActive: true })
      const submitted = await call(url(), "POST", `/api/listings/${type}`, { ip, body })
      expect(submitted.status, submitted.text).toBe(200)
      const id = (submitted.body.data as { listing: { _id: string } }).listing._id
      const [row] = await staff.server.sql(
        Effect.flatMap(SqlClient, (sql) => sql<{ status: string; submittedFrom: string }>`SELECT status, submitted_from FROM listings WHERE id = ${id}`)
      )
      expect(row).toEqual({ status: "pending", submittedFrom: ip })
      const visible = async () =>
        (
          (await call(url(), "GET", `/api/listings/${type}?search=${encodeURIComponent(String(body.name))}`)).body.data as {
            listings: ReadonlyArray<{ _id: string; details: Record<string, unknown> }>
          }
        ).listings
      expect(await visible()).toEqual([])
      await call(url(), "PUT", `/api/listings/admin/${type}/${id}/status`, { token: staff.admin, body: { status: "approved", version: 1 } })
      const shown = await visible()
      expect(shown.map((listing) => listing._id)).toEqual([id])
      expect(shown[0]!.details).toMatchObject({ category: valid.category, [own.key]: (valid as Record<string, unknown>)[own.key] })
      await call(url(), "PUT", `${path}/${id}/active`, { token: staff.admin, body: { isActive: false, version: 2 } })
      expect(await visible()).toEqual([])
    })

    it("answers every list once a record with only its required fields, from the public or the admin form, is approved", async () => {
      const minimal = Object.fromEntries(required.map((key) => [key, (valid as Record<string, unknown>)[key]]))
      const label = `Minimal ${type} ${++serial}`
      const submitted = await call(url(), "POST", `/api/listings/${type}`, { ip: freshIp(), body: { ...minimal, name: `${label} public` } })
      expect(submitted.status, submitted.text).toBe(200)
      const made = await call(url(), "POST", path, { token: staff.admin, body: { ...minimal, name: `${label} admin` } })
      expect(made.status, made.text).toBe(200)
      for (const answer of [submitted, made]) {
        const id = (answer.body.data as { listing: { _id: string } }).listing._id
        const approved = await call(url(), "PUT", `/api/listings/admin/${type}/${id}/status`, {
          token: staff.moderator,
          body: { status: "approved", version: 1 }
        })
        expect(approved.status, approved.text).toBe(200)
      }
      const search = `search=${encodeURIComponent(label)}`
      for (const [list, token] of [
        [`/api/listings/${type}`, undefined],
        [path, staff.moderator],
        [`/api/listings/admin/${type}`, staff.moderator],
        ["/api/admin/listings", staff.moderator]
      ] as const) {
        const answer = await call(url(), "GET", `${list}?${search}`, token === undefined ? {} : { token })
        expect(answer.status, `${list}: ${answer.text}`).toBe(200)
        const rows = Object.values(answer.body.data as Record<string, unknown>).find(Array.isArray) as ReadonlyArray<{ name: string }>
        expect(rows.map((row) => row.name).sort(), list).toEqual([`${label} admin`, `${label} public`])
      }
    })

    it("exports what the filters match as CSV", async () => {
      const made = await create(fresh({ name: `=SUM(A1) ${type} export` }))
      const answer = await call(url(), "GET", `${path}?format=csv&search=${encodeURIComponent(`${type} export`)}`, { token: staff.moderator })
      expect(answer.status).toBe(200)
      const [record] = csvObjects(answer.text)
      expect(record).toMatchObject({ _id: made._id, name: `'=SUM(A1) ${type} export`, category: valid.category, status: "pending", isActive: "true" })
    })
  })
})
