import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { type Confirmation, confirmMessages } from "../../contract/confirm.ts"
import type { RegistrationOptions } from "../../contract/passkeys.ts"
import { softAuthenticator } from "../support/authenticator.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { deliveredOutbox } from "../support/server.ts"
import { freshEmail, settingsServer } from "../support/settings.ts"

/**
 * What adding a passkey does besides keeping it (docs/security.md, "Passkeys", "Confirm what
 * matters"): its mail to the owner is written with it, so a write refused or failed mails nothing
 * and a kept passkey is always told; and an account's first passkey ends the code confirmations of
 * its other sessions, which from now on confirm with the passkey.
 */
describe.each(engines)("adding a passkey on $name", (engine) => {
  const { staff, url, create, signIn } = settingsServer(engine)
  const origin = () => `http://localhost:${new URL(url()).port}`
  const addedSubject = "A passkey was added to your account"
  const register = async (token: string, name = "Laptop") => {
    const asked = await call(url(), "POST", "/api/admin/auth/passkeys/options", { token })
    expect(asked.status, asked.text).toBe(200)
    const credential = softAuthenticator().register(asked.body.data as RegistrationOptions, origin())
    return call(url(), "POST", "/api/admin/auth/passkeys", { token, body: { name, credential } })
  }
  const passkeysOf = async (email: string) =>
    (
      await staff.server.sql(
        Effect.flatMap(SqlClient, (sql) => sql<{ name: string }>`SELECT p.name FROM passkeys p JOIN admins a ON a.id = p.admin_id WHERE a.email = ${email}`)
      )
    ).map((row) => row.name)
  const addedMails = async (email: string) => (await deliveredOutbox(staff.server, email)).filter((mail) => mail.subject === addedSubject).length
  const status = async (token: string) => (await call(url(), "GET", "/api/admin/auth/confirm", { token })).body.data as Confirmation

  it("keeps the passkey and its mail together: a mail that cannot be written keeps no passkey, a refused one mails nothing", async () => {
    const email = freshEmail("added-mail")
    await create(email, "admin")
    const token = await signIn(email, "admin")
    const lower = email.toLowerCase()
    // The outbox refuses this person's "passkey added" mail, as a full or failing disk would refuse it.
    const refuseMail = (on: boolean) =>
      staff.server.sql(
        Effect.flatMap(SqlClient, (sql) =>
          on
            ? sql.unsafe(`ALTER TABLE mail_outbox ADD CONSTRAINT test_no_added_mail CHECK (recipient <> '${lower}' OR subject <> '${addedSubject}') NOT VALID`)
            : sql.unsafe(`ALTER TABLE mail_outbox DROP CONSTRAINT test_no_added_mail`)
        )
      )
    await refuseMail(true)
    try {
      const failed = await register(token, "Unannounced")
      expect(failed.status).toBe(500)
    } finally {
      await refuseMail(false)
    }
    expect(await passkeysOf(lower)).toEqual([])
    expect(await addedMails(lower)).toBe(0)
    // Written with its mail; the same device again is refused, and mails nothing more.
    expect((await register(token, "Announced")).status).toBe(200)
    expect(await passkeysOf(lower)).toEqual(["Announced"])
    expect(await addedMails(lower)).toBe(1)
  })

  it("ends the code confirmations of the account's other sessions when it adds its first passkey", async () => {
    const email = freshEmail("first-passkey")
    await create(email, "super_admin")
    const adder = await signIn(email, "super_admin")
    const other = await signIn(email, "super_admin")
    // Both signed in with a code while the account had no passkey: both confirmed.
    expect((await status(other)).confirmedUntil).not.toBeNull()
    expect((await register(adder, "First")).status).toBe(200)
    // The session that added it keeps its minutes; the other now confirms with the passkey.
    expect((await status(adder)).confirmedUntil).not.toBeNull()
    expect(await status(other)).toEqual({ method: "passkey", confirmedUntil: null })
    const refused = await call(url(), "POST", "/api/admin/users", { token: other, body: { email: freshEmail("by-other"), role: "moderator" } })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe(confirmMessages.required)
  })
})
