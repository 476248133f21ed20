import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import type { AdminAccount } from "../../contract/admin-users.ts"
import type { AdminSession } from "../../contract/sessions.ts"
import type { AllowedIp } from "../../contract/allowed-ips.ts"
import type { ProtectedRecord } from "../../contract/protected-data.ts"
import type { SiteSettings } from "../../contract/site-settings.ts"
import { adminMessages } from "../../contract/admin-users.ts"
import { ipMessages } from "../../contract/ip-rules.ts"
import { clearAllowedIps } from "../../server/allowed-ips/repository.ts"
import { csvObjects } from "../support/csv.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { runScript } from "../support/process.ts"
import { latestCode } from "../support/server.ts"
import { serverWithStaff, signedInAs } from "../support/session.ts"

let serial = 0
const freshEmail = (label: string) => `${label}-${++serial}-${process.pid}@example.com`

describe.each(engines)("admin management on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  let superAdmin = ""
  const superToken = async () => (superAdmin === "" ? (superAdmin = await signedInAs(staff.server, "super_admin")) : superAdmin)

  const users = async (query = "") => {
    const answer = await call(url(), "GET", `/api/admin/users${query}`, { token: await superToken() })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.data as { users: ReadonlyArray<AdminAccount>; pagination: { total: number } }
  }
  const create = async (email: string, role: string, name?: string) => {
    const answer = await call(url(), "POST", "/api/admin/users", { token: await superToken(), body: { email, role, ...(name === undefined ? {} : { name }) } })
    expect(answer.status, answer.text).toBe(200)
    return (answer.body.data as { user: AdminAccount }).user
  }
  const update = (id: string, body: Record<string, unknown>, token?: string) =>
    superToken().then((own) => call(url(), "PUT", `/api/admin/users/${id}`, { token: token ?? own, body }))
  /** Signs `email` in as `role` over HTTP, as the console does. */
  const signIn = async (email: string, role: string) => {
    const ip = freshIp()
    const asked = await call(url(), "POST", "/api/admin/auth", { ip, body: { email, role } })
    const answer = await call(url(), "POST", "/api/admin/auth", {
      ip,
      body: { email, otp: await latestCode(staff.server, email), attempt: asked.body.attempt },
      headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/142.0 Safari/537.36" }
    })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.token as string
  }
  const check = (token: string, ip?: string) => call(url(), "GET", "/api/admin/auth/check", { token, ...(ip === undefined ? {} : { ip }) })

  it("lets only super admins manage admins; adds, searches, renames and exports them", async () => {
    for (const token of [staff.admin, staff.moderator]) {
      const refused = await call(url(), "GET", "/api/admin/users", { token })
      expect(refused.status).toBe(403)
      expect(refused.body.error).toBe(adminMessages.superOnly)
      expect((await call(url(), "POST", "/api/admin/users", { token, body: { email: freshEmail("x"), role: "admin" } })).status).toBe(403)
      expect((await call(url(), "GET", "/api/admin/ip-management", { token })).status).toBe(403)
      expect((await call(url(), "POST", "/api/admin/ip-management", { token, body: { ip: "0.0.0.0/0" } })).status).toBe(403)
      expect((await call(url(), "GET", "/api/admin/protected-data", { token })).status).toBe(403)
      expect((await call(url(), "GET", "/api/admin/sessions?scope=all", { token })).status).toBe(403)
    }
    const email = freshEmail("Writer")
    const made = await create(email, "admin", "Wendy Writer")
    expect(made).toMatchObject({ email: email.toLowerCase(), name: "Wendy Writer", role: "admin", disabled: false, activeSessions: 0, version: 1 })
    const again = await call(url(), "POST", "/api/admin/users", { token: await superToken(), body: { email: email.toUpperCase(), role: "moderator" } })
    expect(again.status).toBe(409)
    expect(again.body.error).toBe(adminMessages.exists(email.toLowerCase()))
    // The refusal names its field, so the form says it under the e-mail.
    expect(again.body.issues).toEqual([{ path: "email", message: adminMessages.exists(email.toLowerCase()) }])
    expect((await call(url(), "POST", "/api/admin/users", { token: await superToken(), body: { email: "not-mail", role: "admin" } })).status).toBe(400)
    expect((await call(url(), "POST", "/api/admin/users", { token: await superToken(), body: { email: freshEmail("y"), role: "owner" } })).status).toBe(400)
    expect((await users(`?search=${encodeURIComponent("wendy writer")}`)).users.map((user) => user.email)).toEqual([email.toLowerCase()])
    const renamed = await update(made._id, { name: "W. Writer", version: 1 })
    expect(renamed.status, renamed.text).toBe(200)
    expect((renamed.body.data as { user: AdminAccount }).user).toMatchObject({ name: "W. Writer", version: 2 })
    const stale = await update(made._id, { name: "Late", version: 1 })
    expect(stale.status).toBe(409)
    expect(stale.body.error).toBe(adminMessages.stale)
    const csv = await call(url(), "GET", "/api/admin/users?format=csv", { token: await superToken() })
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/)
    expect(csvObjects(csv.text).find((row) => row.email === email.toLowerCase())).toMatchObject({ name: "W. Writer", role: "admin" })
    // The export holds what the search matches, not every admin.
    const searched = await call(url(), "GET", `/api/admin/users?format=csv&search=${encodeURIComponent("w. writer")}`, { token: await superToken() })
    expect(csvObjects(searched.text).map((row) => row.email)).toEqual([email.toLowerCase()])
    const log = await staff.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql<{ action: string; actorEmail: string | null }>`SELECT action, actor_email FROM activity_log WHERE entity_id = ${made._id} ORDER BY id`
      )
    )
    expect(log.map((row) => row.action)).toEqual(["admin.create", "admin.rename"])
    expect(log.every((row) => row.actorEmail !== null)).toBe(true)
  })

  it("lowers a demoted admin's open sessions at once and ends a disabled admin's everywhere", async () => {
    const email = freshEmail("demoted")
    const made = await create(email, "super_admin")
    const token = await signIn(email, "super_admin")
    expect(((await check(token)).body.user as { role: string }).role).toBe("super_admin")
    const demoted = await update(made._id, { role: "moderator", version: made.version })
    expect(demoted.status, demoted.text).toBe(200)
    expect((await check(token)).body.user as { role: string; grantedRole: string }).toMatchObject({ role: "moderator", grantedRole: "moderator" })
    expect((await call(url(), "GET", "/api/admin/users", { token })).status).toBe(403)
    const version = (demoted.body.data as { user: AdminAccount }).user.version
    const disabled = await call(url(), "DELETE", `/api/admin/users/${made._id}?version=${version}`, { token: await superToken() })
    expect(disabled.status, disabled.text).toBe(200)
    expect((disabled.body.data as { user: AdminAccount }).user).toMatchObject({ disabled: true, activeSessions: 0 })
    expect((await check(token)).status).toBe(401)
    // The record stays: the activity log names it.
    expect((await users(`?search=${encodeURIComponent(email)}`)).users).toHaveLength(1)
  })

  it("keeps one enabled super admin: the last can't be disabled or demoted, nor disable itself", async () => {
    const token = await superToken()
    const me = ((await check(token)).body.user as { _id: string })._id
    const self = await update(me, { disabled: true, version: 1 })
    expect(self.status).toBe(409)
    expect(self.body.error).toBe(adminMessages.self)
    // Every other super admin is disabled, so this one is the last.
    const others = (await users("?limit=100")).users.filter((user) => user.role === "super_admin" && !user.disabled && user._id !== me)
    for (const other of others) expect((await update(other._id, { disabled: true, version: other.version })).status).toBe(200)
    const mine = (await users("?limit=100")).users.find((user) => user._id === me)!
    const demote = await update(me, { role: "admin", version: mine.version })
    expect(demote.status).toBe(409)
    expect(demote.body.error).toBe(adminMessages.lastSuperAdmin)
    // Two super admins demoting each other at once: one wins; the other's request is refused
    // (409 when it reached the check, 403 when its own session had been lowered first).
    const second = await create(freshEmail("second"), "super_admin")
    const secondToken = await signIn(second.email, "super_admin")
    const [a, b] = await Promise.all([
      update(second._id, { role: "admin", version: second.version }, token),
      update(me, { role: "admin", version: mine.version }, secondToken)
    ])
    expect([a.status, b.status].filter((status) => status === 200)).toHaveLength(1)
    expect([403, 409]).toContain(a.status === 200 ? b.status : a.status)
    const supers = (await users("?limit=100").catch(() => ({ users: [] as ReadonlyArray<AdminAccount> }))).users
    const left =
      supers.length > 0
        ? supers
        : ((await call(url(), "GET", "/api/admin/users?limit=100", { token: secondToken })).body.data as { users: ReadonlyArray<AdminAccount> }).users
    expect(left.filter((user) => user.role === "super_admin" && !user.disabled)).toHaveLength(1)
    // Whoever is left gives the other back the role, for the tests after this one.
    if (a.status !== 200) {
      const back = left.find((user) => user._id === me)!
      expect((await update(me, { role: "super_admin", version: back.version }, secondToken)).status).toBe(200)
      superAdmin = await signIn(left.find((user) => user._id === me)!.email, "super_admin")
    }
  })

  it("lists the caller's sessions with their browser, signs one out and every other", async () => {
    const email = freshEmail("traveller")
    await create(email, "admin")
    const first = await signIn(email, "admin")
    const second = await signIn(email, "admin")
    const third = await signIn(email, "admin")
    const listed = await call(url(), "GET", "/api/admin/sessions", { token: first })
    const sessions = (listed.body.data as { sessions: ReadonlyArray<AdminSession> }).sessions
    expect(sessions).toHaveLength(3)
    expect(sessions.filter((session) => session.current)).toHaveLength(1)
    expect(sessions[0]!.userAgent).toContain("Chrome/142.0")
    expect((await call(url(), "GET", "/api/admin/sessions?scope=all", { token: first })).status).toBe(403)
    const secondId = sessions.find((session) => !session.current)!._id
    expect((await call(url(), "DELETE", `/api/admin/sessions/${secondId}`, { token: first })).status).toBe(200)
    expect((await call(url(), "DELETE", `/api/admin/sessions/${secondId}`, { token: first })).status).toBe(404)
    const others = await call(url(), "POST", "/api/admin/sessions/end-others", { token: first })
    expect(others.body).toEqual({ success: true, data: { ended: 1 } })
    expect((await check(first)).status).toBe(200)
    expect((await check(second)).status + (await check(third)).status).toBe(802)
    // Someone else's session: only a super admin may end it.
    const mine = (await call(url(), "GET", "/api/admin/sessions", { token: staff.moderator })).body.data as { sessions: ReadonlyArray<AdminSession> }
    expect((await call(url(), "DELETE", `/api/admin/sessions/${mine.sessions[0]!._id}`, { token: first })).status).toBe(403)
    const everyone = await call(url(), "GET", "/api/admin/sessions?scope=all", { token: await superToken() })
    expect((everyone.body.data as { sessions: ReadonlyArray<AdminSession> }).sessions.some((session) => session.email === email.toLowerCase())).toBe(true)
  })

  it("keeps protected values out of every log and versions them", async () => {
    const token = await superToken()
    expect((await call(url(), "GET", "/api/admin/protected-data", { token: staff.admin })).status).toBe(403)
    const body = { type: "api-key", key: `pi-network-${++serial}`, value: "s3cret-value-never-logged", description: "Payments" }
    const made = await call(url(), "POST", "/api/admin/protected-data", { token, body })
    expect(made.status, made.text).toBe(200)
    const record = (made.body.data as { record: ProtectedRecord }).record
    expect((await call(url(), "POST", "/api/admin/protected-data", { token, body })).status).toBe(409)
    expect((await call(url(), "POST", "/api/admin/protected-data", { token, body: { ...body, type: "Not A Type" } })).status).toBe(400)
    const changed = await call(url(), "PUT", `/api/admin/protected-data/${record._id}`, {
      token,
      body: { ...body, value: "rotated-value-never-logged", version: 1 }
    })
    expect(changed.status, changed.text).toBe(200)
    expect((await call(url(), "PUT", `/api/admin/protected-data/${record._id}`, { token, body: { ...body, version: 1 } })).status).toBe(409)
    const listed = await call(url(), "GET", "/api/admin/protected-data?type=api-key", { token })
    expect((listed.body.data as { records: ReadonlyArray<ProtectedRecord> }).records.find((row) => row._id === record._id)?.value).toBe(
      "rotated-value-never-logged"
    )
    expect((await call(url(), "DELETE", `/api/admin/protected-data/${record._id}?version=2`, { token })).status).toBe(200)
    const log = await staff.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) =>
          sql<{
            action: string
            text: string
          }>`SELECT action, row_to_json(activity_log)::text AS text FROM activity_log WHERE entity_id = ${record._id} ORDER BY id`
      )
    )
    expect(log.map((row) => row.action)).toEqual(["protected-data.create", "protected-data.update", "protected-data.delete"])
    expect(log.some((row) => row.text.includes("never-logged"))).toBe(false)
  })

  it("keeps the site's settings as one versioned document only super admins change", async () => {
    const token = await superToken()
    const read = await call(url(), "GET", "/api/admin/ecosystem", { token: staff.moderator })
    expect(read.status).toBe(200)
    const settings = (read.body.data as { settings: SiteSettings }).settings
    const { updatedAt: _, version, ...fields } = settings
    const next = { ...fields, tagline: "Everything Pi", maintenanceMode: true, social: { telegram: "https://t.me/pi" }, version }
    expect((await call(url(), "PUT", "/api/admin/ecosystem", { token: staff.admin, body: next })).status).toBe(403)
    const saved = await call(url(), "PUT", "/api/admin/ecosystem", { token, body: next })
    expect(saved.status, saved.text).toBe(200)
    expect((saved.body.data as { settings: SiteSettings }).settings).toMatchObject({ tagline: "Everything Pi", maintenanceMode: true, version: version + 1 })
    expect((await call(url(), "PUT", "/api/admin/ecosystem", { token, body: next })).status).toBe(409)
    expect((await call(url(), "PUT", "/api/admin/ecosystem", { token, body: { ...next, contactEmail: "nope", version: version + 1 } })).status).toBe(400)
  })

  it("answers only allowed addresses (IPv4, IPv6, CIDR) once the list has one, and refuses a lock-out", async () => {
    const token = await superToken()
    const home = "203.0.113.9"
    const add = (ip: string, from = home) => call(url(), "POST", "/api/admin/ip-management", { token, ip: from, body: { ip, description: `office ${ip}` } })
    const bad = await add("10.0.0.0/33")
    expect(bad.status).toBe(400)
    expect(bad.body.issues).toEqual([{ path: "ip", message: ipMessages.invalid }])
    // The first entry must cover the caller, or it would shut them out.
    const lockOut = await add("198.51.100.0/24")
    expect(lockOut.status).toBe(409)
    expect(lockOut.body.error).toBe(ipMessages.lockOut(home))
    const ours = await add("203.0.113.0/24")
    expect(ours.status, ours.text).toBe(200)
    expect((ours.body.data as { ip: AllowedIp }).ip.ip).toBe("203.0.113.0/24")
    expect((await add("203.0.113.77/24")).status).toBe(409)
    const v6 = await add("2001:DB8:0:0::/32")
    expect((v6.body.data as { ip: AllowedIp }).ip.ip).toBe("2001:db8::/32")
    try {
      expect((await check(token, "203.0.113.200")).status).toBe(200)
      expect((await check(token, "2001:db8:ffff::1")).status).toBe(200)
      const outside = await check(token, "198.51.100.7")
      expect(outside.status).toBe(403)
      expect(outside.body.error).toBe(ipMessages.refused)
      expect((await check(token, "2001:db9::1")).status).toBe(403)
      // A token from outside reads nothing staff-only, even where the public may read too.
      const draft = await call(url(), "POST", "/api/blog/admin/posts", {
        token,
        ip: home,
        body: { title: `Draft ${freshEmail("post")}`, content: "<p>Not yet</p>", status: "draft" }
      })
      expect(draft.status, draft.text).toBe(200)
      const slug = (draft.body.post as { slug: string }).slug
      for (const path of ["/api/blog/posts?status=draft", `/api/blog/posts/${slug}`, "/api/blog/posts?format=csv", "/api/core-team-contact?page=1"]) {
        const answer = await call(url(), "GET", path, { token, ip: "198.51.100.7" })
        expect(answer.status, path).toBe(403)
        expect(answer.body.error, path).toBe(ipMessages.refused)
      }
      expect((await call(url(), "GET", `/api/blog/posts/${slug}`, { ip: "198.51.100.7" })).status).toBe(404)
      expect((await call(url(), "GET", "/api/blog/posts", { ip: "198.51.100.7" })).status).toBe(200)
      expect((await call(url(), "GET", `/api/blog/posts/${slug}`, { token, ip: home })).status).toBe(200)
      // Sign-in is an admin endpoint too; the public forms are not.
      const signIn = await call(url(), "POST", "/api/admin/auth", { ip: "198.51.100.8", body: { email: freshEmail("x"), role: "admin" } })
      expect(signIn.status).toBe(403)
      expect(
        (await call(url(), "POST", "/api/report-scam", { ip: "198.51.100.9", body: { scamType: "other", description: "Public still works" } })).status
      ).toBe(200)
      const listed = await call(url(), "GET", "/api/admin/ip-management", { token, ip: home })
      const data = listed.body.data as { ips: ReadonlyArray<AllowedIp>; yourIp: string }
      expect(data.yourIp).toBe(home)
      // Removing the entry that lets the caller in, while another remains, would lock them out.
      const ourEntry = data.ips.find((entry) => entry.ip === "203.0.113.0/24")!
      const removal = await call(url(), "DELETE", `/api/admin/ip-management/${ourEntry._id}`, { token, ip: home })
      expect(removal.status).toBe(409)
      expect(removal.body.error).toBe(ipMessages.lockOut(home))
      // From an IPv6 address the list allows, the IPv4 entry can go.
      expect((await call(url(), "DELETE", `/api/admin/ip-management/${ourEntry._id}`, { token, ip: "2001:db8::5" })).status).toBe(200)
      expect((await check(token, home)).status).toBe(403)
    } finally {
      await staff.server.sql(clearAllowedIps)
    }
    expect((await check(token, "198.51.100.7")).status).toBe(200)
  })

  // Only PostgreSQL has other processes: PGlite's data folder belongs to one.
  if (engine.name === "postgresql") {
    it("applies a demotion and an allowed-address change made by another process at once", async () => {
      const email = freshEmail("remote")
      await create(email, "admin")
      const token = await signIn(email, "admin")
      const run = (...args: ReadonlyArray<string>) =>
        runScript("server/cli/admin.ts", args, { DATA_DIR: staff.server.config.dataDir, DATABASE_URL: staff.server.config.databaseUrl ?? "" }).exited
      expect(((await check(token)).body.user as { role: string }).role).toBe("admin")
      expect(await run("role", email, "moderator")).toBe(0)
      await expect.poll(async () => ((await check(token)).body.user as { role: string } | undefined)?.role, { timeout: 2_000 }).toBe("moderator")
      expect(await run("allow-ip", "192.0.2.0/24", "VPN")).toBe(0)
      try {
        await expect.poll(async () => (await check(token, "198.51.100.20")).status, { timeout: 2_000 }).toBe(403)
        expect((await check(token, "192.0.2.44")).status).toBe(200)
      } finally {
        expect(await run("clear-ips")).toBe(0)
      }
      await expect.poll(async () => (await check(token, "198.51.100.20")).status, { timeout: 2_000 }).toBe(200)
    })
  }
})
