import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { type Confirmation, confirmMessages } from "../../contract/confirm.ts"
import type { AuthenticationOptions, RegistrationOptions } from "../../contract/passkeys.ts"
import { hashToken } from "../../server/platform/secrets.ts"
import { type SoftAlgorithm, softAuthenticator } from "../support/authenticator.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { deliveredOutbox } from "../support/server.ts"
import { freshEmail, settingsServer } from "../support/settings.ts"

/**
 * Confirming it's you again (docs/security.md, "Confirm what matters"): ten minutes after a
 * session last confirmed (its sign-in, a passkey, a code), what changes admins, addresses,
 * protected data and passkey rules is refused until it confirms again: with a passkey when the
 * account has one, else with a code by e-mail; a refused change leaves nothing behind.
 */
describe.each(engines)("confirming it's you on $name", (engine) => {
  const { staff, url, create, signIn } = settingsServer(engine)
  const origin = () => `http://localhost:${new URL(url()).port}`

  const status = async (token: string) => (await call(url(), "GET", "/api/admin/auth/confirm", { token })).body.data as Confirmation
  /** Ten minutes and more since this session last confirmed. */
  const age = (token: string) =>
    staff.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) =>
          sql`UPDATE sessions SET confirmed_at = now() - interval '11 minutes', last_passkey_at = CASE WHEN last_passkey_at IS NULL THEN NULL ELSE now() - interval '11 minutes' END
              WHERE token_hash = ${hashToken(token)}`
      )
    )
  /** A change that asks for the confirmation: adding an admin. */
  const addAdmin = (token: string) => call(url(), "POST", "/api/admin/users", { token, body: { email: freshEmail("added"), role: "moderator" } })
  const admins = async (token: string) =>
    ((await call(url(), "GET", "/api/admin/users", { token })).body.data as { pagination: { total: number } }).pagination.total
  const lastCode = async (email: string) => {
    const mail = (await deliveredOutbox(staff.server, email.toLowerCase())).filter((one) => one.subject.startsWith("Your confirmation code")).at(-1)
    return mail?.subject.match(/(\d{6})/u)?.[1] ?? ""
  }

  it("asks a person with no passkey for a code by e-mail ten minutes after the last one, and keeps nothing refused", async () => {
    const email = freshEmail("confirm-code")
    await create(email, "super_admin")
    const token = await signIn(email, "super_admin")
    // Signed in with a code just now: confirmed for ten minutes.
    const fresh = await status(token)
    expect(fresh.method).toBe("code")
    expect(Date.parse(fresh.confirmedUntil!) - Date.now()).toBeGreaterThan(9 * 60_000)
    await age(token)
    expect((await status(token)).confirmedUntil).toBeNull()
    const before = await admins(token)
    const refused = await addAdmin(token)
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe(confirmMessages.required)
    expect(await admins(token)).toBe(before)
    expect((await call(url(), "POST", "/api/admin/ip-management", { token, body: { ip: "198.51.100.7", description: "Office" } })).status).toBe(403)
    // A passkey confirms nothing here: the account has none.
    expect((await call(url(), "POST", "/api/admin/auth/confirm/options", { token })).status).toBe(409)
    // Five wrong guesses end the code, also at once; a new code confirms.
    expect((await call(url(), "POST", "/api/admin/auth/confirm/code", { token })).status).toBe(200)
    const code = await lastCode(email)
    expect(code).toMatch(/^\d{6}$/u)
    const wrong = code === "000000" ? "000001" : "000000"
    const guesses = await Promise.all(
      Array.from({ length: 8 }, () => call(url(), "POST", "/api/admin/auth/confirm/code/verify", { token, body: { code: wrong } }))
    )
    expect(guesses.every((one) => one.status === 401)).toBe(true)
    expect((await call(url(), "POST", "/api/admin/auth/confirm/code/verify", { token, body: { code } })).status).toBe(401)
    expect((await call(url(), "POST", "/api/admin/auth/confirm/code", { token })).status).toBe(200)
    const next = await lastCode(email)
    const confirmed = await call(url(), "POST", "/api/admin/auth/confirm/code/verify", { token, body: { code: next } })
    expect(confirmed.status, confirmed.text).toBe(200)
    expect((confirmed.body.data as Confirmation).confirmedUntil).not.toBeNull()
    // Used: it confirms once.
    expect((await call(url(), "POST", "/api/admin/auth/confirm/code/verify", { token, body: { code: next } })).status).toBe(401)
    expect((await addAdmin(token)).status).toBe(200)
  })

  /** Adds a passkey with this session (which must be confirmed); the device holding it. */
  let named = 0
  const addPasskey = async (token: string, algorithm?: SoftAlgorithm) => {
    const key = softAuthenticator(algorithm)
    const asked = await call(url(), "POST", "/api/admin/auth/passkeys/options", { token })
    expect(asked.status, asked.text).toBe(200)
    const added = await call(url(), "POST", "/api/admin/auth/passkeys", {
      token,
      body: { name: `Key ${++named}`, credential: key.register(asked.body.data as RegistrationOptions, origin()) }
    })
    expect(added.status, added.text).toBe(200)
    return key
  }
  const confirmOptions = (token: string) => call(url(), "POST", "/api/admin/auth/confirm/options", { token })
  const confirmWith = (token: string, credential: unknown) => call(url(), "POST", "/api/admin/auth/confirm/passkey", { token, body: { credential } })

  it("asks a person with a passkey for it, even after a code sign-in; another person's passkey or a reused answer confirms nothing", async () => {
    const email = freshEmail("confirm-passkey")
    await create(email, "super_admin")
    const key = await addPasskey(await signIn(email, "super_admin"))
    const token = await signIn(email, "super_admin")
    // A code sign-in confirms nothing for an account with a passkey: its passkey does.
    expect(await status(token)).toEqual({ method: "passkey", confirmedUntil: null })
    expect((await addAdmin(token)).status).toBe(403)
    expect((await call(url(), "POST", "/api/admin/auth/confirm/code", { token })).status).toBe(409)
    const options = async () => {
      const answer = await call(url(), "POST", "/api/admin/auth/confirm/options", { token })
      expect(answer.status, answer.text).toBe(200)
      return answer.body.data as AuthenticationOptions
    }
    const first = await options()
    expect(first.allowCredentials.map((one) => one.id)).toEqual([key.id])
    const stranger = await call(url(), "POST", "/api/admin/auth/confirm/passkey", {
      token,
      body: { credential: softAuthenticator().authenticate(first, origin()) }
    })
    expect(stranger.status).toBe(401)
    expect(stranger.body.error).toBe(confirmMessages.refused)
    expect(
      (
        await call(url(), "POST", "/api/admin/auth/confirm/passkey", {
          token,
          body: { credential: key.authenticate(await options(), "https://phishing.example") }
        })
      ).status
    ).toBe(401)
    // Twenty answers to one challenge at once: one confirms.
    const once = await options()
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(url(), "POST", "/api/admin/auth/confirm/passkey", { token, body: { credential: key.authenticate(once, origin()) } })
      )
    )
    expect(answers.filter((one) => one.status === 200)).toHaveLength(1)
    expect((await status(token)).confirmedUntil).not.toBeNull()
    expect((await addAdmin(token)).status).toBe(200)
    // Another session of the same person is not confirmed by this one's passkey.
    const other = await signIn(email, "super_admin")
    expect((await status(other)).confirmedUntil).toBeNull()
  })

  it("lets a passkey sign-in confirm for ten minutes, asks nothing of reads, and asks again before one's own passkeys change", async () => {
    const email = freshEmail("confirm-signin")
    await create(email, "super_admin")
    const key = await addPasskey(await signIn(email, "super_admin"))
    const ip = freshIp()
    const options = (await call(url(), "POST", "/api/admin/auth/passkeys/sign-in/options", { ip })).body.data as AuthenticationOptions
    const signedIn = await call(url(), "POST", "/api/admin/auth/passkeys/sign-in", { ip, body: { credential: key.authenticate(options, origin()) } })
    expect(signedIn.status, signedIn.text).toBe(200)
    const passkeyToken = signedIn.body.token as string
    expect((await status(passkeyToken)).confirmedUntil).not.toBeNull()
    expect((await addAdmin(passkeyToken)).status).toBe(200)
    await age(passkeyToken)
    expect((await addAdmin(passkeyToken)).status).toBe(403)
    expect((await call(url(), "GET", "/api/admin/users", { token: passkeyToken })).status).toBe(200)
    expect((await call(url(), "GET", "/api/admin/passkeys", { token: passkeyToken })).status).toBe(200)
    expect((await call(url(), "POST", "/api/admin/auth/passkeys/recovery-codes", { token: passkeyToken })).status).toBe(403)
    // The passkey the session signed in with confirms it again: this session did not add it.
    const again = (await confirmOptions(passkeyToken)).body.data as AuthenticationOptions
    expect((await confirmWith(passkeyToken, key.authenticate(again, origin()))).status).toBe(200)
    expect((await call(url(), "POST", "/api/admin/auth/passkeys/recovery-codes", { token: passkeyToken })).status).toBe(200)
  })

  it("never lets a passkey confirm the session that added it, even ten answers at once; a code mailed before the first passkey confirms nothing", async () => {
    const email = freshEmail("confirm-added")
    await create(email, "admin")
    // A new account signs in with a code: that confirms it for ten minutes, so it adds its first passkey.
    const adder = await signIn(email, "admin")
    const key = await addPasskey(adder)
    expect((await status(adder)).confirmedUntil).not.toBeNull()
    await age(adder)
    expect(await status(adder)).toEqual({ method: "passkey", confirmedUntil: null })
    const addedHere = await confirmOptions(adder)
    expect(addedHere.status).toBe(409)
    expect(addedHere.body.error).toBe(confirmMessages.addedHere)
    // A challenge asked by another session of the account, answered with that passkey, from the one that added it.
    const ip = freshIp()
    const signInOptions = (await call(url(), "POST", "/api/admin/auth/passkeys/sign-in/options", { ip })).body.data as AuthenticationOptions
    const other = (await call(url(), "POST", "/api/admin/auth/passkeys/sign-in", { ip, body: { credential: key.authenticate(signInOptions, origin()) } })).body
      .token as string
    await age(other)
    const challenge = (await confirmOptions(other)).body.data as AuthenticationOptions
    const fromAdder = await Promise.all(Array.from({ length: 10 }, () => confirmWith(adder, key.authenticate(challenge, origin()))))
    expect(fromAdder.map((one) => one.status)).toEqual(Array.from({ length: 10 }, () => 401))
    expect(fromAdder.filter((one) => one.body.error === confirmMessages.addedHere)).toHaveLength(1)
    expect((await status(adder)).confirmedUntil).toBeNull()
    // The session that signed in with it confirms with it: of ten answers to one challenge, one.
    const once = (await confirmOptions(other)).body.data as AuthenticationOptions
    const fromOther = await Promise.all(Array.from({ length: 10 }, () => confirmWith(other, key.authenticate(once, origin()))))
    expect(fromOther.filter((one) => one.status === 200)).toHaveLength(1)
    expect((await status(adder)).confirmedUntil).toBeNull()
    // A code asked for while the account had no passkey confirms nothing once it has one.
    const newcomer = freshEmail("confirm-before")
    await create(newcomer, "admin")
    const early = await signIn(newcomer, "admin")
    await age(early)
    expect((await call(url(), "POST", "/api/admin/auth/confirm/code", { token: early })).status).toBe(200)
    const code = await lastCode(newcomer)
    await addPasskey(await signIn(newcomer, "admin"))
    const late = await call(url(), "POST", "/api/admin/auth/confirm/code/verify", { token: early, body: { code } })
    expect(late.status).toBe(409)
    expect(late.body.error).toBe(confirmMessages.hasPasskey)
    expect((await status(early)).confirmedUntil).toBeNull()
  })

  it("asks again before each change that matters, and a refused one leaves nothing: roles, addresses, protected data, passkeys, rules and resets, a restore", async () => {
    const email = freshEmail("confirm-each")
    await create(email, "super_admin")
    const token = await signIn(email, "super_admin")
    // One's own passkey to rename and remove, and a challenge to answer, asked while confirmed.
    await addPasskey(token)
    const own = ((await call(url(), "GET", "/api/admin/passkeys", { token })).body.data as { passkeys: ReadonlyArray<{ _id: string }> }).passkeys[0]!._id
    const asked = (await call(url(), "POST", "/api/admin/auth/passkeys/options", { token })).body.data as RegistrationOptions
    const credential = softAuthenticator("ML-DSA-44").register(asked, origin())
    // What the changes act on, made while the session is confirmed.
    const other = await create(freshEmail("confirm-other"), "moderator")
    const address = await call(url(), "POST", "/api/admin/ip-management", { token, body: { ip: "0.0.0.0/0", description: "Everyone, so no test is shut out" } })
    expect(address.status, address.text).toBe(200)
    const addressId = (address.body.data as { ip: { _id: string } }).ip._id
    const secret = await call(url(), "POST", "/api/admin/protected-data", { token, body: { type: "api-key", key: `confirm-${Date.now()}`, value: "s3cret" } })
    expect(secret.status, secret.text).toBe(200)
    const secretId = (secret.body.data as { record: { _id: string } }).record._id
    const made = await call(url(), "POST", "/api/admin/communities", { token, body: { name: "Confirm restore", description: "Gone" } })
    const listingId = (made.body.data as { listing: { _id: string } }).listing._id
    expect((await call(url(), "DELETE", `/api/admin/communities/${listingId}?version=1`, { token })).status).toBe(200)
    /** Everything the changes could touch, read by SQL: the same before and after every refusal. */
    const state = () =>
      staff.server.sql(
        Effect.flatMap(
          SqlClient,
          (sql) => sql`SELECT
            (SELECT json_agg(to_jsonb(a) ORDER BY a.id) FROM admins a) AS admins,
            (SELECT json_agg(to_jsonb(i) ORDER BY i.id) FROM allowed_ips i) AS ips,
            (SELECT json_agg(to_jsonb(p) ORDER BY p.id) FROM protected_data p) AS secrets,
            (SELECT json_agg(to_jsonb(r) ORDER BY r.role) FROM passkey_rules r) AS rules,
            (SELECT json_agg(to_jsonb(k) ORDER BY k.id) FROM passkeys k) AS passkeys,
            (SELECT count(*)::int FROM passkey_challenges) AS challenges,
            (SELECT count(*)::int FROM recovery_codes) AS recovery_codes,
            (SELECT count(*)::int FROM mail_outbox) AS mail,
            (SELECT count(*)::int FROM listings WHERE id = ${listingId}) AS restored,
            (SELECT count(*)::int FROM activity_log) AS events`
        )
      )
    await age(token)
    // Every mail so far has left, so one queued by a refused change would show.
    await deliveredOutbox(staff.server)
    const mailed = staff.server.outbox().length
    const before = await state()
    const changes: ReadonlyArray<readonly [string, string, string, Record<string, unknown>?]> = [
      ["a role", "PUT", `/api/admin/users/${other._id}`, { role: "admin", version: other.version }],
      ["an account disabled", "PUT", `/api/admin/users/${other._id}`, { disabled: true, version: other.version }],
      ["an account removed", "DELETE", `/api/admin/users/${other._id}?version=${other.version}`],
      ["an address added", "POST", "/api/admin/ip-management", { ip: "198.51.100.42", description: "Other" }],
      ["an address removed", "DELETE", `/api/admin/ip-management/${addressId}`],
      ["protected data added", "POST", "/api/admin/protected-data", { type: "api-key", key: "refused", value: "x" }],
      ["protected data changed", "PUT", `/api/admin/protected-data/${secretId}`, { type: "api-key", key: "changed", value: "y", version: 1 }],
      ["protected data removed", "DELETE", `/api/admin/protected-data/${secretId}?version=1`],
      ["a passkey rule", "PUT", "/api/admin/passkeys/rules/moderator", { required: true, graceDays: 3 }],
      ["a person's passkeys reset", "POST", `/api/admin/users/${other._id}/passkeys/reset`],
      ["a deleted record restored", "POST", `/api/admin/history/listing/${listingId}/restore`, { version: 1, expectedVersion: 2 }],
      ["a passkey's options", "POST", "/api/admin/auth/passkeys/options"],
      ["a passkey added", "POST", "/api/admin/auth/passkeys", { name: "Intruder", credential }],
      ["a passkey renamed", "PATCH", `/api/admin/passkeys/${own}`, { name: "Renamed" }],
      ["a passkey removed", "DELETE", `/api/admin/passkeys/${own}`],
      ["recovery codes made", "POST", "/api/admin/auth/passkeys/recovery-codes"]
    ]
    // All at once, as a hurried person or a script would: each refused the same way.
    const answers = await Promise.all(changes.map(([, method, path, body]) => call(url(), method, path, { token, ...(body === undefined ? {} : { body }) })))
    answers.forEach((answer, at) => {
      expect(answer.status, `${changes[at]![0]}: ${answer.text}`).toBe(403)
      expect(answer.body.error, changes[at]![0]).toBe(confirmMessages.required)
    })
    expect(await state()).toEqual(before)
    expect(staff.server.outbox()).toHaveLength(mailed)
  })
})
