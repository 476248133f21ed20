import { describe, expect, it } from "vitest"
import { listingMessages } from "../../contract/listing-rules.ts"
import { csvObjects } from "../support/csv.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { serverWithStaff } from "../support/session.ts"

interface Entry {
  readonly _id: string
  readonly name: string
  readonly status: string
  readonly featured: boolean
  readonly version: number
  readonly [field: string]: unknown
}

const day = 24 * 3600 * 1000
const iso = (offsetDays: number) => new Date(Date.now() + offsetDays * day).toISOString()

describe.each(engines)("events and hackathons on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  let serial = 0

  describe.each(["events", "hackathons"] as const)("?type=%s", (type) => {
    const create = async (overrides: Record<string, unknown> = {}) => {
      const answer = await call(url(), "POST", `/api/ecosystem?type=${type}`, {
        token: staff.admin,
        body: {
          name: `${type} ${++serial}`,
          description: "Builders meet",
          startsAt: iso(10),
          endsAt: iso(11),
          location: "online",
          website: "https://meet.example",
          ...overrides
        }
      })
      expect(answer.status, answer.text).toBe(200)
      return (answer.body.data as { listing: Entry }).listing
    }
    const listed = async (query: string, token = staff.moderator) => {
      const answer = await call(url(), "GET", `/api/ecosystem?type=${type}&${query}`, { token })
      expect(answer.status, answer.text).toBe(200)
      return answer.body.data as Record<string, ReadonlyArray<Entry>> & { counts: Record<string, number> }
    }

    it("creates pending and unfeatured with its dates, lists by upcoming or past, features, edits and deletes", async () => {
      const upcoming = await create()
      const past = await create({ startsAt: iso(-3), endsAt: iso(-2) })
      expect(upcoming).toMatchObject({ status: "pending", featured: false, location: "online", version: 1, type: type === "events" ? "event" : "hackathon" })
      const names = (rows: ReadonlyArray<Entry> | undefined) => (rows ?? []).map((row) => row._id)
      expect(names((await listed("when=upcoming&limit=100"))[type])).toContain(upcoming._id)
      expect(names((await listed("when=upcoming&limit=100"))[type])).not.toContain(past._id)
      expect(names((await listed("when=past&limit=100"))[type])).toContain(past._id)
      const featured = await call(url(), "PUT", `/api/ecosystem/${upcoming._id}/featured?type=${type}`, {
        token: staff.moderator,
        body: { featured: true, version: 1 }
      })
      expect(featured.status).toBe(200)
      expect(names((await listed("featured=true&limit=100"))[type])).toEqual([upcoming._id])
      const edited = await call(url(), "PUT", `/api/ecosystem/${upcoming._id}?type=${type}`, {
        token: staff.admin,
        body: { name: "Renamed", description: "New", location: "Lagos", version: 2 }
      })
      expect(edited.status, edited.text).toBe(200)
      // An edit that does not name `featured` keeps it.
      expect((edited.body.data as { listing: Entry }).listing).toMatchObject({ name: "Renamed", location: "Lagos", featured: true, startsAt: "", version: 3 })
      expect((await call(url(), "DELETE", `/api/ecosystem/${upcoming._id}?type=${type}&version=3`, { token: staff.admin })).status).toBe(200)
    })

    it("requires name and description, refuses bad dates and links, and keeps moderators to status and featured", async () => {
      const empty = await call(url(), "POST", `/api/ecosystem?type=${type}`, { token: staff.admin, body: {} })
      expect(empty.status).toBe(400)
      expect(empty.text).toContain("name")
      expect(empty.text).toContain("description")
      for (const bad of [{ startsAt: "next friday" }, { website: "javascript:alert(1)" }, { image: "data:image/png;base64,AAAA" }]) {
        expect(
          (await call(url(), "POST", `/api/ecosystem?type=${type}`, { token: staff.admin, body: { name: "X", description: "Y", ...bad } })).status,
          JSON.stringify(bad)
        ).toBe(400)
      }
      const made = await create()
      expect((await call(url(), "POST", `/api/ecosystem?type=${type}`, { token: staff.moderator, body: { name: "X", description: "Y" } })).status).toBe(403)
      expect(
        (await call(url(), "PUT", `/api/ecosystem/${made._id}?type=${type}`, { token: staff.moderator, body: { name: "X", description: "Y", version: 1 } }))
          .status
      ).toBe(403)
      expect((await call(url(), "DELETE", `/api/ecosystem/${made._id}?type=${type}&version=1`, { token: staff.moderator })).status).toBe(403)
      const approved = await call(url(), "PUT", `/api/admin/listings/${made._id}`, { token: staff.moderator, body: { action: "approve", version: 1 } })
      expect(approved.status).toBe(200)
      const illegal = await call(url(), "PUT", `/api/admin/listings/${made._id}`, { token: staff.moderator, body: { action: "reject", version: 2 } })
      expect(illegal.body.error).toBe(listingMessages.illegal("approved", "rejected"))
      expect((await listed("status=approved")).counts.approved).toBeGreaterThan(0)
      const stale = await call(url(), "PUT", `/api/ecosystem/${made._id}/featured?type=${type}`, {
        token: staff.moderator,
        body: { featured: true, version: 1 }
      })
      expect(stale.status).toBe(409)
      const other = type === "events" ? "hackathons" : "events"
      expect(
        (await call(url(), "PUT", `/api/ecosystem/${made._id}/featured?type=${other}`, { token: staff.moderator, body: { featured: true, version: 2 } })).status
      ).toBe(404)
    })

    it("lists a record with only its name and description once approved, with its empty fields", async () => {
      const name = `Bare ${type} ${++serial}`
      const made = await call(url(), "POST", `/api/ecosystem?type=${type}`, { token: staff.admin, body: { name, description: "Only the required" } })
      expect(made.status, made.text).toBe(200)
      const id = (made.body.data as { listing: Entry }).listing._id
      expect((await call(url(), "PUT", `/api/admin/listings/${id}`, { token: staff.moderator, body: { action: "approve", version: 1 } })).status).toBe(200)
      const rows = (await listed(`status=approved&search=${encodeURIComponent(name)}`))[type] ?? []
      expect(rows).toMatchObject([{ _id: id, startsAt: "", endsAt: "", location: "", website: "", image: "", featured: false }])
    })

    it("refuses an end before the start, on create and on edit, naming the end date", async () => {
      const backwards = { name: `Backwards ${type} ${++serial}`, description: "Time runs back", startsAt: iso(10), endsAt: iso(9) }
      const refused = await call(url(), "POST", `/api/ecosystem?type=${type}`, { token: staff.admin, body: backwards })
      expect(refused.status).toBe(400)
      expect(refused.body.issues).toEqual([{ path: "endsAt", message: "must be at or after Starts" }])
      expect((await listed(`search=${encodeURIComponent(backwards.name)}`))[type] ?? []).toEqual([])
      const made = await create({ startsAt: iso(10), endsAt: iso(10) })
      const edited = await call(url(), "PUT", `/api/ecosystem/${made._id}?type=${type}`, { token: staff.admin, body: { ...backwards, version: made.version } })
      expect(edited.status).toBe(400)
      expect(edited.body.issues).toEqual([{ path: "endsAt", message: "must be at or after Starts" }])
      // One date alone, or none, is no order to keep.
      expect((await call(url(), "POST", `/api/ecosystem?type=${type}`, { token: staff.admin, body: { ...backwards, startsAt: "" } })).status).toBe(200)
    })

    it("exports what the filters match as CSV", async () => {
      const made = await create({ name: `+csv ${type} ${++serial}` })
      const answer = await call(url(), "GET", `/api/ecosystem?type=${type}&format=csv&search=${encodeURIComponent(made.name.slice(1))}`, {
        token: staff.moderator
      })
      expect(answer.status).toBe(200)
      expect(csvObjects(answer.text)).toMatchObject([{ _id: made._id, name: `'${made.name}`, location: "online", featured: "false" }])
    })
  })
})
