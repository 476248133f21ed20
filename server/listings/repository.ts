import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { dieOnSqlError } from "../platform/database.ts"
import { listingMessages, type ListingStatus, type ListingType, listingTypes } from "../../contract/listing-rules.ts"
import type { Listing, ListingCounts, PublicListing } from "../../contract/listings.ts"
import type { Pagination } from "../../contract/common.ts"
import { EXPORT_BATCH, keysetRows, pageWindow, paginate } from "../platform/lists.ts"
import type { Scope, Selection, VersionedTable } from "../platform/record-writes.ts"
import { containsPattern } from "../platform/search.ts"
import { triageColumns, triageOf, type TriageRow } from "../platform/triage-fields.ts"

/** One row of `listings`, names as the driver gives them (camelCase). */
export interface ListingRow extends TriageRow {
  readonly id: string
  readonly type: ListingType
  readonly name: string
  readonly description: string
  readonly status: ListingStatus
  readonly moderationNotes: string
  /** A business's, startup's or project's own fields (checked by the contract); {} for the others. */
  readonly details: Readonly<Record<string, unknown>>
  readonly isActive: boolean
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly version: number
}

/** The columns a listing is read with (the write path answers with them too). */
export const listingColumns = `id, type, name, description, status, moderation_notes AS "moderationNotes", details, is_active AS "isActive",
  ${triageColumns}, created_at AS "createdAt", updated_at AS "updatedAt", version`

/** Listings on the one write path (server/platform/record-writes.ts): every type's changes, by the rules of writes.ts. */
export const listingTable: VersionedTable = {
  table: "listings",
  columns: listingColumns,
  messages: { notFound: listingMessages.notFound, stale: listingMessages.stale },
  history: { json: ["details"] }
}

/** Only listings of these types: a screen's call never reaches another type's record. */
export const ofTypes =
  (types: ReadonlyArray<ListingType> | undefined): Scope =>
  (sql) =>
    types === undefined ? sql`TRUE` : sql`type IN ${sql.in(types)}`

/** The listings a bulk moderation names, locked in one order (by id). */
export const listingsByIds =
  (ids: ReadonlyArray<string>): Selection =>
  (sql) =>
    sql`id IN ${sql.in(ids)} ORDER BY id`

/** What a status change sets, on one listing or many. */
export const statusColumns = (status: ListingStatus, notes: string | undefined) => (sql: SqlClient) =>
  sql`${sql.update({ status, ...(notes === undefined ? {} : { moderationNotes: notes }) })}`

/** The fields every listing answer has, whatever its type. */
export const listingOf = (row: ListingRow): Listing => ({
  _id: row.id,
  type: row.type,
  name: row.name,
  description: row.description,
  status: row.status,
  moderationNotes: row.moderationNotes,
  ...triageOf(row),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  version: row.version
})

export const publicListingOf = (row: ListingRow): PublicListing => ({
  _id: row.id,
  type: row.type,
  name: row.name,
  description: row.description,
  createdAt: row.createdAt.toISOString()
})

export interface QueueQuery {
  /** The types shown; all five when undefined. */
  readonly types?: ReadonlyArray<ListingType> | undefined
  readonly status?: ListingStatus | undefined
  readonly search?: string | undefined
  readonly page?: number | undefined
  readonly limit?: number | undefined
  /** Exact matches on `details` fields (a category, a stage). */
  readonly details?: Readonly<Record<string, string>> | undefined
  readonly isActive?: boolean | undefined
  /** Events and hackathons: still to end (or to start, without an end), or over. */
  readonly when?: "upcoming" | "past" | undefined
}

type CountedRow = ListingRow & { readonly pending: number; readonly approved: number; readonly rejected: number }

/** The WHERE conditions of a queue query: type, status, search, `details` fields, active. */
const filtersOf = (sql: SqlClient, query: QueueQuery & { readonly types: ReadonlyArray<ListingType>; readonly search: string }) => [
  sql`type IN ${sql.in(query.types)}`,
  ...(query.status === undefined ? [] : [sql`status = ${query.status}`]),
  ...(query.search === "" ? [] : [sql`search_text LIKE ${containsPattern(query.search)}`]),
  ...Object.entries(query.details ?? {}).map(([field, value]) => sql`details->>${field} = ${value}`),
  ...(query.isActive === undefined ? [] : [sql`is_active = ${query.isActive}`]),
  ...(query.when === undefined
    ? []
    : [
        query.when === "upcoming"
          ? sql`coalesce(nullif(details->>'endsAt', ''), nullif(details->>'startsAt', ''))::timestamptz >= now()`
          : sql`coalesce(nullif(details->>'endsAt', ''), nullif(details->>'startsAt', ''))::timestamptz < now()`
      ])
]

