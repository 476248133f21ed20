import { describe, expect, it } from "vitest"
import type { PasskeyRule } from "../../contract/passkeys.ts"
import { passkeyMessages } from "../../contract/passkeys.ts"
import { executeAdminCommand } from "../../server/cli/admin-commands.ts"
import { softAuthenticator } from "../support/authenticator.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { passkeyRulesServer } from "../support/passkey-rules.ts"
import { freshEmail } from "../support/settings.ts"

/**
 * Passkeys required by role (docs/security.md, "Passkeys"): a super admin's rule per role; then
 * the code is the first step and a passkey the second, a relayed code alone opens no session, a
 * person with none adds one within the grace, the last one stays; a reset starts again. Recovery
 * codes: tests/api/passkey-recovery.test.ts.
 */
describe.each(engines)("passkeys required by role on $name", (engine) => {
  const {
    staff,
    url,
    superToken,
    create,
    signIn,
    check,
    adminScript,
    origin,
    setRule,
    addKey,
    withPasskey,
    overview,
    codeSignIn,
    stepOptions,
    stepPasskey,
    noOwnGrace
  } = passkeyRulesServer(engine)

  it("lets only super admins read and set the rules, each change in the activity log", async () => {
    for (const role of ["admin", "moderator"]) {
      const email = freshEmail(`rules-${role}`)
      await create(email, role)
      const token = await signIn(email, role)
      const read = await call(url(), "GET", "/api/admin/passkeys/rules", { token })
      expect(read.status).toBe(403)
      expect(read.body.error).toBe(passkeyMessages.superOnly)
      expect((await setRule("moderator", true, 0, token)).status).toBe(403)
    }
    const bad = await setRule("moderator", true, 91)
    expect(bad.status).toBe(400)
    const set = await setRule("admin", true, 7)
    expect(set.status, set.text).toBe(200)
    const rules = ((await call(url(), "GET", "/api/admin/passkeys/rules", { token: await superToken() })).body.data as { rules: ReadonlyArray<PasskeyRule> })
      .rules
    expect(rules.map((rule) => [rule.role, rule.required])).toEqual([
      ["super_admin", false],
      ["admin", true],
      ["moderator", false]
    ])
    const grace = Date.parse(rules[1]!.graceUntil!) - Date.now()
    expect(grace).toBeGreaterThan(6.9 * 86_400_000)
    expect(grace).toBeLessThan(7.1 * 86_400_000)
    expect((await setRule("admin", false)).status).toBe(200)
    const log = await call(url(), "GET", "/api/admin/activity-logs?action=admin.passkey_rule", { token: await superToken() })
    expect(
      (log.body.data as { logs: ReadonlyArray<{ action: string }> }).logs.filter((entry) => entry.action === "admin.passkey_rule").length
    ).toBeGreaterThanOrEqual(2)
  })

  it("makes the code the first step and the passkey the second: a relayed code alone opens no session", async () => {
    const email = freshEmail("second-step")
    await create(email, "moderator")
    const { key } = await addKey(await signIn(email, "moderator"))
    expect((await setRule("moderator", true, 30)).status).toBe(200)
    try {
      // Even asked as a lower role, and within the role's grace: this account has a passkey.
      const { answer } = await codeSignIn(email, "moderator")
      expect(answer.status, answer.text).toBe(200)
      expect(answer.body).toMatchObject({ success: true, secondStep: true, message: passkeyMessages.secondStep, recoveryCodes: false })
      expect(answer.body.token).toBeUndefined()
      const step = answer.body.step as string
      // Another person's passkey, or an answer for another origin, does not finish it.
      const stranger = softAuthenticator()
      expect((await stepPasskey(step, stranger.authenticate(await stepOptions(step), origin()))).status).toBe(401)
      expect((await stepPasskey(step, key.authenticate(await stepOptions(step), "https://phishing.example"))).status).toBe(401)
      const asked = await stepOptions(step)
      expect(asked.allowCredentials.map((one) => one.id)).toEqual([key.id])
      // Twenty answers at once: one session.
      const answers = await Promise.all(Array.from({ length: 20 }, async () => key.authenticate(await stepOptions(step), origin())))
      const finished = await Promise.all(answers.map((one) => stepPasskey(step, one)))
      const sessions = finished.filter((one) => one.status === 200)
      expect(sessions).toHaveLength(1)
      expect(finished.filter((one) => one.status === 401)).toHaveLength(19)
      expect(sessions[0]!.body.user).toMatchObject({ email: email.toLowerCase(), role: "moderator" })
      expect((await check(sessions[0]!.body.token as string)).status).toBe(200)
      // Finished: the step is gone.
      const again = await call(url(), "POST", "/api/admin/auth/second-step/options", { ip: freshIp(), body: { step } })
      expect(again.status).toBe(401)
      expect(again.body.error).toBe(passkeyMessages.stepExpired)
      // The sign-in says how: a code and a passkey.
      const log = await call(url(), "GET", `/api/admin/activity-logs?record=${(sessions[0]!.body.user as { _id: string })._id}`, { token: await superToken() })
      expect(log.status).toBe(200)
    } finally {
      await setRule("moderator", false)
    }
  })

  it("signs a person with no passkey in within the grace and says until when; past it, no session", async () => {
    const email = freshEmail("grace")
    await create(email, "moderator")
    await noOwnGrace(email)
    expect((await setRule("moderator", true, 5)).status).toBe(200)
    try {
      const { answer } = await codeSignIn(email, "moderator")
      expect(answer.status, answer.text).toBe(200)
      expect(typeof answer.body.token).toBe("string")
      const due = Date.parse(answer.body.passkeyDueBy as string) - Date.now()
      expect(due).toBeGreaterThan(4.9 * 86_400_000)
      expect(await overview(answer.body.token as string)).toMatchObject({ required: true, passkeys: [], recoveryCodesLeft: 0 })
      // No grace left: the right code opens nothing, and says why.
      expect((await setRule("moderator", true, 0)).status).toBe(200)
      const { answer: refused } = await codeSignIn(email, "moderator")
      expect(refused.status).toBe(403)
      expect(refused.body.error).toBe(passkeyMessages.required)
      // A new account has days of its own to add one.
      const newcomer = freshEmail("grace-new")
      await create(newcomer, "moderator")
      const { answer: welcomed } = await codeSignIn(newcomer, "moderator")
      expect(welcomed.status, welcomed.text).toBe(200)
      expect(Date.parse(welcomed.body.passkeyDueBy as string) - Date.now()).toBeGreaterThan(2.9 * 86_400_000)
    } finally {
      await setRule("moderator", false)
    }
  })

  it("keeps a person's last passkey while the role requires one, also when two go at once", async () => {
    const email = freshEmail("last")
    await create(email, "moderator")
    const adder = await signIn(email, "moderator")
    const first = await addKey(adder)
    const second = await addKey(adder)
    expect((await setRule("moderator", true, 0)).status).toBe(200)
    const token = await withPasskey(first.key)
    try {
      const both = await Promise.all([first, second].map((one) => call(url(), "DELETE", `/api/admin/passkeys/${one.id}`, { token })))
      expect(both.map((one) => one.status).sort()).toEqual([200, 409])
      expect(both.find((one) => one.status === 409)!.body.error).toBe(passkeyMessages.lastRequired)
      expect((await overview(token)).passkeys).toHaveLength(1)
    } finally {
      await setRule("moderator", false)
    }
    const last = (await overview(token)).passkeys[0]!
    expect((await call(url(), "DELETE", `/api/admin/passkeys/${last._id}`, { token })).status).toBe(200)
  })

  it("renames a passkey for its owner only", async () => {
    const email = freshEmail("rename")
    await create(email, "admin")
    const token = await signIn(email, "admin")
    const { id } = await addKey(token)
    const renamed = await call(url(), "PATCH", `/api/admin/passkeys/${id}`, { token, body: { name: "  Old phone " } })
    expect(renamed.status, renamed.text).toBe(200)
    expect((await overview(token)).passkeys[0]!.name).toBe("Old phone")
    expect((await call(url(), "PATCH", `/api/admin/passkeys/${id}`, { token, body: { name: " " } })).status).toBe(400)
    expect((await call(url(), "PATCH", `/api/admin/passkeys/${id}`, { token: await superToken(), body: { name: "Mine" } })).status).toBe(404)
  })

  it("resets a person's passkeys from the console and the command line: sessions end, a code signs in to add one", async () => {
    const email = freshEmail("reset")
    const account = await create(email, "moderator")
    const first = await signIn(email, "moderator")
    const { key } = await addKey(first)
    await call(url(), "POST", "/api/admin/auth/passkeys/recovery-codes", { token: first })
    expect((await setRule("moderator", true, 0)).status).toBe(200)
    const token = await withPasskey(key)
    try {
      const refused = await call(url(), "POST", `/api/admin/users/${account._id}/passkeys/reset`, { token })
      expect(refused.status).toBe(403)
      const reset = await call(url(), "POST", `/api/admin/users/${account._id}/passkeys/reset`, { token: await superToken() })
      expect(reset.status, reset.text).toBe(200)
      expect(reset.body.data).toMatchObject({ removed: 1 })
      // The answer says the end of the three days' grace, not the moment of the reset.
      expect(Date.parse((reset.body.data as { graceUntil: string }).graceUntil) - Date.now()).toBeGreaterThan(2.9 * 86_400_000)
      expect((await check(token)).status).toBe(401)
      const { answer } = await codeSignIn(email, "moderator")
      expect(answer.status, answer.text).toBe(200)
      expect(typeof answer.body.passkeyDueBy).toBe("string")
      expect(await overview(answer.body.token as string)).toMatchObject({ passkeys: [], recoveryCodesLeft: 0, required: true })
      const log = await call(url(), "GET", `/api/admin/activity-logs?record=${account._id}`, { token: await superToken() })
      expect((log.body.data as { logs: ReadonlyArray<{ action: string }> }).logs.map((entry) => entry.action)).toContain("admin.passkeys_reset")
      // The command line, the same way, logged too. Another process: PostgreSQL here (this file's PGlite
      // has no folder; on a folder the command runs through the server's admin channel, tests/api/faults.test.ts).
      if (engine.name === "postgresql") {
        const again = answer.body.token as string
        await addKey(again)
        expect(await adminScript("reset-passkeys", email)).toBe(0)
        expect((await check(again)).status).toBe(401)
        expect(await adminScript("reset-passkeys", "nobody@example.com")).toBe(1)
        const logged = await call(url(), "GET", `/api/admin/activity-logs?record=${account._id}`, { token: await superToken() })
        expect((logged.body.data as { logs: ReadonlyArray<{ action: string }> }).logs.filter((entry) => entry.action === "admin.passkeys_reset")).toHaveLength(
          2
        )
      }
      // The command's words, as `npm run admin` prints them here and through a running server's admin channel.
      const printed = await staff.server.sql(executeAdminCommand(["reset-passkeys", email]))
      const until = printed.out.match(/signs them in until (\d{4}-\d{2}-\d{2} \d{2}:\d{2}) UTC/u)?.[1]
      expect(printed, printed.out).toMatchObject({ code: 0 })
      expect(Date.parse(`${until?.replace(" ", "T") ?? ""}:00Z`) - Date.now()).toBeGreaterThan(2.9 * 86_400_000)
      const missing = await call(url(), "POST", "/api/admin/users/00000000-0000-4000-8000-000000000000/passkeys/reset", { token: await superToken() })
      expect(missing.status).toBe(404)
    } finally {
      await setRule("moderator", false)
    }
  })
})
