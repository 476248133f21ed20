import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import type { AdminUser } from "../../contract/auth.ts"
import type { Role } from "../../contract/common.ts"
import { recordActivity } from "../platform/activity-log.ts"
import { inTransaction } from "../platform/database.ts"
import { hashToken, newSessionToken } from "../platform/secrets.ts"
import type { AdminRecord } from "./admins.ts"
import { requireAllowedIp } from "./allowed-ips.ts"
import { type ActiveSession, announceRevocation, cacheGeneration, endingSessions, recallSession, rememberSession } from "./session-cache.ts"
import { SESSION_ABSOLUTE_HOURS, SESSION_IDLE_MINUTES, SESSION_TOUCH_SECONDS } from "./policy.ts"

export type { ActiveSession }

export const toAdminUser = (admin: Pick<AdminRecord, "id" | "email" | "name" | "role">, role: Role): AdminUser => ({
  _id: admin.id,
  email: admin.email,
  name: admin.name,
  role,
  grantedRole: admin.role
})

/** Opens a session and logs the sign-in, in one transaction. */
export const openSession = (admin: AdminRecord, role: Role, ip: string, userAgent: string | null = null) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const token = newSessionToken()
    const id = randomUUID()
    const rows = yield* sql<{ expiresAt: Date }>`
      INSERT INTO sessions (id, token_hash, admin_id, role, ip, user_agent, expires_at)
      VALUES (${id}, ${hashToken(token)}, ${admin.id}, ${role}, ${ip}, ${userAgent?.slice(0, 400) ?? null},
              now() + make_interval(hours => ${SESSION_ABSOLUTE_HOURS}::int))
      RETURNING expires_at`
    yield* recordActivity({
      actorId: admin.id,
      actorEmail: admin.email,
      action: "session.sign_in",
      entityId: id,
      toState: role,
      ip
    })
    return { token, id, user: toAdminUser(admin, role), expiresAt: (rows[0]?.expiresAt ?? new Date()).toISOString() }
  }).pipe(inTransaction)

/**
 * The live session a token belongs to, or undefined: unknown, revoked, past 12 h, idle for
 * 2 h, or its admin disabled. A live session's last-seen time moves forward. Every session is
 * found here, and only for a client address the allowed-address list covers (403 otherwise,
 * before the token is looked at): no endpoint that reads a token can forget the list.
 */
export const findSession = (token: string, ip: string) => Effect.andThen(requireAllowedIp(ip), liveSession(token))

const liveSession = (token: string) =>
  Effect.gen(function* () {
    if (token === "") return undefined
    const tokenHash = hashToken(token)
    const cached = recallSession(tokenHash)
    if (cached !== undefined) return cached
    const readAt = cacheGeneration()
    const sql = yield* SqlClient
    const rows = yield* sql<{
      id: string
      role: Role
      stale: boolean
      adminId: string
      email: string
      name: string | null
      grantedRole: Role
    }>`
      SELECT s.id, s.role, s.last_seen_at < now() - make_interval(secs => ${SESSION_TOUCH_SECONDS}::int) AS stale,
             a.id AS admin_id, a.email, a.name, a.role AS granted_role
      FROM sessions s JOIN admins a ON a.id = s.admin_id
      WHERE s.token_hash = ${tokenHash}
        AND s.revoked_at IS NULL
        AND s.expires_at > now()
        AND s.last_seen_at > now() - make_interval(mins => ${SESSION_IDLE_MINUTES}::int)
        AND NOT a.disabled`
    const row = rows[0]
    if (row === undefined) return undefined
    if (row.stale) yield* sql`UPDATE sessions SET last_seen_at = now() WHERE id = ${row.id}`
    const session: ActiveSession = {
      id: row.id,
      user: toAdminUser({ id: row.adminId, email: row.email, name: row.name, role: row.grantedRole }, row.role)
    }
    rememberSession(tokenHash, session, readAt)
    return session
  })

/**
 * Whether session `id` is still live (the rules of findSession), read without touching it: an
 * open change stream asks this, and listening is not activity that keeps a session alive.
 */
export const isSessionLive = (id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<{ live: boolean }>`
      SELECT true AS live FROM sessions s JOIN admins a ON a.id = s.admin_id
      WHERE s.id = ${id}
        AND s.revoked_at IS NULL
        AND s.expires_at > now()
        AND s.last_seen_at > now() - make_interval(mins => ${SESSION_IDLE_MINUTES}::int)
        AND NOT a.disabled`
    return rows.length > 0
  })

/** Revokes the session and logs the sign-out, in one transaction. */
export const closeSession = (session: ActiveSession, ip: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    yield* sql`UPDATE sessions SET revoked_at = now() WHERE id = ${session.id} AND revoked_at IS NULL`
    yield* announceRevocation
    yield* recordActivity({
      actorId: session.user._id,
      actorEmail: session.user.email,
      action: "session.sign_out",
      entityId: session.id,
      ip
    })
  }).pipe(endingSessions)