/**
 * A page of the queue with its four counts. Without a search the page, its total and the counts
 * are one query: the totals come from `listing_counts`, kept by triggers. A search counts its
 * matches with a second query.
 */
export const listQueue = (query: QueueQuery) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const { page, limit, offset } = pageWindow(query)
    const types = query.types ?? listingTypes
    const search = query.search?.trim() ?? ""
    const filters = filtersOf(sql, { ...query, types, search })
    // Without a match the lateral join still gives the counts, on one row whose listing fields are null.
    const rows = yield* sql.withoutTransforms()<CountedRow>`
      WITH counts AS (
        SELECT coalesce(sum(total) FILTER (WHERE status = 'pending'), 0)::int AS pending,
               coalesce(sum(total) FILTER (WHERE status = 'approved'), 0)::int AS approved,
               coalesce(sum(total) FILTER (WHERE status = 'rejected'), 0)::int AS rejected
        FROM listing_counts WHERE type IN ${sql.in(types)}
      )
      SELECT page.*, counts.pending, counts.approved, counts.rejected
      FROM counts LEFT JOIN LATERAL (
        SELECT ${sql.unsafe(listingColumns)} FROM listings WHERE ${sql.and(filters)}
        ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}
      ) AS page ON true`
    const first = rows[0]
    const counts: ListingCounts = {
      pending: first?.pending ?? 0,
      approved: first?.approved ?? 0,
      rejected: first?.rejected ?? 0,
      total: (first?.pending ?? 0) + (first?.approved ?? 0) + (first?.rejected ?? 0)
    }
    const listings = rows.filter((row) => row.id !== null)
    const narrowed = search !== "" || query.isActive !== undefined || query.when !== undefined || Object.keys(query.details ?? {}).length > 0
    const total = !narrowed
      ? query.status === undefined
        ? counts.total
        : counts[query.status]
      : ((yield* sql<{ total: number }>`SELECT count(*)::int AS total FROM listings WHERE ${sql.and(filters)}`)[0]?.total ?? 0)
    return { rows: listings, counts, pagination: paginate(page, limit, total) satisfies Pagination }
  }).pipe(dieOnSqlError)

/**
 * Every listing the queue's filters match, newest first as on screen, batch by batch: each batch
 * starts after the creation time and id of the last row of the one before.
 */
export const exportQueue = (query: Omit<QueueQuery, "page" | "limit">) => {
  type Keyed = ListingRow & { readonly sortKey: string }
  const types = query.types ?? listingTypes
  const search = query.search?.trim() ?? ""
  return keysetRows((after: Keyed | undefined) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const filters = [
        ...filtersOf(sql, { ...query, types, search }),
        // The key travels as text and is cast back, so a timestamp keeps its microseconds.
        ...(after === undefined ? [] : [sql`(created_at, id) < (CAST(${after.sortKey} AS timestamptz), ${after.id}::uuid)`])
      ]
      return yield* sql.withoutTransforms()<Keyed>`
        SELECT ${sql.unsafe(listingColumns)}, created_at::text AS "sortKey" FROM listings WHERE ${sql.and(filters)}
        ORDER BY created_at DESC, id DESC LIMIT ${EXPORT_BATCH}`
    })
  )
}

/** The columns of a listing export, named as the API names them. */
export const listingExportFields = ["_id", "type", "name", "description", "status", "moderationNotes", "createdAt", "updatedAt", "version"] as const

/** Approved listings of one type, newest first, for the public site. */
export const listApproved = (
  type: ListingType,
  query: { readonly search?: string | undefined; readonly page?: number | undefined; readonly limit?: number | undefined }
) => Effect.map(listQueue({ ...query, types: [type], status: "approved" }), ({ rows, pagination }) => ({ rows, pagination }))

/** A status change as the activity log holds it, for undo. */
export interface StatusEvent {
  readonly entityId: string | null
  readonly fromState: string | null
  readonly toState: string | null
  readonly action: string
  readonly details: { readonly version?: number } | null
}

export const findEvent = (eventId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<StatusEvent>`
      SELECT entity_id, from_state, to_state, action, details FROM activity_log WHERE id = ${eventId}::bigint`
    return rows[0]
  }).pipe(dieOnSqlError)
