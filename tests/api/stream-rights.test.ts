import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import type { AdminAccount } from "../../contract/admin-users.ts"
import { addAdmin, setAdminRole } from "../../server/admin-users/repository.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { freshEmail, settingsServer } from "../support/settings.ts"
import { openStream, type StreamEvent } from "../support/stream.ts"

type Stream = Awaited<ReturnType<typeof openStream>>
const entityOf = (event: StreamEvent) => (event.data as { entityId: string }).entityId
const areaOf = (event: StreamEvent) => (event.data as { area: string }).area

/**
 * A stream follows its reader's rights (docs/api.md, "Live changes"): a super admin demoted while
 * their stream is open hears nothing a moderator may not read from then on, whichever process
 * demoted them (on PostgreSQL the command line is another process; the notice is `NOTIFY`).
 */
describe.each(engines)("an open stream after its reader is demoted on $name", (engine) => {
  const { staff, url, superToken, signIn, adminScript } = settingsServer(engine)

  /** A super admin of their own, signed in: the one who is demoted (the one who demotes is signed in first: nothing of theirs comes after). */
  const superAdminSignedIn = async () => {
    await superToken()
    const email = freshEmail("demoted")
    const { id } = await staff.server.sql(addAdmin(email, "super_admin"))
    return { email, id, token: await signIn(email, "super_admin") }
  }

  /** What only super admins read, made by another super admin: a new admin account and a protected record. */
  const superAdminsOnly = async () => {
    const token = await superToken()
    const user = await call(url(), "POST", "/api/admin/users", { token, body: { email: freshEmail("hired"), role: "admin" } })
    expect(user.status, user.text).toBe(200)
    const record = await call(url(), "POST", "/api/admin/protected-data", {
      token,
      body: { type: "api-key", key: freshEmail("key"), value: "demoted-never-hears-this", description: "After the demotion" }
    })
    expect(record.status, record.text).toBe(200)
    return [(user.body.data as { user: AdminAccount }).user._id, (record.body.data as { record: { _id: string } }).record._id]
  }

  /** A scam report everyone reads, made last: a stream still going hears it after what came before it. */
  const report = async () => {
    const answer = await call(url(), "POST", "/api/report-scam", { ip: freshIp(), body: { scamType: "phishing", description: "After the demotion" } })
    expect(answer.status, answer.text).toBe(200)
    return (answer.body.data as { _id: string })._id
  }

  /**
   * After the demotion, with what only super admins read made at once: the stream heard none of
   * it, and ended. Reopened from where it was, as the console does, it carries what followed
   * that a moderator reads (the report), and still none of the rest.
   */
  const hearsAsModerator = async (stream: Stream, token: string) => {
    const secret = await superAdminsOnly()
    const marker = await report()
    await stream.until(() => stream.ended(), "the end")
    const heard = stream.changes()
    expect(heard.filter((event) => secret.includes(entityOf(event)) || ["admin", "protected-data"].includes(areaOf(event)))).toEqual([])
    const from = heard.at(-1)?.id ?? stream.events.find((event) => event.event === "ready")!.id
    await stream.close()
    const again = await openStream(url(), token, from)
    await again.until(() => again.changes().some((event) => entityOf(event) === marker), "the report after reconnecting")
    expect(again.changes().filter((event) => secret.includes(entityOf(event)))).toEqual([])
    await again.close()
  }

  it("hears nothing only super admins read once demoted on the admin-users endpoint", async () => {
    const demoted = await superAdminSignedIn()
    const stream = await openStream(url(), demoted.token)
    await stream.ready()
    const account = (await call(url(), "GET", `/api/admin/users?search=${encodeURIComponent(demoted.email)}`, { token: await superToken() })).body.data as {
      users: ReadonlyArray<AdminAccount>
    }
    const lowered = await call(url(), "PUT", `/api/admin/users/${demoted.id}`, {
      token: await superToken(),
      body: { role: "moderator", version: account.users[0]!.version }
    })
    expect(lowered.status, lowered.text).toBe(200)
    // The session goes on, as a moderator's.
    expect((await call(url(), "GET", "/api/admin/auth/check", { token: demoted.token })).body).toMatchObject({ user: { role: "moderator" } })
    await hearsAsModerator(stream, demoted.token)
  })

  it("hears nothing only super admins read once demoted by the command line", async () => {
    const demoted = await superAdminSignedIn()
    const stream = await openStream(url(), demoted.token)
    await stream.ready()
    // PostgreSQL: `npm run admin` is another process, heard by NOTIFY. PGlite's database (in memory
    // here) belongs to the server: the command runs in it, as through its admin channel.
    if (engine.name === "postgresql") expect(await adminScript("role", demoted.email, "moderator")).toBe(0)
    else await staff.server.sql(setAdminRole(demoted.email, "moderator"))
    await hearsAsModerator(stream, demoted.token)
  })

  it("reads its role again before what only super admins read, with no notice of the demotion at all", async () => {
    const demoted = await superAdminSignedIn()
    const stream = await openStream(url(), demoted.token)
    await stream.ready()
    // Lowered in the database alone: no NOTIFY, no emptying of any cache. Only the stream's own
    // read of its session's role, before a batch a moderator may not read, can stop that batch.
    await staff.server.sql(
      Effect.flatMap(SqlClient, (sql) =>
        sql.withTransaction(
          Effect.andThen(
            sql`UPDATE admins SET role = 'moderator' WHERE id = ${demoted.id}`,
            sql`UPDATE sessions SET role = 'moderator' WHERE admin_id = ${demoted.id}`
          )
        )
      )
    )
    const secret = await superAdminsOnly()
    const marker = await report()
    await stream.until(() => stream.ended() || stream.changes().some((event) => entityOf(event) === marker), "the end or the report")
    expect(stream.changes().filter((event) => secret.includes(entityOf(event)))).toEqual([])
    expect(stream.ended()).toBe(true)
    await stream.close()
  })

  it("keeps nothing only super admins read from streams being opened while their reader is demoted", async () => {
    const demoted = await superAdminSignedIn()
    const opening = Array.from({ length: 6 }, () => openStream(url(), demoted.token))
    const lowered = staff.server.sql(setAdminRole(demoted.email, "moderator"))
    const streams = await Promise.all(opening)
    await lowered
    await Promise.all(streams.map((stream) => stream.until(() => stream.ended() || stream.events.some((event) => event.event === "ready"), "ready")))
    const secret = await superAdminsOnly()
    const marker = await report()
    for (const stream of streams) {
      await stream.until(() => stream.ended() || stream.changes().some((event) => entityOf(event) === marker), "the end or the report")
      expect(stream.changes().filter((event) => secret.includes(entityOf(event)))).toEqual([])
      await stream.close()
    }
  })
})
