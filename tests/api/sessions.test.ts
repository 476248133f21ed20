import { describe, expect, it } from "vitest"
import type { AdminSession } from "../../contract/sessions.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { freshEmail, settingsServer } from "../support/settings.ts"

describe.each(engines)("sessions on $name", (engine) => {
  const { staff, url, superToken, create, signIn, check } = settingsServer(engine)

  it("lists the caller's sessions with their browser, signs one out and every other", async () => {
    const email = freshEmail("traveller")
    await create(email, "admin")
    const first = await signIn(email, "admin")
    const second = await signIn(email, "admin")
    const third = await signIn(email, "admin")
    const listed = await call(url(), "GET", "/api/admin/sessions", { token: first })
    const sessions = (listed.body.data as { sessions: ReadonlyArray<AdminSession> }).sessions
    expect(sessions).toHaveLength(3)
    expect(sessions.filter((session) => session.current)).toHaveLength(1)
    expect(sessions[0]!.userAgent).toContain("Chrome/142.0")
    for (const other of [first, staff.moderator]) expect((await call(url(), "GET", "/api/admin/sessions?scope=all", { token: other })).status).toBe(403)
    const secondId = sessions.find((session) => !session.current)!._id
    expect((await call(url(), "DELETE", `/api/admin/sessions/${secondId}`, { token: first })).status).toBe(200)
    expect((await call(url(), "DELETE", `/api/admin/sessions/${secondId}`, { token: first })).status).toBe(404)
    const others = await call(url(), "POST", "/api/admin/sessions/end-others", { token: first })
    expect(others.body).toEqual({ success: true, data: { ended: 1 } })
    expect((await check(first)).status).toBe(200)
    expect((await check(second)).status + (await check(third)).status).toBe(802)
    // Someone else's session: only a super admin may end it.
    const mine = (await call(url(), "GET", "/api/admin/sessions", { token: staff.moderator })).body.data as { sessions: ReadonlyArray<AdminSession> }
    expect((await call(url(), "DELETE", `/api/admin/sessions/${mine.sessions[0]!._id}`, { token: first })).status).toBe(403)
    const everyone = await call(url(), "GET", "/api/admin/sessions?scope=all", { token: await superToken() })
    expect((everyone.body.data as { sessions: ReadonlyArray<AdminSession> }).sessions.some((session) => session.email === email.toLowerCase())).toBe(true)
  })
})
