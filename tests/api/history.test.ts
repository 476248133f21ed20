import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import type { CoreTeamContact } from "../../contract/contacts.ts"
import { type HistoryEntry } from "../../contract/history.ts"
import { historyMessages } from "../../contract/history-rules.ts"
import { historyPage, versionAt } from "../../server/history/repository.ts"
import { migrate } from "../../server/platform/migrations.ts"
import { engines } from "../support/database.ts"
import { beforeMigration } from "../support/migrations.ts"
import { call } from "../support/http.ts"
import { serverWithStaff, signedInAs } from "../support/session.ts"

/**
 * Record history (docs/api.md, "Record history"): every change through the write path keeps the
 * version it made and the fields it changed; any version is rebuilt; a restore writes an old
 * version as a new one at the version the caller saw; a removed record comes back; protected
 * values never enter it; the right roles see and restore. On both engines.
 */
describe.each(engines)("record history on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  type Page = { entries: ReadonlyArray<HistoryEntry>; current: { version: number; removed: boolean }; pagination: { total: number } }
  const history = async (kind: string, id: string, token = staff.admin, query = "") => {
    const answer = await call(url(), "GET", `/api/admin/history/${kind}/${id}${query}`, { token })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.data as Page
  }
  const version = async (kind: string, id: string, n: number) => {
    const answer = await call(url(), "GET", `/api/admin/history/${kind}/${id}/versions/${n}`, { token: staff.admin })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.data as { version: number; removed: boolean; content: Record<string, unknown>; hidden: ReadonlyArray<string> }
  }
  const restore = (kind: string, id: string, body: { version: number; expectedVersion: number }, token = staff.admin) =>
    call(url(), "POST", `/api/admin/history/${kind}/${id}/restore`, { token, body })

  const newContact = async (subject: string) => {
    const answer = await call(url(), "POST", "/api/core-team-contact", {
      token: staff.admin,
      body: { contactInfo: { name: "Grace", role: "Founder" }, inquiry: { subject, details: "First details" } }
    })
    expect(answer.status, answer.text).toBe(200)
    const id = (answer.body.data as { _id: string })._id
    return ((await call(url(), "GET", `/api/core-team-contact/${id}`, { token: staff.admin })).body.data as { contact: CoreTeamContact }).contact
  }
  const edit = (contact: CoreTeamContact, version: number, change: Partial<CoreTeamContact>) =>
    call(url(), "PUT", `/api/core-team-contact/${contact._id}`, {
      token: staff.admin,
      body: { contactInfo: contact.contactInfo, inquiry: contact.inquiry, projectInfo: contact.projectInfo, status: contact.status, ...change, version }
    })

  it("keeps each version with who made it and what changed, rebuilds any version, and restores one as a new version", async () => {
    const contact = await newContact("Partnership")
    expect((await edit(contact, 1, { internalNotes: "Called back" })).status).toBe(200)
    expect((await edit(contact, 2, { inquiry: { ...contact.inquiry, details: "Second details" }, internalNotes: "Called back" })).status).toBe(200)

    const page = await history("contact", contact._id)
    expect(page.current).toEqual({ version: 3, removed: false })
    expect(page.entries.map((entry) => [entry.version, entry.action])).toEqual([
      [3, "contact.update"],
      [2, "contact.update"],
      [1, "contact.create"]
    ])
    expect(page.entries[0]!.changes).toEqual([{ field: "details", before: "First details", after: "Second details", hidden: false }])
    expect(page.entries[1]!.changes).toEqual([{ field: "internalNotes", before: "", after: "Called back", hidden: false }])
    expect(page.entries[2]!.changes).toContainEqual({ field: "subject", before: null, after: "Partnership", hidden: false })
    expect(page.entries[0]!.actorEmail).toMatch(/^admin-/)

    expect((await version("contact", contact._id, 1)).content).toMatchObject({ details: "First details", internalNotes: "" })
    expect((await version("contact", contact._id, 2)).content).toMatchObject({ details: "First details", internalNotes: "Called back" })
    expect((await call(url(), "GET", `/api/admin/history/contact/${contact._id}/versions/9`, { token: staff.admin })).status).toBe(404)

    // At a version the caller did not see: refused, naming the newest.
    const stale = await restore("contact", contact._id, { version: 1, expectedVersion: 2 })
    expect(stale.status).toBe(409)
    // It says who changed the record since.
    expect(stale.body).toMatchObject({ error: expect.stringMatching(/^Someone changed this record since: admin-\d+-\d+@example\.com\./), currentVersion: 3 })
    // What undo would bring back from: the caller's newest change.
    const last = await call(url(), "GET", "/api/admin/history/last", { token: staff.admin })
    expect(last.body.data).toMatchObject({ change: { kind: "contact", id: contact._id, version: 3, action: "contact.update" } })
    expect((await call(url(), "GET", "/api/admin/history/last", { token: await signedInAs(staff.server, "admin") })).body.data).toEqual({ change: null })
    const restored = await restore("contact", contact._id, { version: 1, expectedVersion: 3 })
    expect(restored.status, restored.text).toBe(200)
    expect(restored.body.data).toMatchObject({ version: 4 })
    const now = ((await call(url(), "GET", `/api/core-team-contact/${contact._id}`, { token: staff.admin })).body.data as { contact: CoreTeamContact }).contact
    expect([now.inquiry.details, now.internalNotes, now.version]).toEqual(["First details", "", 4])
    const after = await history("contact", contact._id)
    expect(after.entries[0]).toMatchObject({ version: 4, action: "contact.restore" })
    expect(after.entries[0]!.changes.map((change) => change.field).sort()).toEqual(["details", "internalNotes"])
    // Restoring what it already is writes nothing.
    expect((await restore("contact", contact._id, { version: 1, expectedVersion: 4 })).body).toMatchObject({ error: historyMessages.sameContent(1) })
  })

  it("lets one of twelve concurrent restores at one version through", async () => {
    const contact = await newContact("Racing")
    expect((await edit(contact, 1, { internalNotes: "v2" })).status).toBe(200)
    const answers = await Promise.all(Array.from({ length: 12 }, () => restore("contact", contact._id, { version: 1, expectedVersion: 2 })))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array<number>(11).fill(409)])
    expect((await history("contact", contact._id)).entries.filter((entry) => entry.action === "contact.restore")).toHaveLength(1)
  })

  it("brings a removed listing back from the version before its removal, and one restore of it wins", async () => {
    const made = await call(url(), "POST", "/api/admin/communities", { token: staff.admin, body: { name: "Pi Lagos", description: "Meetups" } })
    const id = (made.body.data as { listing: { _id: string } }).listing._id
    expect((await call(url(), "DELETE", `/api/admin/communities/${id}?version=1`, { token: staff.admin })).status).toBe(200)
    const page = await history("listing", id)
    expect(page.current).toEqual({ version: 2, removed: true })
    expect(page.entries[0]).toMatchObject({ version: 2, removed: true, action: "listing.delete" })
    expect((await restore("listing", id, { version: 2, expectedVersion: 2 })).body).toMatchObject({ error: historyMessages.removedVersion(2) })
    // Found among the kind's removed records, by its name, until it is brought back.
    const removed = async () =>
      ((await call(url(), "GET", "/api/admin/history/listing?limit=100", { token: staff.admin })).body.data as { records: ReadonlyArray<{ id: string }> })
        .records
    expect(await removed()).toContainEqual(expect.objectContaining({ id, label: "Pi Lagos", version: 2 }))
    const answers = await Promise.all([1, 2, 3].map(() => restore("listing", id, { version: 1, expectedVersion: 2 })))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409])
    expect((await removed()).map((record) => record.id)).not.toContain(id)
    const back = await call(url(), "GET", `/api/admin/communities/combined?search=Pi%20Lagos`, { token: staff.admin })
    expect((back.body.data as { communities: ReadonlyArray<{ _id: string; version: number; name: string }> }).communities).toEqual([
      expect.objectContaining({ _id: id, version: 3, name: "Pi Lagos" })
    ])
  })

  it("names only the fields an address of its directory has, made and deleted, and brings it back whole", async () => {
    const owned = {
      cex: ["buy", "category", "createdAt", "description", "identifier", "kind", "logo", "name", "website"],
      generated: ["category", "createdAt", "description", "identifier", "kind", "logo", "name", "rank", "website"],
      "core-team": ["createdAt", "description", "identifier", "kind", "name", "role"]
    } as const
    const bodies = {
      cex: { identifier: "GCEXHIST", name: "Exchange" },
      generated: { identifier: "GGENHIST", Name: "Made" },
      "core-team": { identifier: "GCOREHIST", name: "Founder", role: "Lead" }
    }
    for (const kind of ["cex", "generated", "core-team"] as const) {
      const made = await call(url(), "POST", `/api/admin/addresses/${kind}`, { token: staff.admin, body: bodies[kind] })
      expect(made.status, made.text).toBe(200)
      const id = (made.body.data as { address: { _id: string } }).address._id
      expect((await call(url(), "DELETE", `/api/admin/addresses/${kind}/${id}?version=1`, { token: staff.admin })).status).toBe(200)
      const page = await history("address", id)
      expect(page.entries.map((entry) => [entry.action, entry.changes.map((change) => change.field).sort()])).toEqual([
        ["address.delete", owned[kind]],
        ["address.create", owned[kind]]
      ])
      expect((await restore("address", id, { version: 1, expectedVersion: 2 })).status).toBe(200)
      const back = await call(url(), "GET", `/api/admin/addresses/${kind}?search=${bodies[kind].identifier}`, { token: staff.admin })
      expect((back.body.data as { addresses: ReadonlyArray<{ _id: string; version: number }> }).addresses).toEqual([
        expect.objectContaining({ _id: id, version: 3, identifier: bodies[kind].identifier })
      ])
    }
  })

  it("refuses bringing back a post whose slug another post took since, naming the field", async () => {
    const create = (title: string) =>
      call(url(), "POST", "/api/blog/admin/posts", { token: staff.admin, body: { title, content: "<p>Body</p>", status: "draft" } })
    const first = (await create("History slug")).body.post as { _id: string; slug: string; version: number }
    expect((await call(url(), "DELETE", `/api/blog/admin/posts/${first._id}?version=1`, { token: staff.admin })).status).toBe(200)
    const second = (await create("History slug")).body.post as { slug: string }
    expect(second.slug).toBe(first.slug)
    const refused = await restore("blog", first._id, { version: 1, expectedVersion: 2 })
    expect(refused.status).toBe(409)
    expect(refused.body.error).toBe(historyMessages.taken("The slug"))
    expect((await history("blog", first._id)).current).toEqual({ version: 2, removed: true })
  })

  it("keeps which protected fields changed, never their values, and so restores none", async () => {
    const superToken = await signedInAs(staff.server, "super_admin")
    const body = { type: "api-key", key: `history-${Date.now()}`, value: "s3cret-history-value", description: "Payments" }
    const made = await call(url(), "POST", "/api/admin/protected-data", { token: superToken, body })
    const id = (made.body.data as { record: { _id: string } }).record._id
    expect(
      (await call(url(), "PUT", `/api/admin/protected-data/${id}`, { token: superToken, body: { ...body, value: "rotated-history-value", version: 1 } })).status
    ).toBe(200)
    const page = await history("protected-data", id, superToken)
    expect(page.entries[0]!.changes).toEqual([{ field: "value", before: null, after: null, hidden: true }])
    expect(JSON.stringify(page)).not.toContain("history-value")
    const stored = await staff.server.sql(
      Effect.flatMap(SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM activity_log WHERE changes::text LIKE '%history-value%'`)
    )
    expect(stored[0]?.n).toBe(0)
    expect((await restore("protected-data", id, { version: 1, expectedVersion: 2 }, superToken)).body).toMatchObject({ error: historyMessages.hiddenValues })
  })

  it("shows each role the history of what it may read, and lets only editors restore another's change", async () => {
    const made = await call(url(), "POST", "/api/admin/communities", { token: staff.admin, body: { name: "Pi Accra", description: "Meetups" } })
    const id = (made.body.data as { listing: { _id: string } }).listing._id
    expect((await history("listing", id, staff.moderator)).entries).toHaveLength(1)
    expect((await restore("listing", id, { version: 1, expectedVersion: 1 }, staff.moderator)).status).toBe(403)
    const contact = await newContact("Rights")
    // A kind the role reads: no such post is a 404; a kind it does not: 403 (tests/api/history-rights.test.ts has every kind).
    expect((await call(url(), "GET", `/api/admin/history/blog/${contact._id}`, { token: staff.moderator })).status).toBe(404)
    expect((await call(url(), "GET", `/api/admin/history/admin/${contact._id}`, { token: staff.admin })).status).toBe(403)
    expect((await call(url(), "GET", `/api/admin/history/contact/00000000-0000-4000-8000-000000000000`, { token: staff.admin })).status).toBe(404)
  })

  it("restores a version without a value the record has now: an admin's name, a post's publication time", async () => {
    const superToken = await signedInAs(staff.server, "super_admin")
    const email = `nameless-${Date.now()}@example.com`
    const made = await call(url(), "POST", "/api/admin/users", { token: superToken, body: { email, role: "moderator" } })
    expect(made.status, made.text).toBe(200)
    const id = (made.body.data as { user: { _id: string } }).user._id
    expect((await call(url(), "PUT", `/api/admin/users/${id}`, { token: superToken, body: { name: "Grace Hopper", version: 1 } })).status).toBe(200)
    const restored = await restore("admin", id, { version: 1, expectedVersion: 2 }, superToken)
    expect(restored.status, restored.text).toBe(200)
    const users = await call(url(), "GET", `/api/admin/users?search=${encodeURIComponent(email)}`, { token: superToken })
    expect((users.body.data as { users: ReadonlyArray<{ name: string | null; version: number }> }).users).toEqual([
      expect.objectContaining({ name: null, version: 3 })
    ])
    // Logged as the change it makes to the account (admin accounts restore through their own rules).
    expect((await history("admin", id, superToken)).entries[0]).toMatchObject({
      version: 3,
      action: "admin.rename",
      changes: [{ field: "name", before: "Grace Hopper", after: null, hidden: false }]
    })

    const draft = { title: `Unpublished ${Date.now()}`, content: "<p>Body</p>", status: "draft" }
    const post = (await call(url(), "POST", "/api/blog/admin/posts", { token: staff.admin, body: draft })).body.post as { _id: string; slug: string }
    const published = await call(url(), "PUT", `/api/blog/admin/posts/${post.slug}`, {
      token: staff.admin,
      body: { ...draft, status: "published", version: 1 }
    })
    expect(published.status, published.text).toBe(200)
    expect((await restore("blog", post._id, { version: 1, expectedVersion: 2 })).status).toBe(200)
    const back = await call(url(), "GET", `/api/blog/posts/${post.slug}`, { token: staff.admin })
    expect(back.body.post).toMatchObject({ status: "draft", publishedAt: null, version: 3 })
  })

  it("rebuilds every one of 230 versions exactly, across its snapshots", async () => {
    const contact = await newContact("Many versions")
    const notes: Array<string> = [""]
    for (let n = 1; n < 230; n++) {
      const text = `note ${n}${"x".repeat(n % 7)}`
      expect((await edit(contact, n, { internalNotes: text })).status).toBe(200)
      notes.push(text)
    }
    const snapshots = await staff.server.sql(
      Effect.flatMap(SqlClient, (sql) => sql<{ version: number }>`SELECT version FROM record_snapshots WHERE entity_id = ${contact._id} ORDER BY version`)
    )
    expect(snapshots.map((row) => row.version)).toEqual([100, 200])
    for (const n of [1, 99, 100, 101, 150, 199, 200, 201, 230]) expect((await version("contact", contact._id, n)).content["internalNotes"]).toBe(notes[n - 1])
    const paged = await history("contact", contact._id, staff.admin, "?page=3&limit=100")
    expect(paged.pagination.total).toBe(230)
    expect(paged.entries.map((entry) => entry.version)).toEqual(Array.from({ length: 30 }, (_, n) => 30 - n))
  })
})

describe.each(engines)("history's first version on $name", (engine) => {
  it("keeps every record that exists when history begins as its first version", async () => {
    const rows = await beforeMigration(
      engine,
      "0011",
      Effect.gen(function* () {
        const sql = yield* SqlClient
        yield* sql`INSERT INTO core_team_contacts (id, contact_name, contact_role, subject, details, version)
        VALUES ('11111111-1111-4111-8111-111111111111', 'Ada', 'Founder', 'Before history', 'Old details', 7)`
        yield* sql`INSERT INTO protected_data (id, type, key, value) VALUES ('22222222-2222-4222-8222-222222222222', 'api-key', 'k', 'never-in-history')`
        yield* migrate
        // Its history is that first version: listed, and rebuilt as it was.
        const page = yield* historyPage("contact", "11111111-1111-4111-8111-111111111111", 20, 0)
        expect(page?.total).toBe(1)
        expect(page?.current).toEqual({ version: 7, removed: false })
        expect(page?.entries).toEqual([expect.objectContaining({ version: 7, action: "contact.baseline", changes: [] })])
        expect((yield* versionAt("contact", "11111111-1111-4111-8111-111111111111", 7))?.content).toMatchObject({ subject: "Before history" })
        expect(yield* versionAt("contact", "11111111-1111-4111-8111-111111111111", 6)).toBeUndefined()
        return yield* sql<{ entity: string; version: number; content: Record<string, unknown> | string }>`
        SELECT entity, version, content FROM record_snapshots ORDER BY entity`
      })
    )
    const contents = rows.map((row) => ({
      ...row,
      content: typeof row.content === "string" ? (JSON.parse(row.content) as Record<string, unknown>) : row.content
    }))
    expect(contents.find((row) => row.entity === "contact")).toMatchObject({ version: 7, content: { subject: "Before history", details: "Old details" } })
    expect(contents.find((row) => row.entity === "contact")?.content).not.toHaveProperty("searchText")
    expect(JSON.stringify(contents)).not.toContain("never-in-history")
  })
})
