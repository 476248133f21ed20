import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { addAdmin } from "../../server/auth/admins.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { aMinuteLater, latestCode } from "../support/server.ts"
import { serverWithStaff } from "../support/session.ts"

/**
 * Sign-in attacked as docs/security.md says it holds: guesses sent all at once, from many
 * addresses, never compare more than five with one code; strangers asking for codes from many
 * addresses never lock the admin out.
 */
let counter = 0
const freshEmail = (label: string) => `${label}-${++counter}-${process.pid}@example.com`

describe.each(engines)("sign-in under attack on $name", (engine) => {
  const staff = serverWithStaff(engine)

  const admin = async () => {
    const email = freshEmail("target")
    await staff.server.sql(addAdmin(email, "super_admin"))
    return email
  }
  const requestCode = (email: string, ip = freshIp()) => call(staff.server.url, "POST", "/api/admin/auth", { body: { email, role: "super_admin" }, ip })
  const verify = (email: string, otp: string, ip = freshIp()) => call(staff.server.url, "POST", "/api/admin/auth", { body: { email, otp }, ip })
  const query = <A>(statement: (sql: SqlClient) => Effect.Effect<A, unknown>) => staff.server.sql(Effect.flatMap(SqlClient, statement))
  /** `count` different six-digit codes, none of them `code`. */
  const wrongCodes = (code: string, count: number) => {
    const codes = new Set<string>()
    while (codes.size < count) {
      const guess = String(Math.floor(Math.random() * 1_000_000)).padStart(6, "0")
      if (guess !== code) codes.add(guess)
    }
    return [...codes]
  }
  const failedVerifications = (email: string) =>
    query(
      (sql) => sql<{ compared: number; dead: number }>`
      SELECT count(*) FILTER (WHERE details ? 'attempts')::int AS compared,
             count(*) FILTER (WHERE details->>'reason' = 'no live code')::int AS dead
      FROM activity_log WHERE actor_email = ${email} AND action = 'session.verify_failed'`
    ).then((rows) => rows[0])

  /**
   * Sends `guesses` all at once and reads back how each fared: signed in, compared with the live
   * code and refused (the log's `attempts`), or refused because the code was already dead.
   */
  const attack = async (email: string, guesses: ReadonlyArray<string>, ip?: string) => {
    const answers = await Promise.all(guesses.map((guess) => verify(email, guess, ip)))
    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 401)).toEqual([])
    const log = await failedVerifications(email)
    return { signedIn: answers.filter((answer) => answer.status === 200).length, compared: log?.compared, dead: log?.dead }
  }

  // Guesses sent together arrive in any order, so the right one sent last may still be among the
  // first five to arrive; what must hold is that exactly five are ever compared with the code.
  it("compares exactly five of 200 parallel guesses with a code: the right one, sent last, signs in only as one of them", async () => {
    for (let run = 0; run < 8; run++) {
      const email = await admin()
      expect((await requestCode(email)).status).toBe(200)
      const code = await latestCode(staff.server, email)
      const { signedIn, compared, dead } = await attack(email, [...wrongCodes(code, 199), code])
      expect(signedIn).toBeLessThanOrEqual(1)
      expect({ compared: (compared ?? 0) + signedIn, dead }).toEqual({ compared: 5, dead: 195 })
    }
  })

  it("compares exactly five of 30 parallel guesses from one address (its whole budget)", async () => {
    for (let run = 0; run < 4; run++) {
      const email = await admin()
      expect((await requestCode(email)).status).toBe(200)
      const code = await latestCode(staff.server, email)
      const { signedIn, compared, dead } = await attack(email, [...wrongCodes(code, 29), code], freshIp())
      expect(signedIn).toBeLessThanOrEqual(1)
      expect({ compared: (compared ?? 0) + signedIn, dead }).toEqual({ compared: 5, dead: 25 })
    }
  })

  it("never signs in with 200 parallel wrong guesses and the right one sent once they are answered", async () => {
    const email = await admin()
    expect((await requestCode(email)).status).toBe(200)
    const code = await latestCode(staff.server, email)
    expect(await attack(email, wrongCodes(code, 200))).toEqual({ signedIn: 0, compared: 5, dead: 195 })
    expect((await verify(email, code)).status).toBe(401)
  })

  it("signs in with the right code after up to four wrong ones, and it wins once among parallel copies", async () => {
    for (let wrong = 0; wrong < 5; wrong++) {
      const email = await admin()
      expect((await requestCode(email)).status).toBe(200)
      const code = await latestCode(staff.server, email)
      for (const guess of wrongCodes(code, wrong)) expect((await verify(email, guess)).status).toBe(401)
      const answers = await Promise.all(Array.from({ length: 5 - wrong }, () => verify(email, code)))
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array.from({ length: 4 - wrong }, () => 401)])
    }
  })

  it("lets a stranger with 50 addresses ask for an admin's codes without ever refusing the admin", async () => {
    const email = await admin()
    const home = freshIp()
    // The admin signed in before from home.
    expect((await requestCode(email, home)).status).toBe(200)
    expect((await verify(email, await latestCode(staff.server, email), home)).status).toBe(200)

    const strangers = Array.from({ length: 50 }, () => freshIp())
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(strangers.map((ip) => requestCode(email, ip)))
      expect(answers.map((answer) => answer.status).filter((status) => status !== 200)).toEqual([])
    }
    // Each stranger's sixth request is refused for that stranger alone.
    expect((await requestCode(email, strangers[0])).status).toBe(429)
    const mails = staff.server.outbox().filter((mail) => mail.to === email)
    // The strangers' 250 requests replaced no live code: one code mailed since the admin's own.
    expect(mails.length).toBeLessThanOrEqual(3)

    for (const ip of [home, freshIp()]) {
      await aMinuteLater(staff.server, email)
      const asked = await requestCode(email, ip)
      expect(asked.status).toBe(200)
      expect((await verify(email, await latestCode(staff.server, email), ip)).status).toBe(200)
    }
  })
})
