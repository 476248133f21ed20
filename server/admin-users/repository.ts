import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import { type AdminAccount, adminMessages } from "../../contract/admin-users.ts"
import { Conflict, NotFound, type Role, roleCovers } from "../../contract/common.ts"
import { dieOnSqlError } from "../platform/database.ts"
import { type Actor, type ChangeEvent, commandLine, createRecord, takenBy, updateRecord, type VersionedTable } from "../platform/record-writes.ts"
import { containsPattern } from "../platform/search.ts"
import { endingSessions } from "../sessions/cache.ts"
import { followAdmin, SESSION_IDLE_MINUTES } from "../sessions/repository.ts"

/**
 * Admin accounts: one module for `npm run admin` and for the admin-users screen
 * (docs/api.md, "Admin management"). Who acted: the request's signed-in super admin, or nobody
 * (`commandLine`) for the command line and start-up.
 */

export interface AdminRecord {
  readonly id: string
  readonly email: string
  readonly name: string | null
  readonly role: Role
  readonly disabled: boolean
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase()

export const findAdmin = (email: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<AdminRecord>`
      SELECT id, email, name, role, disabled FROM admins WHERE lower(email) = ${normalizeEmail(email)}`
    return rows[0]
  }).pipe(dieOnSqlError)

export interface AccountRow extends AdminRecord {
  readonly activeSessions: number
  readonly lastSeenAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly version: number
}

/** An account with its open sessions: `a` is the admins table. */
export const accountColumns = `a.id, a.email, a.name, a.role, a.disabled, a.created_at, a.updated_at, a.version,
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
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const where = searchOf(sql, query.search)
    const rows = yield* sql<AccountRow>`
      SELECT ${sql.unsafe(accountColumns)} FROM admins a WHERE ${where} ORDER BY lower(a.email), a.id LIMIT ${query.limit} OFFSET ${query.offset}`
    const total = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM admins a WHERE ${where}`
    return { accounts: rows.map(accountOf), total: total[0]?.n ?? 0 }
  }).pipe(dieOnSqlError)

/** Every account (the CLI's list and the CSV export: admins are few). */
export const listAdmins = Effect.map(listAccounts({ limit: 100_000, offset: 0 }), ({ accounts }) => accounts)

export const findAccount = (id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<AccountRow>`SELECT ${sql.unsafe(accountColumns)} FROM admins a WHERE a.id = ${id}`
    return rows[0] === undefined ? undefined : accountOf(rows[0])
  }).pipe(dieOnSqlError)

export const countAdmins = Effect.gen(function* () {
  const sql = yield* SqlClient
  const rows = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM admins`
  return rows[0]?.count ?? 0
}).pipe(dieOnSqlError)

export const adminTable: VersionedTable = {
  table: "admins",
  columns: "id, email, name, role, disabled, created_at, version",
  messages: { notFound: adminMessages.notFound, stale: adminMessages.stale }
}

type AdminRow = AdminRecord & { readonly version: number }

/**
 * Adds an admin (the first one at start-up, the command line's `add`, the admin-users screen),
 * on the one write path (server/platform/record-writes.ts), as `actor`: nobody from the command
 * line and start-up, the signed-in super admin from the screen.
 */
export const addAdmin = (email: string, role: Role, name: string | null = null, actor: Actor = commandLine) =>
  Effect.gen(function* () {
    const normalized = normalizeEmail(email)
    const { row } = yield* createRecord<AdminRow, Conflict>(adminTable, {
      values: { id: randomUUID(), email: normalized, name, role },
      unique: { index: "(lower(email))", taken: () => takenBy("email", adminMessages.exists(normalized)) },
      events: (made) => ({ action: "admin.create", entityId: made.id, toState: role, details: { email: normalized } }),
      actor
    })
    return { id: row.id, email: row.email, name: row.name, role: row.role, disabled: row.disabled } satisfies AdminRecord
  })

export interface AdminChange {
  readonly name?: string | null | undefined
  readonly role?: Role | undefined
  readonly disabled?: boolean | undefined
}

/** An admin change's events: each field that changed is its own. */
const changeEvents = (before: AdminRow, after: AdminRow): ReadonlyArray<ChangeEvent> => {
  const events: Array<ChangeEvent> = []
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
  return events
}

/** What follows a change: a disabled admin's sessions end everywhere, a demoted admin's drop to the new role at once. */
const followSessions = (after: AdminRow, before: AdminRow) =>
  followAdmin(before.id, { disabled: after.disabled && !before.disabled, lowerTo: roleCovers(after.role, before.role) ? undefined : after.role })

/**
 * Every enabled super admin, locked in one order before the account a change is made on: two
 * super admins demoting each other at once wait for each other, and the second sees the first's
 * change.
 */
const lockSuperAdmins = Effect.flatMap(
  SqlClient,
  (sql) => sql<{ id: string }>`SELECT id FROM admins WHERE role = 'super_admin' AND NOT disabled ORDER BY id FOR UPDATE`
).pipe(dieOnSqlError)

/**
 * Changes one account at `version` (`"current"`: the command line's, as it is now), on the one
 * write path: the last enabled super admin stays one, a change of nothing writes nothing, and
 * each field that changed is its own activity event.
 */
export const changeAdmin = (id: string, change: AdminChange, options: { readonly version: number | "current"; readonly actor?: Actor }) =>
  Effect.map(
    updateRecord<AdminRow, Conflict, SqlClient>(adminTable, {
      id,
      expectedVersion: options.version,
      lockFirst: lockSuperAdmins,
      refuse: (before) =>
        Effect.gen(function* () {
          const after = { role: change.role ?? before.role, disabled: change.disabled ?? before.disabled }
          if (before.role !== "super_admin" || before.disabled || (after.role === "super_admin" && !after.disabled)) return
          // The supers are locked: the count is the count when this change commits.
          const others = yield* lockSuperAdmins
          if (others.every((row) => row.id === before.id)) return yield* new Conflict({ error: adminMessages.lastSuperAdmin })
        }),
      changes: (before) => ({
        ...(change.name !== undefined && change.name !== before.name ? { name: change.name } : {}),
        ...(change.role !== undefined && change.role !== before.role ? { role: change.role } : {}),
        ...(change.disabled !== undefined && change.disabled !== before.disabled ? { disabled: change.disabled } : {})
      }),
      check: followSessions,
      events: changeEvents,
      ...(options.actor === undefined ? {} : { actor: options.actor })
    }).pipe(endingSessions, dieOnSqlError),
    ({ after, eventIds }) => ({ id: after.id, version: after.version, eventIds })
  )

/** The command line names an account by e-mail; an unknown one is refused in its words. */
const byEmail = (email: string, change: AdminChange) =>
  Effect.gen(function* () {
    const admin = yield* findAdmin(email)
    if (admin === undefined) return yield* new NotFound({ error: `${normalizeEmail(email)} is not an admin` })
    return yield* changeAdmin(admin.id, change, { version: "current", actor: commandLine })
  })

/** Disabling an admin also revokes every session they hold. */
export const setAdminDisabled = (email: string, disabled: boolean) => Effect.asVoid(byEmail(email, { disabled }))

/** Sets the display name readers see on an admin's posts (never their e-mail). */
export const setAdminName = (email: string, name: string) => Effect.asVoid(byEmail(email, { name }))

/** Grants another role; a lower one takes effect on open sessions at once. */
export const setAdminRole = (email: string, role: Role) => Effect.asVoid(byEmail(email, { role }))
