import { beforeAll, describe, expect, it } from "vitest"
import type { Role } from "../../contract/common.ts"
import { historyKinds, type HistoryKind } from "../../contract/history-rules.ts"
import { clearAllowedIps } from "../../server/auth/allowed-ips.ts"
import { engines } from "../support/database.ts"
import { type Answer, call, freshIp } from "../support/http.ts"
import { serverWithStaff, signedInAs } from "../support/session.ts"

/**
 * Who reads a record's history (docs/api.md, "Record history"; docs/security.md, "Roles"):
 * whoever may read a record reads its history, its versions and the removed records of its kind,
 * without protected values.
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
    // The record's readers, as docs/security.md's role table has them: the cases are the blog, the addresses and the settings.
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
})
