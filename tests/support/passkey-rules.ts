import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { expect } from "vitest"
import type { AuthenticationOptions, PasskeyOverview, RegistrationOptions } from "../../contract/passkeys.ts"
import type { TestDatabase } from "./database.ts"
import { softAuthenticator } from "./authenticator.ts"
import { call, freshIp } from "./http.ts"
import { latestCode } from "./server.ts"
import { settingsServer } from "./settings.ts"

/**
 * The calls the tests of passkeys required by role share (docs/security.md, "Required by role"):
 * one engine's settings server, a role's rule set by a super admin, a passkey added by a soft
 * authenticator, a code sign-in as the console gets its answer, and its second step finished
 * with a passkey or a recovery code (tests/api/passkey-rules.test.ts, passkey-recovery.test.ts).
 */
export const passkeyRulesServer = (engine: { readonly fresh: () => Promise<TestDatabase> }) => {
  const settings = settingsServer(engine)
  const { staff, url, superToken } = settings
  const origin = () => `http://localhost:${new URL(url()).port}`

  const setRule = async (role: string, required: boolean, graceDays = 0, token?: string) =>
    call(url(), "PUT", `/api/admin/passkeys/rules/${role}`, { token: token ?? (await superToken()), body: { required, graceDays } })
  // Two passkeys of one person never share a name: each has its own.
  let named = 0
  const addKey = async (token: string, name = `Phone ${++named}`) => {
    const key = softAuthenticator()
    const asked = await call(url(), "POST", "/api/admin/auth/passkeys/options", { token })
    const added = await call(url(), "POST", "/api/admin/auth/passkeys", {
      token,
      body: { name, credential: key.register(asked.body.data as RegistrationOptions, origin()) }
    })
    expect(added.status, added.text).toBe(200)
    return { key, id: (added.body.data as { passkey: { _id: string } }).passkey._id }
  }
  /** A session opened with the passkey alone: a rule that now requires one leaves it open (docs/security.md, "Required by role"). */
  const withPasskey = async (key: ReturnType<typeof softAuthenticator>, ip = freshIp()) => {
    const options = (await call(url(), "POST", "/api/admin/auth/passkeys/sign-in/options", { ip })).body.data as AuthenticationOptions
    return (await call(url(), "POST", "/api/admin/auth/passkeys/sign-in", { ip, body: { credential: key.authenticate(options, origin()) } })).body
      .token as string
  }
  const overview = async (token: string) => (await call(url(), "GET", "/api/admin/passkeys", { token })).body.data as PasskeyOverview
  /** A code sign-in's answer, as the console gets it: a session, a second step, or a refusal. */
  const codeSignIn = async (email: string, role: string) => {
    const ip = freshIp()
    const asked = await call(url(), "POST", "/api/admin/auth", { ip, body: { email, role } })
    const answer = await call(url(), "POST", "/api/admin/auth", {
      ip,
      body: { email, otp: await latestCode(staff.server, email), attempt: asked.body.attempt }
    })
    return { ip, answer }
  }
  const stepOptions = async (step: string, ip = freshIp()) => {
    const answer = await call(url(), "POST", "/api/admin/auth/second-step/options", { ip, body: { step } })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.data as AuthenticationOptions
  }
  const stepPasskey = (step: string, credential: unknown, ip = freshIp()) =>
    call(url(), "POST", "/api/admin/auth/second-step/passkey", { ip, body: { step, credential } })
  const stepRecovery = (step: string, code: string, ip = freshIp()) => call(url(), "POST", "/api/admin/auth/second-step/recovery", { ip, body: { step, code } })
  /** No grace of the account's own (as an account made before the rules), so only the role's counts. */
  const noOwnGrace = (email: string) =>
    staff.server.sql(Effect.flatMap(SqlClient, (sql) => sql`UPDATE admins SET passkey_grace_until = NULL WHERE email = ${email.toLowerCase()}`))

  return { ...settings, origin, setRule, addKey, withPasskey, overview, codeSignIn, stepOptions, stepPasskey, stepRecovery, noOwnGrace }
}
