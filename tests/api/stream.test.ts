import { afterAll, describe, expect, it } from "vitest"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { startTestServer, type TestServer } from "../support/server.ts"
import { serverWithStaff, signedInAs } from "../support/session.ts"
import { openStream } from "../support/stream.ts"
import { CATCH_UP_LIMIT } from "../../server/stream/changes.ts"
import { STREAM_POSITION_HEADER } from "../../contract/stream-position.ts"

describe.each(engines)("the change stream on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  const report = async (base = url()) => {
    const answer = await call(base, "POST", "/api/report-scam", { ip: freshIp(), body: { scamType: "phishing", description: "A fake wallet site" } })
    expect(answer.status, answer.text).toBe(200)
    return (answer.body.data as { _id: string })._id
  }

  it("refuses a stream without a session and a malformed Last-Event-ID", async () => {
    expect((await call(url(), "GET", "/api/admin/stream")).status).toBe(401)
    // Not an event id: words, a negative number, one past the log's ids (a bigint), empty.
    for (const id of ["12; DROP", "abc", "-1", "9223372036854775808", "9999999999999999999", ""]) {
      const malformed = await call(url(), "GET", "/api/admin/stream", { token: staff.moderator, headers: { "last-event-id": id } })
      expect(malformed.status, id).toBe(400)
      expect(malformed.body, id).toMatchObject({ success: false, error: "Invalid request header: last-event-id: must be an event id" })
    }
    // The highest id there can be is one: nothing follows it yet.
    const highest = await openStream(url(), staff.moderator, "9223372036854775807")
    await highest.ready()
    expect(highest.events.find((event) => event.event === "ready")!.data).toEqual({ after: "9223372036854775807", complete: true })
    await highest.close()
  })

  it("carries a new report and each change to it to every connected console, with the report after each", async () => {
    const first = await openStream(url(), staff.moderator)
    const second = await openStream(url(), staff.admin)
    expect(first.response.headers.get("content-type")).toContain("text/event-stream")
    await Promise.all([first.ready(), second.ready()])
    const id = await report()
    for (const stream of [first, second]) {
      await stream.until(() => stream.changes().some((event) => (event.data as { entityId: string }).entityId === id), "created")
      expect(stream.changes().at(-1)!.data).toMatchObject({ type: "scam-report.created", area: "scam-report", kind: "scam-report", entityId: id, version: 1 })
      expect(stream.changes().at(-1)!.data).toMatchObject({ fields: { _id: id, status: "new", description: "A fake wallet site", version: 1 } })
    }
    await call(url(), "PATCH", `/api/report-scam/${id}`, { token: staff.admin, body: { status: "resolved", version: 1 } })
    await first.until(() => first.changes().length === 2, "updated")
    expect(first.changes()[1]!.data).toMatchObject({
      type: "scam-report.updated",
      entityId: id,
      version: 2,
      changes: { status: "resolved" },
      fields: { _id: id, status: "resolved", version: 2 }
    })
    // Event ids rise, and a refused change announces nothing.
    expect(BigInt(first.changes()[1]!.id)).toBeGreaterThan(BigInt(first.changes()[0]!.id))
    expect((await call(url(), "PATCH", `/api/report-scam/${id}`, { token: staff.admin, body: { status: "new", version: 1 } })).status).toBe(409)
    await call(url(), "DELETE", `/api/report-scam/${id}?version=2`, { token: staff.admin })
    await first.until(() => first.changes().length === 3, "deleted")
    expect(first.changes().map((event) => (event.data as { type: string }).type)).toEqual(["scam-report.created", "scam-report.updated", "scam-report.deleted"])
    // A removal carries no version and no record: the store drops it.
    expect(first.changes()[2]!.data).toMatchObject({ version: null, fields: null, changes: {} })
    await Promise.all([first.close(), second.close()])
  })

  it("carries advertising inquiries too: a public one arriving and a staff member moving it", async () => {
    const stream = await openStream(url(), staff.moderator)
    await stream.ready()
    const submitted = await call(url(), "POST", "/api/advertising-inquiries", {
      ip: freshIp(),
      body: { companyName: "Streamed", contactName: "A", email: "a@example.com", industry: "Other" }
    })
    const id = (submitted.body.data as { _id: string })._id
    // The arrival is read at its version before the move: an event read after its record moved on carries no fields (by design).
    await stream.until(() => stream.changes().length === 1, "the arrival")
    expect((await call(url(), "PUT", `/api/advertising-inquiries/${id}`, { token: staff.admin, body: { status: "contacted", version: 1 } })).status).toBe(200)
    await stream.until(() => stream.changes().length === 2, "both")
    expect(stream.changes().map((event) => event.data)).toMatchObject([
      { type: "inquiry.created", entityId: id, version: 1, fields: { _id: id, companyName: "Streamed", status: "pending", version: 1 } },
      { type: "inquiry.updated", entityId: id, version: 2, changes: { status: "contacted" }, fields: { _id: id, status: "contacted", version: 2 } }
    ])
    await stream.close()
  })

  it("carries listings: a public submission, a moderation, a refused one announcing nothing, a bulk change and an undo", async () => {
    const stream = await openStream(url(), staff.moderator)
    await stream.ready()
    const submitted = await call(url(), "POST", "/api/listings/community", { ip: freshIp(), body: { name: "Streamed Pioneers", description: "A group" } })
    expect(submitted.status, submitted.text).toBe(200)
    const id = (submitted.body.data as { listing: { _id: string } }).listing._id
    const moved = await call(url(), "PUT", `/api/admin/listings/${id}`, { token: staff.moderator, body: { action: "approve", version: 1 } })
    expect(moved.status, moved.text).toBe(200)
    expect((await call(url(), "PUT", `/api/admin/listings/${id}`, { token: staff.moderator, body: { action: "approve", version: 1 } })).status).toBe(409)
    const undone = await call(url(), "POST", `/api/admin/listings/${id}/undo`, {
      token: staff.moderator,
      body: { eventId: (moved.body.data as { eventId: string }).eventId }
    })
    expect(undone.status, undone.text).toBe(200)
    const bulk = await call(url(), "POST", "/api/admin/listings/bulk", { token: staff.moderator, body: { ids: [id], action: "reject" } })
    expect(bulk.status, bulk.text).toBe(200)
    await stream.until(() => stream.changes().length === 4, "all four")
    expect(stream.changes().map((event) => event.data)).toMatchObject([
      { type: "listing.created", kind: "community", entityId: id, version: 1 },
      { type: "listing.updated", kind: "community", entityId: id, version: 2, changes: { status: "approved" } },
      { type: "listing.updated", kind: "community", entityId: id, version: 3, changes: { status: "pending" } },
      {
        type: "listing.updated",
        kind: "community",
        entityId: id,
        version: 4,
        changes: { status: "rejected" },
        fields: { _id: id, status: "rejected", version: 4 }
      }
    ])
    await stream.close()
  })

  it("resumes after a reconnect from Last-Event-ID, with what it missed and nothing twice", async () => {
    const stream = await openStream(url(), staff.moderator)
    await stream.ready()
    const seen = await report()
    await stream.until(() => stream.changes().length === 1, "the first")
    const lastSeen = stream.changes()[0]!.id
    await stream.close()
    const missed = [await report(), await report()]
    const resumed = await openStream(url(), staff.moderator, lastSeen)
    await resumed.ready()
    expect(resumed.changes().map((event) => (event.data as { entityId: string }).entityId)).toEqual(missed)
    // What it missed arrives as the live events do: with the record at its version.
    expect(resumed.changes().map((event) => event.data)).toMatchObject(
      missed.map((id) => ({ type: "scam-report.created", entityId: id, version: 1, fields: { _id: id, status: "new", version: 1 } }))
    )
    expect(resumed.changes().some((event) => (event.data as { entityId: string }).entityId === seen)).toBe(false)
    const ready = resumed.events.find((event) => event.event === "ready")!
    expect(ready.id).toBe(resumed.changes().at(-1)!.id)
    await resumed.close()
  })

  it("says on staff's reads where the stream stood, so a stream started there brings every change the read lacks", async () => {
    const before = await report()
    const read = await call(url(), "GET", "/api/report-scam?limit=100", { token: staff.moderator })
    expect(read.status).toBe(200)
    const position = read.headers.get(STREAM_POSITION_HEADER)
    expect(position).toMatch(/^\d+$/)
    expect((read.body.data as { reports: Array<{ _id: string }> }).reports.some((row) => row._id === before)).toBe(true)
    const after = [await report(), await report()]
    const stream = await openStream(url(), staff.moderator, position!)
    await stream.ready()
    // The changes after the read, none that the read already had.
    expect(stream.changes().map((event) => (event.data as { entityId: string }).entityId)).toEqual(after)
    expect(stream.events.find((event) => event.event === "ready")!.data).toMatchObject({ complete: true })
    await stream.close()
    // Not to anyone without a session: no token, or a token that is none, on a staff read or a public one.
    for (const token of [undefined, "junk"]) {
      for (const path of ["/api/report-scam", "/api/health/live", "/api/listings/business", "/api/blog/posts"]) {
        const answer = await call(url(), "GET", path, { token })
        expect(answer.headers.get(STREAM_POSITION_HEADER), `${path} with ${token ?? "no token"}`).toBeNull()
      }
    }
    expect((await call(url(), "GET", "/api/admin/users", { token: staff.moderator })).status).toBe(403)
    expect((await call(url(), "GET", "/api/admin/users", { token: staff.moderator })).headers.get(STREAM_POSITION_HEADER)).toBeNull()
  })

  it("carries a catch-up of up to 500 changes whole, and past that says it was cut and starts from the newest", async () => {
    const stream = await openStream(url(), staff.moderator)
    await stream.ready()
    await report()
    await stream.until(() => stream.changes().length === 1, "the first")
    const lastSeen = stream.changes()[0]!.id
    await stream.close()
    const reports = async (count: number) => {
      const made: Array<string> = []
      for (let start = 0; start < count; start += 25) made.push(...(await Promise.all(Array.from({ length: Math.min(25, count - start) }, () => report()))))
      return made
    }
    const resumedFrom = async () => {
      const resumed = await openStream(url(), staff.moderator, lastSeen)
      await resumed.ready()
      await resumed.close()
      return { changes: resumed.changes(), ready: resumed.events.find((event) => event.event === "ready")! }
    }
    await reports(CATCH_UP_LIMIT)
    const whole = await resumedFrom()
    expect(whole.changes).toHaveLength(CATCH_UP_LIMIT)
    expect(whole.ready.data).toEqual({ after: whole.changes.at(-1)!.id, complete: true })
    // One more: the catch-up would not be all of it, so none is sent, and the stream starts from the newest.
    const newest = (await reports(1))[0]!
    // Ten consoles back at once from the same absence: each is told, none is sent a part.
    const cuts = await Promise.all(Array.from({ length: 10 }, resumedFrom))
    for (const each of cuts) {
      expect(each.changes).toEqual([])
      expect(each.ready.data).toEqual({ after: each.ready.id, complete: false })
    }
    const cut = cuts[0]!
    expect(BigInt(cut.ready.id)).toBeGreaterThan(BigInt(whole.ready.id))
    // From there on it is complete again: what follows the newest arrives.
    const from = await openStream(url(), staff.moderator, cut.ready.id)
    await from.ready()
    const after = await report()
    await from.until(() => from.changes().some((event) => (event.data as { entityId: string }).entityId === after), "the next")
    expect(from.changes().some((event) => (event.data as { entityId: string }).entityId === newest)).toBe(false)
    expect(from.events.find((event) => event.event === "ready")!.data).toEqual({ after: cut.ready.id, complete: true })
    await from.close()
  })

  it("ends when its session is signed out", async () => {
    const token = await signedInAs(staff.server, "moderator")
    const stream = await openStream(url(), token)
    await stream.ready()
    expect((await call(url(), "POST", "/api/admin/auth/logout", { token })).status).toBe(200)
    await stream.until(() => stream.ended(), "the end", 5000)
    expect(stream.ended()).toBe(true)
    await stream.close()
  })
})

describe.runIf(engines.length > 1)("the change stream across server processes on postgresql", () => {
  const staff = serverWithStaff(engines[1]!)
  const others: Array<TestServer> = []
  afterAll(async () => {
    for (const server of others) await server.stop()
  })

  it("delivers a report taken by one server to a console connected to another (NOTIFY)", async () => {
    const other = await startTestServer({ target: { engine: "postgresql", url: staff.server.config.databaseUrl! }, drop: () => Promise.resolve() })
    others.push(other)
    const stream = await openStream(other.url, staff.moderator)
    await stream.ready()
    const answer = await call(staff.server.url, "POST", "/api/report-scam", { ip: freshIp(), body: { scamType: "other", description: "Seen elsewhere" } })
    const id = (answer.body.data as { _id: string })._id
    await stream.until(() => stream.changes().some((event) => (event.data as { entityId: string }).entityId === id), "across processes")
    await stream.close()
  })
})
