import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { type ProtectedRecord, protectedMessages } from "../../contract/protected-data.ts"
import { dieOnSqlError } from "../platform/database.ts"
import { type VersionedTable } from "../platform/record-writes.ts"

/** Protected data in the database (docs/api.md, "Admin management"): records only super admins read. */

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
  ).pipe(dieOnSqlError)

/** One protected record, or undefined when there is none. */
export const findProtected = (id: string) =>
  Effect.flatMap(SqlClient, (sql) => sql<ProtectedRow>`SELECT ${sql.unsafe(protectedColumns)} FROM protected_data WHERE id = ${id}`).pipe(
    Effect.map((rows) => rows[0]),
    dieOnSqlError
  )
