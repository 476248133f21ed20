import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { type AdminAccount, adminMessages } from "../../contract/admin-users.ts"
import { contactMessages, type CoreTeamContact } from "../../contract/contacts.ts"
import { scamReportMessages } from "../../contract/scam-reports.ts"
import { settingsMessages, type SiteSettings } from "../../contract/site-settings.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { startTestServer, type TestServer } from "../support/server.ts"
import { serverWithStaff, signedInAs } from "../support/session.ts"

/**
 * The one write path (server/platform/record-writes.ts, docs/architecture.md "One write path"),
 * through areas that use it: 404 for a missing record, 409 naming the current version for a
 * stale one, exactly one winner among concurrent changes at one version, and a refused change
 * that leaves neither a row change nor an activity event behind.
 */
describe.each(engines)("the one write path on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  const events = (entityId: string) =>
    staff.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql<{ action: string; details: unknown }>`SELECT action, details FROM activity_log WHERE entity_id = ${entityId} ORDER BY id`
      )
    )
  const newContact = async (subject: string) => {
    const answer = await call(url(), "POST", "/api/core-team-contact", {
      token: staff.admin,
      body: { contactInfo: { name: "Grace", role: "Founder" }, inquiry: { subject, details: "Details" } }
    })
    expect(answer.status, answer.text).toBe(200)
    const id = (answer.body.data as { _id: string })._id
    const read = await call(url(), "GET", `/api/core-team-contact/${id}`, { token: staff.admin })
    return (read.body.data as { contact: CoreTeamContact }).contact
  }
  const edit = (contact: CoreTeamContact, version: number, change: Partial<CoreTeamContact>, token = staff.admin) =>
    call(url(), "PUT", `/api/core-team-contact/${contact._id}`, {
      token,
      body: {
        contactInfo: contact.contactInfo,
        inquiry: contact.inquiry,
        projectInfo: contact.projectInfo,
        status: contact.status,
        internalNotes: contact.internalNotes,
        ...change,
        version
      }
    })

  it("answers 404 for a missing record and 409 with the current version for a stale one", async () => {
    const contact = await newContact("Versions")
    expect((await edit({ ...contact, _id: "00000000-0000-4000-8000-000000000000" }, 1, {})).status).toBe(404)
    expect((await edit(contact, contact.version, { internalNotes: "first" })).status).toBe(200)
    const stale = await edit(contact, contact.version, { internalNotes: "second" })
    expect(stale.status).toBe(409)
    expect(stale.body).toMatchObject({ error: contactMessages.stale, currentVersion: contact.version + 1 })
    const removedStale = await call(url(), "DELETE", `/api/core-team-contact/${contact._id}?version=${contact.version}`, { token: staff.admin })
    expect(removedStale.body).toMatchObject({ error: contactMessages.stale, currentVersion: contact.version + 1 })
    expect((await call(url(), "DELETE", `/api/core-team-contact/${contact._id}?version=${contact.version + 1}`, { token: staff.admin })).status).toBe(200)
    expect((await call(url(), "DELETE", `/api/core-team-contact/${contact._id}?version=${contact.version + 1}`, { token: staff.admin })).status).toBe(404)
    expect((await events(contact._id)).map((event) => event.action)).toEqual(["contact.create", "contact.update", "contact.delete"])
  })

  it("lets exactly one of twelve concurrent changes at one version through, and logs only that one", async () => {
    const contact = await newContact("Race")
    const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => edit(contact, contact.version, { internalNotes: `racer ${n}` })))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array<number>(11).fill(409)])
    for (const answer of answers.filter((candidate) => candidate.status === 409)) expect(answer.body.currentVersion).toBe(contact.version + 1)
    const winner = answers.find((answer) => answer.status === 200)!.body.data as { contact: CoreTeamContact }
    expect((await events(contact._id)).map((event) => event.action)).toEqual(["contact.create", "contact.update"])
    const read = await call(url(), "GET", `/api/core-team-contact/${contact._id}`, { token: staff.admin })
    expect((read.body.data as { contact: CoreTeamContact }).contact).toMatchObject({
      version: contact.version + 1,
      internalNotes: winner.contact.internalNotes
    })
  })

  it("keeps each change's version in history, and keeps none on a server the history bench starts without it", async () => {
    const marks = (server: TestServer, entityId: string) =>
      server.sql(
        Effect.flatMap(
          SqlClient,
          (sql) => sql<{ action: string; version: number | null; kept: boolean }>`
            SELECT action, version, changes IS NOT NULL AS kept FROM activity_log WHERE entity_id = ${entityId} ORDER BY id`
        )
      )
    const contact = await newContact("Kept")
    expect((await edit(contact, contact.version, { internalNotes: "kept" })).status).toBe(200)
    expect(await marks(staff.server, contact._id)).toEqual([
      { action: "contact.create", version: 1, kept: true },
      { action: "contact.update", version: 2, kept: true }
    ])

    const database = await engine.fresh()
    const bench = await startTestServer(database, {}, { historyKept: false })
    try {
      const token = await signedInAs(bench, "admin")
      const made = await call(bench.url, "POST", "/api/core-team-contact", {
        token,
        body: { contactInfo: { name: "Grace", role: "Founder" }, inquiry: { subject: "Not kept", details: "Details" } }
      })
      const id = (made.body.data as { _id: string })._id
      const changed = await call(bench.url, "PUT", `/api/core-team-contact/${id}`, {
        token,
        body: { contactInfo: { name: "Grace", role: "Founder" }, inquiry: { subject: "Not kept", details: "Details" }, internalNotes: "gone", version: 1 }
      })
      expect(changed.status, changed.text).toBe(200)
      expect(await marks(bench, id)).toEqual([
        { action: "contact.create", version: null, kept: false },
        { action: "contact.update", version: null, kept: false }
      ])
    } finally {
      await bench.stop()
      await database.drop()
    }
  })

  it("leaves nothing behind when the area refuses the change", async () => {
    const contact = await newContact("Refused")
    // A moderator handles a contact but may not change what it says.
    const refused = await edit(contact, contact.version, { inquiry: { ...contact.inquiry, subject: "Rewritten" } }, staff.moderator)
    expect(refused.status).toBe(403)
    const read = await call(url(), "GET", `/api/core-team-contact/${contact._id}`, { token: staff.admin })
    expect((read.body.data as { contact: CoreTeamContact }).contact).toMatchObject({ version: contact.version, inquiry: { subject: "Refused" } })
    expect((await events(contact._id)).map((event) => event.action)).toEqual(["contact.create"])
  })

  it("creates the site's one settings document once among concurrent first saves, then changes it at its version", async () => {
    const token = await signedInAs(staff.server, "super_admin")
    const read = await call(url(), "GET", "/api/admin/ecosystem", { token })
    const { updatedAt: _, version, ...fields } = (read.body.data as { settings: SiteSettings }).settings
    expect(version).toBe(0)
    const save = (tagline: string, at: number) => call(url(), "PUT", "/api/admin/ecosystem", { token, body: { ...fields, tagline, version: at } })
    // Stale at a version the document never had: refused as stale, nothing written.
    expect((await save("Too early", 3)).body).toMatchObject({ error: settingsMessages.stale })
    const firsts = await Promise.all(Array.from({ length: 6 }, (_, n) => save(`First ${n}`, 0)))
    expect(firsts.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409])
    const stale = await save("Second", 0)
    expect(stale.body).toMatchObject({ error: settingsMessages.stale })
    expect((await save("Second", 1)).status).toBe(200)
    expect((await save("Third", 1)).body).toMatchObject({ error: settingsMessages.stale, currentVersion: 2 })
    expect((await events("site")).map((event) => event.action)).toEqual(["settings.update", "settings.update"])
  })

  it("takes a public report on the same path, and a stale triage change names the current version", async () => {
    const reported = await call(url(), "POST", "/api/report-scam", { ip: freshIp(), body: { scamType: "phishing", description: "A fake wallet site" } })
    expect(reported.status, reported.text).toBe(200)
    const id = (reported.body.data as { _id: string })._id
    expect((await call(url(), "PATCH", `/api/report-scam/${id}`, { token: staff.moderator, body: { status: "under_review", version: 1 } })).status).toBe(200)
    const stale = await call(url(), "PATCH", `/api/report-scam/${id}`, { token: staff.moderator, body: { priority: "high", version: 1 } })
    expect(stale.body).toMatchObject({ error: scamReportMessages.stale, currentVersion: 2 })
    expect((await events(id)).map((event) => event.action)).toEqual(["scam-report.create", "scam-report.status"])
  })

  it("changes admin accounts on the same path: 409 naming the version, nothing changed is no new version, each event names who", async () => {
    const superToken = await signedInAs(staff.server, "super_admin")
    const made = await call(url(), "POST", "/api/admin/users", { token: superToken, body: { email: `writes-${Date.now()}@example.com`, role: "moderator" } })
    expect(made.status, made.text).toBe(200)
    const account = (made.body.data as { user: AdminAccount }).user
    const update = (body: Record<string, unknown>) => call(url(), "PUT", `/api/admin/users/${account._id}`, { token: superToken, body })
    expect((await update({ name: "Desk", version: 1 })).status).toBe(200)
    expect((await update({ role: "admin", version: 1 })).body).toMatchObject({ error: adminMessages.stale, currentVersion: 2 })
    // The same name again changes nothing: no new version, no event.
    const same = await update({ name: "Desk", version: 2 })
    expect((same.body.data as { user: AdminAccount }).user.version).toBe(2)
    const logged = await staff.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql<{ action: string; actorEmail: string | null }>`SELECT action, actor_email FROM activity_log WHERE entity_id = ${account._id} ORDER BY id`
      )
    )
    expect(logged.map((event) => event.action)).toEqual(["admin.create", "admin.rename"])
    expect(new Set(logged.map((event) => event.actorEmail)).size).toBe(1)
    expect(logged[0]!.actorEmail).toMatch(/^super_admin-/)
  })

  it("allows one address once among twelve concurrent adds, and logs who added and removed it", async () => {
    const superToken = await signedInAs(staff.server, "super_admin")
    const adds = await Promise.all(
      Array.from({ length: 12 }, () =>
        call(url(), "POST", "/api/admin/ip-management", { token: superToken, body: { ip: "0.0.0.0/0", description: "Everyone" } })
      )
    )
    expect(adds.map((answer) => answer.status).sort()).toEqual([200, ...Array<number>(11).fill(409)])
    const id = (adds.find((answer) => answer.status === 200)!.body.data as { ip: { _id: string } }).ip._id
    expect((await call(url(), "DELETE", `/api/admin/ip-management/${id}`, { token: superToken })).status).toBe(200)
    expect((await call(url(), "DELETE", `/api/admin/ip-management/${id}`, { token: superToken })).status).toBe(404)
    expect((await events(id)).map((event) => event.action)).toEqual(["ip.allow", "ip.remove"])
  })

  it("moves each listing once among twelve concurrent bulk changes over overlapping listings, in any order, with no deadlock", async () => {
    const ids = await Promise.all(
      Array.from({ length: 8 }, async (_, n) => {
        const answer = await call(url(), "POST", "/api/admin/communities", { token: staff.admin, body: { name: `Bulk ${n}`, description: "A group" } })
        expect(answer.status, answer.text).toBe(200)
        return (answer.body.data as { listing: { _id: string } }).listing._id
      })
    )
    // Each change takes five of the eight, in its own order: any two overlap.
    const picks = Array.from({ length: 12 }, (_, n) => Array.from({ length: 5 }, (_, k) => ids[(n * 3 + k * (n % 2 === 0 ? 1 : 7)) % 8]!))
    const answers = await Promise.all(
      picks.map((pick) => call(url(), "POST", "/api/admin/listings/bulk", { token: staff.moderator, body: { ids: pick, action: "approve" } }))
    )
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true)
    expect(answers.some((answer) => answer.status === 200)).toBe(true)
    const moved = new Set(answers.flatMap((answer, n) => (answer.status === 200 ? picks[n]! : [])))
    for (const id of ids) {
      const actions = (await events(id)).map((event) => event.action)
      expect(actions).toEqual(moved.has(id) ? ["listing.create", "listing.status"] : ["listing.create"])
    }
  })
})
