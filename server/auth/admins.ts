import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import { type AdminAccount, adminMessages } from "../../contract/admin.ts"
import { type Role, roleCovers } from "../../contract/common.ts"
import { type ActivityEvent, recordActivities } from "../platform/activity-log.ts"
import { inTransaction } from "../platform/database.ts"
import { containsPattern } from "../platform/search.ts"
import { announceRevocation, endingSessions } from "./session-cache.ts"
import { SESSION_IDLE_MINUTES } from "./policy.ts"

/**
 * Admin accounts: one module for `npm run admin` and for the admin-users screen
 * (docs/api.md, "Admin management"). Who acted comes from the caller: the signed-in super admin,
 * or nobody for the command line.
 */

export interface AdminRecord {
  readonly id: string
  readonly email: string
  readonly name: string | null
  readonly role: Role
  readonly disabled: boolean
}

export class AdminNotFound extends Schema.TaggedError<AdminNotFound>()("AdminNotFound", {
  message: Schema.String
}) {}

export class AdminExists extends Schema.TaggedError<AdminExists>()("AdminExists", {
  message: Schema.String
}) {}

/** A change refused: made on an old copy, or leaving no enabled super admin. */
export class AdminRefused extends Schema.TaggedError<AdminRefused>()("AdminRefused", {
  message: Schema.String
}) {}

/** Who made a change: the signed-in admin of a request, or `null` for the command line. */
export type Actor = { readonly id: string; readonly email: string; readonly ip: string } | null

export const normalizeEmail = (email: string): string => email.trim().toLowerCase()

export const findAdmin = (email: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* sql<AdminRecord>`
      SELECT id, email, name, role, disabled FROM admins WHERE lower(email) = ${normalizeEmail(email)}`
    return rows[0]
  })

interface AccountRow extends AdminRecord {
  readonly activeSessions: number
  readonly lastSeenAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly version: number
}

/** An account with its open sessions: `a` is the admins table. */
const accountColumns = `a.id, a.email, a.name, a.role, a.disabled, a.created_at, a.updated_at, a.version,
  (SELECT count(*)::int FROM sessions s WHERE s.admin_id = a.id AND s.revoked_at IS NULL AND s.expires_at > now()
     AND s.last_seen_at > now() - make_interval(mins => ${SESSION_IDLE_MINUTES})) AS active_sessions,
  (SELECT max(s.last_seen_at) FROM sessions s WHERE s.admin_id = a.id) AS last_seen_at`

export const accountOf = (row: AccountRow): AdminAccount => ({
  _id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  disabled: row.disabled,
  activeSessions: row.activeSessions,
  lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  version: row.version
})

const searchOf = (sql: SqlClient, search: string | undefined) => {
  if ((search?.trim() ?? "") === "") return sql`true`
  const pattern = containsPattern(search!)
  return sql`(lower(a.email) LIKE ${pattern} OR lower(coalesce(a.name, '')) LIKE ${pattern})`
}

/** A page of accounts by e-mail, and how many match. */
export const listAccounts = (query: { readonly search?: string | undefined; readonly limit: number; readonly offset: number }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const where = searchOf(sql, query.search)
    const rows = yield* sql<AccountRow>`
      SELECT ${sql.unsafe(accountColumns)} FROM admins a WHERE ${where} ORDER BY lower(a.email), a.id LIMIT ${query.limit} OFFSET ${query.offset}`
    const total = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM admins a WHERE ${where}`
    return { accounts: rows.map(accountOf), total: total[0]?.n ?? 0 }
  })

/** Every account (the CLI's list and the CSV export: admins are few). */
export const listAdmins = Effect.map(listAccounts({ limit: 100_000, offset: 0 }), ({ accounts }) => accounts)

export const findAccount = (id: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* sql<AccountRow>`SELECT ${sql.unsafe(accountColumns)} FROM admins a WHERE a.id = ${id}`
    return rows[0] === undefined ? undefined : accountOf(rows[0])
  })

export const countAdmins = Effect.gen(function*() {
  const sql = yield* SqlClient
  const rows = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM admins`
  return rows[0]?.count ?? 0
})

const logAll = (actor: Actor, events: ReadonlyArray<Omit<ActivityEvent, "actorId" | "actorEmail" | "ip">>) =>
  recordActivities(events.map((event) => ({ ...event, actorId: actor?.id ?? null, actorEmail: actor?.email ?? null, ip: actor?.ip ?? null })))

