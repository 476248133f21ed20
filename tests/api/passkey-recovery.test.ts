import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { type Confirmation, confirmMessages } from "../../contract/confirm.ts"
import { passkeyMessages } from "../../contract/passkeys.ts"
import { hashToken } from "../../server/platform/secrets.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { passkeyRulesServer } from "../support/passkey-rules.ts"
import { freshEmail } from "../support/settings.ts"

/**
 * Recovery codes (docs/security.md, "Required by role"): a code sign-in's second step for the
 * person who lost their passkey. Each works once, within the code's limits, also guessed at once;
 * the session it opens confirms it's you for ten minutes (docs/security.md, "Confirm what
 * matters"), so the person adds a new passkey and removes the lost one.
 */
describe.each(engines)("recovery codes on $name", (engine) => {
  const { staff, url, create, signIn, check, setRule, addKey, withPasskey, overview, codeSignIn, stepRecovery } = passkeyRulesServer(engine)
  const makeCodes = async (token: string) => {
    const made = await call(url(), "POST", "/api/admin/auth/passkeys/recovery-codes", { token })
    expect(made.status, made.text).toBe(200)
    return (made.body.data as { codes: ReadonlyArray<string> }).codes
  }
  /** Ten minutes and more since the session last confirmed. */
  const age = (token: string) =>
    staff.server.sql(
      Effect.flatMap(SqlClient, (sql) => sql`UPDATE sessions SET confirmed_at = now() - interval '11 minutes' WHERE token_hash = ${hashToken(token)}`)
    )

  it("lets a sign-in finished with a recovery code confirm for ten minutes: a new passkey is added, the lost one removed", async () => {
    const email = freshEmail("recovery-confirm")
    await create(email, "moderator")
    const first = await signIn(email, "moderator")
    const lost = await addKey(first, "Lost phone")
    const codes = await makeCodes(first)
    expect((await setRule("moderator", true, 0)).status).toBe(200)
    try {
      const { answer } = await codeSignIn(email, "moderator")
      const recovered = await stepRecovery(answer.body.step as string, codes[0]!)
      expect(recovered.status, recovered.text).toBe(200)
      const token = recovered.body.token as string
      // No passkey to confirm with: the recovery code counted, as a fresh confirmation does.
      const confirmation = (await call(url(), "GET", "/api/admin/auth/confirm", { token })).body.data as Confirmation
      expect(confirmation.method).toBe("passkey")
      const left = Date.parse(confirmation.confirmedUntil ?? "") - Date.now()
      expect(left).toBeGreaterThan(9 * 60_000)
      expect(left).toBeLessThanOrEqual(10 * 60_000 + 5_000)
      const replacement = await addKey(token, "New phone")
      expect((await call(url(), "DELETE", `/api/admin/passkeys/${lost.id}`, { token })).status).toBe(200)
      expect((await overview(token)).passkeys.map((passkey) => passkey.name)).toEqual(["New phone"])
      // Not a code-only session: the role's rule set again leaves it open.
      expect((await setRule("moderator", true, 0)).status).toBe(200)
      expect((await check(token)).status).toBe(200)
      // Ten minutes on it is asked again, and the passkey it added does not confirm it: signing in with it does.
      await age(token)
      const refused = await call(url(), "POST", "/api/admin/auth/passkeys/recovery-codes", { token })
      expect(refused.status).toBe(403)
      expect(refused.body.error).toBe(confirmMessages.required)
      expect((await call(url(), "POST", "/api/admin/auth/confirm/options", { token })).body.error).toBe(confirmMessages.addedHere)
      expect((await makeCodes(await withPasskey(replacement.key))).length).toBe(10)
    } finally {
      await setRule("moderator", false)
    }
  })

  it("finishes a sign-in with a recovery code once; guesses count as the code's, also at once", async () => {
    const email = freshEmail("recovery")
    await create(email, "moderator")
    const first = await signIn(email, "moderator")
    const { key } = await addKey(first)
    const codes = await makeCodes(first)
    expect(codes).toHaveLength(10)
    expect(new Set(codes).size).toBe(10)
    for (const code of codes) expect(code).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/u)
    expect((await overview(first)).recoveryCodesLeft).toBe(10)
    expect((await setRule("moderator", true, 0)).status).toBe(200)
    // The code-only session ended with the rule; one opened with the passkey goes on.
    expect((await check(first)).status).toBe(401)
    const token = await withPasskey(key)
    try {
      const { answer } = await codeSignIn(email, "moderator")
      expect(answer.body).toMatchObject({ secondStep: true, recoveryCodes: true })
      const step = answer.body.step as string
      // Twenty wrong guesses at once: five are compared, then the step is gone; none signs in.
      const wrong = await Promise.all(Array.from({ length: 20 }, (_, index) => stepRecovery(step, `zzzz-zzzz-zz${String(index).padStart(2, "0")}`)))
      expect(wrong.every((one) => one.status === 401)).toBe(true)
      expect(wrong.filter((one) => one.body.error === passkeyMessages.recoveryRefused)).toHaveLength(5)
      expect((await stepRecovery(step, codes[0]!)).status).toBe(401)
      // A new step; the right code typed twenty times at once, in capitals and without dashes: one session.
      const { answer: second } = await codeSignIn(email, "moderator")
      const typed = codes[0]!.toUpperCase().replaceAll("-", " ")
      const tries = await Promise.all(Array.from({ length: 20 }, () => stepRecovery(second.body.step as string, typed)))
      expect(tries.filter((one) => one.status === 200)).toHaveLength(1)
      expect((await overview(token)).recoveryCodesLeft).toBe(9)
      // Used: it does not finish another sign-in.
      const { answer: third } = await codeSignIn(email, "moderator")
      const reused = await stepRecovery(third.body.step as string, codes[0]!)
      expect(reused.status).toBe(401)
      expect(reused.body.error).toBe(passkeyMessages.recoveryRefused)
      expect((await stepRecovery(third.body.step as string, codes[1]!)).status).toBe(200)
      // New codes replace the old.
      const renewed = await call(url(), "POST", "/api/admin/auth/passkeys/recovery-codes", { token })
      const { answer: fourth } = await codeSignIn(email, "moderator")
      expect((await stepRecovery(fourth.body.step as string, codes[2]!)).status).toBe(401)
      expect((await stepRecovery(fourth.body.step as string, (renewed.body.data as { codes: ReadonlyArray<string> }).codes[0]!)).status).toBe(200)
    } finally {
      await setRule("moderator", false)
    }
  })

  it("limits a day's recovery guesses for an account, as the code's", async () => {
    const email = freshEmail("recovery-day")
    await create(email, "moderator")
    const token = await signIn(email, "moderator")
    await addKey(token)
    expect((await setRule("moderator", true, 0)).status).toBe(200)
    try {
      const statuses: Array<number> = []
      for (let step = 0; step < 5; step++) {
        const { answer } = await codeSignIn(email, "moderator")
        const guesses = await Promise.all(Array.from({ length: 5 }, () => stepRecovery(answer.body.step as string, "aaaa-bbbb-cccc")))
        statuses.push(...guesses.map((one) => one.status))
      }
      expect(statuses.filter((status) => status === 401)).toHaveLength(20)
      expect(statuses.filter((status) => status === 429)).toHaveLength(5)
    } finally {
      await setRule("moderator", false)
    }
  })
})
