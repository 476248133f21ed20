import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import type { AuthenticationOptions, RegistrationOptions } from "../../contract/passkeys.ts"
import { passkeyMessages } from "../../contract/passkeys.ts"
import { hashToken } from "../../server/platform/secrets.ts"
import { softAuthenticator } from "../support/authenticator.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { runScript } from "../support/process.ts"
import { latestCode } from "../support/server.ts"
import { freshEmail, settingsServer } from "../support/settings.ts"

/**
 * An attacker's review of "passkeys required by role" (docs/security.md, "Passkeys"): recovery
 * codes never kept in clear, a relayed code that opens no session makes no browser known, a lower
 * role asked for, a passkey added under a lower role, odd inputs, a reset. Each is refused.
 */
describe.each(engines)("passkey attacks on $name", (engine) => {
  const { staff, url, superToken, create, update, signIn, check } = settingsServer(engine)
  const origin = () => `http://localhost:${new URL(url()).port}`
  const db = <A>(run: (sql: SqlClient) => Effect.Effect<A, unknown>) => staff.server.sql(Effect.flatMap(SqlClient, run) as Effect.Effect<A, never, SqlClient>)

  const setRule = async (role: string, required: boolean, graceDays = 0) =>
    call(url(), "PUT", `/api/admin/passkeys/rules/${role}`, { token: await superToken(), body: { required, graceDays } })
  let named = 0
  const addKey = async (token: string) => {
    const key = softAuthenticator()
    const asked = await call(url(), "POST", "/api/admin/auth/passkeys/options", { token })
    const added = await call(url(), "POST", "/api/admin/auth/passkeys", {
      token,
      body: { name: `Phone ${++named}`, credential: key.register(asked.body.data as RegistrationOptions, origin()) }
    })
    expect(added.status, added.text).toBe(200)
    return key
  }
  const codeSignIn = async (email: string, role: string, browser?: string) => {
    const ip = freshIp()
    const extra = browser === undefined ? {} : { browser }
    const asked = await call(url(), "POST", "/api/admin/auth", { ip, body: { email, role, ...extra } })
    const answer = await call(url(), "POST", "/api/admin/auth", {
      ip,
      body: { email, otp: await latestCode(staff.server, email), attempt: asked.body.attempt, ...extra }
    })
    return answer
  }
  const stepOptions = (step: string) => call(url(), "POST", "/api/admin/auth/second-step/options", { ip: freshIp(), body: { step } })
  const stepPasskey = (step: string, credential: unknown) =>
    call(url(), "POST", "/api/admin/auth/second-step/passkey", { ip: freshIp(), body: { step, credential } })
  const stepRecovery = (step: string, code: string) => call(url(), "POST", "/api/admin/auth/second-step/recovery", { ip: freshIp(), body: { step, code } })
  const noOwnGrace = (email: string) => db((sql) => sql`UPDATE admins SET passkey_grace_until = NULL WHERE email = ${email.toLowerCase()}`)
  const knownBrowsers = async (browser: string, email: string) =>
    (
      await db(
        (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM known_browsers WHERE key_hash = ${hashToken(browser)} AND email = ${email.toLowerCase()}`
      )
    )[0]?.n ?? 0

  // Recovery codes are kept only as HMACs (docs/security.md, "Required by role"): an answer kept
  // for an Idempotency-Key would hold the ten in clear; under /api/admin/auth none is kept.
  it("never keeps new recovery codes in clear in the database (Idempotency-Key)", async () => {
    const email = freshEmail("codes-clear")
    await create(email, "moderator")
    const token = await signIn(email, "moderator")
    const key = randomBytes(18).toString("base64url")
    const made = await call(url(), "POST", "/api/admin/auth/passkeys/recovery-codes", { token, headers: { "idempotency-key": key } })
    expect(made.status, made.text).toBe(200)
    const codes = (made.body.data as { codes: ReadonlyArray<string> }).codes
    // The same key again answers the same ten codes: they were kept.
    const again = await call(url(), "POST", "/api/admin/auth/passkeys/recovery-codes", { token, headers: { "idempotency-key": key } })
    const kept = await db((sql) => sql<{ body: Uint8Array | null }>`SELECT body FROM idempotency_keys WHERE key = ${key}`)
    const stored = kept.map((row) => (row.body === null ? "" : Buffer.from(row.body).toString("utf8"))).join("")
    expect(stored).not.toContain(codes[0]!)
    expect(again.headers.get("idempotent-replayed")).toBeNull()
  })

  // (low): "known browsers" are those that signed in as the e-mail before (sign-in.ts,
  // browserOf); they count their guesses apart and are exempt from the pause strangers cause.
  // tryCode remembers the browser before the passkey rule is applied, so a relayed code that
  // reaches only the second step (or the 403 "no passkey") makes the relaying browser known.
  it("a right code that opens no session (second step, or refused) does not make the browser known", async () => {
    const email = freshEmail("known-step")
    await create(email, "moderator")
    await addKey(await signIn(email, "moderator"))
    const lone = freshEmail("known-none")
    await create(lone, "moderator")
    await noOwnGrace(lone)
    expect((await setRule("moderator", true, 0)).status).toBe(200)
    try {
      const relay = randomBytes(32).toString("base64url")
      const stepped = await codeSignIn(email, "moderator", relay)
      expect(stepped.body).toMatchObject({ secondStep: true })
      const refusedBrowser = randomBytes(32).toString("base64url")
      const refused = await codeSignIn(lone, "moderator", refusedBrowser)
      expect(refused.status).toBe(403)
      expect({ step: await knownBrowsers(relay, email), refused: await knownBrowsers(refusedBrowser, lone) }).toEqual({ step: 0, refused: 0 })
    } finally {
      await setRule("moderator", false)
    }
  })

  // SOUND: the account's role decides, whichever role is asked; a step dies with its account's
  // disabling; one account's step is not finished with another's passkey or recovery code; a
  // demotion between the step and its end lowers the session.
  it("sound: asking a lower role, another account's passkey or codes, a disabled or demoted account", async () => {
    const email = freshEmail("steps")
    const account = await create(email, "super_admin")
    const ownToken = await signIn(email, "super_admin")
    const key = await addKey(ownToken)
    const other = freshEmail("steps-other")
    const otherAccount = await create(other, "moderator")
    const otherToken = await signIn(other, "moderator")
    const otherKey = await addKey(otherToken)
    const otherCodes = ((await call(url(), "POST", "/api/admin/auth/passkeys/recovery-codes", { token: otherToken })).body.data as { codes: string[] }).codes
    expect((await setRule("super_admin", true, 0)).status).toBe(200)
    try {
      // Asked as a moderator (not required): the account's super_admin role still asks for the step.
      const low = await codeSignIn(email, "moderator")
      expect(low.status, low.text).toBe(200)
      expect(low.body.token).toBeUndefined()
      const step = low.body.step as string
      // Another account's passkey or recovery code does not finish it.
      const asked = (await stepOptions(step)).body.data as AuthenticationOptions
      expect((await stepPasskey(step, otherKey.authenticate(asked, origin()))).status).toBe(401)
      expect((await stepRecovery(step, otherCodes[0]!)).status).toBe(401)
      // The standalone passkey sign-in's challenge does not serve a step.
      const standalone = (await call(url(), "POST", "/api/admin/auth/passkeys/sign-in/options", { ip: freshIp() })).body.data as AuthenticationOptions
      expect((await stepPasskey(step, key.authenticate(standalone, origin()))).status).toBe(401)
      // A demotion between the code and the passkey: the session gets the role held now.
      const high = await codeSignIn(email, "super_admin")
      expect((await update(account._id, { role: "admin", version: account.version })).status).toBe(200)
      const demoted = await stepPasskey(
        high.body.step as string,
        key.authenticate((await stepOptions(high.body.step as string)).body.data as AuthenticationOptions, origin())
      )
      expect(demoted.status, demoted.text).toBe(200)
      expect((demoted.body.user as { role: string }).role).toBe("admin")
      // Disabled while a step is open: nothing finishes it, and no recovery code is used up.
      const pending = await codeSignIn(other, "moderator")
      expect((await setRule("moderator", true, 0)).status).toBe(200)
      const stepOther = (await codeSignIn(other, "moderator")).body.step as string
      expect(typeof stepOther).toBe("string")
      expect(pending.status).toBe(200)
      const otherId = { _id: otherAccount._id }
      const optionsBefore = (await stepOptions(stepOther)).body.data as AuthenticationOptions
      expect((await update(otherId._id, { disabled: true, version: otherAccount.version })).status).toBe(200)
      expect((await stepOptions(stepOther)).status).toBe(401)
      expect((await stepPasskey(stepOther, otherKey.authenticate(optionsBefore, origin()))).status).toBe(401)
      expect((await stepRecovery(stepOther, otherCodes[1]!)).status).toBe(401)
      const left = await db((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM recovery_codes WHERE admin_id = ${otherId._id}`)
      expect(left[0]?.n).toBe(10)
    } finally {
      await setRule("super_admin", false)
      await setRule("moderator", false)
    }
  })

  // SOUND: a passkey added by a session acting as a lower role signs in alone with that role only;
  // the rule endpoints refuse a super admin acting as a lower role.
  it("sound: a passkey added under a lower role signs in with it; rules refuse a super admin acting lower", async () => {
    const email = freshEmail("lower")
    await create(email, "super_admin")
    const token = await signIn(email, "moderator")
    const key = await addKey(token)
    expect((await call(url(), "GET", "/api/admin/passkeys/rules", { token })).status).toBe(403)
    expect((await call(url(), "PUT", "/api/admin/passkeys/rules/super_admin", { token, body: { required: false, graceDays: 0 } })).status).toBe(403)
    const options = (await call(url(), "POST", "/api/admin/auth/passkeys/sign-in/options", { ip: freshIp() })).body.data as AuthenticationOptions
    const signedIn = await call(url(), "POST", "/api/admin/auth/passkeys/sign-in", { ip: freshIp(), body: { credential: key.authenticate(options, origin()) } })
    expect(signedIn.status, signedIn.text).toBe(200)
    expect((signedIn.body.user as { role: string }).role).toBe("moderator")
  })

  // (low): a role newly made to require passkeys left its code-only sessions acting for up to 12 h.
  // They end at once, in every server; a session that used a passkey, a person of another role and
  // one still within their own grace keep theirs (docs/security.md, "Required by role").
  it("ends a role's code-only sessions at once when it is made to require passkeys, in every server", async () => {
    const holder = freshEmail("rule-holder")
    const holderAccount = await create(holder, "admin")
    const key = await addKey(await signIn(holder, "admin"))
    const codeOnly = await signIn(holder, "admin")
    const ip = freshIp()
    const options = (await call(url(), "POST", "/api/admin/auth/passkeys/sign-in/options", { ip })).body.data as AuthenticationOptions
    const withPasskey = (await call(url(), "POST", "/api/admin/auth/passkeys/sign-in", { ip, body: { credential: key.authenticate(options, origin()) } })).body
      .token as string
    const graceless = freshEmail("rule-graceless")
    const gracelessAccount = await create(graceless, "admin")
    await noOwnGrace(graceless)
    const gracelessToken = await signIn(graceless, "admin")
    const newcomer = freshEmail("rule-newcomer")
    await create(newcomer, "admin")
    const newcomerToken = await signIn(newcomer, "admin")
    const moderator = freshEmail("rule-moderator")
    await create(moderator, "moderator")
    const moderatorToken = await signIn(moderator, "moderator")
    const tokens = { codeOnly, withPasskey, gracelessToken, newcomerToken, moderatorToken }
    const statuses = async (base = url()) =>
      Object.fromEntries(
        await Promise.all(Object.entries(tokens).map(async ([name, token]) => [name, (await call(base, "GET", "/api/admin/auth/check", { token })).status]))
      )
    // Each process remembers the sessions it checked for 10 s (server/sessions/cache.ts).
    const all = { codeOnly: 200, withPasskey: 200, gracelessToken: 200, newcomerToken: 200, moderatorToken: 200 }
    expect(await statuses()).toEqual(all)
    // Another server on the same PostgreSQL, its cache filled too: only PostgreSQL has other processes.
    const otherDir = mkdtempSync(join(tmpdir(), "admin-rule-other-"))
    const other =
      engine.name === "postgresql"
        ? runScript("server/main.ts", [], {
            DATABASE_URL: staff.server.config.databaseUrl ?? "",
            DATA_DIR: otherDir,
            PORT: "0",
            OTP_SECRET: "passkey-attacks-other-server-secret-0123456789"
          })
        : undefined
    try {
      const otherUrl = other === undefined ? undefined : (await other.waitFor(/Listening on (http:\/\/\S+)/u, 120_000))[1]
      if (otherUrl !== undefined) expect(await statuses(otherUrl)).toEqual(all)
      expect((await setRule("admin", true, 0)).status).toBe(200)
      const after = { ...all, codeOnly: 401, gracelessToken: 401 }
      expect(await statuses()).toEqual(after)
      if (otherUrl !== undefined) await expect.poll(() => statuses(otherUrl), { timeout: 3_000 }).toEqual(after)
      // The next code sign-in of the holder asks for the passkey; each ended session is logged.
      expect((await codeSignIn(holder, "admin")).body).toMatchObject({ secondStep: true })
      const ended = await db(
        (sql) => sql<{ adminId: string }>`
          SELECT details->>'adminId' AS admin_id FROM activity_log WHERE action = 'session.end' AND details->>'reason' = 'passkey required'
            AND details->>'adminId' IN (${holderAccount._id}, ${gracelessAccount._id})`
      )
      // The holder's two code-only sessions (the one that added the passkey, and the later one), and the graceless one.
      expect(ended.map((row) => row.adminId).sort()).toEqual([holderAccount._id, holderAccount._id, gracelessAccount._id].sort())
    } finally {
      other?.child.kill("SIGTERM")
      await other?.exited
      rmSync(otherDir, { recursive: true, force: true })
      await setRule("admin", false)
    }
  })

  // SOUND: odd inputs are 400 or 401, never 500.
  it("sound: odd inputs to the new endpoints never answer 500", async () => {
    const token = await superToken()
    const step = randomBytes(32).toString("base64url")
    const junk = {
      id: "AA",
      rawId: "AA",
      type: "public-key",
      response: { clientDataJSON: "e30", authenticatorData: "AA", signature: "AA" },
      clientExtensionResults: {}
    }
    const answers = await Promise.all([
      call(url(), "POST", "/api/admin/auth/second-step/recovery", { ip: freshIp(), body: { step, code: " oOiI-lLuU-0000 " } }),
      call(url(), "POST", "/api/admin/auth/second-step/recovery", { ip: freshIp(), body: { step, code: "x".repeat(5000) } }),
      call(url(), "POST", "/api/admin/auth/second-step/recovery", { ip: freshIp(), body: { step: "a", code: "aaaa-bbbb-cccc" } }),
      call(url(), "POST", "/api/admin/auth/second-step/passkey", { ip: freshIp(), body: { step, credential: junk } }),
      call(url(), "POST", "/api/admin/auth/passkeys/sign-in", {
        ip: freshIp(),
        body: { credential: { ...junk, response: { ...junk.response, clientDataJSON: "_w" } } }
      }),
      call(url(), "PUT", "/api/admin/passkeys/rules/root", { token, body: { required: true, graceDays: 1 } }),
      call(url(), "PUT", "/api/admin/passkeys/rules/admin", { token, body: { required: true, graceDays: 1.5 } }),
      call(url(), "PUT", "/api/admin/passkeys/rules/admin", { token, body: { required: "yes", graceDays: 1 } }),
      call(url(), "POST", "/api/admin/users/00000000-0000-0000-0000-000000000000/passkeys/reset", { token }),
      call(url(), "POST", "/api/admin/users/not-a-uuid/passkeys/reset", { token }),
      call(url(), "PATCH", "/api/admin/passkeys/00000000-0000-0000-0000-000000000000", { token, body: { name: "\u0000" } }),
      call(url(), "PATCH", "/api/admin/passkeys/00000000-0000-0000-0000-000000000000", { token, body: { name: "\ud800" } })
    ])
    for (const answer of answers) expect(answer.status, answer.text).toBeLessThan(500)
    expect(answers[0].body.error).toBe(passkeyMessages.stepExpired)
  })

  // SOUND: a reset ends the sessions, the open steps and the recovery codes.
  it("sound: a reset ends sessions, open second steps and recovery codes", async () => {
    const email = freshEmail("reset")
    const account = await create(email, "moderator")
    const token = await signIn(email, "moderator")
    await addKey(token)
    const codes = ((await call(url(), "POST", "/api/admin/auth/passkeys/recovery-codes", { token })).body.data as { codes: string[] }).codes
    expect((await setRule("moderator", true, 0)).status).toBe(200)
    try {
      const step = (await codeSignIn(email, "moderator")).body.step as string
      expect((await call(url(), "POST", `/api/admin/users/${account._id}/passkeys/reset`, { token: await superToken() })).status).toBe(200)
      expect((await check(token)).status).toBe(401)
      expect((await stepRecovery(step, codes[0]!)).status).toBe(401)
    } finally {
      await setRule("moderator", false)
    }
  })
})
