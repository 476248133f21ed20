import { afterAll, describe, expect, it } from "vitest"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { startTestServer, type TestServer } from "../support/server.ts"
import { serverWithStaff, signedInAs } from "../support/session.ts"
import { openStream, type StreamEvent } from "../support/stream.ts"

/** What a change event's data holds (contract/stream.ts, ChangeEventData). */
interface Data {
  readonly type: string
  readonly area: string
  readonly kind: string
  readonly entityId: string
  readonly version: number | null
  readonly changes: Record<string, unknown>
  readonly fields: Record<string, unknown> | null
}
const dataOf = (event: StreamEvent) => event.data as Data

const submitListings = async (base: string, count: number) =>
  Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const answer = await call(base, "POST", "/api/listings/community", { ip: freshIp(), body: { name: `Bulk Pioneers ${index}`, description: "A group" } })
      expect(answer.status, answer.text).toBe(200)
      return (answer.body.data as { listing: { _id: string } }).listing._id
    })
  )

/** A post far over PostgreSQL's 8000-byte NOTIFY limit. */
const longContent = `<p>${"Pioneers build the open network together. ".repeat(600)}</p>`

describe.each(engines)("change events with their fields on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  let superToken = ""
  const superAdmin = async () => (superToken ||= await signedInAs(staff.server, "super_admin"))

  it("gives each reader the areas they may read: a moderator never hears admin users, allowed addresses or protected data", async () => {
    const token = await superAdmin()
    const moderator = await openStream(url(), staff.moderator)
    const boss = await openStream(url(), token)
    await Promise.all([moderator.ready(), boss.ready()])
    const [listing] = await submitListings(url(), 1)
    const secret = "s3cret-stream-value-never-sent"
    const made = await call(url(), "POST", "/api/admin/protected-data", {
      token,
      body: { type: "api-key", key: `stream-${Date.now()}`, value: secret, description: "Payments" }
    })
    expect(made.status, made.text).toBe(200)
    const protectedId = (made.body.data as { record: { _id: string } }).record._id
    // Each record's next change waits for its first to be heard: a server that reads a record
    // already past an event's version sends that event without fields (docs/api.md, "Live changes").
    const heardFirst = (id: string) => () => boss.changes().some((event) => dataOf(event).entityId === id)
    await boss.until(heardFirst(protectedId), "the protected record's creation")
    const rotated = await call(url(), "PUT", `/api/admin/protected-data/${protectedId}`, {
      token,
      body: { type: "api-key", key: (made.body.data as { record: { key: string } }).record.key, value: `${secret}-rotated`, description: "Rotated", version: 1 }
    })
    expect(rotated.status, rotated.text).toBe(200)
    const user = await call(url(), "POST", "/api/admin/users", { token, body: { email: `streamed-${Date.now()}@example.com`, role: "moderator" } })
    expect(user.status, user.text).toBe(200)
    const userId = (user.body.data as { user: { _id: string } }).user._id
    const address = await call(url(), "POST", "/api/admin/ip-management", { token, body: { ip: "0.0.0.0/0", description: "Everyone, for the stream" } })
    expect(address.status, address.text).toBe(200)
    const addressId = (address.body.data as { ip: { _id: string } }).ip._id
    await boss.until(heardFirst(addressId), "the allowed address's creation")
    expect((await call(url(), "DELETE", `/api/admin/ip-management/${addressId}`, { token })).status).toBe(200)
    // The last change of all is a listing's: once the moderator has it, every earlier one was sent.
    expect((await call(url(), "PUT", `/api/admin/listings/${listing}`, { token: staff.moderator, body: { action: "approve", version: 1 } })).status).toBe(200)
    const approved = (stream: typeof moderator) => () => stream.changes().some((event) => dataOf(event).entityId === listing && dataOf(event).version === 2)
    await Promise.all([moderator.until(approved(moderator), "the approval"), boss.until(approved(boss), "the approval")])

    const heard = (stream: typeof moderator) => stream.changes().map(dataOf)
    expect(heard(moderator).filter((data) => data.entityId === listing)).toMatchObject([
      { type: "listing.created", area: "listing", kind: "community", version: 1, fields: { _id: listing, status: "pending", version: 1 } },
      { type: "listing.updated", area: "listing", kind: "community", version: 2, changes: { status: "approved" }, fields: { status: "approved", version: 2 } }
    ])
    expect(heard(moderator).map((data) => data.area)).not.toEqual(expect.arrayContaining(["admin"]))
    for (const area of ["admin", "ip", "protected-data"]) expect(heard(moderator).some((data) => data.area === area)).toBe(false)
    expect(heard(moderator).some((data) => [protectedId, userId, addressId].includes(data.entityId))).toBe(false)

    expect(heard(boss).filter((data) => data.entityId === protectedId)).toMatchObject([
      {
        type: "protected-data.created",
        kind: "protected-data",
        version: 1,
        fields: { _id: protectedId, type: "api-key", description: "Payments", version: 1 }
      },
      { type: "protected-data.updated", version: 2, changes: { description: "Rotated" }, fields: { description: "Rotated", version: 2 } }
    ])
    expect(heard(boss).find((data) => data.entityId === userId)).toMatchObject({ type: "admin.created", fields: { _id: userId, role: "moderator" } })
    expect(heard(boss).filter((data) => data.entityId === addressId)).toMatchObject([
      { type: "ip.created", fields: { _id: addressId, ip: "0.0.0.0/0" } },
      { type: "ip.deleted", version: null, fields: null }
    ])
    // A protected value is in no event, neither its record's fields nor what changed.
    for (const stream of [moderator, boss]) expect(JSON.stringify(stream.events)).not.toContain(secret)
    expect(
      heard(boss)
        .filter((data) => data.entityId === protectedId)
        .every((data) => !("value" in (data.fields ?? {})) && !("value" in data.changes))
    ).toBe(true)
    await Promise.all([moderator.close(), boss.close()])
  })

  it("carries a bulk change of many records as one event each, with consecutive versions per record", async () => {
    const ids = await submitListings(url(), 60)
    const stream = await openStream(url(), staff.moderator)
    await stream.ready()
    for (const action of ["reject", "approve"]) {
      const bulk = await call(url(), "POST", "/api/admin/listings/bulk", { token: staff.moderator, body: { ids, action } })
      expect(bulk.status, bulk.text).toBe(200)
    }
    await stream.until(() => stream.changes().length >= 120, "both bulk changes", 15_000)
    expect(stream.changes()).toHaveLength(120)
    for (const id of ids) {
      const own = stream
        .changes()
        .map(dataOf)
        .filter((data) => data.entityId === id)
      expect(own.map((data) => data.version)).toEqual([2, 3])
      expect(own.map((data) => data.changes.status)).toEqual(["rejected", "approved"])
      // The record as it is now comes with the event of its version; an event read after the
      // record moved on carries no fields (the console reads the record again).
      expect(own[1]?.fields).toMatchObject({ status: "approved", version: 3 })
      expect(own[0]?.fields === null || own[0]?.fields?.status === "rejected").toBe(true)
    }
    await stream.close()
  })

  it("delivers a post bigger than a NOTIFY payload whole, and catches it up after a reconnect", async () => {
    const stream = await openStream(url(), staff.moderator)
    await stream.ready()
    const start = stream.events.find((event) => event.event === "ready")!.id
    await stream.close()
    const made = await call(url(), "POST", "/api/blog/admin/posts", {
      token: staff.admin,
      body: { title: "A long read", content: longContent, status: "draft" }
    })
    expect(made.status, made.text).toBe(200)
    const post = (made.body as { post: { _id: string; content: string } }).post
    expect(post.content.length).toBeGreaterThan(8000)
    const resumed = await openStream(url(), staff.moderator, start)
    await resumed.ready()
    expect(resumed.changes().map(dataOf)).toMatchObject([
      {
        type: "blog.created",
        area: "blog",
        kind: "blog",
        entityId: post._id,
        version: 1,
        fields: { _id: post._id, title: "A long read", content: post.content }
      }
    ])
    await resumed.close()
  })
})

