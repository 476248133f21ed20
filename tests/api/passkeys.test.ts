import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import type { AuthenticationOptions, Passkey, RegistrationOptions } from "../../contract/passkeys.ts"
import { softAuthenticator } from "../support/authenticator.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { hashToken } from "../../server/platform/secrets.ts"
import { deliveredOutbox, latestCode } from "../support/server.ts"
import { freshEmail, settingsServer } from "../support/settings.ts"

/**
 * Passkeys (docs/security.md, "Passkeys"): a signed-in person adds WebAuthn credentials to their
 * own account, sees and removes them; an answer for another origin or relying party, a replayed
 * one, a challenge used twice or twenty times at once, another person's challenge: refused, and
 * nothing kept.
 */
describe.each(engines)("passkeys on $name", (engine) => {
  const { staff, url, superToken, create, signIn, update, check } = settingsServer(engine)
  /** The console's address as the server binds passkeys to it (unset PUBLIC_ORIGIN: localhost). */
  const origin = () => `http://localhost:${new URL(url()).port}`

  let lastPerson = ""
  const person = async () => {
    const email = freshEmail("passkey")
    lastPerson = email.toLowerCase()
    await create(email, "admin")
    return signIn(email, "admin")
  }
  const options = async (token: string) => {
    const answer = await call(url(), "POST", "/api/admin/auth/passkeys/options", { token })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.data as RegistrationOptions
  }
  let named = 0
  const register = (token: string, credential: unknown, name = `Laptop ${++named}`) =>
    call(url(), "POST", "/api/admin/auth/passkeys", { token, body: { name, credential } })
  const listed = async (token: string) =>
    ((await call(url(), "GET", "/api/admin/passkeys", { token })).body.data as { passkeys: ReadonlyArray<Passkey> }).passkeys

  it("adds a passkey bound to this console, lists it without its key, and removes it, ending none of the person's sessions", async () => {
    const token = await person()
    // The same person signed in elsewhere: adding and removing a passkey here leaves that session open.
    const elsewhere = await signIn(lastPerson, "admin")
    const asked = await options(token)
    expect(asked.rp.id).toBe("localhost")
    expect(asked.authenticatorSelection.residentKey).toBe("required")
    const key = softAuthenticator()
    const added = await register(token, key.register(asked, origin()), "  Work laptop ")
    expect(added.status, added.text).toBe(200)
    const passkey = (added.body.data as { passkey: Passkey }).passkey
    expect(passkey).toMatchObject({ name: "Work laptop", lastUsedAt: null, backedUp: false })
    // The person is told by mail, as of a code: someone else holding the session is seen.
    const email = lastPerson
    await expect
      .poll(async () => (await deliveredOutbox(staff.server, email)).filter((mail) => mail.subject === "A passkey was added to your account").length)
      .toBe(1)
    expect(await listed(token)).toEqual([passkey])
    expect(JSON.stringify(await listed(token))).not.toContain(key.id)
    // The next options leave it out: an authenticator does not make a second passkey for the account.
    expect((await options(token)).excludeCredentials.map((one) => one.id)).toEqual([key.id])
    // Another person cannot see or remove it.
    const other = await person()
    expect(await listed(other)).toEqual([])
    expect((await call(url(), "DELETE", `/api/admin/passkeys/${passkey._id}`, { token: other })).status).toBe(404)
    expect((await call(url(), "DELETE", `/api/admin/passkeys/${passkey._id}`, { token })).status).toBe(200)
    expect(await listed(token)).toEqual([])
    expect((await call(url(), "DELETE", `/api/admin/passkeys/${passkey._id}`, { token })).status).toBe(404)
    expect((await check(elsewhere)).status).toBe(200)
    expect((await check(token)).status).toBe(200)
    // Both changes are the person's own events in the activity log.
    const logged = await call(url(), "GET", `/api/admin/activity-logs?record=${passkey._id}`, { token })
    expect((logged.body.data as { logs: ReadonlyArray<{ action: string }> }).logs.map((entry) => entry.action).sort()).toEqual([
      "session.passkey_add",
      "session.passkey_remove"
    ])
  })

  it("tells the owner by mail when a passkey is renamed or removed", async () => {
    const token = await person()
    const email = lastPerson
    const added = await register(token, softAuthenticator().register(await options(token), origin()), "Desk key")
    const id = (added.body.data as { passkey: Passkey }).passkey._id
    expect((await call(url(), "PATCH", `/api/admin/passkeys/${id}`, { token, body: { name: "Old desk key" } })).status).toBe(200)
    expect((await call(url(), "DELETE", `/api/admin/passkeys/${id}`, { token })).status).toBe(200)
    const mails = (await deliveredOutbox(staff.server, email)).filter((mail) => mail.to === email)
    const renamed = mails.find((mail) => mail.subject === "A passkey of your account was renamed")
    expect(renamed?.body).toContain("The passkey named “Desk key” of the admin console account")
    expect(renamed?.body).toContain("is now named “Old desk key”")
    const removed = mails.find((mail) => mail.subject === "A passkey was removed from your account")
    expect(removed?.body).toContain("The passkey named “Old desk key” was removed")
  })

  it.each(["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"] as const)(
    "offers ML-DSA first and takes an %s passkey at its real sizes: added, signed in, confirmed, a second step",
    async (algorithm) => {
      const email = freshEmail(`passkey-${algorithm.toLowerCase()}`)
      await create(email, "moderator")
      const token = await signIn(email, "moderator")
      const asked = await options(token)
      expect(asked.pubKeyCredParams.map((param) => param.alg)).toEqual([-48, -49, -50, -8, -7, -257])
      const key = softAuthenticator(algorithm)
      expect((await register(token, key.register(asked, origin()))).status).toBe(200)
      // Signed in with it alone: its signature is 2,420, 3,309 or 4,627 bytes.
      const ip = freshIp()
      const signInAnswer = key.authenticate(await signInOptions(ip), origin())
      expect(Buffer.from(signInAnswer.response.signature, "base64url").length).toBe({ "ML-DSA-44": 2_420, "ML-DSA-65": 3_309, "ML-DSA-87": 4_627 }[algorithm])
      const signedIn = await passkeySignIn(ip, signInAnswer)
      expect(signedIn.status, signedIn.text).toBe(200)
      const passkeyToken = signedIn.body.token as string
      // Confirmed with it, ten minutes on.
      await staff.server.sql(
        Effect.flatMap(
          SqlClient,
          (sql) => sql`UPDATE sessions SET last_passkey_at = now() - interval '11 minutes' WHERE token_hash = ${hashToken(passkeyToken)}`
        )
      )
      const challenge = (await call(url(), "POST", "/api/admin/auth/confirm/options", { token: passkeyToken })).body.data as AuthenticationOptions
      const confirmed = await call(url(), "POST", "/api/admin/auth/confirm/passkey", {
        token: passkeyToken,
        body: { credential: key.authenticate(challenge, origin()) }
      })
      expect(confirmed.status, confirmed.text).toBe(200)
      // A role that requires a passkey: a code's second step finished with it.
      expect(
        (await call(url(), "PUT", "/api/admin/passkeys/rules/moderator", { token: await superToken(), body: { required: true, graceDays: 0 } })).status
      ).toBe(200)
      try {
        const stepIp = freshIp()
        const code = await call(url(), "POST", "/api/admin/auth", { ip: stepIp, body: { email, role: "moderator" } })
        const first = await call(url(), "POST", "/api/admin/auth", {
          ip: stepIp,
          body: { email, otp: await latestCode(staff.server, email), attempt: code.body.attempt }
        })
        const step = first.body.step as string
        const stepOptions = (await call(url(), "POST", "/api/admin/auth/second-step/options", { ip: stepIp, body: { step } })).body
          .data as AuthenticationOptions
        const finished = await call(url(), "POST", "/api/admin/auth/second-step/passkey", {
          ip: stepIp,
          body: { step, credential: key.authenticate(stepOptions, origin()) }
        })
        expect(finished.status, finished.text).toBe(200)
      } finally {
        await call(url(), "PUT", "/api/admin/passkeys/rules/moderator", { token: await superToken(), body: { required: false, graceDays: 0 } })
      }
    }
  )

  it("refuses an answer for another origin, another relying party or another ceremony, and keeps nothing", async () => {
    const token = await person()
    const key = softAuthenticator()
    const wrongOrigin = await register(token, key.register(await options(token), "https://phishing.example"))
    expect(wrongOrigin.status).toBe(400)
    expect(wrongOrigin.body.error).toBe("This passkey could not be verified. Try again, or use another one.")
    expect((await register(token, key.register(await options(token), origin(), { rpId: "phishing.example" }))).status).toBe(400)
    expect((await register(token, key.register(await options(token), origin(), { type: "webauthn.get" }))).status).toBe(400)
    // A challenge the server never gave.
    const made = await register(token, key.register(await options(token), origin(), { challenge: "bm90LWdpdmVu" }))
    expect(made.body.error).toBe("This passkey request has expired or was already used. Start again.")
    expect(await listed(token)).toEqual([])
  })

  it("takes a challenge once: a replay, another person's challenge and twenty answers at once add one passkey", async () => {
    const token = await person()
    const key = softAuthenticator()
    const asked = await options(token)
    // Someone else's session cannot answer this person's challenge.
    const other = await person()
    expect((await register(other, softAuthenticator().register(asked, origin()))).status).toBe(400)
    const answer = key.register(asked, origin())
    const statuses = await Promise.all(Array.from({ length: 20 }, () => register(token, answer).then((one) => one.status)))
    expect(statuses.sort()).toEqual([...Array.from({ length: 19 }, () => 400), 200].sort())
    expect((await register(token, answer)).status).toBe(400)
    expect(await listed(token)).toHaveLength(1)
    expect(await listed(other)).toEqual([])
    // The same credential again, with a fresh challenge: already registered.
    const again = await register(token, key.register(await options(token), origin()))
    expect(again.status).toBe(409)
    expect(again.body.error).toBe("This passkey is already registered.")
  })

  it("never lets two of one person's passkeys share a name, in any case, added or renamed, also at once", async () => {
    const token = await person()
    expect((await register(token, softAuthenticator().register(await options(token), origin()), "Desk key")).status).toBe(200)
    const again = await register(token, softAuthenticator().register(await options(token), origin()), "  DESK KEY ")
    expect(again.status).toBe(409)
    expect(again.body.error).toBe("You already have a passkey named “DESK KEY”. Choose another name.")
    expect((await listed(token)).map((one) => one.name)).toEqual(["Desk key"])
    // Another person may use it.
    const other = await person()
    expect((await register(other, softAuthenticator().register(await options(other), origin()), "Desk key")).status).toBe(200)
    // Two more, renamed at once to one name: one takes it, the other is refused and keeps its own.
    const ids: Array<string> = []
    for (const name of ["Phone", "Tablet"]) {
      const added = await register(token, softAuthenticator().register(await options(token), origin()), name)
      expect(added.status, added.text).toBe(200)
      ids.push((added.body.data as { passkey: Passkey }).passkey._id)
    }
    const renames = await Promise.all(ids.map((id) => call(url(), "PATCH", `/api/admin/passkeys/${id}`, { token, body: { name: "Travel key" } })))
    expect(renames.map((one) => one.status).sort()).toEqual([200, 409])
    expect((await listed(token)).map((one) => one.name).sort()).toEqual(["Desk key", renames[0]!.status === 200 ? "Tablet" : "Phone", "Travel key"].sort())
    // Its own name again, in another case, is no clash.
    const own = ids[renames[0]!.status === 200 ? 0 : 1]!
    expect((await call(url(), "PATCH", `/api/admin/passkeys/${own}`, { token, body: { name: "TRAVEL KEY" } })).status).toBe(200)
    expect((await call(url(), "PATCH", `/api/admin/passkeys/${own}`, { token, body: { name: "desk key" } })).status).toBe(409)
  })

  it("keeps at most ten passkeys per person, also when they are added at once", async () => {
    const token = await person()
    const answers = await Promise.all(Array.from({ length: 12 }, async () => softAuthenticator().register(await options(token), origin())))
    const statuses = await Promise.all(answers.map((answer) => register(token, answer).then((one) => one.status)))
    expect(statuses.filter((status) => status === 200)).toHaveLength(10)
    expect(statuses.filter((status) => status === 409)).toHaveLength(2)
    expect(await listed(token)).toHaveLength(10)
    const more = await call(url(), "POST", "/api/admin/auth/passkeys/options", { token })
    expect(more.status).toBe(409)
  })

  /** A person with one passkey, and the device holding it. */
  const withPasskey = async (role = "admin") => {
    const email = freshEmail("passkey-in")
    const account = await create(email, role)
    const token = await signIn(email, role)
    const key = softAuthenticator()
    expect((await register(token, key.register(await options(token), origin()))).status).toBe(200)
    return { email, account, token, key }
  }
  const signInOptions = async (ip: string) => {
    const answer = await call(url(), "POST", "/api/admin/auth/passkeys/sign-in/options", { ip })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.data as AuthenticationOptions
  }
  const passkeySignIn = (ip: string, credential: unknown) => call(url(), "POST", "/api/admin/auth/passkeys/sign-in", { ip, body: { credential } })

  it("signs in with a passkey, no e-mail typed: a session with the account's role, and the passkey's last use", async () => {
    const { email, token, key } = await withPasskey("moderator")
    const ip = freshIp()
    const asked = await signInOptions(ip)
    expect(asked).toMatchObject({ rpId: "localhost", allowCredentials: [], userVerification: "preferred" })
    const answer = await passkeySignIn(ip, key.authenticate(asked, origin()))
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.user).toMatchObject({ email: email.toLowerCase(), role: "moderator" })
    expect((await check(answer.body.token as string)).status).toBe(200)
    expect((await listed(token))[0]!.lastUsedAt).not.toBeNull()
    // The same answer again, and twenty answers to one challenge at once: refused but the first.
    expect((await passkeySignIn(ip, key.authenticate(asked, origin()))).status).toBe(401)
    const once = await signInOptions(ip)
    const answers = Array.from({ length: 20 }, () => key.authenticate(once, origin()))
    const statuses = await Promise.all(answers.map((one) => passkeySignIn(freshIp(), one).then((reply) => reply.status)))
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status === 401)).toHaveLength(19)
  })

  it("signs in with no more than the role the session that added the passkey acted with", async () => {
    const email = freshEmail("passkey-lowered")
    await create(email, "super_admin")
    // A super admin signed in as a moderator adds a passkey: it signs in as a moderator.
    const lowered = await signIn(email, "moderator")
    const key = softAuthenticator()
    expect((await register(lowered, key.register(await options(lowered), origin()))).status).toBe(200)
    const ip = freshIp()
    const answer = await passkeySignIn(ip, key.authenticate(await signInOptions(ip), origin()))
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.user).toMatchObject({ role: "moderator", grantedRole: "super_admin" })
  })

  it("refuses an answer for another origin or relying party, an unknown passkey, a replayed counter and a disabled account, with one message", async () => {
    const { account, key } = await withPasskey()
    const ip = freshIp()
    const refusals = [
      await passkeySignIn(ip, key.authenticate(await signInOptions(ip), "https://phishing.example")),
      await passkeySignIn(ip, key.authenticate(await signInOptions(ip), origin(), { rpId: "phishing.example" })),
      await passkeySignIn(ip, softAuthenticator().authenticate(await signInOptions(ip), origin())),
      await passkeySignIn(ip, key.authenticate({ challenge: "bm90LWdpdmVu", rpId: "localhost" }, origin()))
    ]
    for (const refused of refusals) {
      expect(refused.status).toBe(401)
      expect(refused.body.error).toBe("This passkey could not sign you in. Use another one, or sign in with a code by e-mail.")
    }
    // A copy of the device: its counter goes back, the server refuses it.
    expect((await passkeySignIn(ip, key.authenticate(await signInOptions(ip), origin(), { counter: 50 }))).status).toBe(200)
    expect((await passkeySignIn(ip, key.authenticate(await signInOptions(ip), origin(), { counter: 10 }))).status).toBe(401)
    expect((await update(account._id, { disabled: true, version: account.version })).status).toBe(200)
    expect((await passkeySignIn(ip, key.authenticate(await signInOptions(ip), origin()))).status).toBe(401)
  })

  it("limits passkey sign-ins per address, started and answered, also when they come at once", async () => {
    const ip = freshIp()
    const started = await Promise.all(
      Array.from({ length: 70 }, () => call(url(), "POST", "/api/admin/auth/passkeys/sign-in/options", { ip }).then((answer) => answer.status))
    )
    expect(started.filter((status) => status === 200)).toHaveLength(60)
    expect(started.filter((status) => status === 429)).toHaveLength(10)
    const other = freshIp()
    const answered = await Promise.all(
      Array.from({ length: 35 }, () => passkeySignIn(other, softAuthenticator().authenticate({ challenge: "bm9uZQ", rpId: "localhost" }, origin())))
    )
    expect(answered.filter((answer) => answer.status === 401)).toHaveLength(30)
    expect(answered.filter((answer) => answer.status === 429)).toHaveLength(5)
  })
})
