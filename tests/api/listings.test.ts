import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { legalMoves, listingMessages, type ListingStatus, listingStatuses } from "../../contract/listing-rules.ts"
import { engines } from "../support/database.ts"
import { csvObjects } from "../support/csv.ts"
import { call, freshIp } from "../support/http.ts"
import { serverWithStaff } from "../support/session.ts"

interface Listing {
  readonly _id: string
  readonly type: string
  readonly name: string
  readonly status: ListingStatus
  readonly version: number
  readonly moderationNotes: string
}
interface Counts {
  readonly total: number
  readonly pending: number
  readonly approved: number
  readonly rejected: number
}

const screens = [
  { type: "community", path: "/api/admin/communities", field: "communities" },
  { type: "influencer", path: "/api/admin/influencers", field: "influencers" }
] as const

describe.each(engines)("listings on $name", (engine) => {
  const staff = serverWithStaff(engine)
  let serial = 0
  const url = () => staff.server.url

  const sqlRows = <A extends object>(query: (sql: SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) => staff.server.sql(Effect.flatMap(SqlClient, query))

  /** A listing made by an admin through the screen's call, then moved to `status` by the database. */
  const listing = async (path: string, status: ListingStatus = "pending"): Promise<Listing> => {
    const answer = await call(url(), "POST", path, { token: staff.admin, body: { name: `Listing ${++serial}`, description: "A group of Pioneers" } })
    expect(answer.status).toBe(200)
    const made = (answer.body.data as { listing: Listing }).listing
    if (status === "pending") return made
    await sqlRows((sql) => sql`UPDATE listings SET status = ${status}, version = version + 1 WHERE id = ${made._id}`)
    return { ...made, status, version: made.version + 1 }
  }

  const combined = async (path: string, query = "") => {
    const answer = await call(url(), "GET", `${path}/combined${query}`, { token: staff.moderator })
    expect(answer.status).toBe(200)
    return answer.body.data as Record<string, unknown> & { pagination: { total: number }; counts: Counts }
  }

  const actualCounts = async (type: string): Promise<Counts> => {
    const rows = await sqlRows(
      (sql) => sql<{ status: ListingStatus; n: number }>`SELECT status, count(*)::int AS n FROM listings WHERE type = ${type} GROUP BY status`
    )
    const of = (status: ListingStatus) => rows.find((row) => row.status === status)?.n ?? 0
    return { total: of("pending") + of("approved") + of("rejected"), pending: of("pending"), approved: of("approved"), rejected: of("rejected") }
  }

  describe.each(screens)("$type screen", ({ type, path, field }) => {
    it("creates pending, lists with the four counts, filters, searches, edits and deletes, logging each change", async () => {
      const made = await listing(path)
      expect(made).toMatchObject({ type, status: "pending", version: 1, moderationNotes: "" })
      const page = await combined(path)
      expect((page[field] as ReadonlyArray<Listing>).map((row) => row._id)).toContain(made._id)
      expect(page.counts).toEqual(await actualCounts(type))
      const found = await combined(path, `?search=${encodeURIComponent(made.name)}&status=pending`)
      expect((found[field] as ReadonlyArray<Listing>).map((row) => row._id)).toEqual([made._id])
      expect(found.pagination.total).toBe(1)
      expect((await combined(path, "?status=approved"))[field] as ReadonlyArray<Listing>).not.toContainEqual(expect.objectContaining({ _id: made._id }))

      const edited = await call(url(), "PUT", `${path}/${made._id}`, { token: staff.admin, body: { name: "Renamed", description: "New text", version: 1 } })
      expect(edited.status).toBe(200)
      expect((edited.body.data as { listing: Listing }).listing).toMatchObject({ name: "Renamed", version: 2, status: "pending" })
      const removed = await call(url(), "DELETE", `${path}/${made._id}?version=2`, { token: staff.admin })
      expect(removed.status).toBe(200)
      const log = await sqlRows((sql) => sql<{ action: string }>`SELECT action FROM activity_log WHERE entity_id = ${made._id} ORDER BY id`)
      expect(log.map((row) => row.action)).toEqual(["listing.create", "listing.update", "listing.delete"])
      expect((await combined(path)).counts).toEqual(await actualCounts(type))
    })

    it("requires Name and Description, and names the field", async () => {
      const answer = await call(url(), "POST", path, { token: staff.admin, body: { name: "  ", description: "" } })
      expect(answer.status).toBe(400)
      expect(answer.text).toContain("name")
      expect(answer.text).toContain("description")
    })

    it("lets moderators change the status but not create, edit or delete (403)", async () => {
      const made = await listing(path)
      const created = await call(url(), "POST", path, { token: staff.moderator, body: { name: "X", description: "Y" } })
      expect(created.status).toBe(403)
      expect(created.body.error).toBe(listingMessages.readOnly)
      expect((await call(url(), "PUT", `${path}/${made._id}`, { token: staff.moderator, body: { name: "X", description: "Y", version: 1 } })).status).toBe(403)
      expect((await call(url(), "DELETE", `${path}/${made._id}?version=1`, { token: staff.moderator })).status).toBe(403)
      const approved = await call(url(), "PUT", `${path}/${made._id}/status`, {
        token: staff.moderator,
        body: { status: "approved", version: 1, notes: "Looks fine" }
      })
      expect(approved.status).toBe(200)
      expect((approved.body.data as { listing: Listing }).listing).toMatchObject({ status: "approved", version: 2, moderationNotes: "Looks fine" })
      expect((await call(url(), "GET", `${path}/combined`, {})).status).toBe(401)
    })

    it("allows exactly the spec's moves; any other is a 409 naming the current status, and changes nothing", async () => {
      for (const from of listingStatuses) {
        for (const to of listingStatuses) {
          const made = await listing(path, from)
          const answer = await call(url(), "PUT", `${path}/${made._id}/status`, { token: staff.moderator, body: { status: to, version: made.version } })
          if (legalMoves[from].includes(to)) {
            expect(answer.status, `${from} → ${to}`).toBe(200)
            const moved = answer.body.data as { listing: Listing; eventId: string }
            expect(moved.listing).toMatchObject({ status: to, version: made.version + 1 })
            const event = await sqlRows(
              (sql) => sql<{ fromState: string; toState: string; action: string }>`
              SELECT action, from_state, to_state FROM activity_log WHERE id = ${moved.eventId}::bigint`
            )
            expect(event).toEqual([{ action: "listing.status", fromState: from, toState: to }])
          } else {
            expect(answer.status, `${from} → ${to}`).toBe(409)
            expect(answer.body.error).toBe(listingMessages.illegal(from, to))
            const [row] = await sqlRows((sql) => sql<{ status: string; version: number }>`SELECT status, version FROM listings WHERE id = ${made._id}`)
            expect(row).toEqual({ status: from, version: made.version })
          }
        }
      }
      expect((await combined(path)).counts).toEqual(await actualCounts(type))
    })

    it("answers 409 to a stale version and 404 to a listing that is gone", async () => {
      const made = await listing(path)
      const stale = await call(url(), "PUT", `${path}/${made._id}/status`, { token: staff.moderator, body: { status: "approved", version: 7 } })
      expect(stale.status).toBe(409)
      expect(stale.body.error).toBe(listingMessages.stale)
      expect((await call(url(), "PUT", `${path}/${made._id}`, { token: staff.admin, body: { name: "A", description: "B", version: 9 } })).status).toBe(409)
      expect((await call(url(), "DELETE", `${path}/${made._id}?version=1`, { token: staff.admin })).status).toBe(200)
      const gone = await call(url(), "PUT", `${path}/${made._id}/status`, { token: staff.moderator, body: { status: "approved", version: 1 } })
      expect(gone.status).toBe(404)
      expect(gone.body.error).toBe(listingMessages.notFound)
    })
  })

  it("exports every listing the filters match as CSV, formulas neutralised", async () => {
    const marker = `csv-${++serial}`
    for (const name of [`${marker} one`, `=HYPERLINK("x") ${marker}`, `${marker} "quoted", too`]) {
      expect((await call(url(), "POST", "/api/admin/influencers", { token: staff.admin, body: { name, description: "Line one\nline two" } })).status).toBe(200)
    }
    const answer = await call(url(), "GET", `/api/admin/influencers/combined?format=csv&search=${marker}`, { token: staff.moderator })
    expect(answer.status).toBe(200)
    expect(answer.headers.get("content-type")).toContain("text/csv")
    expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename="influencers-\d{4}-\d{2}-\d{2}\.csv"$/)
    const records = csvObjects(answer.text)
    expect(records.map((record) => record.name).sort()).toEqual([`${marker} "quoted", too`, `${marker} one`, `'=HYPERLINK("x") ${marker}`].sort())
    expect(records.every((record) => record.type === "influencer" && record.status === "pending" && record.description === "Line one\nline two")).toBe(true)
    const byHeader = await call(url(), "GET", `/api/admin/listings?type=influencer&search=${marker}`, {
      token: staff.moderator,
      headers: { accept: "text/csv" }
    })
    expect(csvObjects(byHeader.text)).toHaveLength(3)
  })

  it("keeps communities and influencers apart: one type's id is a 404 on the other's calls", async () => {
    const community = await listing("/api/admin/communities")
    const answer = await call(url(), "PUT", `/api/admin/influencers/${community._id}/status`, { token: staff.admin, body: { status: "approved", version: 1 } })
    expect(answer.status).toBe(404)
  })

  describe("moderation across types", () => {
    it("moderates by action with notes, lists by status and type, and deletes", async () => {
      const made = await listing("/api/admin/influencers")
      const answer = await call(url(), "PUT", `/api/admin/listings/${made._id}`, {
        token: staff.moderator,
        body: { action: "reject", notes: "Spam", version: 1 }
      })
      expect(answer.status).toBe(200)
      expect((answer.body.data as { listing: Listing }).listing).toMatchObject({ status: "rejected", moderationNotes: "Spam" })
      const listed = await call(url(), "GET", "/api/admin/listings?status=rejected&type=influencer", { token: staff.moderator })
      expect((listed.body.data as { listings: ReadonlyArray<Listing> }).listings.map((row) => row._id)).toContain(made._id)
      expect((listed.body.data as { counts: Counts }).counts).toEqual(await actualCounts("influencer"))
      expect((await call(url(), "DELETE", `/api/admin/listings/${made._id}?version=2`, { token: staff.moderator })).status).toBe(403)
      expect((await call(url(), "DELETE", `/api/admin/listings/${made._id}?version=2`, { token: staff.admin })).status).toBe(200)
    })

    it("undoes exactly one status change while the listing is as that change left it, and logs the undo", async () => {
      const made = await listing("/api/admin/communities")
      const rejected = await call(url(), "PUT", `/api/admin/listings/${made._id}`, { token: staff.moderator, body: { action: "reject", version: 1 } })
      const { eventId } = rejected.body.data as { eventId: string }
      const undone = await call(url(), "POST", `/api/admin/listings/${made._id}/undo`, { token: staff.moderator, body: { eventId } })
      expect(undone.status).toBe(200)
      expect((undone.body.data as { listing: Listing }).listing).toMatchObject({ status: "pending", version: 3 })
      const again = await call(url(), "POST", `/api/admin/listings/${made._id}/undo`, { token: staff.moderator, body: { eventId } })
      expect(again.status).toBe(409)
      expect(again.body.error).toBe(listingMessages.changedAfter)
      const log = await sqlRows(
        (sql) => sql<{ action: string; fromState: string; toState: string }>`
        SELECT action, from_state, to_state FROM activity_log WHERE entity_id = ${made._id} AND action <> 'listing.create' ORDER BY id`
      )
      expect(log).toEqual([
        { action: "listing.status", fromState: "pending", toState: "rejected" },
        { action: "listing.undo", fromState: "rejected", toState: "pending" }
      ])
    })

    it("refuses to undo after a later change, or with an event of another listing", async () => {
      const made = await listing("/api/admin/communities")
      const other = await listing("/api/admin/communities")
      const approved = await call(url(), "PUT", `/api/admin/listings/${made._id}`, { token: staff.moderator, body: { action: "approve", version: 1 } })
      const { eventId } = approved.body.data as { eventId: string }
      const wrong = await call(url(), "POST", `/api/admin/listings/${other._id}/undo`, { token: staff.moderator, body: { eventId } })
      expect(wrong.status).toBe(400)
      expect(wrong.body.error).toBe(listingMessages.notUndoable)
      await call(url(), "PUT", `/api/admin/communities/${made._id}`, { token: staff.admin, body: { name: "Edited", description: "Later", version: 2 } })
      const late = await call(url(), "POST", `/api/admin/listings/${made._id}/undo`, { token: staff.moderator, body: { eventId } })
      expect(late.status).toBe(409)
      expect(late.body.error).toBe(listingMessages.changedAfter)
    })

    it("applies a bulk action to all or none, naming each offender", async () => {
      const pending = await Promise.all([1, 2, 3].map(() => listing("/api/admin/communities")))
      const approvedOne = await listing("/api/admin/influencers", "approved")
      const before = await actualCounts("community")
      const refused = await call(url(), "POST", "/api/admin/listings/bulk", {
        token: staff.moderator,
        body: { ids: [...pending.map((row) => row._id), approvedOne._id], action: "reject" }
      })
      expect(refused.status).toBe(409)
      expect(refused.body.offenders).toEqual([{ _id: approvedOne._id, reason: listingMessages.illegal("approved", "rejected") }])
      expect(await actualCounts("community")).toEqual(before)

      const done = await call(url(), "POST", "/api/admin/listings/bulk", {
        token: staff.moderator,
        body: { ids: pending.map((row) => row._id), action: "reject", notes: "Batch" }
      })
      expect(done.status).toBe(200)
      const moved = (done.body.data as { listings: ReadonlyArray<{ _id: string; status: string; version: number; eventId: string }> }).listings
      expect(moved.map((row) => [row._id, row.status, row.version]).sort()).toEqual(pending.map((row) => [row._id, "rejected", 2]).sort())
      expect(new Set(moved.map((row) => row.eventId)).size).toBe(3)
      expect((await combined("/api/admin/communities")).counts).toEqual(await actualCounts("community"))
      const undone = await call(url(), "POST", `/api/admin/listings/${moved[0]!._id}/undo`, { token: staff.moderator, body: { eventId: moved[0]!.eventId } })
      expect((undone.body.data as { listing: Listing }).listing.status).toBe("pending")

      const duplicate = await call(url(), "POST", "/api/admin/listings/bulk", {
        token: staff.moderator,
        body: { ids: [pending[1]!._id, pending[1]!._id], action: "approve" }
      })
      expect(duplicate.status).toBe(400)
    })
  })

  describe("public site", () => {
    it("lists approved listings only, without staff notes, and with no token", async () => {
      const approved = await listing("/api/admin/communities", "approved")
      const pending = await listing("/api/admin/communities")
      const answer = await call(url(), "GET", "/api/listings/community?limit=100")
      expect(answer.status).toBe(200)
      const rows = (answer.body.data as { listings: ReadonlyArray<Record<string, unknown>> }).listings
      expect(rows.map((row) => row._id)).toContain(approved._id)
      expect(rows.map((row) => row._id)).not.toContain(pending._id)
      expect(Object.keys(rows[0]!).sort()).toEqual(["_id", "createdAt", "description", "name", "type"])
    })

    it("stores a submission pending whatever it claims, and limits submissions per client address", async () => {
      const ip = freshIp()
      const answer = await call(url(), "POST", "/api/listings/influencer", { ip, body: { name: "Pi Daily", description: "Videos", status: "approved" } })
      expect(answer.status).toBe(200)
      const id = (answer.body.data as { listing: { _id: string } }).listing._id
      const [row] = await sqlRows((sql) => sql<{ status: string; submittedFrom: string }>`SELECT status, submitted_from FROM listings WHERE id = ${id}`)
      expect(row).toEqual({ status: "pending", submittedFrom: ip })
      for (let n = 2; n <= 5; n++) {
        expect((await call(url(), "POST", "/api/listings/influencer", { ip, body: { name: `Pi ${n}`, description: "Videos" } })).status).toBe(200)
      }
      const countBefore = await actualCounts("influencer")
      const limited = await call(url(), "POST", "/api/listings/influencer", { ip, body: { name: "One more", description: "Videos" } })
      expect(limited.status).toBe(429)
      expect(limited.body.error).toMatch(/^Too many submissions from your address\. Try again in \d+ minutes?\.$/)
      expect(await actualCounts("influencer")).toEqual(countBefore)
      expect((await call(url(), "POST", "/api/listings/influencer", { ip: freshIp(), body: { name: "Elsewhere", description: "Videos" } })).status).toBe(200)
    })

    it("needs an admin token to edit or delete under the public path", async () => {
      const made = await listing("/api/admin/communities")
      expect((await call(url(), "PUT", `/api/listings/community/${made._id}`, { body: { name: "X", description: "Y", version: 1 } })).status).toBe(401)
      expect(
        (await call(url(), "PUT", `/api/listings/community/${made._id}`, { token: staff.moderator, body: { name: "X", description: "Y", version: 1 } })).status
      ).toBe(403)
      expect(
        (await call(url(), "PUT", `/api/listings/influencer/${made._id}`, { token: staff.admin, body: { name: "X", description: "Y", version: 1 } })).status
      ).toBe(404)
      expect(
        (await call(url(), "PUT", `/api/listings/community/${made._id}`, { token: staff.admin, body: { name: "X", description: "Y", version: 1 } })).status
      ).toBe(200)
      expect((await call(url(), "DELETE", `/api/listings/community/${made._id}?version=2`, { token: staff.admin })).status).toBe(200)
    })
  })
})
