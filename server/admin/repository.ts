import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { type AdminSession } from "../../contract/sessions.ts"
import { announceRevocation, endingSessions } from "../auth/session-cache.ts"
import { SESSION_IDLE_MINUTES } from "../auth/policy.ts"
import { recordAdminActivity } from "../platform/activity-log.ts"
import { type ProtectedRecord, protectedMessages } from "../../contract/protected-data.ts"
import { type VersionedTable } from "../platform/record-writes.ts"
import { type SiteSettings, type SiteSettingsFields, settingsMessages } from "../../contract/site-settings.ts"

/**
 * The admin area in the database (docs/api.md, "Admin management"): sessions, protected data
 * and the site's settings as the groups' handlers (server/admin/*.ts) read and end them.
 */

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
}

export const liveSessions = (adminId: string | undefined) =>
  Effect.flatMap(
    SqlClient,
    (sql) =>
      sql<SessionRow>`
      SELECT s.id, s.admin_id, a.email, a.name, s.role, s.ip, s.user_agent, s.created_at, s.last_seen_at, s.expires_at
      FROM sessions s JOIN admins a ON a.id = s.admin_id
      WHERE s.revoked_at IS NULL AND s.expires_at > now()
        AND s.last_seen_at > now() - make_interval(mins => ${SESSION_IDLE_MINUTES}::int) AND NOT a.disabled
        AND ${adminId === undefined ? sql`true` : sql`s.admin_id = ${adminId}`}
      ORDER BY s.last_seen_at DESC, s.id LIMIT 1000`
  )

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
  }).pipe(endingSessions)

/** Who holds an open session (undefined when it is over or never was). */
export const openSessionOwner = (id: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(sql<{ adminId: string }>`SELECT admin_id FROM sessions WHERE id = ${id} AND revoked_at IS NULL`, (rows) => rows[0])
  )

/** An admin's open sessions but `current`. */
export const otherOpenSessions = (adminId: string, current: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(sql<{ id: string }>`SELECT id FROM sessions WHERE admin_id = ${adminId} AND id <> ${current} AND revoked_at IS NULL`, (rows) =>
      rows.map((row) => row.id)
    )
  )

export interface ProtectedRow {
  readonly id: string
  readonly type: string
  readonly key: string
  readonly value: string
  readonly description: string
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly version: number
}

const protectedColumns = "id, type, key, value, description, created_at, updated_at, version"

export const protectedOf = (row: ProtectedRow): ProtectedRecord => ({
  _id: row.id,
  type: row.type,
  key: row.key,
  value: row.value,
  description: row.description,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  version: row.version
})

/** Protected data on the one write path (server/platform/record-writes.ts). */
export const protectedTable: VersionedTable = {
  table: "protected_data",
  columns: protectedColumns,
  messages: { notFound: protectedMessages.notFound, stale: protectedMessages.stale },
  // A protected value never enters the history: only that it changed.
  history: { hidden: ["value"] }
}

/** The protected records of a type, or of every type, by type and key. */
export const listProtected = (type: string | undefined) =>
  Effect.flatMap(
    SqlClient,
    (sql) => sql<ProtectedRow>`
      SELECT ${sql.unsafe(protectedColumns)} FROM protected_data
      WHERE ${type === undefined ? sql`true` : sql`type = ${type}`} ORDER BY type, key LIMIT 1000`
  )

/** What the settings are before anyone saved them. */
export const defaultSettings: SiteSettingsFields = {
  siteName: "Pi Network Directory",
  tagline: "",
  contactEmail: "",
  announcement: "",
  maintenanceMode: false,
  social: {}
}

/** The one row of `site_settings` (id 1), as the write path reads it. */
export interface SettingsRow {
  readonly id: string
  readonly document: SiteSettingsFields | string
  readonly version: number
}

export const SETTINGS_ID = "1"

export const documentOf = (row: Pick<SettingsRow, "document">): SiteSettingsFields =>
  typeof row.document === "string" ? (JSON.parse(row.document) as SiteSettingsFields) : row.document

/** The settings on the one write path (server/platform/record-writes.ts): a change made on an old copy, or on none, is stale. */
export const settingsTable: VersionedTable = {
  table: "site_settings",
  columns: "id::text AS id, document, updated_at, version",
  messages: { notFound: settingsMessages.stale, stale: settingsMessages.stale },
  history: { json: ["document"] }
}

export const readSettings = Effect.gen(function* () {
  const sql = yield* SqlClient
  const rows = yield* sql<{ document: SiteSettingsFields | string; updatedAt: Date; version: number }>`
    SELECT document, updated_at, version FROM site_settings WHERE id = 1`
  const row = rows[0]
  if (row === undefined) return { ...defaultSettings, updatedAt: null, version: 0 } satisfies SiteSettings
  return { ...defaultSettings, ...documentOf(row), updatedAt: row.updatedAt.toISOString(), version: row.version } satisfies SiteSettings
})
