import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { HttpApiBuilder } from "effect/http-api"
import { randomUUID } from "node:crypto"
import { AdminApi } from "../../contract/api.ts"
import { BadRequest, Conflict, NotFound } from "../../contract/common.ts"
import { type ScamReport, scamReportMessages as messages } from "../../contract/scam-reports.ts"
import { requireEditor as requireEditorOf } from "../auth/roles.ts"
import { recordActivity, recordAdminActivity } from "../platform/activity-log.ts"
import { inTransaction } from "../platform/database.ts"
import { clientIp } from "../platform/http.ts"
import { pageWindow, paginate } from "../platform/lists.ts"
import { guard } from "../platform/rate-limit.ts"
import { containsPattern } from "../platform/search.ts"

/** Reports from one client address: the public form is open to anyone. */
const REPORTS = { name: "scam-report", limit: 5, windowSeconds: 3600 } as const

const reportsWait = (wait: string) => `Too many reports from your address. Try again ${wait}.`

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

/** A page of reports and the counts of all reports by status and by type, from the kept counts. */
const listReports = (query: ListQuery) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const { page, limit, offset } = pageWindow(query)
    const search = query.search?.trim() ?? ""
    const given = (value: string | undefined) => value !== undefined && value !== "all"
    const filters = [
      sql`true`,
      ...(given(query.status) ? [sql`status = ${query.status!}`] : []),
      ...(given(query.scamType) ? [sql`scam_type = ${query.scamType!}`] : []),
      ...(given(query.priority) ? [sql`priority = ${query.priority!}`] : []),
      ...(search === "" ? [] : [sql`search_text LIKE ${containsPattern(search)}`])
    ]
    const counts = yield* sql<{ dimension: string; value: string; total: number }>`
      SELECT dimension, value, total::int AS total FROM scam_report_counts ORDER BY dimension, value`
    const rows = yield* sql<ReportRow>`SELECT ${sql.unsafe(columns)} FROM scam_reports WHERE ${sql.and(filters)}
      ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
    const filtered = filters.length > 1
    const all = counts.filter((count) => count.dimension === "status").reduce((sum, count) => sum + count.total, 0)
    const total = !filtered
      ? all
      : (yield* sql<{ total: number }>`SELECT count(*)::int AS total FROM scam_reports WHERE ${sql.and(filters)}`)[0]?.total ?? 0
    const of = (dimension: string) => counts.filter((count) => count.dimension === dimension).map((count) => ({ _id: count.value, count: count.total }))
    return { reports: rows.map(reportOf), pagination: paginate(page, limit, total), statusCounts: of("status"), scamTypeCounts: of("scamType") }
  })

const find = (id: string) =>
  Effect.flatMap(SqlClient, (sql) => sql<ReportRow>`SELECT ${sql.unsafe(columns)} FROM scam_reports WHERE id = ${id}`).pipe(Effect.map((rows) => rows[0]))

const missed = (id: string) =>
  Effect.flatMap(find(id), (current): Effect.Effect<never, NotFound | Conflict> =>
    current === undefined ? Effect.fail(new NotFound({ error: messages.notFound })) : Effect.fail(new Conflict({ error: messages.stale })))

export const ScamReportHandlers = HttpApiBuilder.group(AdminApi, "scamReports", (handlers) =>
  handlers
    .handle("report", ({ payload }) =>
      Effect.gen(function*() {
        const ip = yield* clientIp
        yield* guard(REPORTS, ip, reportsWait)
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
          yield* recordActivity({ actorId: null, actorEmail: null, action: "scam-report.create", entity: "scam-report", entityId: id, toState: "new", ip })
          return { success: true as const, message: messages.received, data: { _id: id } }
        }).pipe(inTransaction)
      }).pipe(Effect.catchTag("SqlError", Effect.die)))
    .handle("list", ({ query }) => Effect.orDie(Effect.map(listReports(query), (data) => ({ success: true as const, data }))))
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
          entity: "scam-report",
          entityId: row.id,
          fromState: field === "notes" ? null : String(before?.[field] ?? ""),
          toState: field === "notes" ? null : String(row[field]),
          details: { version: row.version, ...(field === "notes" ? { notes: row.adminNotes } : {}) }
        })
        return { success: true as const, data: { report: reportOf(row) } }
      }).pipe(inTransaction, Effect.catchTag("SqlError", Effect.die)))
    .handle("remove", ({ params, query }) =>
      Effect.gen(function*() {
        yield* requireAdmin
        const sql = yield* SqlClient
        const rows = yield* sql<ReportRow>`DELETE FROM scam_reports WHERE id = ${params.id} AND version = ${query.version} RETURNING ${sql.unsafe(columns)}`
        if (rows[0] === undefined) return yield* missed(params.id)
        yield* recordAdminActivity({ action: "scam-report.delete", entity: "scam-report", entityId: params.id, fromState: rows[0].status, toState: null })
        return { success: true as const }
      }).pipe(inTransaction, Effect.catchTag("SqlError", Effect.die))))
