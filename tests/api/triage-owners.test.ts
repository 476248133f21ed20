import { describe, expect, it } from "vitest"
import type { TriageOwnerEntry } from "../../contract/triage.ts"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { serverWithStaff, signedInAs } from "../support/session.ts"

/**
 * Who may own the desk's items, by role (docs/api.md, "The triage desk"): every role reads their
 * names (the desk assigns by them), only super admins read admin accounts, so only they read
 * everyone's e-mail (docs/security.md, "Roles"); anyone reads their own.
 */
describe.each(engines)("the triage desk's owners by role on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  const owners = async (token: string) => {
    const answer = await call(url(), "GET", "/api/admin/triage/owners", { token })
    expect(answer.status, answer.text).toBe(200)
    return (answer.body.data as { owners: ReadonlyArray<TriageOwnerEntry> }).owners
  }
  const whoAmI = async (token: string) => (await call(url(), "GET", "/api/admin/auth/check", { token })).body.user as { _id: string; email: string }

  it("names everyone to every role, and shows e-mails to super admins only, one's own to each", async () => {
    const named = `named-owner-${engine.name}@example.com`
    const unnamed = `unnamed-owner-${engine.name}@example.com`
    const { id: namedId } = await staff.server.sql(addAdmin(named, "moderator", "Nadia Named"))
    const { id: unnamedId } = await staff.server.sql(addAdmin(unnamed, "admin"))
    const superToken = await signedInAs(staff.server, "super_admin")
    for (const token of [staff.moderator, staff.admin]) {
      const me = await whoAmI(token)
      const seen = await owners(token)
      expect(seen.find((owner) => owner._id === namedId)).toMatchObject({ name: "Nadia Named", email: null })
      expect(seen.find((owner) => owner._id === unnamedId)).toMatchObject({ name: null, email: null })
      expect(seen.find((owner) => owner._id === me._id)).toMatchObject({ email: me.email })
      expect(seen.filter((owner) => owner._id !== me._id).every((owner) => owner.email === null)).toBe(true)
      for (const email of [named, unnamed]) expect(JSON.stringify(seen)).not.toContain(email)
    }
    const all = await owners(superToken)
    expect(all.find((owner) => owner._id === namedId)).toMatchObject({ name: "Nadia Named", email: named })
    expect(all.find((owner) => owner._id === unnamedId)).toMatchObject({ name: null, email: unnamed })
    expect(all.every((owner) => owner.email !== null)).toBe(true)
  })
})
