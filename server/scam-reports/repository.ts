import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { dieOnSqlError } from "../platform/database.ts"
import { type ScamReport, scamReportMessages as messages, ScamReportStatus, ScamType } from "../../contract/scam-reports.ts"
import { type VersionedTable } from "../platform/record-writes.ts"
import { triageColumns, triageOf, type TriageRow } from "../platform/triage-fields.ts"
import { containsPattern } from "../platform/search.ts"
import { httpAddresses } from "../../contract/text.ts"
import { EXPORT_BATCH, keysetRows, listFilters, pageWindow, paginate } from "../platform/lists.ts"

/**
 * Scam reports in the database: the row, its columns, its answer, the list's page and export,
 * and the table the write path (server/platform/record-writes.ts) changes.
 */

export interface ReportRow extends TriageRow {
  readonly id: string
  readonly scamType: ScamReport["scamType"]
  readonly description: string
  readonly evidence: string
  readonly walletAddress: string
  readonly reporterContact: string
  readonly ipAddress: string
  readonly status: ScamReport["status"]
  readonly priority: ScamReport["priority"]
  readonly adminNotes: string
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly version: number
}

const columns = `id, scam_type, description, evidence, wallet_address, reporter_contact, ip_address, status, priority, admin_notes,
  ${triageColumns}, created_at, updated_at, version`

export const reportOf = (row: ReportRow): ScamReport => ({
  _id: row.id,
  scamType: row.scamType,
  description: row.description,
  evidence: row.evidence,
  walletAddress: row.walletAddress,
  reporterContact: row.reporterContact,
  ipAddress: row.ipAddress,
  status: row.status,
  priority: row.priority,
  adminNotes: row.adminNotes,
  ...triageOf(row),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  version: row.version
})

interface ListQuery {
  readonly page?: number | undefined
  readonly limit?: number | undefined
  readonly search?: string | undefined
  readonly status?: string | undefined
  readonly scamType?: string | undefined
  readonly priority?: string | undefined
}

/** The query's filters; the same columns name the report and its cell in `scam_report_counts`. */
const filtersOf = (sql: SqlClient, query: ListQuery, options: { readonly search: boolean }) =>
  listFilters(
    sql,
    [
      ["status", query.status],
      ["scam_type", query.scamType],
      ["priority", query.priority]
    ],
    options.search ? query.search : undefined
  )

/**
 * A page of reports with the counts of all reports by status and by type, in one statement.
 * The counts, and the total of a filter without a search, are sums over the 96 kept cells; only
 * a search counts rows.
 */
export const listReports = (query: ListQuery) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const { page, limit, offset } = pageWindow(query)
    const filters = filtersOf(sql, query, { search: true })
    const searching = (query.search?.trim() ?? "") !== ""
    const cell = (column: string, value: string, index: number) =>
      sql`coalesce(sum(total) FILTER (WHERE ${sql(column)} = ${value}), 0)::int AS ${sql(`n${index}`)}`
    const cells = [
      ...ScamReportStatus.literals.map((value, index) => cell("status", value, index)),
      ...ScamType.literals.map((value, index) => cell("scam_type", value, ScamReportStatus.literals.length + index))
    ]
    const matching = searching
      ? sql`(SELECT count(*) FROM scam_reports WHERE ${sql.and(filters)})::int`
      : sql`coalesce(sum(total) FILTER (WHERE ${sql.and(filtersOf(sql, query, { search: false }))}), 0)::int`
    // Without a match the lateral join still gives the counts, on one row whose report fields are null.
    const rows = yield* sql<Partial<ReportRow> & Record<`n${number}`, number> & { readonly matching: number }>`
      WITH counts AS (SELECT ${sql.csv(cells)}, ${matching} AS matching FROM scam_report_counts)
      SELECT page.*, counts.* FROM counts LEFT JOIN LATERAL (
        SELECT ${sql.unsafe(columns)} FROM scam_reports WHERE ${sql.and(filters)}
        ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}
      ) page ON true`
    const first = rows[0]
    const countOf = (index: number) => first?.[`n${index}`] ?? 0
    return {
      reports: rows.filter((row): row is ReportRow & typeof row => row.id !== null && row.id !== undefined).map(reportOf),
      pagination: paginate(page, limit, first?.matching ?? 0),
      statusCounts: ScamReportStatus.literals.map((value, index) => ({ _id: value, count: countOf(index) })),
      scamTypeCounts: ScamType.literals.map((value, index) => ({ _id: value, count: countOf(ScamReportStatus.literals.length + index) }))
    }
  }).pipe(dieOnSqlError)

/** Every report the filters match, newest first, batch after batch (the CSV export). */
export const exportReports = (query: ListQuery) =>
  keysetRows((after: (ReportRow & { readonly sortKey: string }) | undefined) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const filters = [
        ...filtersOf(sql, query, { search: true }),
        // The key travels as text and is cast back, so a timestamp keeps its microseconds.
        ...(after === undefined ? [] : [sql`(created_at, id) < (CAST(${after.sortKey} AS timestamptz), ${after.id}::uuid)`])
      ]
      return yield* sql<ReportRow & { readonly sortKey: string }>`
        SELECT ${sql.unsafe(columns)}, created_at::text AS sort_key FROM scam_reports WHERE ${sql.and(filters)}
        ORDER BY created_at DESC, id DESC LIMIT ${EXPORT_BATCH}`
    })
  )

export const find = (id: string) =>
  Effect.flatMap(SqlClient, (sql) => sql<ReportRow>`SELECT ${sql.unsafe(columns)} FROM scam_reports WHERE id = ${id}`).pipe(
    Effect.map((rows) => rows[0]),
    dieOnSqlError
  )

/** At most this many related reports are answered. */
const RELATED_LIMIT = 50

/**
 * The other reports on `report`'s wallet address, or whose evidence names one of the addresses
 * its evidence names, newest first (both indexed: 0020_triage).
 */
export const relatedReports = (report: ReportRow) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const addresses = [...new Set(httpAddresses(report.evidence).map((found) => found.address))].slice(0, 10)
    const same = [
      ...(report.walletAddress === "" ? [] : [sql`wallet_address = ${report.walletAddress}`]),
      ...addresses.map((address) => sql`evidence ILIKE ${containsPattern(address)}`)
    ]
    if (same.length === 0) return [] as ReadonlyArray<ReportRow>
    return yield* sql<ReportRow>`SELECT ${sql.unsafe(columns)} FROM scam_reports WHERE id <> ${report.id} AND (${sql.or(same)})
      ORDER BY created_at DESC, id DESC LIMIT ${RELATED_LIMIT}`
  }).pipe(dieOnSqlError)

/** Reports on the one write path (server/platform/record-writes.ts). */
export const reportTable: VersionedTable = { table: "scam_reports", columns, messages: { notFound: messages.notFound, stale: messages.stale } }
