import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import type { AdminUser } from "../../contract/auth.ts"
import { type Role, roleCovers } from "../../contract/common.ts"
import type { AdminSession } from "../../contract/sessions.ts"
import { recordActivity, recordAdminActivity } from "../platform/activity-log.ts"
import { dieOnSqlError, inTransaction } from "../platform/database.ts"
import { hashToken, newSessionToken } from "../platform/secrets.ts"
import { type ActiveSession, cacheGeneration, endingSessions, recallSession, rememberSession, REVOKED_CHANNEL } from "./cache.ts"

/**
 * The sessions staff hold (docs/security.md, "Sessions"): opened by a sign-in, found by every
 * request's token, listed and ended on the sessions screen, ended or lowered when their admin
 * is disabled or demoted. Whatever ends sessions tells every process (cache.ts).
 */

export type { ActiveSession }
/** For writes elsewhere that end sessions (a passkey reset): every process forgets what it remembers of them. */
export { endingSessions }

/** The lifetimes of docs/decisions.md ("Sign-in and roles"). */
export const SESSION_ABSOLUTE_HOURS = 12
export const SESSION_IDLE_MINUTES = 120
/** A session's last-seen time is written at most this often, so checks stay reads. */
export const SESSION_TOUCH_SECONDS = 60

/** Inside the transaction that ends sessions: tells every other process, at commit (NOTIFY is transactional). */
const announceRevocation = Effect.flatMap(SqlClient, (sql) => sql`SELECT pg_notify(${REVOKED_CHANNEL}, '')`)

/** An admin account as a session needs it (server/admin-users/repository.ts reads it). */
interface Account {
  readonly id: string
  readonly email: string
  readonly name: string | null
  readonly role: Role
}

const toAdminUser = (admin: Account, role: Role): AdminUser => ({
  _id: admin.id,
  email: admin.email,
  name: admin.name,
  role,
  grantedRole: admin.role
})

/**
 * How a session was opened (the sign-in's log says it): a code alone, a passkey alone, a code
 * with a passkey, a code with a recovery code (docs/security.md, "Passkeys").
 */
export type SignInMethod = "code" | "passkey" | "code+passkey" | "code+recovery"

/**
 * Opens a session and logs the sign-in, in one transaction. The account is read again with its
 * row held: a demotion or a disabling that lands meanwhile waits for this session and then
 * lowers or ends it, one that landed before gives it the role held now, or none.
 */
export const openSession = (admin: Account, role: Role, ip: string, userAgent: string | null = null, method: SignInMethod = "code") =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const held = yield* sql<{ role: Role; disabled: boolean }>`SELECT role, disabled FROM admins WHERE id = ${admin.id} FOR SHARE`
    const account = held[0]
    if (account === undefined || account.disabled) return undefined
    const granted = roleCovers(account.role, role) ? role : account.role
    const token = newSessionToken()
    const id = randomUUID()
    const passkeyUsed = method === "passkey" || method === "code+passkey"
    // A code confirms it's you only for an account with no passkey; a code with a recovery code
    // does, for the person who lost theirs to add one (docs/security.md, "Confirm what matters").
    const confirmed =
      method === "code+recovery" ? sql`now()` : sql`CASE WHEN EXISTS (SELECT 1 FROM passkeys WHERE admin_id = ${admin.id}) THEN NULL ELSE now() END`
    const rows = yield* sql<{ expiresAt: Date }>`
      INSERT INTO sessions (id, token_hash, admin_id, role, ip, user_agent, expires_at, last_passkey_at, confirmed_at, sign_in_method)
      VALUES (${id}, ${hashToken(token)}, ${admin.id}, ${granted}, ${ip}, ${userAgent?.slice(0, 400) ?? null},
              now() + make_interval(hours => ${SESSION_ABSOLUTE_HOURS}::int), ${passkeyUsed ? sql`now()` : sql`NULL`},
              ${confirmed}, ${method})
      RETURNING expires_at`
    yield* recordActivity({
      actorId: admin.id,
      actorEmail: admin.email,
      action: "session.sign_in",
      entityId: id,
      toState: granted,
      ip,
      details: { method }
    })
    const user = toAdminUser({ ...admin, role: account.role }, granted)
    return { token, id, user, expiresAt: (rows[0]?.expiresAt ?? new Date()).toISOString() }
  }).pipe(inTransaction, dieOnSqlError)

