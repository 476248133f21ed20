import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { engines } from "../support/database.ts"
import { freshIp } from "../support/http.ts"
import { deliveredOutbox, latestCode } from "../support/server.ts"
import { serverWithStaff } from "../support/session.ts"
import { aMinuteLater, askForCode, attemptOf, type From, newBrowserKey, sendCode, timePasses } from "../support/sign-in.ts"

/**
 * Sign-in attacked as docs/security.md says it holds: guesses sent all at once, from many
 * addresses, never compare more than five with one attempt nor more than twenty a day with one
 * e-mail's codes; strangers asking for codes and guessing from many addresses never keep the
 * admin out of a browser they signed in from before.
 */
let counter = 0
const freshEmail = (label: string) => `${label}-${++counter}-${process.pid}@example.com`
const DAY = 24 * 60 * 60

/** The chance that `guesses` different six-digit guesses at one code find it. */
const chanceOf = (guesses: number) => guesses / 1_000_000

describe.each(engines)("sign-in under attack on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url

  const admin = async () => {
    const email = freshEmail("target")
    await staff.server.sql(addAdmin(email, "super_admin"))
    return email
  }
  const requestCode = (email: string, from: From = {}) => askForCode(url(), email, "super_admin", from)
  const verify = (email: string, otp: string, attempt: unknown, from: From = {}) => sendCode(url(), email, otp, attempt, from)
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
  /** Guesses compared with a live code (the log's `attempts`), and guesses that found no live attempt. */
  const failedVerifications = (email: string) =>
    query(
      (sql) => sql<{ compared: number; dead: number }>`
      SELECT count(*) FILTER (WHERE details ? 'attempts')::int AS compared,
             count(*) FILTER (WHERE details->>'reason' = 'no live code')::int AS dead
      FROM activity_log WHERE actor_email = ${email} AND action = 'session.verify_failed'`
    ).then((rows) => rows[0] ?? { compared: 0, dead: 0 })
  const warnings = (email: string) =>
    query(
      (sql) => sql<{ details: { codesTried: number; pausedUntil?: string } }>`
      SELECT details FROM activity_log WHERE actor_email = ${email} AND action = 'session.codes_tried' ORDER BY id`
    ).then((rows) => rows.map((row) => row.details))

  /**
   * Sends `guesses` at `attempt` all at once and reads back how each fared: signed in, compared
   * with the live code and refused (the log's `attempts`), refused because the attempt was dead,
   * or refused uncompared because the day's codes for the e-mail were used up (429).
   */
  const attack = async (email: string, attempt: string, guesses: ReadonlyArray<string>, ip?: string) => {
    const answers = await Promise.all(guesses.map((guess) => verify(email, guess, attempt, ip === undefined ? {} : { ip })))
    expect(answers.filter((answer) => ![200, 401, 429].includes(answer.status))).toEqual([])
    const log = await failedVerifications(email)
    return {
      signedIn: answers.filter((answer) => answer.status === 200).length,
      paused: answers.filter((answer) => answer.status === 429).length,
      ...log
    }
  }

  // Guesses sent together arrive in any order, so the right one sent last may still be among the
  // first five to arrive; what must hold is that exactly five are ever compared with the attempt,
  // and no more than the day's twenty are taken for the e-mail at all.
  it("compares exactly five of 200 parallel guesses at an attempt and takes 20: the right one, sent last, signs in only as one of them", async () => {
    for (let run = 0; run < 8; run++) {
      const email = await admin()
      const attempt = attemptOf(await requestCode(email))
      const code = await latestCode(staff.server, email)
      const { signedIn, compared, dead, paused } = await attack(email, attempt, [...wrongCodes(code, 199), code])
      expect(signedIn).toBeLessThanOrEqual(1)
      expect({ compared: compared + signedIn, dead, paused }).toEqual({ compared: 5, dead: 15, paused: 180 })
    }
  })

  it("compares exactly five of 30 parallel guesses from one address (its whole budget)", async () => {
    for (let run = 0; run < 4; run++) {
      const email = await admin()
      const attempt = attemptOf(await requestCode(email))
      const code = await latestCode(staff.server, email)
      const { signedIn, compared, dead, paused } = await attack(email, attempt, [...wrongCodes(code, 29), code], freshIp())
      expect(signedIn).toBeLessThanOrEqual(1)
      expect({ compared: compared + signedIn, dead, paused }).toEqual({ compared: 5, dead: 15, paused: 10 })
    }
  })

  it("never signs in with 200 parallel wrong guesses and the right one sent once they are answered", async () => {
    const email = await admin()
    const attempt = attemptOf(await requestCode(email))
    const code = await latestCode(staff.server, email)
    expect(await attack(email, attempt, wrongCodes(code, 200))).toEqual({ signedIn: 0, compared: 5, dead: 15, paused: 180 })
    expect((await verify(email, code, attempt)).status).toBe(429)
  })

  it("signs in with the right code after up to four wrong ones, and it wins once among parallel copies", async () => {
    for (let wrong = 0; wrong < 5; wrong++) {
      const email = await admin()
      const attempt = attemptOf(await requestCode(email))
      const code = await latestCode(staff.server, email)
      for (const guess of wrongCodes(code, wrong)) expect((await verify(email, guess, attempt)).status).toBe(401)
      const answers = await Promise.all(Array.from({ length: 5 - wrong }, () => verify(email, code, attempt)))
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array.from({ length: 4 - wrong }, () => 401)])
    }
  })

  it("lets a stranger with 50 addresses ask for an admin's codes without ever refusing the admin", async () => {
    const email = await admin()
    const home = freshIp()
    // The admin signed in before from home.
    const first = attemptOf(await requestCode(email, { ip: home }))
    expect((await verify(email, await latestCode(staff.server, email), first, { ip: home })).status).toBe(200)

    const strangers = Array.from({ length: 50 }, () => freshIp())
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(strangers.map((ip) => requestCode(email, { ip })))
      expect(answers.map((answer) => answer.status).filter((status) => status !== 200)).toEqual([])
    }
    // Each stranger's sixth request is refused for that stranger alone.
    expect((await requestCode(email, { ip: strangers[0] })).status).toBe(429)
    const mails = staff.server.outbox().filter((mail) => mail.to === email)
    // The strangers' 250 requests mailed one code at most since the admin's own.
    expect(mails.length).toBeLessThanOrEqual(2)

    for (const ip of [home, freshIp()]) {
      await aMinuteLater(staff.server, email)
      const attempt = attemptOf(await requestCode(email, { ip }))
      expect((await verify(email, await latestCode(staff.server, email), attempt, { ip })).status).toBe(200)
    }
  })

  /**
   * The attacker at the fastest pace the server allows, from a new address for every request:
   * a code asked for each minute of the moved clock (one a minute is all that is mailed), five
   * guesses at each, until the day's codes are refused; then the clock moves on.
   */
  const attackADay = async (email: string, budget: { minutes: number }) => {
    let paused = false
    for (let minute = 0; minute < budget.minutes && !paused; minute++) {
      const asked = await requestCode(email)
      if (asked.status === 429) {
        paused = true
        break
      }
      expect(asked.status).toBe(200)
      const answers = await Promise.all(wrongCodes("", 5).map((guess) => verify(email, guess, attemptOf(asked))))
      expect(answers.filter((answer) => answer.status !== 401 && answer.status !== 429)).toEqual([])
      paused = answers.some((answer) => answer.status === 429)
      await timePasses(staff.server, 61)
    }
    return { paused, minutes: budget.minutes }
  }

  it("takes at most 20 codes a day for an e-mail however many addresses guess, over a week of a moved clock: under 1 in 10,000 a day", async () => {
    const email = await admin()
    const compared: Array<number> = []
    for (let day = 0; day < 7; day++) {
      const before = (await failedVerifications(email)).compared
      const { paused } = await attackADay(email, { minutes: 40 })
      expect(paused).toBe(true)
      compared.push((await failedVerifications(email)).compared - before)
      // The rest of the day passes.
      await timePasses(staff.server, DAY)
    }
    for (const guesses of compared) expect(guesses).toBeLessThanOrEqual(20)
    expect(Math.max(...compared.map(chanceOf))).toBeLessThanOrEqual(1 / 10_000)
    // The admin is told each day: when ten were tried, and when the day's were used up.
    const told = await warnings(email)
    expect(told.map((entry) => entry.pausedUntil === undefined)).toEqual(Array.from({ length: 7 }, () => [true, false]).flat())
    const mails = (await deliveredOutbox(staff.server, email)).filter((mail) => mail.to === email && /being tried|paused/.test(mail.subject))
    expect(mails).toHaveLength(14)
    expect(mails[1]?.body).toContain("except from browsers you have signed in from before")
  })

  it("takes at most 40 codes in any 24 hours, a day's end and the next day's start together", async () => {
    const email = await admin()
    await attackADay(email, { minutes: 40 })
    // Just before the day's window ends, then just after it: the worst any 24 hours can hold.
    await timePasses(staff.server, DAY - 40 * 61 - 120)
    const before = (await failedVerifications(email)).compared
    await timePasses(staff.server, 121)
    await attackADay(email, { minutes: 40 })
    const inTheLastDay = 20 + (await failedVerifications(email)).compared - before
    expect(inTheLastDay).toBeLessThanOrEqual(40)
    expect(chanceOf(inTheLastDay)).toBeLessThanOrEqual(1 / 10_000)
  })

  it("lets the admin in on the first try from a browser they signed in from before, while 200 addresses ask for a code and try five each second", async () => {
    const email = await admin()
    const browser = newBrowserKey()
    const home = freshIp()
    // Yesterday: the admin signed in from this browser.
    const yesterday = attemptOf(await requestCode(email, { ip: home, browser }))
    expect((await verify(email, await latestCode(staff.server, email), yesterday, { ip: home, browser })).status).toBe(200)
    await timePasses(staff.server, DAY)

    const strangers = Array.from({ length: 200 }, () => freshIp())
    const pick = () => strangers[Math.floor(Math.random() * strangers.length)]!
    let attacking = true
    const statuses: Array<number> = []
    const strangersAttack = (async () => {
      while (attacking) {
        const asked = await requestCode(email, { ip: pick() })
        statuses.push(asked.status)
        const attempt = asked.status === 200 ? attemptOf(asked) : newBrowserKey()
        const answers = await Promise.all(wrongCodes("", 5).map((guess) => verify(email, guess, attempt, { ip: pick() })))
        statuses.push(...answers.map((answer) => answer.status))
        await new Promise((resolve) => setTimeout(resolve, 1_000))
      }
    })()
    try {
      await new Promise((resolve) => setTimeout(resolve, 2_500))
      const asked = await requestCode(email, { ip: home, browser })
      expect(asked.status).toBe(200)
      expect(asked.body.resendAfterSeconds).toBeUndefined()
      const code = await latestCode(staff.server, email)
      // The admin reads the mail and types the code while the guessing goes on.
      await new Promise((resolve) => setTimeout(resolve, 3_000))
      const signedIn = await verify(email, code, attemptOf(asked), { ip: home, browser })
      expect(signedIn.status, signedIn.text).toBe(200)
    } finally {
      attacking = false
      await strangersAttack
    }
    expect(statuses.filter((status) => ![200, 401, 429].includes(status))).toEqual([])
    // The strangers' guesses were compared until the day's were used up, then refused.
    expect(statuses.filter((status) => status === 401).length).toBeGreaterThan(0)
    // Item 1's bound held meanwhile: at most the day's twenty of the strangers' guesses compared.
    expect((await failedVerifications(email)).compared).toBeLessThanOrEqual(20)
    // A browser the admin never used is paused once the strangers used the day's codes up.
    await aMinuteLater(staff.server, email)
    if (statuses.filter((status) => status === 401).length >= 20) {
      const elsewhere = await requestCode(email, { browser: newBrowserKey() })
      expect(elsewhere.status).toBe(429)
      expect(elsewhere.body.error).toMatch(
        /^Too many codes were tried for this e-mail today\. Sign in from a browser you have signed in from before, or try again in \d+ hours\.$/
      )
    }
  })

  it("keeps a browser known only for the e-mails that signed in from it", async () => {
    const known = await admin()
    const other = await admin()
    const browser = newBrowserKey()
    const attempt = attemptOf(await requestCode(known, { browser }))
    expect((await verify(known, await latestCode(staff.server, known), attempt, { browser })).status).toBe(200)
    // Strangers use up the day's codes for `other`; the browser known for `known` is a stranger to `other`.
    await attackADay(other, { minutes: 40 })
    expect((await requestCode(other, { browser })).status).toBe(429)
    await aMinuteLater(staff.server, known)
    expect((await requestCode(known, { browser })).status).toBe(200)
  })
})
