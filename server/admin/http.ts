import { Effect, Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import {
  type AdminSession,
  adminMessages,
  type ProtectedRecord,
  protectedMessages,
  sessionMessages,
  type SiteSettings,
  type SiteSettingsFields,
  settingsMessages
} from "../../contract/admin.ts"
import { AdminApi } from "../../contract/api.ts"
import { CurrentSession, type Session } from "../../contract/auth.ts"
import { BadRequest, Conflict, NotFound } from "../../contract/common.ts"
import { type Actor, addAdmin, type AdminExists, type AdminNotFound, type AdminRefused, changeAdmin, findAccount, listAccounts } from "../auth/admins.ts"
import { allowIp, listAllowedIps, removeAllowedIp } from "../auth/allowed-ips.ts"
import { requireSuperAdmin } from "../auth/roles.ts"
import { announceRevocation, endingSessions } from "../auth/session-cache.ts"
import { SESSION_IDLE_MINUTES } from "../auth/policy.ts"
import { recordAdminActivity } from "../platform/activity-log.ts"
import { inTransaction } from "../platform/database.ts"
import { csvResponse, pageWindow, paginate, wantsCsv } from "../platform/lists.ts"

/**
 * Admin management (docs/api.md, "Admin management"): admin users, allowed addresses, sessions,
 * protected data and the site's settings.
 */

const superAdmin = requireSuperAdmin(adminMessages.superOnly)

const actorOf = (session: Session): Actor => ({ id: session.user._id, email: session.user.email, ip: session.ip })

// ---------------------------------------------------------------------------
// Admin users
// ---------------------------------------------------------------------------

const accountFields = ["_id", "email", "name", "role", "disabled", "activeSessions", "lastSeenAt", "createdAt", "version"] as const

const oneAccount = (id: string) =>
  Effect.flatMap(findAccount(id), (user) =>
    user === undefined ? Effect.fail(new NotFound({ error: adminMessages.notFound })) : Effect.succeed({ success: true as const, data: { user } }))

/** The shared module's refusals as the API's answers. */
const notFound = (error: AdminNotFound) => Effect.fail(new NotFound({ error: error.message }))
const conflict = (error: AdminExists | AdminRefused) => Effect.fail(new Conflict({ error: error.message }))

export const AdminUserHandlers = HttpApiBuilder.group(AdminApi, "adminUsers", (handlers) =>
  handlers
    .handle("list", ({ query }) =>
      Effect.gen(function*() {
        yield* superAdmin
        if (yield* wantsCsv(query.format)) {
          // Every admin the search matches: admins are few, one read holds them all.
          const { accounts } = yield* listAccounts({ search: query.search, limit: 100_000, offset: 0 })
          return yield* csvResponse({ name: "admins", fields: accountFields, record: (row: typeof accounts[number]) => row, rows: Stream.make(accounts) })
        }
        const { page, limit, offset } = pageWindow(query)
        const { accounts, total } = yield* listAccounts({ search: query.search, limit, offset })
        return HttpServerResponse.jsonUnsafe({ success: true as const, data: { users: accounts, pagination: paginate(page, limit, total) } })
      }).pipe(Effect.catchTag("SqlError", Effect.die)))
    .handle("create", ({ payload }) =>
      Effect.gen(function*() {
        const session = yield* superAdmin
        const made = yield* addAdmin(payload.email, payload.role, payload.name?.trim() ?? null, actorOf(session)).pipe(Effect.catchTag("AdminExists", conflict))
        return yield* Effect.orDie(oneAccount(made.id))
      }).pipe(Effect.catchTag("SqlError", Effect.die)))
    .handle("update", ({ params, payload }) =>
      Effect.gen(function*() {
        const session = yield* superAdmin
        if (payload.disabled === true && params.id === session.user._id) return yield* new Conflict({ error: adminMessages.self })
        yield* changeAdmin({ id: params.id }, { name: payload.name === undefined ? undefined : payload.name?.trim() ?? null, role: payload.role, disabled: payload.disabled }, {
          version: payload.version,
          actor: actorOf(session)
        }).pipe(Effect.catchTags({ AdminNotFound: notFound, AdminRefused: conflict }))
        return yield* oneAccount(params.id)
      }).pipe(Effect.catchTag("SqlError", Effect.die)))
    .handle("remove", ({ params, query }) =>
      Effect.gen(function*() {
        const session = yield* superAdmin
        if (params.id === session.user._id) return yield* new Conflict({ error: adminMessages.self })
        yield* changeAdmin({ id: params.id }, { disabled: true }, { version: query.version, actor: actorOf(session) }).pipe(
          Effect.catchTags({ AdminNotFound: notFound, AdminRefused: conflict })
        )
        return yield* oneAccount(params.id)
      }).pipe(Effect.catchTag("SqlError", Effect.die)))
)

// ---------------------------------------------------------------------------
// Allowed addresses
// ---------------------------------------------------------------------------

export const AllowedIpHandlers = HttpApiBuilder.group(AdminApi, "allowedIps", (handlers) =>
  handlers
    .handle("list", () =>
      Effect.gen(function*() {
        const session = yield* superAdmin
        return { success: true as const, data: { ips: yield* listAllowedIps, yourIp: session.ip } }
      }).pipe(Effect.catchTag("SqlError", Effect.die)))
    .handle("create", ({ payload }) =>
      Effect.gen(function*() {
        const session = yield* superAdmin
        const ip = yield* allowIp(payload.ip, payload.description ?? "", actorOf(session)).pipe(
          Effect.catchTags({
            IpInvalid: (error) => Effect.fail(new BadRequest({ error: `ip ${error.message}`, issues: [{ path: "ip", message: error.message }] })),
            IpRefused: (error) => Effect.fail(new Conflict({ error: error.message }))
          })
        )
        return { success: true as const, data: { ip } }
      }).pipe(Effect.catchTag("SqlError", Effect.die)))
    .handle("remove", ({ params }) =>
      Effect.gen(function*() {
        const session = yield* superAdmin
        yield* removeAllowedIp(params.id, actorOf(session)).pipe(
          Effect.catchTags({
            IpRefused: (error) => Effect.fail(new Conflict({ error: error.message })),
            IpNotFound: (error) => Effect.fail(new NotFound({ error: error.message }))
          })
        )
        return { success: true as const }
      }).pipe(Effect.catchTag("SqlError", Effect.die)))
)

// ---------------------------------------------------------------------------
// Sessions
// ---------------------------------------------------------------------------

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

const liveSessions = (adminId: string | undefined) =>
  Effect.flatMap(SqlClient, (sql) =>
    sql<SessionRow>`
      SELECT s.id, s.admin_id, a.email, a.name, s.role, s.ip, s.user_agent, s.created_at, s.last_seen_at, s.expires_at
      FROM sessions s JOIN admins a ON a.id = s.admin_id
      WHERE s.revoked_at IS NULL AND s.expires_at > now()
        AND s.last_seen_at > now() - make_interval(mins => ${SESSION_IDLE_MINUTES}::int) AND NOT a.disabled
        AND ${adminId === undefined ? sql`true` : sql`s.admin_id = ${adminId}`}
      ORDER BY s.last_seen_at DESC, s.id LIMIT 1000`)

const sessionOf = (current: string) => (row: SessionRow): AdminSession => ({
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
const endSessions = (ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    if (ids.length === 0) return 0
    const sql = yield* SqlClient
    const ended = yield* sql<{ id: string; adminId: string }>`
      UPDATE sessions SET revoked_at = now() WHERE id IN ${sql.in(ids)} AND revoked_at IS NULL RETURNING id, admin_id`
    if (ended.length > 0) yield* announceRevocation
    for (const row of ended) yield* recordAdminActivity({ action: "session.end", entityId: row.id, details: { adminId: row.adminId } })
    return ended.length
  }).pipe(endingSessions)

export const SessionHandlers = HttpApiBuilder.group(AdminApi, "sessions", (handlers) =>
  handlers
    .handle("list", ({ query }) =>
      Effect.gen(function*() {
        const session = yield* CurrentSession
        if (query.scope === "all") yield* requireSuperAdmin(sessionMessages.notYours)
        const rows = yield* liveSessions(query.scope === "all" ? undefined : session.user._id)
        return { success: true as const, data: { sessions: rows.map(sessionOf(session.id)) } }
      }).pipe(Effect.catchTag("SqlError", Effect.die)))
    .handle("end", ({ params }) =>
      Effect.gen(function*() {
        const session = yield* CurrentSession
        const sql = yield* SqlClient
        const rows = yield* sql<{ adminId: string }>`SELECT admin_id FROM sessions WHERE id = ${params.id} AND revoked_at IS NULL`
        const target = rows[0]
        if (target === undefined) return yield* new NotFound({ error: sessionMessages.notFound })
        if (target.adminId !== session.user._id) yield* requireSuperAdmin(sessionMessages.notYours)
        if ((yield* endSessions([params.id])) === 0) return yield* new NotFound({ error: sessionMessages.notFound })
        return { success: true as const }
      }).pipe(Effect.catchTag("SqlError", Effect.die)))
    .handle("endOthers", () =>
      Effect.gen(function*() {
        const session = yield* CurrentSession
        const sql = yield* SqlClient
        const others = yield* sql<{ id: string }>`
          SELECT id FROM sessions WHERE admin_id = ${session.user._id} AND id <> ${session.id} AND revoked_at IS NULL`
        return { success: true as const, data: { ended: yield* endSessions(others.map((row) => row.id)) } }
      }).pipe(Effect.catchTag("SqlError", Effect.die)))
)

// ---------------------------------------------------------------------------
// Protected data
// ---------------------------------------------------------------------------

interface ProtectedRow {
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

const protectedOf = (row: ProtectedRow): ProtectedRecord => ({
  _id: row.id,
  type: row.type,
  key: row.key,
  value: row.value,
  description: row.description,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  version: row.version
})

/** Which record changed, never what it holds: the value stays out of every log. */
const logProtected = (action: "protected-data.create" | "protected-data.update" | "protected-data.delete", row: ProtectedRow, valueChanged: boolean) =>
  recordAdminActivity({ action, entityId: row.id, details: { type: row.type, key: row.key, valueChanged } })

const missedProtected = (id: string) =>
  Effect.flatMap(SqlClient, (sql) => sql<{ id: string }>`SELECT id FROM protected_data WHERE id = ${id}`).pipe(
    Effect.flatMap((rows): Effect.Effect<never, NotFound | Conflict> =>
      Effect.fail(rows.length === 0 ? new NotFound({ error: protectedMessages.notFound }) : new Conflict({ error: protectedMessages.stale }))))

export const ProtectedDataHandlers = HttpApiBuilder.group(AdminApi, "protectedData", (handlers) =>
  handlers
    .handle("list", ({ query }) =>
      Effect.gen(function*() {
        yield* superAdmin
        const sql = yield* SqlClient
        const rows = yield* sql<ProtectedRow>`
          SELECT ${sql.unsafe(protectedColumns)} FROM protected_data
          WHERE ${query.type === undefined ? sql`true` : sql`type = ${query.type}`} ORDER BY type, key LIMIT 1000`
        return { success: true as const, data: { records: rows.map(protectedOf) } }
      }).pipe(Effect.catchTag("SqlError", Effect.die)))
    .handle("create", ({ payload }) =>
      Effect.gen(function*() {
        yield* superAdmin
        const sql = yield* SqlClient
        const rows = yield* sql<ProtectedRow>`
          INSERT INTO protected_data ${sql.insert({ id: randomUUID(), type: payload.type, key: payload.key.trim(), value: payload.value, description: payload.description?.trim() ?? "" })}
          ON CONFLICT (type, key) DO NOTHING RETURNING ${sql.unsafe(protectedColumns)}`
        const row = rows[0]
        if (row === undefined) return yield* new Conflict({ error: protectedMessages.exists })
        yield* logProtected("protected-data.create", row, true)
        return { success: true as const, data: { record: protectedOf(row) } }
      }).pipe(inTransaction, Effect.catchTag("SqlError", Effect.die)))
    .handle("update", ({ params, payload }) =>
      Effect.gen(function*() {
        yield* superAdmin
        const sql = yield* SqlClient
        const before = yield* sql<{ value: string }>`SELECT value FROM protected_data WHERE id = ${params.id} AND version = ${payload.version} FOR UPDATE`
        const rows = yield* sql<ProtectedRow>`
          UPDATE protected_data SET ${sql.update({ type: payload.type, key: payload.key.trim(), value: payload.value, description: payload.description?.trim() ?? "" })},
            updated_at = now(), version = version + 1
          WHERE id = ${params.id} AND version = ${payload.version} RETURNING ${sql.unsafe(protectedColumns)}`
        const row = rows[0]
        if (row === undefined) return yield* missedProtected(params.id)
        yield* logProtected("protected-data.update", row, before[0]?.value !== row.value)
        return { success: true as const, data: { record: protectedOf(row) } }
      }).pipe(inTransaction, Effect.catchTag("SqlError", Effect.die)))
    .handle("remove", ({ params, query }) =>
      Effect.gen(function*() {
        yield* superAdmin
        const sql = yield* SqlClient
        const rows = yield* sql<ProtectedRow>`DELETE FROM protected_data WHERE id = ${params.id} AND version = ${query.version} RETURNING ${sql.unsafe(protectedColumns)}`
        const row = rows[0]
        if (row === undefined) return yield* missedProtected(params.id)
        yield* logProtected("protected-data.delete", row, false)
        return { success: true as const }
      }).pipe(inTransaction, Effect.catchTag("SqlError", Effect.die)))
)

// ---------------------------------------------------------------------------
// The site's settings
// ---------------------------------------------------------------------------

/** What the settings are before anyone saved them. */
const defaultSettings: SiteSettingsFields = {
  siteName: "Pi Network Directory",
  tagline: "",
  contactEmail: "",
  announcement: "",
  maintenanceMode: false,
  social: {}
}

const readSettings = Effect.gen(function*() {
  const sql = yield* SqlClient
  const rows = yield* sql<{ document: SiteSettingsFields | string; updatedAt: Date; version: number }>`
    SELECT document, updated_at, version FROM site_settings WHERE id = 1`
  const row = rows[0]
  if (row === undefined) return { ...defaultSettings, updatedAt: null, version: 0 } satisfies SiteSettings
  const document = typeof row.document === "string" ? JSON.parse(row.document) as SiteSettingsFields : row.document
  return { ...defaultSettings, ...document, updatedAt: row.updatedAt.toISOString(), version: row.version } satisfies SiteSettings
})

export const SiteSettingsHandlers = HttpApiBuilder.group(AdminApi, "siteSettings", (handlers) =>
  handlers
    .handle("get", () => Effect.map(readSettings, (settings) => ({ success: true as const, data: { settings } })).pipe(Effect.catchTag("SqlError", Effect.die)))
    .handle("update", ({ payload }) =>
      Effect.gen(function*() {
        yield* superAdmin
        const sql = yield* SqlClient
        const { version, ...fields } = payload
        const before = yield* readSettings
        const document = JSON.stringify(fields)
        const written = version === 0
          ? yield* sql`INSERT INTO site_settings (id, document) VALUES (1, ${document}::jsonb) ON CONFLICT (id) DO NOTHING RETURNING id`
          : yield* sql`UPDATE site_settings SET document = ${document}::jsonb, updated_at = now(), version = version + 1 WHERE id = 1 AND version = ${version} RETURNING id`
        if (written.length === 0) return yield* new Conflict({ error: settingsMessages.stale })
        const changed = (Object.keys(fields) as Array<keyof SiteSettingsFields>).filter((key) => JSON.stringify(fields[key]) !== JSON.stringify(before[key]))
        yield* recordAdminActivity({ action: "settings.update", entityId: "site", fromState: `v${version}`, toState: `v${version + 1}`, details: { changed } })
        return { success: true as const, data: { settings: yield* readSettings } }
      }).pipe(inTransaction, Effect.catchTag("SqlError", Effect.die)))
)
