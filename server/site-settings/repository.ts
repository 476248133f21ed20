import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { type SiteSettings, type SiteSettingsFields, settingsMessages } from "../../contract/site-settings.ts"
import { dieOnSqlError } from "../platform/database.ts"
import { type VersionedTable } from "../platform/record-writes.ts"

/** The site's settings in the database (docs/api.md, "Admin management"): one document, versioned, in row 1. */

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
}).pipe(dieOnSqlError)
