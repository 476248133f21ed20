import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { createHash, randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { engines } from "../support/database.ts"
import { type Answer, call, freshIp } from "../support/http.ts"
import { serverWithStaff, signedInAs } from "../support/session.ts"

/**
 * Signing out later, by the token's hash (docs/api.md, "Sign-out"): what a console that signed out
 * with no link sends when the link is back, keeping no token meanwhile. No bearer; 204 whether a
 * session matched or not; limited per address; a refused request ends nothing and logs nothing.
 */
const REVOKE = "/api/admin/auth/revoke"
/** The SHA-256 of the token, in hex, as the server stores it (docs/security.md, "Sessions"). */
const hashOf = (token: string) => createHash("sha256").update(token).digest("hex")
const unknownHash = () => randomBytes(32).toString("hex")

describe.each(engines)("signing out by the token's hash on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const revoke = (body: unknown, ip = freshIp()) => call(staff.server.url, "POST", REVOKE, { body, ip })
  const check = async (token: string) => (await call(staff.server.url, "GET", "/api/admin/auth/check", { token })).status
  /** What the log holds of the session's sign-outs, and the sessions' row as ended or not. */
  const traces = (token: string) =>
    staff.server.sql(
      Effect.flatMap(SqlClient, (sql) =>
        Effect.all({
          signOuts: sql<{ ip: string }>`
            SELECT l.ip FROM activity_log l JOIN sessions s ON s.id::text = l.entity_id
            WHERE s.token_hash = ${hashOf(token)} AND l.action = 'session.sign_out'`,
          ended: sql<{ ended: boolean }>`SELECT revoked_at IS NOT NULL AS ended FROM sessions WHERE token_hash = ${hashOf(token)}`
        })
      )
    )
  /** What a client can tell of an answer: its status, its type and its body. */
  const seen = (answer: Answer) => ({ status: answer.status, type: answer.headers.get("content-type"), text: answer.text })

  it("ends the session whose token hashes to it, in every process's eyes at once, logged as its admin's sign-out", async () => {
    const token = await signedInAs(staff.server, "admin")
    const other = await signedInAs(staff.server, "admin")
    // Checked first, so this server remembers the session: the revocation must empty that.
    expect(await check(token)).toBe(200)
    const ip = freshIp()
    const answer = await revoke({ tokenHash: hashOf(token) }, ip)
    expect(seen(answer)).toEqual({ status: 204, type: null, text: "" })
    expect(await check(token)).toBe(401)
    expect(await check(other)).toBe(200)
    expect(await traces(token)).toEqual({ signOuts: [{ ip }], ended: [{ ended: true }] })
  })

  it("answers a hash no session has, and a session already ended, as it answers one it ends", async () => {
    const token = await signedInAs(staff.server, "moderator")
    const ending = seen(await revoke({ tokenHash: hashOf(token) }))
    const again = seen(await revoke({ tokenHash: hashOf(token) }))
    const unknown = seen(await revoke({ tokenHash: unknownHash() }))
    expect(again).toEqual(ending)
    expect(unknown).toEqual(ending)
    // Ended once, logged once.
    expect((await traces(token)).signOuts).toHaveLength(1)
  })

  it("refuses a body that is no hash with 400 naming the field, and leaves the session open", async () => {
    const token = await signedInAs(staff.server, "admin")
    for (const tokenHash of [token, hashOf(token).toUpperCase(), `${hashOf(token)}0`, ""]) {
      const answer = await revoke({ tokenHash })
      expect(answer.status, tokenHash).toBe(400)
      expect(answer.body.error).toContain("tokenHash")
    }
    expect((await revoke({})).status).toBe(400)
    // A bearer is not what it reads: the token in the header ends nothing.
    const withBearer = await call(staff.server.url, "POST", REVOKE, { token, body: { tokenHash: unknownHash() } })
    expect(withBearer.status).toBe(204)
    expect(await check(token)).toBe(200)
    expect(await traces(token)).toEqual({ signOuts: [], ended: [{ ended: false }] })
  })

  it("limits one address to 30 in 15 minutes: the 31st is a 429 that ends nothing, and another address is not held back", async () => {
    const token = await signedInAs(staff.server, "admin")
    const sprayer = freshIp()
    for (let n = 0; n < 30; n++) expect((await revoke({ tokenHash: unknownHash() }, sprayer)).status).toBe(204)
    const limited = await revoke({ tokenHash: hashOf(token) }, sprayer)
    expect(limited.status).toBe(429)
    expect(limited.body.error).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/)
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(await check(token)).toBe(200)
    expect(await traces(token)).toEqual({ signOuts: [], ended: [{ ended: false }] })
    // The person's own console, elsewhere, still signs out.
    expect((await revoke({ tokenHash: hashOf(token) })).status).toBe(204)
    expect(await check(token)).toBe(401)
  })
})