/**
 * The live session a token belongs to, or undefined: unknown, revoked, past 12 h, idle for
 * 2 h, or its admin disabled. A live session's last-seen time moves forward. Requests find
 * theirs through server/auth/caller.ts, which checks the allowed-address list first.
 */
export const liveSession = (token: string) =>
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
  }).pipe(dieOnSqlError)

/**
 * The role session `id` acts with now, or undefined once it is over (the rules of findSession),
 * read without touching it: an open change stream asks this (a demotion lowers it, an ending ends
 * it), and listening is not activity that keeps a session alive.
 */
export const liveSessionRole = (id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<{ role: Role }>`
      SELECT s.role FROM sessions s JOIN admins a ON a.id = s.admin_id
      WHERE s.id = ${id}
        AND s.revoked_at IS NULL
        AND s.expires_at > now()
        AND s.last_seen_at > now() - make_interval(mins => ${SESSION_IDLE_MINUTES}::int)
        AND NOT a.disabled`
    return rows[0]?.role
  }).pipe(dieOnSqlError)

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
  }).pipe(endingSessions, dieOnSqlError)

/**
 * Ends the open session whose token hashes to `tokenHash` (`POST /api/admin/auth/revoke`: a
 * sign-out sent later, docs/api.md "Sign-out"), logged as its admin's sign-out from `ip`, in one
 * transaction; says nothing of whether one matched, so its caller answers alike.
 */
export const revokeByTokenHash = (tokenHash: string, ip: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const ended = yield* sql<{ id: string; adminId: string; email: string }>`
      UPDATE sessions s SET revoked_at = now() FROM admins a
      WHERE s.token_hash = ${tokenHash} AND s.revoked_at IS NULL AND a.id = s.admin_id
      RETURNING s.id, s.admin_id, a.email`
    if (ended.length > 0) yield* announceRevocation
    for (const row of ended)
      yield* recordActivity({ actorId: row.adminId, actorEmail: row.email, action: "session.sign_out", entityId: row.id, ip, details: { by: "token hash" } })
  }).pipe(endingSessions, dieOnSqlError, Effect.asVoid)

interface SessionRow {
  readonly id: string
  readonly adminId: string
  readonly email: string
  readonly name: string | null
  readonly role: AdminSession["role"]
  readonly ip: string | null
  readonly userAgent: string | null
  readonly createdAt: Date
  readonly lastSeenAt: Date
  readonly expiresAt: Date
  readonly lastPasskeyAt: Date | null
}

/** The live sessions of one admin, or of every admin, most recently seen first. */
export const liveSessions = (adminId: string | undefined) =>
  Effect.flatMap(
    SqlClient,
    (sql) =>
      sql<SessionRow>`
      SELECT s.id, s.admin_id, a.email, a.name, s.role, s.ip, s.user_agent, s.created_at, s.last_seen_at, s.expires_at, s.last_passkey_at
      FROM sessions s JOIN admins a ON a.id = s.admin_id
      WHERE s.revoked_at IS NULL AND s.expires_at > now()
        AND s.last_seen_at > now() - make_interval(mins => ${SESSION_IDLE_MINUTES}::int) AND NOT a.disabled
        AND ${adminId === undefined ? sql`true` : sql`s.admin_id = ${adminId}`}
      ORDER BY s.last_seen_at DESC, s.id LIMIT 1000`
  ).pipe(dieOnSqlError)

