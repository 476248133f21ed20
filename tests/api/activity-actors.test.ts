import { describe, expect, it } from "vitest"
import type { ActivityEntry } from "../../contract/activity.ts"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { csvObjects } from "../support/csv.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { serverWithStaff, signedInAs, signIn } from "../support/session.ts"

/**
 * Who did an event, by role (docs/security.md, "Roles"): every role reads a colleague's name and
 * id; an e-mail is an admin account's, read by super admins and by each person for themselves
 * only, in the log, its CSV and what its `username` filter finds: a filter by an e-mail the reader
 * may not read finds nothing, so it tells nobody whether that e-mail is staff.
 */
describe.each(engines)("the activity log's actors by role on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  const logs = async (token: string, query = "") => {
    const answer = await call(url(), "GET", `/api/admin/activity-logs?limit=100${query}`, { token })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.data as { logs: ReadonlyArray<ActivityEntry>; pagination: { total: number } }
  }
  const whoAmI = async (token: string) => (await call(url(), "GET", "/api/admin/auth/check", { token })).body.user as { _id: string; email: string }
  /** A colleague (an admin) who signs in and adds a community: an event every role reads. */
  const colleague = async (email: string, name: string | null) => {
    const { id } = await staff.server.sql(addAdmin(email, "admin", name))
    const token = await signIn(staff.server, email, "admin")
    const made = await call(url(), "POST", "/api/admin/communities", {
      token,
      body: { name: `Made by ${name ?? "a quiet colleague"}`, description: "A group" }
    })
    expect(made.status, made.text).toBe(200)
    return id
  }

  it("names colleagues to every role and shows their e-mails to super admins only", async () => {
    const named = `ada-colleague-${engine.name}@example.com`
    const unnamed = `quiet-colleague-${engine.name}@example.com`
    const namedId = await colleague(named, "Ada Colleague")
    const unnamedId = await colleague(unnamed, null)
    const superToken = await signedInAs(staff.server, "super_admin")
    for (const token of [staff.moderator, staff.admin]) {
      const me = await whoAmI(token)
      const { logs: seen } = await logs(token)
      expect(seen.find((entry) => entry.actorId === namedId && entry.action === "listing.create")).toMatchObject({
        actorName: "Ada Colleague",
        actorEmail: null
      })
      expect(seen.find((entry) => entry.actorId === unnamedId && entry.action === "listing.create")).toMatchObject({ actorName: null, actorEmail: null })
      expect(seen.filter((entry) => entry.actorEmail !== null && entry.actorEmail !== me.email)).toEqual([])
      expect(seen.some((entry) => entry.action === "session.sign_in" && entry.actorEmail === me.email)).toBe(true)
      const csv = await call(url(), "GET", "/api/admin/activity-logs?format=csv", { token })
      expect(csv.status, csv.text).toBe(200)
      const rows = csvObjects(csv.text)
      expect(rows.find((row) => row.actorId === unnamedId && row.action === "listing.create")).toMatchObject({ actorEmail: "" })
      for (const email of [named, unnamed]) {
        expect(JSON.stringify(seen), email).not.toContain(email)
        expect(csv.text, email).not.toContain(email)
      }

      // The filter: no e-mail but one's own is matched, whole or in part; names are.
      for (const text of [named, unnamed, "quiet-colleague", "ada-colleague"]) {
        const found = await logs(token, `&username=${encodeURIComponent(text)}`)
        expect({ text, total: found.pagination.total, logs: found.logs }).toEqual({ text, total: 0, logs: [] })
      }
      const byDomain = await logs(token, "&username=example.com")
      expect(byDomain.logs.length).toBeGreaterThan(0)
      expect(byDomain.logs.filter((entry) => entry.actorId !== me._id)).toEqual([])
      const byName = await logs(token, "&username=ada%20coll")
      expect(byName.logs.map((entry) => entry.actorId)).toContain(namedId)
      expect(byName.logs.filter((entry) => entry.actorId !== namedId)).toEqual([])
      expect(byName.pagination.total).toBe(byName.logs.length)
    }

    const { logs: all } = await logs(superToken)
    expect(all.find((entry) => entry.actorId === namedId && entry.action === "listing.create")).toMatchObject({ actorName: "Ada Colleague", actorEmail: named })
    expect(all.find((entry) => entry.actorId === unnamedId && entry.action === "listing.create")).toMatchObject({ actorEmail: unnamed })
    const byEmail = await logs(superToken, `&username=${encodeURIComponent("quiet-colleague")}`)
    expect(byEmail.logs.length).toBeGreaterThan(0)
    expect(byEmail.logs.every((entry) => entry.actorId === unnamedId && entry.actorEmail === unnamed)).toBe(true)
  })
})