describe.runIf(engines.length > 1)("change events with their fields across server processes on postgresql", () => {
  const staff = serverWithStaff(engines[1]!)
  const others: Array<TestServer> = []
  afterAll(async () => {
    for (const server of others) await server.stop()
  })

  it("both servers deliver the record, a post over 8000 bytes included", async () => {
    const other = await startTestServer({ target: { engine: "postgresql", url: staff.server.config.databaseUrl! }, drop: () => Promise.resolve() })
    others.push(other)
    const here = await openStream(staff.server.url, staff.moderator)
    const there = await openStream(other.url, staff.moderator)
    await Promise.all([here.ready(), there.ready()])
    const made = await call(staff.server.url, "POST", "/api/blog/admin/posts", {
      token: staff.admin,
      body: { title: "Seen on both", content: longContent, status: "draft" }
    })
    expect(made.status, made.text).toBe(200)
    const post = (made.body as { post: { _id: string; content: string } }).post
    for (const stream of [here, there]) {
      await stream.until(() => stream.changes().some((event) => dataOf(event).entityId === post._id), "the post")
      expect(stream.changes().map(dataOf)).toMatchObject([{ type: "blog.created", version: 1, fields: { _id: post._id, content: post.content, version: 1 } }])
    }
    await Promise.all([here.close(), there.close()])
  })
})