export const addAdmin = (email: string, role: Role, name: string | null = null, actor: Actor = null) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const normalized = normalizeEmail(email)
    const id = randomUUID()
    const inserted = yield* sql<{ id: string }>`
      INSERT INTO admins (id, email, name, role) VALUES (${id}, ${normalized}, ${name}, ${role})
      ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`
    if (inserted.length === 0) return yield* new AdminExists({ message: adminMessages.exists(normalized) })
    yield* logAll(actor, [{ action: "admin.create", entityId: id, toState: role, details: { email: normalized } }])
    return { id, email: normalized, name, role, disabled: false } satisfies AdminRecord
  }).pipe(inTransaction)

export interface AdminChange {
  readonly name?: string | null | undefined
  readonly role?: Role | undefined
  readonly disabled?: boolean | undefined
}

const ranks: Record<Role, number> = { moderator: 1, admin: 2, super_admin: 3 }

/**
 * Changes one account (by id or e-mail), at `version` when given, in one transaction: a disabled
 * admin's sessions end everywhere, a demoted admin's open sessions drop to the new role at once,
 * and the last enabled super admin stays one. Each change is its own activity event.
 */
export const changeAdmin = (target: { readonly id: string } | { readonly email: string }, change: AdminChange, options: {
  readonly version?: number | undefined
  readonly actor: Actor
}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    // Every enabled super admin is locked first, in one order: two super admins demoting each
    // other at once wait for each other, and the second sees the first's change.
    const supers = yield* sql<{ id: string }>`
      SELECT id FROM admins WHERE role = 'super_admin' AND NOT disabled ORDER BY id FOR UPDATE`
    const where = "id" in target ? sql`id = ${target.id}` : sql`lower(email) = ${normalizeEmail(target.email)}`
    const rows = yield* sql<AdminRecord & { readonly version: number }>`
      SELECT id, email, name, role, disabled, version FROM admins WHERE ${where} FOR UPDATE`
    const before = rows[0]
    if (before === undefined) {
      return yield* new AdminNotFound({ message: "id" in target ? adminMessages.notFound : `${normalizeEmail(target.email)} is not an admin` })
    }
    if (options.version !== undefined && options.version !== before.version) return yield* new AdminRefused({ message: adminMessages.stale })
    const after = {
      name: change.name === undefined ? before.name : change.name,
      role: change.role ?? before.role,
      disabled: change.disabled ?? before.disabled
    }
    const stopsBeingSuper = before.role === "super_admin" && !before.disabled && (after.role !== "super_admin" || after.disabled)
    if (stopsBeingSuper && supers.every((row) => row.id === before.id)) return yield* new AdminRefused({ message: adminMessages.lastSuperAdmin })
    const events: Array<Omit<ActivityEvent, "actorId" | "actorEmail" | "ip">> = []
    if (after.name !== before.name) events.push({ action: "admin.rename", entityId: before.id, fromState: before.name, toState: after.name })
    if (after.role !== before.role) events.push({ action: "admin.role", entityId: before.id, fromState: before.role, toState: after.role })
    if (after.disabled !== before.disabled) {
      events.push({
        action: after.disabled ? "admin.disable" : "admin.enable",
        entityId: before.id,
        fromState: before.disabled ? "disabled" : "enabled",
        toState: after.disabled ? "disabled" : "enabled"
      })
    }
    if (events.length === 0) return before.id
    yield* sql`UPDATE admins SET ${sql.update(after)}, updated_at = now(), version = version + 1 WHERE id = ${before.id}`
    const endsSessions = after.disabled && !before.disabled
    const lowers = !roleCovers(after.role, before.role)
    if (endsSessions) yield* sql`UPDATE sessions SET revoked_at = now() WHERE admin_id = ${before.id} AND revoked_at IS NULL`
    else if (lowers) {
      yield* sql`UPDATE sessions SET role = ${after.role}
        WHERE admin_id = ${before.id} AND revoked_at IS NULL AND CASE role WHEN 'super_admin' THEN 3 WHEN 'admin' THEN 2 ELSE 1 END > ${ranks[after.role]}`
    }
    // Every server process forgets the sessions it remembers (docs/architecture.md, "Sessions").
    if (endsSessions || lowers) yield* announceRevocation
    yield* logAll(options.actor, events)
    return before.id
  }).pipe(endingSessions)

/** Disabling an admin also revokes every session they hold. */
export const setAdminDisabled = (email: string, disabled: boolean) => Effect.asVoid(changeAdmin({ email }, { disabled }, { actor: null }))

/** Sets the display name readers see on an admin's posts (never their e-mail). */
export const setAdminName = (email: string, name: string) => Effect.asVoid(changeAdmin({ email }, { name }, { actor: null }))

/** Grants another role; a lower one takes effect on open sessions at once. */
export const setAdminRole = (email: string, role: Role) => Effect.asVoid(changeAdmin({ email }, { role }, { actor: null }))
