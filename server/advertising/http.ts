import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import { type AdvertisingInquiry, type InquiryCounts, inquiryMessages as messages, type InquirySubmission } from "../../contract/advertising.ts"
import { AdminApi } from "../../contract/api.ts"
import { Conflict, NotFound } from "../../contract/common.ts"
import { canMoveInquiry, type InquiryStatus, inquiryStatuses } from "../../contract/inquiry-rules.ts"
import { recordActivity, recordAdminActivity } from "../platform/activity-log.ts"
import { announcing } from "../platform/change-feed.ts"
import { clientIp } from "../platform/client-address.ts"
import { csvResponse, EXPORT_BATCH, keysetRows, listFilters, pageWindow, paginate, wantsCsv } from "../platform/lists.ts"

type InquiryRow = Omit<AdvertisingInquiry, "_id" | "createdAt" | "updatedAt"> & {
  readonly id: string
  readonly createdAt: Date
  readonly updatedAt: Date
}

const columns = `id, company_name, contact_name, email, phone, website, industry, budget, campaign_type, duration, selected_plan,
  target_audience, campaign_goals, additional_info, status, admin_notes, payment_id, txid, amount, created_at, updated_at, version`

const inquiryOf = ({ id, createdAt, updatedAt, ...row }: InquiryRow): AdvertisingInquiry => ({
  _id: id,
  ...row,
  createdAt: createdAt.toISOString(),
  updatedAt: updatedAt.toISOString()
})

interface ListQuery {
  readonly page?: number | undefined
  readonly limit?: number | undefined
  readonly search?: string | undefined
  readonly status?: string | undefined
  readonly industry?: string | undefined
}

const filtersOf = (sql: SqlClient, query: ListQuery) => listFilters(sql, [["status", query.status], ["industry", query.industry]], query.search)

/**
 * A page of inquiries and the four counts of all of them (total, pending, contacted, converted)
 * in one statement: the counts are kept by triggers; a filtered total is counted with the page.
 */
const listInquiries = (query: ListQuery) =>
  Effect.gen(function*() {
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
  })

const exportInquiries = (query: ListQuery) =>
  keysetRows((after: (InquiryRow & { readonly sortKey: string }) | undefined) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const filters = [
        ...filtersOf(sql, query),
        ...(after === undefined ? [] : [sql`(created_at, id) < (CAST(${after.sortKey} AS timestamptz), ${after.id}::uuid)`])
      ]
      return yield* sql<InquiryRow & { readonly sortKey: string }>`
        SELECT ${sql.unsafe(columns)}, created_at::text AS sort_key FROM advertising_inquiries WHERE ${sql.and(filters)}
        ORDER BY created_at DESC, id DESC LIMIT ${EXPORT_BATCH}`
    }))

const exportFields = [
  "_id", "companyName", "contactName", "email", "phone", "website", "industry", "budget", "campaignType", "duration", "selectedPlan",
  "targetAudience", "campaignGoals", "additionalInfo", "status", "adminNotes", "paymentId", "txid", "amount", "createdAt", "updatedAt", "version"
] as const

const list = (query: ListQuery & { readonly format?: "json" | "csv" | undefined }) =>
  Effect.flatMap(wantsCsv(query.format), (csv) =>
    csv
      ? csvResponse({ name: "advertising-inquiries", fields: exportFields, record: inquiryOf, rows: exportInquiries(query) })
      : Effect.map(listInquiries(query), (data) => HttpServerResponse.jsonUnsafe({ success: true as const, data }))).pipe(Effect.orDie)

const find = (id: string) =>
  Effect.flatMap(SqlClient, (sql) => sql<InquiryRow>`SELECT ${sql.unsafe(columns)} FROM advertising_inquiries WHERE id = ${id}`).pipe(Effect.map((rows) => rows[0]))

/**
 * Moves an inquiry on as contract/inquiry-rules.ts allows (the same status keeps it, for the
 * notes), at the version it was read, logging the move in its transaction.
 */
const move = (id: string, change: { readonly status: InquiryStatus; readonly adminNotes?: string | undefined; readonly version: number }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const before = yield* find(id)
    if (before === undefined) return yield* new NotFound({ error: messages.notFound })
    if (before.version !== change.version) return yield* new Conflict({ error: messages.stale })
    if (!canMoveInquiry(before.status, change.status)) return yield* new Conflict({ error: messages.illegal(before.status, change.status) })
    const rows = yield* sql<InquiryRow>`UPDATE advertising_inquiries SET ${sql.update({
      status: change.status,
      ...(change.adminNotes === undefined ? {} : { adminNotes: change.adminNotes.trim() }),
      updatedAt: new Date()
    })}, version = version + 1
      WHERE id = ${id} AND version = ${change.version} RETURNING ${sql.unsafe(columns)}`
    const row = rows[0]
    if (row === undefined) return yield* new Conflict({ error: messages.stale })
    yield* recordAdminActivity({
      action: before.status === row.status ? "inquiry.notes" : "inquiry.status",
      entityId: row.id,
      fromState: before.status,
      toState: row.status,
      details: { version: row.version }
    })
    return { success: true as const, data: { inquiry: inquiryOf(row) } }
  }).pipe(announcing, Effect.catchTag("SqlError", Effect.die))

const textOf = (value: string | undefined) => value?.trim() ?? ""

/** A public submission: with a payment id and its transaction it arrives paid, else pending. */
const submission = (payload: InquirySubmission) => ({
  companyName: payload.companyName.trim(),
  contactName: payload.contactName.trim(),
  email: payload.email.trim(),
  phone: textOf(payload.phone),
  website: textOf(payload.website),
  industry: payload.industry,
  budget: textOf(payload.budget),
  campaignType: textOf(payload.campaignType),
  duration: textOf(payload.duration),
  selectedPlan: textOf(payload.selectedPlan),
  targetAudience: textOf(payload.targetAudience),
  campaignGoals: textOf(payload.campaignGoals),
  additionalInfo: textOf(payload.additionalInfo),
  paymentId: textOf(payload.paymentId),
  txid: textOf(payload.txid),
  amount: payload.amount ?? null,
  status: textOf(payload.paymentId) !== "" && textOf(payload.txid) !== "" ? "paid" as const : "pending" as const
})

export const AdvertisingHandlers = HttpApiBuilder.group(AdminApi, "advertising", (handlers) =>
  handlers
    .handle("submit", ({ payload }) =>
      Effect.gen(function*() {
        // Counted against the address before the body was read (server/auth/public-forms.ts).
        const ip = yield* clientIp
        const id = randomUUID()
        const values = submission(payload)
        yield* Effect.gen(function*() {
          const sql = yield* SqlClient
          yield* sql`INSERT INTO advertising_inquiries ${sql.insert({ id, ...values, ipAddress: ip })}`
          yield* recordActivity({ actorId: null, actorEmail: null, action: "inquiry.create", entityId: id, toState: values.status, ip })
        }).pipe(announcing)
        return { success: true as const, message: messages.received, data: { _id: id } }
      }).pipe(Effect.catchTag("SqlError", Effect.die)))
    .handle("list", ({ query }) => list(query))
    .handle("adminList", ({ query }) => list(query))
    .handle("one", ({ params }) =>
      Effect.flatMap(find(params.id), (row) =>
        row === undefined ? Effect.fail(new NotFound({ error: messages.notFound })) : Effect.succeed({ success: true as const, data: { inquiry: inquiryOf(row) } })
      ).pipe(Effect.catchTag("SqlError", Effect.die)))
    .handle("update", ({ params, payload }) => move(params.id, payload))
    .handle("adminStatus", ({ params, payload }) => move(params.id, payload)))
