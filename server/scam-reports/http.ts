import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql/SqlClient"
import { HttpApiBuilder } from "effect/http-api"
import { randomUUID } from "node:crypto"
import { AdminApi } from "../../contract/api.ts"
import { BadRequest, Conflict, NotFound } from "../../contract/common.ts"
import { type ScamReport, scamReportMessages as messages, ScamReportStatus, ScamType } from "../../contract/scam-reports.ts"
import { requireEditor as requireEditorOf } from "../auth/roles.ts"
import { recordActivity, recordAdminActivity } from "../platform/activity-log.ts"
import { announcing } from "../platform/change-feed.ts"
import { clientIp } from "../platform/client-address.ts"
import { csvResponse, EXPORT_BATCH, keysetRows, listFilters, pageWindow, paginate, wantsCsv } from "../platform/lists.ts"

interface ReportRow {
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
  created_at, updated_at, version`

const reportOf = (row: ReportRow): ScamReport => ({
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
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  version: row.version
})

const requireAdmin = requireEditorOf(messages.readOnly)

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
  listFilters(sql, [["status", query.status], ["scam_type", query.scamType], ["priority", query.priority]], options.search ? query.search : undefined)

/**
 * A page of reports with the counts of all reports by status and by type, in one statement.
 * The counts, and the total of a filter without a search, are sums over the 96 kept cells; only
 * a search counts rows.
 */
const listReports = (query: ListQuery) =>
  Effect.gen(function*() {
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
  })

/** Every report the filters match, newest first, batch after batch (the CSV export). */
const exportReports = (query: ListQuery) =>
  keysetRows((after: (ReportRow & { readonly sortKey: string }) | undefined) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const filters = [
        ...filtersOf(sql, query, { search: true }),
        // The key travels as text and is cast back, so a timestamp keeps its microseconds.
        ...(after === undefined ? [] : [sql`(created_at, id) < (CAST(${after.sortKey} AS timestamptz), ${after.id}::uuid)`])
      ]
      return yield* sql<ReportRow & { readonly sortKey: string }>`
        SELECT ${sql.unsafe(columns)}, created_at::text AS sort_key FROM scam_reports WHERE ${sql.and(filters)}
        ORDER BY created_at DESC, id DESC LIMIT ${EXPORT_BATCH}`
    }))

/** The columns of a report export, named as the API names them. */
const exportFields = [
  "_id", "scamType", "description", "evidence", "walletAddress", "reporterContact", "ipAddress", "status", "priority", "adminNotes",
  "createdAt", "updatedAt", "version"
] as const

const find = (id: string) =>
  Effect.flatMap(SqlClient, (sql) => sql<ReportRow>`SELECT ${sql.unsafe(columns)} FROM scam_reports WHERE id = ${id}`).pipe(Effect.map((rows) => rows[0]))

const missed = (id: string) =>
  Effect.flatMap(find(id), (current): Effect.Effect<never, NotFound | Conflict> =>
    current === undefined ? Effect.fail(new NotFound({ error: messages.notFound })) : Effect.fail(new Conflict({ error: messages.stale })))

export const ScamReportHandlers = HttpApiBuilder.group(AdminApi, "scamReports", (handlers) =>
  handlers
    .handle("report", ({ payload }) =>
      Effect.gen(function*() {
        // Counted against the address before the body was read (server/auth/public-forms.ts).
        const ip = yield* clientIp
        return yield* Effect.gen(function*() {
          const sql = yield* SqlClient
          const id = randomUUID()
          // The reporter's fields only; status new and priority normal are the table's defaults.
          yield* sql`INSERT INTO scam_reports ${sql.insert({
            id,
            scamType: payload.scamType,
            description: payload.description.trim(),
            evidence: payload.evidence?.trim() ?? "",
            walletAddress: payload.walletAddress?.trim() ?? "",
            reporterContact: payload.reporterContact?.trim() ?? "",
            ipAddress: ip
          })}`
          yield* recordActivity({ actorId: null, actorEmail: null, action: "scam-report.create", entityId: id, toState: "new", ip })
          return { id }
        }).pipe(announcing)
      }).pipe(
        Effect.map(({ id }) => ({ success: true as const, message: messages.received, data: { _id: id } })),
        Effect.catchTag("SqlError", Effect.die)
      ))
    .handle("list", ({ query }) =>
      Effect.flatMap(wantsCsv(query.format), (csv) =>
        csv
          ? csvResponse({ name: "scam-reports", fields: exportFields, record: reportOf, rows: exportReports(query) })
          : Effect.map(listReports(query), (data) => HttpServerResponse.jsonUnsafe({ success: true as const, data }))).pipe(Effect.orDie))
    .handle("one", ({ params }) =>
      Effect.flatMap(find(params.id), (row) =>
        row === undefined ? Effect.fail(new NotFound({ error: messages.notFound })) : Effect.succeed({ success: true as const, data: { report: reportOf(row) } })
      ).pipe(Effect.catchTag("SqlError", Effect.die)))
    .handle("change", ({ params, payload }) =>
      Effect.gen(function*() {
        const given = (["status", "priority", "notes"] as const).filter((field) => payload[field] !== undefined)
        if (given.length !== 1) return yield* new BadRequest({ error: messages.oneChange })
        const field = given[0]!
        const sql = yield* SqlClient
        const before = yield* find(params.id)
        const column = field === "notes" ? "adminNotes" : field
        const value = field === "notes" ? payload.notes!.trim() : payload[field]!
        const rows = yield* sql<ReportRow>`UPDATE scam_reports SET ${sql.update({ [column]: value, updatedAt: new Date() })}, version = version + 1
          WHERE id = ${params.id} AND version = ${payload.version} RETURNING ${sql.unsafe(columns)}`
        const row = rows[0]
        if (row === undefined) return yield* missed(params.id)
        yield* recordAdminActivity({
          action: `scam-report.${field}`,
          entityId: row.id,
          fromState: field === "notes" ? null : String(before?.[field] ?? ""),
          toState: field === "notes" ? null : String(row[field]),
          details: { version: row.version, ...(field === "notes" ? { notes: row.adminNotes } : {}) }
        })
        return { success: true as const, data: { report: reportOf(row) } }
      }).pipe(announcing, Effect.catchTag("SqlError", Effect.die)))
    .handle("remove", ({ params, query }) =>
      Effect.gen(function*() {
        yield* requireAdmin
        const sql = yield* SqlClient
        const rows = yield* sql<ReportRow>`DELETE FROM scam_reports WHERE id = ${params.id} AND version = ${query.version} RETURNING ${sql.unsafe(columns)}`
        if (rows[0] === undefined) return yield* missed(params.id)
        yield* recordAdminActivity({ action: "scam-report.delete", entityId: params.id, fromState: rows[0].status, toState: null })
        return { success: true as const }
      }).pipe(announcing, Effect.catchTag("SqlError", Effect.die))))
