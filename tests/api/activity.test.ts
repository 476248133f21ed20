import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { type ActivityEntry, activityAreas, type Analytics } from "../../contract/activity.ts"
import type { Role } from "../../contract/common.ts"
import type { Listing } from "../../contract/listings.ts"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { clearAllowedIps } from "../../server/allowed-ips/repository.ts"
import { csvObjects } from "../support/csv.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { serverWithStaff, signedInAs, signIn } from "../support/session.ts"
import { newBrowserKey } from "../support/sign-in.ts"

describe.each(engines)("the activity log and the dashboard's figures on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  let serial = 0

  const analytics = async (period = "7d") => {
    const answer = await call(url(), "GET", `/api/admin/analytics?period=${period}`, { token: staff.moderator })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.data as Analytics
  }
  let superToken = ""
  const logs = async (query: string, token?: string) => {
    superToken ||= await signedInAs(staff.server, "super_admin")
    const answer = await call(url(), "GET", `/api/admin/activity-logs${query}`, { token: token ?? superToken })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.data as { logs: ReadonlyArray<ActivityEntry>; pagination: { total: number; pages: number } }
  }
  const community = async () => {
    const answer = await call(url(), "POST", "/api/admin/communities", { token: staff.admin, body: { name: `Pioneers ${++serial}`, description: "A group" } })
    expect(answer.status, answer.text).toBe(200)
    return (answer.body.data as { listing: Listing }).listing
  }

  it("counts every area from the kept counts, with pending reviews broken down and new records per day", async () => {
    const before = await analytics()
    const made = await community()
    await community()
    expect((await call(url(), "POST", "/api/report-scam", { ip: freshIp(), body: { scamType: "phishing", description: "Fake wallet site" } })).status).toBe(200)
    const contact = { contactInfo: { name: "Ada", role: "Founder" }, inquiry: { subject: "Hello", details: "Partnership" } }
    expect((await call(url(), "POST", "/api/core-team-contact", { ip: freshIp(), body: contact })).status).toBe(200)
    expect(
      (await call(url(), "POST", "/api/blog/admin/posts", { token: staff.admin, body: { title: `Post ${++serial}`, content: "<p>Body</p>", status: "draft" } }))
        .status
    ).toBe(200)
    const inquiry = { companyName: "Orbit", contactName: "Grace", email: "grace@example.com", industry: "Gaming" }
    expect((await call(url(), "POST", "/api/advertising-inquiries", { ip: freshIp(), body: inquiry })).status).toBe(200)
    expect(
      (await call(url(), "POST", "/api/advertising-inquiries", { ip: freshIp(), body: { ...inquiry, paymentId: "pay", txid: "tx", amount: 5 } })).status
    ).toBe(200)
    const after = await analytics()
    expect(after.statistics.totalCommunities - before.statistics.totalCommunities).toBe(2)
    expect(after.statistics.totalBlogs - before.statistics.totalBlogs).toBe(1)
    const pendingCommunities = (figures: Analytics) => figures.pending.listings.find((part) => part.type === "community")!.count
    expect(pendingCommunities(after) - pendingCommunities(before)).toBe(2)
    expect(after.pending.scamReports - before.pending.scamReports).toBe(1)
    expect(after.pending.contacts - before.pending.contacts).toBe(1)
    expect(after.pending.inquiries - before.pending.inquiries).toBe(1)
    expect(after.pending.paidInquiries - before.pending.paidInquiries).toBe(1)
    expect(after.statistics.pendingReviews - before.statistics.pendingReviews).toBe(6)
    const { listings, scamReports, contacts, inquiries, paidInquiries } = after.pending
    expect(after.statistics.pendingReviews).toBe(listings.reduce((sum, part) => sum + part.count, 0) + scamReports + contacts + inquiries + paidInquiries)
    expect(after.created.points).toHaveLength(7)
    expect(after.created.points.at(-1)!.start).toBe(new Date().toISOString().slice(0, 10))
    expect(after.created.points.at(-1)!.total - before.created.points.at(-1)!.total).toBe(7)
    // Approving moves a listing out of the pending reviews, not out of the totals.
    expect(
      (await call(url(), "PUT", `/api/admin/listings/${made._id}`, { token: staff.moderator, body: { action: "approve", version: made.version } })).status
    ).toBe(200)
    const approved = await analytics("30d")
    expect(approved.statistics.pendingReviews).toBe(after.statistics.pendingReviews - 1)
    expect(approved.statistics.totalCommunities).toBe(after.statistics.totalCommunities)
    expect(approved.created.points).toHaveLength(30)
    const all = await analytics("all")
    expect(all.created.bucket).toBe("month")
    expect(all.created.total).toBeGreaterThanOrEqual(5)
    expect((await call(url(), "GET", "/api/admin/analytics?period=1y", { token: staff.moderator })).status).toBe(400)
    expect((await call(url(), "GET", "/api/admin/analytics")).status).toBe(401)
  })

  it("lists events newest first, filtered by actor, area, action, record and dates, each naming its record", async () => {
    const made = await community()
    const renamed = await call(url(), "PUT", `/api/admin/communities/${made._id}`, {
      token: staff.admin,
      body: { name: "Renamed Pioneers", description: "A group", version: made.version }
    })
    expect(renamed.status, renamed.text).toBe(200)
    const history = await logs(`?record=${made._id}`, staff.moderator)
    expect(history.logs.map((entry) => entry.action)).toEqual(["listing.update", "listing.create"])
    expect(history.logs[0]).toMatchObject({ area: "listing", entityId: made._id, record: { label: "Renamed Pioneers", kind: "community", slug: null } })
    const post = await call(url(), "POST", "/api/blog/admin/posts", { token: staff.admin, body: { title: "Slug Me", content: "<p>Body</p>", status: "draft" } })
    const slug = (post.body.post as { slug: string }).slug
    const blog = await logs("?area=blog&limit=1")
    expect(blog.logs[0]).toMatchObject({ action: "blog.create", record: { label: "Slug Me", slug } })
    const byActor = await logs(`?username=${encodeURIComponent("admin-")}&action=listing.update`)
    expect(byActor.logs.length).toBeGreaterThan(0)
    expect(byActor.logs.every((entry) => entry.action === "listing.update" && entry.actorEmail!.startsWith("admin-"))).toBe(true)
    expect((await logs("?username=nobody-at-all")).pagination.total).toBe(0)
    // Someone who is not an admin is found by the exact e-mail they typed.
    const stranger = `stranger-${++serial}@example.com`
    expect((await call(url(), "POST", "/api/admin/auth", { ip: freshIp(), body: { email: stranger, otp: "123456", attempt: newBrowserKey() } })).status).toBe(
      401
    )
    const strangers = await logs(`?username=${encodeURIComponent(stranger)}`)
    expect(strangers.logs.map((entry) => entry.action)).toEqual(["session.verify_failed"])
    expect(strangers.pagination.total).toBe(1)
    // One actor's total is their kept count: it agrees with their rows.
    const mine = await staff.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM activity_log
          WHERE actor_email IN (SELECT email FROM admins WHERE lower(email) LIKE '%admin-%' OR lower(coalesce(name, '')) LIKE '%admin-%')`
      )
    )
    expect((await logs(`?username=${encodeURIComponent("admin-")}`)).pagination.total).toBe(mine[0]?.n)
    // The whole log's and one area's totals are the kept counts: they agree with the rows.
    const counted = await staff.server.sql(
      Effect.flatMap(SqlClient, (sql) => sql<{ entity: string; n: number }>`SELECT entity, count(*)::int AS n FROM activity_log GROUP BY 1`)
    )
    expect((await logs("")).pagination.total).toBe(counted.reduce((sum, row) => sum + row.n, 0))
    for (const row of counted) expect((await logs(`?area=${row.entity}`)).pagination.total, row.entity).toBe(row.n)
    const today = new Date().toISOString().slice(0, 10)
    expect((await logs(`?from=${today}&to=${today}&record=${made._id}`)).pagination.total).toBe(2)
    expect((await logs(`?to=2000-01-01&record=${made._id}`)).pagination.total).toBe(0)
    expect((await logs("?from=2026-02-31")).pagination.total).toBe(0)
    for (const bad of ["?area=planets", "?action=DROP TABLE", "?from=yesterday", "?limit=0"]) {
      expect((await call(url(), "GET", `/api/admin/activity-logs${bad}`, { token: staff.moderator })).status, bad).toBe(400)
    }
    const paged = await logs("?limit=2&page=2")
    expect(paged.logs).toHaveLength(2)
    expect(paged.pagination.pages).toBe(Math.ceil(paged.pagination.total / 2))
    const csv = await call(url(), "GET", `/api/admin/activity-logs?format=csv&record=${made._id}`, { token: staff.moderator })
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="activity-log-/)
    expect(csvObjects(csv.text).map((row) => [row.action, row.record, row.recordKind])).toEqual([
      ["listing.update", "Renamed Pioneers", "community"],
      ["listing.create", "Renamed Pioneers", "community"]
    ])
  })

  it("shows each reader only the events of records their role may read, and of their own sessions: every area, the CSV, the dashboard's recent activity", async () => {
    const person = (role: Role) => `reader-${role}-${++serial}-${process.pid}@example.com`
    const readers = { moderator: person("moderator"), admin: person("admin"), super_admin: person("super_admin") }
    for (const [role, email] of Object.entries(readers)) await staff.server.sql(addAdmin(email, role as Role))
    const bossAddress = "192.0.2.77"
    const boss = await signIn(staff.server, readers.super_admin, "super_admin", bossAddress)
    // What only super admins may read: an admin account, a protected record, an allowed address.
    const secretEmail = `secret-admin-${serial}@example.com`
    const secretKey = `secret-key-${serial}`
    const storedValue = `stored-protected-value-${serial}`
    const allowed = "203.0.113.0/24"
    const made = [
      await call(url(), "POST", "/api/admin/users", { token: boss, body: { email: secretEmail, name: "Secret Name", role: "admin" } }),
      await call(url(), "POST", "/api/admin/protected-data", { token: boss, body: { type: "api-key", key: secretKey, value: storedValue, description: "" } }),
      await call(url(), "POST", "/api/admin/ip-management", { token: boss, ip: "203.0.113.9", body: { ip: allowed, description: "Office" } })
    ]
    await staff.server.sql(clearAllowedIps)
    for (const answer of made) expect(answer.status, answer.text).toBe(200)
    // What everyone may read, and each reader's own sign-in; a stranger's wrong code for the moderator's e-mail is about their account.
    await community()
    const tokens = {
      moderator: await signIn(staff.server, readers.moderator, "moderator"),
      admin: await signIn(staff.server, readers.admin, "admin"),
      super_admin: boss
    }
    expect(
      (await call(url(), "POST", "/api/admin/auth", { ip: freshIp(), body: { email: readers.moderator, otp: "000000", attempt: newBrowserKey() } })).status
    ).toBe(401)

    // The role table of docs/security.md: super admins' records are theirs to read; sign-ins are each person's own.
    const superOnly = ["admin", "ip", "protected-data"]
    const readable = (role: Role, own: string, entry: Pick<ActivityEntry, "area" | "actorEmail">) =>
      role === "super_admin" || (entry.area === "session" ? entry.actorEmail === own : !superOnly.includes(entry.area))
    const everyPage = async (token: string, query: string) => {
      const events: Array<ActivityEntry> = []
      for (let page = 1; ; page++) {
        const answer = await logs(`?limit=100&page=${page}${query}`, token)
        events.push(...answer.logs)
        if (page >= answer.pagination.pages) return { events, total: answer.pagination.total, text: JSON.stringify(answer) }
      }
    }
    const seen: Record<string, Array<ActivityEntry>> = {}
    for (const role of ["moderator", "admin", "super_admin"] as const) {
      const own = readers[role]
      const texts: Array<string> = []
      for (const area of ["", ...activityAreas]) {
        const { events, total, text } = await everyPage(tokens[role], area === "" ? "" : `&area=${area}`)
        texts.push(text)
        expect(total, `${role} ${area}`).toBe(events.length)
        expect(
          events.filter((entry) => !readable(role, own, entry)),
          `${role} ${area}`
        ).toEqual([])
        // A staff member's address is their session's: others see it only as super admins.
        if (role !== "super_admin") {
          expect(
            events.filter((entry) => entry.ip !== null && entry.actorId !== null && entry.actorEmail !== own),
            `${role} ${area}`
          ).toEqual([])
        }
        if (area === "") seen[role] = events
      }
      const csv = await call(url(), "GET", "/api/admin/activity-logs?format=csv", { token: tokens[role] })
      expect(csv.status, csv.text).toBe(200)
      const rows = csvObjects(csv.text)
      expect(rows.length).toBe(seen[role]!.length)
      expect(
        rows.filter((row) => !readable(role, own, { area: row.area!, actorEmail: row.actorEmail === "" ? null : row.actorEmail! })),
        role
      ).toEqual([])
      texts.push(csv.text)
      // The dashboard's Recent Activity is the log's first ten (src/api/activity.ts).
      const recent = await logs("?limit=10", tokens[role])
      expect(
        recent.logs.filter((entry) => !readable(role, own, entry)),
        role
      ).toEqual([])
      expect(recent.logs).toEqual(seen[role]!.slice(0, 10))
      texts.push(JSON.stringify(recent))
      const all = texts.join("\n")
      expect(all).not.toContain(storedValue)
      if (role === "super_admin") continue
      for (const secret of [secretEmail, "Secret Name", secretKey, allowed, bossAddress, readers.super_admin])
        expect(all, `${role}: ${secret}`).not.toContain(secret)
      expect(seen[role]!.some((entry) => entry.area === "session" && entry.actorEmail === own && entry.action === "session.sign_in")).toBe(true)
    }
    expect(seen.moderator!.some((entry) => entry.action === "session.verify_failed")).toBe(true)
    expect(seen.admin!.some((entry) => entry.action === "session.verify_failed")).toBe(false)
    // The super admin sees all of it.
    for (const action of ["admin.create", "protected-data.create", "ip.allow", "session.verify_failed"])
      expect(seen.super_admin!.map((entry) => entry.action)).toContain(action)
    expect(seen.super_admin!.filter((entry) => entry.action === "session.sign_in").map((entry) => entry.actorEmail)).toEqual(
      expect.arrayContaining(Object.values(readers))
    )
  })
})
