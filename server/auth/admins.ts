import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import type { Role } from "../../contract/common.ts"
import { recordActivity } from "../platform/activity-log.ts"
import { inTransaction } from "../platform/database.ts"
import { announceRevocation, endingSessions } from "./session-cache.ts"

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

export const normalizeEmail = (email: string): string => email.trim().toLowerCase()

export const findAdmin = (email: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* sql<AdminRecord>`
      SELECT id, email, name, role, disabled FROM admins WHERE lower(email) = ${normalizeEmail(email)}`
    return rows[0]
  })

export const listAdmins = Effect.gen(function*() {
  const sql = yield* SqlClient
  return yield* sql<AdminRecord>`SELECT id, email, name, role, disabled FROM admins ORDER BY lower(email)`
})

export const countAdmins = Effect.gen(function*() {
  const sql = yield* SqlClient
  const rows = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM admins`
  return rows[0]?.count ?? 0
})

export const addAdmin = (email: string, role: Role, name: string | null = null) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const normalized = normalizeEmail(email)
    const id = randomUUID()
    const inserted = yield* sql<{ id: string }>`
      INSERT INTO admins (id, email, name, role) VALUES (${id}, ${normalized}, ${name}, ${role})
      ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`
    if (inserted.length === 0) return yield* new AdminExists({ message: `${normalized} is already an admin` })
    yield* recordActivity({
      actorId: null,
      actorEmail: null,
      action: "admin.create",
      entity: "admin",
      entityId: id,
      toState: role,
      ip: null
    })
    return { id, email: normalized, name, role, disabled: false } satisfies AdminRecord
  }).pipe(inTransaction)

/**
 * Changes the admin with `email` (the columns in `change`, one version up) and logs it as
 * `action`; an unknown e-mail is AdminNotFound. Returns the admin's id.
 */
const changeAdmin = (
  email: string,
  change: Record<string, unknown>,
  activity: { readonly action: string; readonly fromState?: string; readonly toState: string }
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const normalized = normalizeEmail(email)
    const rows = yield* sql<{ id: string }>`
      UPDATE admins SET ${sql.update(change)}, updated_at = now(), version = version + 1
      WHERE lower(email) = ${normalized} RETURNING id`
    const admin = rows[0]
    if (admin === undefined) return yield* new AdminNotFound({ message: `${normalized} is not an admin` })
    yield* recordActivity({ actorId: null, actorEmail: null, entity: "admin", entityId: admin.id, ip: null, ...activity })
    return admin.id
  })

/** Disabling an admin also revokes every session they hold. */
export const setAdminDisabled = (email: string, disabled: boolean) =>
  Effect.gen(function*() {
    const id = yield* changeAdmin(email, { disabled }, {
      action: disabled ? "admin.disable" : "admin.enable",
      fromState: disabled ? "enabled" : "disabled",
      toState: disabled ? "disabled" : "enabled"
    })
    if (disabled) {
      const sql = yield* SqlClient
      yield* sql`UPDATE sessions SET revoked_at = now() WHERE admin_id = ${id} AND revoked_at IS NULL`
      yield* announceRevocation
    }
  }).pipe(endingSessions)

/** Sets the display name readers see on an admin's posts (never their e-mail). */
export const setAdminName = (email: string, name: string) =>
  changeAdmin(email, { name }, { action: "admin.rename", toState: name }).pipe(Effect.asVoid, inTransaction)
