import { describe, expect, it } from "vitest"
import type { Passkey, RegistrationOptions } from "../../contract/passkeys.ts"
import { softAuthenticator } from "../support/authenticator.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { freshEmail, settingsServer } from "../support/settings.ts"

/**
 * Passkeys (docs/security.md, "Passkeys"): a signed-in person adds WebAuthn credentials to their
 * own account, sees and removes them; an answer for another origin or relying party, a replayed
 * one, a challenge used twice or twenty times at once, another person's challenge: refused, and
 * nothing kept.
 */
describe.each(engines)("passkeys on $name", (engine) => {
  const { url, create, signIn } = settingsServer(engine)
  /** The console's address as the server binds passkeys to it (unset PUBLIC_ORIGIN: localhost). */
  const origin = () => `http://localhost:${new URL(url()).port}`

  const person = async () => {
    const email = freshEmail("passkey")
    await create(email, "admin")
    return signIn(email, "admin")
  }
  const options = async (token: string) => {
    const answer = await call(url(), "POST", "/api/admin/auth/passkeys/options", { token })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.data as RegistrationOptions
  }
  const register = (token: string, credential: unknown, name = "Laptop") =>
    call(url(), "POST", "/api/admin/auth/passkeys", { token, body: { name, credential } })
  const listed = async (token: string) =>
    ((await call(url(), "GET", "/api/admin/passkeys", { token })).body.data as { passkeys: ReadonlyArray<Passkey> }).passkeys

  it("adds a passkey bound to this console, lists it without its key, and removes it", async () => {
    const token = await person()
    const asked = await options(token)
    expect(asked.rp.id).toBe("localhost")
    expect(asked.authenticatorSelection.residentKey).toBe("required")
    const key = softAuthenticator()
    const added = await register(token, key.register(asked, origin()), "  Work laptop ")
    expect(added.status, added.text).toBe(200)
    const passkey = (added.body.data as { passkey: Passkey }).passkey
    expect(passkey).toMatchObject({ name: "Work laptop", lastUsedAt: null, backedUp: false })
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
    // Both changes are the person's own events in the activity log.
    const logged = await call(url(), "GET", `/api/admin/activity-logs?record=${passkey._id}`, { token })
    expect((logged.body.data as { logs: ReadonlyArray<{ action: string }> }).logs.map((entry) => entry.action).sort()).toEqual([
      "session.passkey_add",
      "session.passkey_remove"
    ])
  })

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
})
