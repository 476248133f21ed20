import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { contactMessages, type CoreTeamContact } from "../../contract/contacts.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { csvObjects } from "../support/csv.ts"
import { serverWithStaff } from "../support/session.ts"

const submission = (subject: string) => ({
  contactInfo: { name: "Ada Lovelace", email: "ada@example.com", organization: "Analytical", role: "Founder" },
  inquiry: { subject, details: "We would like to integrate Pi payments." },
  projectInfo: { name: "PiPay", stage: "beta", piIntegration: "payments", website: "https://pipay.example.com" }
})

describe.each(engines)("core-team contacts on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  let serial = 0
  const listed = async (query = "", token = staff.moderator) => {
    const answer = await call(url(), "GET", `/api/core-team-contact${query}`, { token })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.data as { contacts: ReadonlyArray<CoreTeamContact>; pagination: { total: number; limit: number; pages: number } }
  }
  const one = async (id: string) =>
    ((await call(url(), "GET", `/api/core-team-contact/${id}`, { token: staff.moderator })).body.data as { contact: CoreTeamContact }).contact

  it("takes the public site's message with the spec's defaults, ignoring staff fields, and limits it per address", async () => {
    const ip = freshIp()
    const subject = `Public ${++serial}`
    const answer = await call(url(), "POST", "/api/core-team-contact", {
      ip,
      body: { ...submission(subject), status: "closed", internalNotes: "sneaky", expectedResponseTime: 1 }
    })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.message).toBe(contactMessages.received)
    const contact = await one((answer.body.data as { _id: string })._id)
    expect(contact).toMatchObject({
      status: "new",
      internalNotes: "",
      expectedResponseTime: 72,
      followUpRequired: false,
      respondedAt: null,
      resolvedAt: null,
      inquiry: { category: "Partnership Proposal", priority: "medium", subject },
      projectInfo: { name: "PiPay", website: "https://pipay.example.com" }
    })
    expect(Date.now() - Date.parse(contact.submittedAt)).toBeLessThan(60_000)
    for (let n = 0; n < 4; n++) expect((await call(url(), "POST", "/api/core-team-contact", { ip, body: submission(`More ${n}`) })).status).toBe(200)
    const limited = await call(url(), "POST", "/api/core-team-contact", { ip, body: submission("One too many") })
    expect(limited.status).toBe(429)
    expect(limited.body.error).toMatch(/^Too many messages from your address\. Try again in \d+ minutes?\.$/)
  })

  it("refuses missing required fields, a bad e-mail or website, a dead token and a moderator's create", async () => {
    const bad = [
      { ...submission("x"), contactInfo: { name: " ", role: "Founder" } },
      { ...submission("x"), contactInfo: { name: "A", role: "" } },
      { ...submission("x"), inquiry: { subject: "x", details: " " } },
      { ...submission("x"), contactInfo: { name: "A", role: "B", email: "not-mail" } },
      { ...submission("x"), projectInfo: { website: "javascript:alert(1)" } },
      { ...submission("x"), expectedResponseTime: 0 }
    ]
    for (const body of bad) expect((await call(url(), "POST", "/api/core-team-contact", { ip: freshIp(), body })).status, JSON.stringify(body)).toBe(400)
    expect((await call(url(), "POST", "/api/core-team-contact", { token: "not-a-session", body: submission("x") })).status).toBe(401)
    const moderator = await call(url(), "POST", "/api/core-team-contact", { token: staff.moderator, body: submission("x") })
    expect(moderator.status).toBe(403)
    expect(moderator.body.error).toBe(contactMessages.readOnly)
  })

  it("lets admins write every field, moderators the handling ones, stamps responded and resolved once, and refuses stale versions", async () => {
    const created = await call(url(), "POST", "/api/core-team-contact", {
      token: staff.admin,
      body: {
        ...submission(`Staff ${++serial}`),
        status: "in_progress",
        assignedTo: "Bob",
        followUpRequired: true,
        expectedResponseTime: 24,
        submittedAt: "2026-11-01T09:00:00.000Z"
      }
    })
    expect(created.status, created.text).toBe(200)
    const id = (created.body.data as { _id: string })._id
    const first = await one(id)
    expect(first).toMatchObject({
      status: "in_progress",
      assignedTo: "Bob",
      followUpRequired: true,
      expectedResponseTime: 24,
      submittedAt: "2026-11-01T09:00:00.000Z",
      version: 1
    })
    const body = (contact: CoreTeamContact, change: Record<string, unknown>) => ({
      contactInfo: contact.contactInfo,
      inquiry: contact.inquiry,
      projectInfo: contact.projectInfo,
      status: contact.status,
      submittedAt: contact.submittedAt,
      assignedTo: contact.assignedTo,
      response: contact.response,
      internalNotes: contact.internalNotes,
      followUpRequired: contact.followUpRequired,
      expectedResponseTime: contact.expectedResponseTime,
      version: contact.version,
      ...change
    })
    const put = (contact: CoreTeamContact, change: Record<string, unknown>, token = staff.moderator) =>
      call(url(), "PUT", `/api/core-team-contact/${id}`, { token, body: body(contact, change) })
    const responded = await put(first, { status: "responded", response: "Thanks, we will call." })
    expect(responded.status, responded.text).toBe(200)
    const second = (responded.body.data as { contact: CoreTeamContact }).contact
    expect(second.respondedAt).not.toBeNull()
    expect(second.resolvedAt).toBeNull()
    // Content is an admin's: a moderator changing the subject is refused, and nothing changes.
    const refused = await put(second, { inquiry: { ...second.inquiry, subject: "Changed" } })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe(contactMessages.handlingOnly)
    expect((await one(id)).version).toBe(2)
    const resolved = (await put(second, { status: "resolved", inquiry: { ...second.inquiry, subject: "Renamed" } }, staff.admin)).body.data as {
      contact: CoreTeamContact
    }
    expect(resolved.contact).toMatchObject({ status: "resolved", inquiry: { subject: "Renamed" }, respondedAt: second.respondedAt, version: 3 })
    // Back to in progress and resolved again: the first stamps stay.
    const back = (await put(resolved.contact, { status: "in_progress" })).body.data as { contact: CoreTeamContact }
    const again = (await put(back.contact, { status: "resolved" })).body.data as { contact: CoreTeamContact }
    expect(again.contact.resolvedAt).toBe(resolved.contact.resolvedAt)
    const stale = await put(first, { status: "closed" })
    expect(stale.status).toBe(409)
    expect(stale.body.error).toBe(contactMessages.stale)
    expect((await call(url(), "DELETE", `/api/core-team-contact/${id}?version=5`, { token: staff.moderator })).status).toBe(403)
    expect((await call(url(), "DELETE", `/api/core-team-contact/${id}?version=4`, { token: staff.admin })).status).toBe(409)
    expect((await call(url(), "DELETE", `/api/core-team-contact/${id}?version=5`, { token: staff.admin })).status).toBe(200)
    expect((await call(url(), "GET", `/api/core-team-contact/${id}`, { token: staff.admin })).status).toBe(404)
    const log = await staff.server.sql(
      Effect.flatMap(SqlClient, (sql) => sql<{ action: string }>`SELECT action FROM activity_log WHERE entity_id = ${id} ORDER BY id`)
    )
    expect(log.map((row) => row.action)).toEqual(["contact.create", "contact.status", "contact.status", "contact.status", "contact.status", "contact.delete"])
  })

  it("lists 10 a page, filters by status and priority ('all' is none), searches name, e-mail and subject, and exports CSV", async () => {
    const marker = `paging${++serial}`
    for (let n = 0; n < 12; n++) {
      const body = {
        ...submission(`${marker} subject ${n}`),
        inquiry: { subject: `${marker} subject ${n}`, details: "d", priority: n % 2 === 0 ? "high" : "low" }
      }
      expect((await call(url(), "POST", "/api/core-team-contact", { token: staff.admin, body })).status).toBe(200)
    }
    const first = await listed(`?search=${marker}`)
    expect(first.contacts).toHaveLength(10)
    expect(first.pagination).toMatchObject({ total: 12, limit: 10, pages: 2 })
    expect((await listed(`?search=${marker}&page=2`)).contacts).toHaveLength(2)
    expect((await listed(`?search=${marker}&priority=high&status=all`)).pagination.total).toBe(6)
    expect((await listed(`?search=${marker}&status=closed`)).pagination.total).toBe(0)
    expect((await listed(`?search=${marker}&page=9`)).pagination.total).toBe(12)
    expect((await listed(`?search=ADA@EXAMPLE`)).pagination.total).toBeGreaterThanOrEqual(12)
    const csv = await call(url(), "GET", `/api/core-team-contact?search=${marker}&format=csv`, { token: staff.moderator })
    expect(csv.headers.get("content-type")).toContain("text/csv")
    const rows = csvObjects(csv.text)
    expect(rows).toHaveLength(12)
    expect(rows[0]!["inquiry.subject"]).toBe(`${marker} subject 11`)
    expect((await call(url(), "GET", "/api/core-team-contact")).status).toBe(401)
  })
})
