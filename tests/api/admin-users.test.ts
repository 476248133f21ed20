import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import type { AdminAccount } from "../../contract/admin-users.ts"
import { adminMessages } from "../../contract/admin-users.ts"
import { csvObjects } from "../support/csv.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { freshEmail, settingsServer } from "../support/settings.ts"

describe.each(engines)("admin users on $name", (engine) => {
  const { staff, url, superToken, useSuperToken, users, create, update, signIn, check, adminScript } = settingsServer(engine)

  it("lets only super admins manage admins; adds, searches, renames and exports them", async () => {
    for (const token of [staff.admin, staff.moderator]) {
      const refused = await call(url(), "GET", "/api/admin/users", { token })
      expect(refused.status).toBe(403)
      expect(refused.body.error).toBe(adminMessages.superOnly)
      expect((await call(url(), "POST", "/api/admin/users", { token, body: { email: freshEmail("x"), role: "admin" } })).status).toBe(403)
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
      useSuperToken(await signIn(left.find((user) => user._id === me)!.email, "super_admin"))
    }
  })

  // Only PostgreSQL has other processes: PGlite's data folder belongs to one.
  if (engine.name === "postgresql") {
    it("applies a demotion made by another process at once", async () => {
      const email = freshEmail("remote")
      await create(email, "admin")
      const token = await signIn(email, "admin")
      expect(((await check(token)).body.user as { role: string }).role).toBe("admin")
      expect(await adminScript("role", email, "moderator")).toBe(0)
      await expect.poll(async () => ((await check(token)).body.user as { role: string } | undefined)?.role, { timeout: 2_000 }).toBe("moderator")
    })
  }
})
