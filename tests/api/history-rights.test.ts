import { beforeAll, describe, expect, it } from "vitest"
import type { Role } from "../../contract/common.ts"
import type { CoreTeamContact } from "../../contract/contacts.ts"
import { historyKinds, type HistoryKind } from "../../contract/history-rules.ts"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { clearAllowedIps } from "../../server/allowed-ips/repository.ts"
import { engines } from "../support/database.ts"
import { type Answer, call, freshIp } from "../support/http.ts"
import { serverWithStaff, signedInAs, signIn } from "../support/session.ts"

/**
 * Who reads a record's history and who undoes a change (docs/api.md, "Record history";
 * docs/security.md, "Roles"): whoever may read a record reads its history, its versions and the
 * removed records of its kind, without protected values; a person undoes their own last change
 * (the console's `z`) within their role's rights, as long as nobody changed the record since.
 */
describe.each(engines)("who reads and undoes record history on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  let serial = 0
  const fresh = (label: string) => `${label}-${++serial}-${process.pid}`
  let boss = ""
  beforeAll(async () => {
    boss = await signedInAs(staff.server, "super_admin")
  })
  const ok = (answer: Answer) => {
    expect(answer.status, answer.text).toBe(200)
    return answer.body as { data: Record<string, unknown> }
  }
  /** The id of what a call made: `data._id` (a public form's answer) or `data[field]._id`. */
  const madeId = (answer: Answer, field?: string) => {
    const data = ok(answer).data
    return (field === undefined ? data._id : (data[field] as { _id: string })._id) as string
  }

  it("lets every role that may read a record read its history, versions and removed records, and shows no one a protected value", async () => {
    const storedValues = [`stored-value-${fresh("a")}`, `stored-value-${fresh("b")}`]
    const postAnswer = await call(url(), "POST", "/api/blog/admin/posts", {
      token: staff.admin,
      body: { title: fresh("Post"), content: "<p>Body</p>", status: "draft" }
    })
    expect(postAnswer.status, postAnswer.text).toBe(200)
    const post = postAnswer.body.post as { _id: string; slug: string }
    const cex = fresh("cex")
    const address = madeId(
      await call(url(), "POST", "/api/admin/addresses/cex", {
        token: staff.admin,
        body: { identifier: cex, name: "Exchange", category: "Exchange", buy: "https://buy.example", website: "" }
      }),
      "address"
    )
    const listingName = fresh("Community")
    const listing = madeId(
      await call(url(), "POST", "/api/admin/communities", { token: staff.admin, body: { name: listingName, description: "Meetups" } }),
      "listing"
    )
    const report = madeId(await call(url(), "POST", "/api/report-scam", { ip: freshIp(), body: { scamType: "phishing", description: "Fake wallet" } }))
    const contact = madeId(
      await call(url(), "POST", "/api/core-team-contact", {
        ip: freshIp(),
        body: { contactInfo: { name: "Ada", role: "Founder" }, inquiry: { subject: "Hello", details: "Partnership" } }
      })
    )
    const inquiry = madeId(
      await call(url(), "POST", "/api/advertising-inquiries", {
        ip: freshIp(),
        body: { companyName: "Orbit", contactName: "Grace", email: "grace@example.com", industry: "Gaming" }
      })
    )
    const admin = madeId(
      await call(url(), "POST", "/api/admin/users", { token: boss, body: { email: `${fresh("account")}@example.com`, role: "moderator" } }),
      "user"
    )
    const ip = madeId(
      await call(url(), "POST", "/api/admin/ip-management", { token: boss, ip: "203.0.113.9", body: { ip: "203.0.113.0/24", description: "Office" } }),
      "ip"
    )
    await staff.server.sql(clearAllowedIps)
    const secretBody = { type: "api-key", key: fresh("key"), value: storedValues[0], description: "Payments" }
    const secret = madeId(await call(url(), "POST", "/api/admin/protected-data", { token: boss, body: secretBody }), "record")
    ok(await call(url(), "PUT", `/api/admin/protected-data/${secret}`, { token: boss, body: { ...secretBody, value: storedValues[1], version: 1 } }))
    const settings = (ok(await call(url(), "GET", "/api/admin/ecosystem", { token: boss })).data as unknown as { settings: Record<string, unknown> }).settings
    const { updatedAt: _, ...document } = settings
    ok(await call(url(), "PUT", "/api/admin/ecosystem", { token: boss, body: { ...document, tagline: "History for all" } }))

    // Each record, and where its own screen reads it: the history answers whoever that answers.
    const records: Record<HistoryKind, { readonly id: string; readonly read: string }> = {
      blog: { id: post._id, read: `/api/blog/posts/${post.slug}` },
      address: { id: address, read: `/api/admin/addresses/cex?search=${cex}` },
      listing: { id: listing, read: `/api/admin/communities/combined?search=${listingName}` },
      "scam-report": { id: report, read: `/api/report-scam/${report}` },
      contact: { id: contact, read: `/api/core-team-contact/${contact}` },
      inquiry: { id: inquiry, read: `/api/advertising-inquiries/${inquiry}` },
      admin: { id: admin, read: "/api/admin/users" },
      ip: { id: ip, read: "/api/admin/ip-management" },
      "protected-data": { id: secret, read: "/api/admin/protected-data" },
      settings: { id: "site", read: "/api/admin/ecosystem" }
    }
    const tokens: Record<Role, string> = { moderator: staff.moderator, admin: staff.admin, super_admin: boss }
    const readers: Record<string, Array<Role>> = {}
    const answers: Array<string> = []
    for (const [role, token] of Object.entries(tokens) as ReadonlyArray<[Role, string]>) {
      for (const kind of historyKinds) {
        const { id, read } = records[kind]
        const record = await call(url(), "GET", read, { token })
        expect([200, 403], `${role} reading ${read}`).toContain(record.status)
        const expected = record.status
        if (expected === 200) (readers[kind] ??= []).push(role)
        for (const path of [`/api/admin/history/${kind}/${id}`, `/api/admin/history/${kind}/${id}/versions/1`, `/api/admin/history/${kind}`]) {
          const answer = await call(url(), "GET", path, { token })
          expect(answer.status, `${role} ${path}: ${answer.text}`).toBe(expected)
          answers.push(answer.text)
        }
      }
    }
    // The record's readers, as docs/security.md's role table has them: here the blog, the addresses and the settings.
    expect(readers).toEqual({
      blog: ["moderator", "admin", "super_admin"],
      address: ["moderator", "admin", "super_admin"],
      listing: ["moderator", "admin", "super_admin"],
      "scam-report": ["moderator", "admin", "super_admin"],
      contact: ["moderator", "admin", "super_admin"],
      inquiry: ["moderator", "admin", "super_admin"],
      admin: ["super_admin"],
      ip: ["super_admin"],
      "protected-data": ["super_admin"],
      settings: ["moderator", "admin", "super_admin"]
    })
    for (const value of storedValues) expect(answers.join("\n")).not.toContain(value)
    expect(answers.join("\n")).toContain('"hidden":true')
  })

  describe("a moderator's z", () => {
    /** One person granted admin, signed in twice: as an admin and as a moderator. */
    const person = { email: "", asAdmin: "", asModerator: "" }
    beforeAll(async () => {
      person.email = `${fresh("both")}@example.com`
      await staff.server.sql(addAdmin(person.email, "admin"))
      person.asAdmin = await signIn(staff.server, person.email, "admin")
      person.asModerator = await signIn(staff.server, person.email, "moderator")
    })
    /** What the console's `z` does (src/features/history/HistoryHost.tsx): the person's last change, restored to the version before it. */
    const undo = async (token: string) => {
      const last = await call(url(), "GET", "/api/admin/history/last", { token })
      const change = (last.body.data as { change: { kind: HistoryKind; id: string; version: number } | null }).change
      if (change === null) throw new Error("nothing to undo")
      return call(url(), "POST", `/api/admin/history/${change.kind}/${change.id}/restore`, {
        token,
        body: { version: change.version - 1, expectedVersion: change.version }
      })
    }
    const newest = async (kind: HistoryKind, id: string) =>
      (
        ok(await call(url(), "GET", `/api/admin/history/${kind}/${id}?limit=1`, { token: staff.admin })).data as unknown as {
          entries: ReadonlyArray<{ action: string; actorEmail: string | null; version: number }>
        }
      ).entries[0]

    interface Kind {
      readonly kind: HistoryKind
      readonly make: () => Promise<string>
      /** The record's handling fields as its screen reads them, and its version. */
      readonly read: (id: string) => Promise<{ readonly state: Record<string, unknown>; readonly version: number }>
      /** Changes a moderator may make (status, priority, notes), each from the record as read. */
      readonly handling: ReadonlyArray<(id: string, version: number, token: string) => Promise<Answer>>
      /** Someone else's change after the first handling change. */
      readonly meanwhile: (id: string, version: number, token: string) => Promise<Answer>
      /** A change only an admin may make, when the kind has one. */
      readonly adminOnly?: (id: string, version: number, token: string) => Promise<Answer>
    }
    const contactBody = (contact: CoreTeamContact, change: Record<string, unknown>) => ({
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
    const readContact = async (id: string) =>
      (ok(await call(url(), "GET", `/api/core-team-contact/${id}`, { token: staff.admin })).data as unknown as { contact: CoreTeamContact }).contact
    const kinds: ReadonlyArray<Kind> = [
      {
        kind: "listing",
        make: async () =>
          madeId(await call(url(), "POST", "/api/admin/communities", { token: staff.admin, body: { name: fresh("Undo"), description: "Meetups" } }), "listing"),
        read: async (id) => {
          const answer = await call(url(), "GET", `/api/admin/listings?limit=100`, { token: staff.admin })
          const found = (
            answer.body.data as { listings: ReadonlyArray<{ _id: string; status: string; moderationNotes: string; version: number }> }
          ).listings.find((listing) => listing._id === id)!
          return { state: { status: found.status, notes: found.moderationNotes }, version: found.version }
        },
        handling: [
          (id, version, token) => call(url(), "PUT", `/api/admin/listings/${id}`, { token, body: { action: "approve", version } }),
          (id, version, token) => call(url(), "PUT", `/api/admin/listings/${id}`, { token, body: { action: "reject", notes: "Spam", version } })
        ],
        meanwhile: (id, version, token) => call(url(), "PUT", `/api/admin/listings/${id}`, { token, body: { action: "pending", version } }),
        adminOnly: (id, version, token) =>
          call(url(), "PUT", `/api/admin/communities/${id}`, { token, body: { name: fresh("Renamed"), description: "Meetups", version } })
      },
      {
        kind: "scam-report",
        make: async () => madeId(await call(url(), "POST", "/api/report-scam", { ip: freshIp(), body: { scamType: "phishing", description: "Fake wallet" } })),
        read: async (id) => {
          const report = (
            ok(await call(url(), "GET", `/api/report-scam/${id}`, { token: staff.admin })).data as unknown as {
              report: { status: string; priority: string; adminNotes: string; version: number }
            }
          ).report
          return { state: { status: report.status, priority: report.priority, notes: report.adminNotes }, version: report.version }
        },
        handling: [
          (id, version, token) => call(url(), "PATCH", `/api/report-scam/${id}`, { token, body: { status: "under_review", version } }),
          (id, version, token) => call(url(), "PATCH", `/api/report-scam/${id}`, { token, body: { priority: "urgent", version } }),
          (id, version, token) => call(url(), "PATCH", `/api/report-scam/${id}`, { token, body: { notes: "Wallet checked", version } })
        ],
        meanwhile: (id, version, token) => call(url(), "PATCH", `/api/report-scam/${id}`, { token, body: { priority: "high", version } }),
        adminOnly: (id, version, token) => call(url(), "DELETE", `/api/report-scam/${id}?version=${version}`, { token })
      },
      {
        kind: "contact",
        make: async () =>
          madeId(
            await call(url(), "POST", "/api/core-team-contact", {
              ip: freshIp(),
              body: { contactInfo: { name: "Ada", role: "Founder" }, inquiry: { subject: fresh("Hello"), details: "Partnership" } }
            })
          ),
        read: async (id) => {
          const contact = await readContact(id)
          return { state: { status: contact.status, priority: contact.inquiry.priority, notes: contact.internalNotes }, version: contact.version }
        },
        handling: [
          async (id, _, token) =>
            call(url(), "PUT", `/api/core-team-contact/${id}`, { token, body: contactBody(await readContact(id), { status: "responded" }) }),
          async (id, _, token) => {
            const contact = await readContact(id)
            return call(url(), "PUT", `/api/core-team-contact/${id}`, {
              token,
              body: contactBody(contact, { inquiry: { ...contact.inquiry, priority: "urgent" } })
            })
          },
          async (id, _, token) =>
            call(url(), "PUT", `/api/core-team-contact/${id}`, { token, body: contactBody(await readContact(id), { internalNotes: "Called" }) })
        ],
        meanwhile: async (id, _, token) =>
          call(url(), "PUT", `/api/core-team-contact/${id}`, { token, body: contactBody(await readContact(id), { assignedTo: "Grace" }) }),
        adminOnly: async (id, _, token) => {
          const contact = await readContact(id)
          return call(url(), "PUT", `/api/core-team-contact/${id}`, {
            token,
            body: contactBody(contact, { inquiry: { ...contact.inquiry, subject: fresh("Changed") } })
          })
        }
      },
      {
        kind: "inquiry",
        make: async () =>
          madeId(
            await call(url(), "POST", "/api/advertising-inquiries", {
              ip: freshIp(),
              body: { companyName: "Orbit", contactName: "Grace", email: "grace@example.com", industry: "Gaming" }
            })
          ),
        read: async (id) => {
          const inquiry = (
            ok(await call(url(), "GET", `/api/advertising-inquiries/${id}`, { token: staff.admin })).data as unknown as {
              inquiry: { status: string; adminNotes: string; version: number }
            }
          ).inquiry
          return { state: { status: inquiry.status, notes: inquiry.adminNotes }, version: inquiry.version }
        },
        handling: [
          (id, version, token) => call(url(), "PUT", `/api/advertising-inquiries/${id}`, { token, body: { status: "contacted", version } }),
          (id, version, token) =>
            call(url(), "PUT", `/api/advertising-inquiries/${id}`, { token, body: { status: "contacted", adminNotes: "Called", version } })
        ],
        meanwhile: (id, version, token) => call(url(), "PUT", `/api/advertising-inquiries/${id}`, { token, body: { status: "converted", version } })
      }
    ]

    it.each(kinds)(
      "undoes their own $kind change (200, logged), not one made after by someone else (409), not one their role may not make (403)",
      async (kind) => {
        const id = await kind.make()
        // Each handling change, then z: the record is as it was, at a new version, the undo logged as theirs.
        for (const change of kind.handling) {
          const before = await kind.read(id)
          expect((await change(id, before.version, person.asModerator)).status).toBe(200)
          const undone = await undo(person.asModerator)
          expect(undone.status, undone.text).toBe(200)
          const after = await kind.read(id)
          expect(after.state).toEqual(before.state)
          expect(after.version).toBe(before.version + 2)
          expect(await newest(kind.kind, id)).toMatchObject({ action: `${kind.kind}.restore`, actorEmail: person.email, version: after.version })
        }
        // Someone else changed the record since: 409, nothing written.
        const seen = await kind.read(id)
        expect((await kind.handling[0]!(id, seen.version, person.asModerator)).status).toBe(200)
        const meanwhile = await kind.read(id)
        expect((await kind.meanwhile(id, meanwhile.version, staff.admin)).status).toBe(200)
        const late = await undo(person.asModerator)
        expect(late.status, late.text).toBe(409)
        expect((await kind.read(id)).version).toBe(meanwhile.version + 1)
        // Restoring a version over someone else's change is an editor's restore, not an undo.
        const current = await kind.read(id)
        const others = await call(url(), "POST", `/api/admin/history/${kind.kind}/${id}/restore`, {
          token: person.asModerator,
          body: { version: current.version - 1, expectedVersion: current.version }
        })
        expect(others.status, others.text).toBe(403)
        if (kind.adminOnly === undefined) return
        // A change made as an admin stays theirs to undo as an admin only.
        expect((await kind.adminOnly(id, current.version, person.asAdmin)).status).toBe(200)
        const refused = await undo(person.asModerator)
        expect(refused.status, refused.text).toBe(403)
        expect(await newest(kind.kind, id)).toMatchObject({ actorEmail: person.email, version: current.version + 1 })
        expect((await undo(person.asAdmin)).status).toBe(200)
      }
    )

    it("undoes a listing's status change through the queue's own undo too", async () => {
      const id = await kinds[0]!.make()
      const approved = await call(url(), "PUT", `/api/admin/listings/${id}`, { token: person.asModerator, body: { action: "approve", version: 1 } })
      expect(approved.status).toBe(200)
      const eventId = (approved.body.data as { eventId: string }).eventId
      const undone = await call(url(), "POST", `/api/admin/listings/${id}/undo`, { token: person.asModerator, body: { eventId } })
      expect(undone.status, undone.text).toBe(200)
      expect((await kinds[0]!.read(id)).state).toMatchObject({ status: "pending" })
    })
  })
})
