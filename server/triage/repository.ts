import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import type { Fragment } from "effect/sql/Statement"
import { type TriageArea, triageAreas, type TriagePriority } from "../../contract/triage-rules.ts"
import { dieOnSqlError } from "../platform/database.ts"
import { pageWindow, paginate } from "../platform/lists.ts"

/**
 * The triage desk in the database (docs/api.md, "The triage desk"): `triage_items`, one row per
 * record waiting for a decision, kept by the four tables' triggers (server/platform/migrations.ts,
 * "0020_triage"), and `triage_counts`, its counts per (area, priority, owner). A page is one
 * indexed read of ids; the records come from their areas (server/stream/kinds.ts).
 */

/** A priority as the desk stores it: a rank, highest first. */
const rankOf: Readonly<Record<TriagePriority, number>> = { urgent: 3, high: 2, normal: 1, low: 0 }

export interface DeskQuery {
  readonly page?: number | undefined
  readonly limit?: number | undefined
  readonly area?: TriageArea | "all" | undefined
  readonly priority?: TriagePriority | "all" | undefined
  /** "all", "none", or an admin user's id (the caller's, for `me`). */
  readonly owner: string
  readonly view?: "waiting" | "snoozed" | undefined
  readonly order?: "oldest" | "newest" | undefined
}

export interface DeskEntry {
  readonly area: TriageArea
  readonly id: string
}

/** The filters a count honours: priority and owner (the counts are per area). */
const countFilters = (sql: SqlClient, query: DeskQuery, columns: { readonly priority: string; readonly owner: string }): Array<Fragment> => [
  sql`true`,
  ...(query.priority === undefined || query.priority === "all" ? [] : [sql`${sql(columns.priority)} = ${rankOf[query.priority]}`]),
  ...(query.owner === "all" ? [] : [query.owner === "none" ? sql`${sql(columns.owner)} IS NULL` : sql`${sql(columns.owner)} = ${query.owner}`])
]

/** The items of one page, in the desk's order, and the counts under the owner and priority asked. */
export const deskPage = (query: DeskQuery) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const { page, limit, offset } = pageWindow(query)
    const snoozed = query.view === "snoozed"
    const filters = [
      ...countFilters(sql, query, { priority: "priority", owner: "owner_id" }),
      ...(query.area === undefined || query.area === "all" ? [] : [sql`area = ${query.area}`]),
      snoozed ? sql`snoozed_until > now()` : sql`(snoozed_until IS NULL OR snoozed_until <= now())`
    ]
    const order = snoozed ? sql`snoozed_until, id` : query.order === "newest" ? sql`created_at DESC, id DESC` : sql`created_at, id`
    const entries = yield* sql<DeskEntry>`SELECT area, id::text AS id FROM triage_items WHERE ${sql.and(filters)}
      ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`
    const owned = countFilters(sql, { ...query, owner: query.owner === "none" ? "" : query.owner }, { priority: "priority", owner: "owner" })
    const kept = yield* sql<{ readonly area: string; readonly total: number }>`SELECT area, sum(total)::int AS total FROM triage_counts
      WHERE ${sql.and(owned)} GROUP BY area`
    const sleeping = yield* sql<{ readonly area: string; readonly total: number }>`SELECT area, count(*)::int AS total FROM triage_items
      WHERE ${sql.and([...countFilters(sql, query, { priority: "priority", owner: "owner_id" }), sql`snoozed_until > now()`])} GROUP BY area`
    const totalOf = (rows: ReadonlyArray<{ readonly area: string; readonly total: number }>, area: string) => rows.find((row) => row.area === area)?.total ?? 0
    const areaCounts = triageAreas.map((area) => ({ _id: area, count: totalOf(kept, area) - totalOf(sleeping, area) }))
    const inArea = (area: string) => query.area === undefined || query.area === "all" || query.area === area
    const shown = snoozed ? sleeping.filter((row) => inArea(row.area)) : areaCounts.filter((row) => inArea(row._id)).map((row) => ({ total: row.count }))
    const total = shown.reduce((sum, row) => sum + row.total, 0)
    return {
      entries,
      pagination: paginate(page, limit, total),
      areaCounts,
      snoozed: sleeping.filter((row) => inArea(row.area)).reduce((sum, row) => sum + row.total, 0)
    }
  }).pipe(dieOnSqlError)

/** Whether an admin user may own items: there, and not disabled (held until the change commits). */
export const ownerUsable = (id: string) =>
  Effect.flatMap(SqlClient, (sql) => sql<{ readonly id: string }>`SELECT id FROM admins WHERE id = ${id} AND NOT disabled FOR SHARE`).pipe(
    Effect.map((rows) => rows.length > 0),
    dieOnSqlError
  )

/**
 * Everyone who may own items: the enabled admin users, by name, then e-mail, each with the items
 * waiting on them (the kept counts less what sleeps), and the items waiting on nobody.
 */
export const owners = Effect.gen(function* () {
  const sql = yield* SqlClient
  const people = yield* sql<{ readonly id: string; readonly name: string | null; readonly email: string }>`SELECT id, name, email FROM admins
    WHERE NOT disabled ORDER BY lower(coalesce(name, email)), email`
  const kept = yield* sql<{ readonly owner: string; readonly total: number }>`SELECT owner, sum(total)::int AS total FROM triage_counts GROUP BY owner`
  const sleeping = yield* sql<{ readonly owner: string; readonly total: number }>`SELECT coalesce(owner_id::text, '') AS owner, count(*)::int AS total
    FROM triage_items WHERE snoozed_until > now() GROUP BY 1`
  const waitingOn = (owner: string) => (kept.find((row) => row.owner === owner)?.total ?? 0) - (sleeping.find((row) => row.owner === owner)?.total ?? 0)
  return {
    owners: people.map((row) => ({ _id: row.id, name: row.name, email: row.email, waiting: waitingOn(row.id) })),
    unowned: waitingOn("")
  }
}).pipe(dieOnSqlError)

/** Whether a record of `table` exists (a duplicate names the record it repeats). */
export const recordExists = (table: string, id: string) =>
  Effect.flatMap(SqlClient, (sql) => sql<{ readonly id: string }>`SELECT id FROM ${sql(table)} WHERE id = ${id}`).pipe(
    Effect.map((rows) => rows.length > 0),
    dieOnSqlError
  )

/** The database's clock: a snooze is judged by it, as the desk's reads are. */
export const databaseNow = Effect.flatMap(SqlClient, (sql) => sql<{ readonly now: Date }>`SELECT now() AS now`).pipe(
  Effect.map((rows) => rows[0]?.now ?? new Date()),
  dieOnSqlError
)