export const sessionOf =
  (current: string) =>
  (row: SessionRow): AdminSession => ({
    _id: row.id,
    adminId: row.adminId,
    email: row.email,
    name: row.name,
    role: row.role,
    ip: row.ip,
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    lastPasskeyAt: row.lastPasskeyAt?.toISOString() ?? null,
    current: row.id === current
  })

/** Ends the sessions named that are still open, tells every process, and logs each. */
export const endSessions = (ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (ids.length === 0) return 0
    const sql = yield* SqlClient
    const ended = yield* sql<{ id: string; adminId: string }>`
      UPDATE sessions SET revoked_at = now() WHERE id IN ${sql.in(ids)} AND revoked_at IS NULL RETURNING id, admin_id`
    if (ended.length > 0) yield* announceRevocation
    for (const row of ended) yield* recordAdminActivity({ action: "session.end", entityId: row.id, details: { adminId: row.adminId } })
    return ended.length
  }).pipe(endingSessions, dieOnSqlError)

/** Who holds an open session (undefined when it is over or never was). */
export const openSessionOwner = (id: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(sql<{ adminId: string }>`SELECT admin_id FROM sessions WHERE id = ${id} AND revoked_at IS NULL`, (rows) => rows[0])
  ).pipe(dieOnSqlError)

/** An admin's open sessions but `current`. */
export const otherOpenSessions = (adminId: string, current: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(sql<{ id: string }>`SELECT id FROM sessions WHERE admin_id = ${adminId} AND id <> ${current} AND revoked_at IS NULL`, (rows) =>
      rows.map((row) => row.id)
    )
  ).pipe(dieOnSqlError)

const ranks: Record<Role, number> = { moderator: 1, admin: 2, super_admin: 3 }

/**
 * What an admin's sessions become when the admin changes, inside that change's transaction
 * (server/admin-users/repository.ts): all end when the admin is disabled, those above a lowered
 * role drop to it at once; every process forgets what it remembers of them.
 */
export const followAdmin = (adminId: string, change: { readonly disabled: boolean; readonly lowerTo: Role | undefined }) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    if (change.disabled) yield* sql`UPDATE sessions SET revoked_at = now() WHERE admin_id = ${adminId} AND revoked_at IS NULL`
    else if (change.lowerTo !== undefined) {
      yield* sql`UPDATE sessions SET role = ${change.lowerTo}
        WHERE admin_id = ${adminId} AND revoked_at IS NULL AND CASE role WHEN 'super_admin' THEN 3 WHEN 'admin' THEN 2 ELSE 1 END > ${ranks[change.lowerTo]}`
    }
    // Every server process forgets the sessions it remembers (docs/architecture.md, "Database").
    if (change.disabled || change.lowerTo !== undefined) yield* announceRevocation
  }).pipe(dieOnSqlError)

/**
 * A role now requires a passkey (docs/security.md, "Required by role"): inside the rule's
 * transaction, the live sessions of that role's accounts signed in by a code alone and never
 * confirmed with a passkey end, unless the account has none and is within its grace (a right code
 * would let it in again). Every process forgets them (run it under `endingSessions`); each is logged.
 */
export const endCodeOnlySessions = (role: Role, graceUntil: Date | null) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const ended = yield* sql<{ id: string; adminId: string }>`
      UPDATE sessions s SET revoked_at = now()
      FROM admins a
      WHERE a.id = s.admin_id AND a.role = ${role} AND s.revoked_at IS NULL AND s.expires_at > now()
        AND s.sign_in_method = 'code' AND s.last_passkey_at IS NULL
        AND (EXISTS (SELECT 1 FROM passkeys p WHERE p.admin_id = a.id)
             OR coalesce(greatest(${graceUntil}::timestamptz, a.passkey_grace_until) <= now(), true))
      RETURNING s.id, s.admin_id`
    if (ended.length > 0) yield* announceRevocation
    for (const row of ended)
      yield* recordAdminActivity({ action: "session.end", entityId: row.id, details: { adminId: row.adminId, reason: "passkey required" } })
    return ended.length
  }).pipe(dieOnSqlError)
