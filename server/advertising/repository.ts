import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { dieOnSqlError } from "../platform/database.ts"
import { type AdvertisingInquiry, type InquiryCounts, inquiryMessages as messages } from "../../contract/advertising.ts"
import { type InquiryStatus, inquiryStatuses } from "../../contract/advertising-rules.ts"
import { type VersionedTable } from "../platform/record-writes.ts"
import { triageColumns, triageOf, type TriageRow } from "../platform/triage-fields.ts"
import { EXPORT_BATCH, keysetRows, listFilters, pageWindow, paginate } from "../platform/lists.ts"

/**
 * Advertising inquiries in the database: the row, its columns, its answer, the list's page and
 * export, and the table the write path (server/platform/record-writes.ts) changes.
 */

export type InquiryRow = Omit<AdvertisingInquiry, "_id" | "createdAt" | "updatedAt" | keyof TriageRow> &
  TriageRow & {
    readonly id: string
    readonly createdAt: Date
    readonly updatedAt: Date
  }

const columns = `id, company_name, contact_name, email, phone, website, industry, budget, campaign_type, duration, selected_plan,
  target_audience, campaign_goals, additional_info, status, admin_notes, payment_id, txid, amount, ${triageColumns}, created_at, updated_at, version`

export const inquiryOf = ({ id, createdAt, updatedAt, ownerId, snoozedUntil, duplicateOf, ...row }: InquiryRow): AdvertisingInquiry => ({
  _id: id,
  ...row,
  ...triageOf({ ownerId, snoozedUntil, duplicateOf }),
  createdAt: createdAt.toISOString(),
  updatedAt: updatedAt.toISOString()
})

export interface ListQuery {
  readonly page?: number | undefined
  readonly limit?: number | undefined
  readonly search?: string | undefined
  readonly status?: string | undefined
  readonly industry?: string | undefined
}

const filtersOf = (sql: SqlClient, query: ListQuery) =>
  listFilters(
    sql,
    [
      ["status", query.status],
      ["industry", query.industry]
    ],
    query.search
  )

/**
 * A page of inquiries and the four counts of all of them (total, pending, contacted, converted)
 * in one statement: the counts are kept by triggers; a filtered total is counted with the page.
 */
export const listInquiries = (query: ListQuery) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const { page, limit, offset } = pageWindow(query)
    const filters = sql.and(filtersOf(sql, query))
    const rows = yield* sql<Partial<InquiryRow> & Record<InquiryStatus, number> & { readonly matching: number }>`
      WITH counts AS (
        SELECT ${sql.csv(inquiryStatuses.map((status) => sql`coalesce(sum(total) FILTER (WHERE status = ${status}), 0)::int AS ${sql(status)}`))}
        FROM inquiry_counts
      ), matching AS (SELECT count(*)::int AS matching FROM advertising_inquiries WHERE ${filters})
      SELECT page.*, counts.*, matching.matching FROM counts CROSS JOIN matching LEFT JOIN LATERAL (
        SELECT ${sql.unsafe(columns)} FROM advertising_inquiries WHERE ${filters}
        ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}
      ) page ON true`
    const first = rows[0]
    const of = (status: InquiryStatus) => first?.[status] ?? 0
    const counts: InquiryCounts = {
      total: inquiryStatuses.reduce((sum, status) => sum + of(status), 0),
      pending: of("pending"),
      contacted: of("contacted"),
      converted: of("converted")
    }
    return {
      inquiries: rows.filter((row): row is InquiryRow & typeof row => typeof row.id === "string").map(inquiryOf),
      pagination: paginate(page, limit, first?.matching ?? 0),
      counts
    }
  }).pipe(dieOnSqlError)

export const exportInquiries = (query: ListQuery) =>
  keysetRows((after: (InquiryRow & { readonly sortKey: string }) | undefined) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const filters = [
        ...filtersOf(sql, query),
        ...(after === undefined ? [] : [sql`(created_at, id) < (CAST(${after.sortKey} AS timestamptz), ${after.id}::uuid)`])
      ]
      return yield* sql<InquiryRow & { readonly sortKey: string }>`
        SELECT ${sql.unsafe(columns)}, created_at::text AS sort_key FROM advertising_inquiries WHERE ${sql.and(filters)}
        ORDER BY created_at DESC, id DESC LIMIT ${EXPORT_BATCH}`
    })
  )

export const find = (id: string) =>
  Effect.flatMap(SqlClient, (sql) => sql<InquiryRow>`SELECT ${sql.unsafe(columns)} FROM advertising_inquiries WHERE id = ${id}`).pipe(
    Effect.map((rows) => rows[0]),
    dieOnSqlError
  )

/** Inquiries on the one write path (server/platform/record-writes.ts). */
export const inquiryTable: VersionedTable = { table: "advertising_inquiries", columns, messages: { notFound: messages.notFound, stale: messages.stale } }
