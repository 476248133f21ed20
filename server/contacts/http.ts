import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import { AdminApi } from "../../contract/api.ts"
import { CurrentSession } from "../../contract/auth.ts"
import { Conflict, Forbidden, NotFound } from "../../contract/common.ts"
import { CONTACTS_PAGE_SIZE, type ContactInput, contactMessages as messages, type CoreTeamContact } from "../../contract/contacts.ts"
import type { ContactStatus } from "../../contract/inquiry-rules.ts"
import { optionalSession } from "../auth/http.ts"
import { requireEditor as requireEditorOf } from "../auth/roles.ts"
import { recordActivity, recordAdminActivity } from "../platform/activity-log.ts"
import { inTransaction } from "../platform/database.ts"
import { clientIp } from "../platform/client-address.ts"
import { csvResponse, EXPORT_BATCH, keysetRows, listFilters, pageWindow, paginate, wantsCsv } from "../platform/lists.ts"

interface ContactRow {
  readonly id: string
  readonly contactName: string
  readonly contactEmail: string
  readonly contactOrganization: string
  readonly contactRole: string
  readonly category: string
  readonly priority: CoreTeamContact["inquiry"]["priority"]
  readonly subject: string
  readonly details: string
  readonly projectName: string
  readonly projectStage: string
  readonly piIntegration: string
  readonly projectWebsite: string
  readonly status: ContactStatus
  readonly submittedAt: Date
  readonly respondedAt: Date | null
  readonly resolvedAt: Date | null
  readonly assignedTo: string
  readonly response: string
  readonly internalNotes: string
  readonly followUpRequired: boolean
  readonly expectedResponseTime: number
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly version: number
}

const columns = `id, contact_name, contact_email, contact_organization, contact_role, category, priority, subject, details,
  project_name, project_stage, pi_integration, project_website, status, submitted_at, responded_at, resolved_at, assigned_to,
  response, internal_notes, follow_up_required, expected_response_time, created_at, updated_at, version`

const contactOf = (row: ContactRow): CoreTeamContact => ({
  _id: row.id,
  contactInfo: { name: row.contactName, email: row.contactEmail, organization: row.contactOrganization, role: row.contactRole },
  inquiry: { category: row.category, priority: row.priority, subject: row.subject, details: row.details },
  projectInfo: { name: row.projectName, stage: row.projectStage, piIntegration: row.piIntegration, website: row.projectWebsite },
  status: row.status,
  submittedAt: row.submittedAt.toISOString(),
  respondedAt: row.respondedAt?.toISOString() ?? null,
  resolvedAt: row.resolvedAt?.toISOString() ?? null,
  assignedTo: row.assignedTo,
  response: row.response,
  internalNotes: row.internalNotes,
  followUpRequired: row.followUpRequired,
  expectedResponseTime: row.expectedResponseTime,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  version: row.version
})

/** The columns the submission's fields fill (the public's and staff's alike). */
const submissionColumns = (input: Pick<ContactInput, "contactInfo" | "inquiry" | "projectInfo">) => ({
  contactName: input.contactInfo.name.trim(),
  contactEmail: input.contactInfo.email?.trim() ?? "",
  contactOrganization: input.contactInfo.organization?.trim() ?? "",
  contactRole: input.contactInfo.role.trim(),
  category: input.inquiry.category?.trim() ?? messages.defaultCategory,
  priority: input.inquiry.priority ?? "medium",
  subject: input.inquiry.subject.trim(),
  details: input.inquiry.details.trim(),
  projectName: input.projectInfo?.name?.trim() ?? "",
  projectStage: input.projectInfo?.stage?.trim() ?? "",
  piIntegration: input.projectInfo?.piIntegration?.trim() ?? "",
  projectWebsite: input.projectInfo?.website?.trim() ?? ""
})

/** The handling columns, with the spec's defaults (§3) for what a create leaves out. */
const handlingColumns = (input: ContactInput) => ({
  status: input.status ?? "new",
  submittedAt: input.submittedAt === undefined ? new Date() : new Date(input.submittedAt),
  assignedTo: input.assignedTo?.trim() ?? "",
  response: input.response?.trim() ?? "",
  internalNotes: input.internalNotes?.trim() ?? "",
  followUpRequired: input.followUpRequired ?? false,
  expectedResponseTime: input.expectedResponseTime ?? 72
})

/** `respondedAt` and `resolvedAt`: stamped when the status first reaches them, kept after. */
const stamps = (status: ContactStatus, before: Pick<ContactRow, "respondedAt" | "resolvedAt"> | undefined) => {
  const now = new Date()
  return {
    respondedAt: before?.respondedAt ?? (status === "responded" ? now : null),
    resolvedAt: before?.resolvedAt ?? (status === "resolved" ? now : null)
  }
}

const requireAdmin = requireEditorOf(messages.readOnly)

interface ListQuery {
  readonly page?: number | undefined
  readonly limit?: number | undefined
  readonly search?: string | undefined
  readonly status?: string | undefined
  readonly priority?: string | undefined
}

const filtersOf = (sql: SqlClient, query: ListQuery) => listFilters(sql, [["status", query.status], ["priority", query.priority]], query.search)

/** A page of contacts, newest submission first, and how many match, in one statement. */
const listContacts = (query: ListQuery) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const { page, limit, offset } = pageWindow({ ...query, limit: query.limit ?? CONTACTS_PAGE_SIZE })
    const filters = sql.and(filtersOf(sql, query))
    const rows = yield* sql<ContactRow & { readonly matching: number }>`
      SELECT ${sql.unsafe(columns)}, count(*) OVER ()::int AS matching FROM core_team_contacts WHERE ${filters}
      ORDER BY submitted_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
    // A page past the end has no row to carry the count.
    const total = rows[0]?.matching ?? (offset === 0 ? 0 : (yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM core_team_contacts WHERE ${filters}`)[0]?.n ?? 0)
    return { contacts: rows.map(contactOf), pagination: paginate(page, limit, total) }
  })

const exportContacts = (query: ListQuery) =>
  keysetRows((after: (ContactRow & { readonly sortKey: string }) | undefined) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const filters = [
        ...filtersOf(sql, query),
        ...(after === undefined ? [] : [sql`(submitted_at, id) < (CAST(${after.sortKey} AS timestamptz), ${after.id}::uuid)`])
      ]
      return yield* sql<ContactRow & { readonly sortKey: string }>`
        SELECT ${sql.unsafe(columns)}, submitted_at::text AS sort_key FROM core_team_contacts WHERE ${sql.and(filters)}
        ORDER BY submitted_at DESC, id DESC LIMIT ${EXPORT_BATCH}`
    }))

/** A contact as one CSV line's record: the nested fields flattened, named as the API nests them. */
const exportRecord = (row: ContactRow) => {
  const contact = contactOf(row)
  return {
    _id: contact._id, "contactInfo.name": contact.contactInfo.name, "contactInfo.email": contact.contactInfo.email,
    "contactInfo.organization": contact.contactInfo.organization, "contactInfo.role": contact.contactInfo.role,
    "inquiry.category": contact.inquiry.category, "inquiry.priority": contact.inquiry.priority, "inquiry.subject": contact.inquiry.subject,
    "inquiry.details": contact.inquiry.details, "projectInfo.name": contact.projectInfo.name, "projectInfo.website": contact.projectInfo.website,
    status: contact.status, submittedAt: contact.submittedAt, respondedAt: contact.respondedAt, resolvedAt: contact.resolvedAt,
    assignedTo: contact.assignedTo, followUpRequired: contact.followUpRequired, expectedResponseTime: contact.expectedResponseTime, version: contact.version
  }
}
const exportFields = [
  "_id", "contactInfo.name", "contactInfo.email", "contactInfo.organization", "contactInfo.role", "inquiry.category", "inquiry.priority",
  "inquiry.subject", "inquiry.details", "projectInfo.name", "projectInfo.website", "status", "submittedAt", "respondedAt", "resolvedAt",
  "assignedTo", "followUpRequired", "expectedResponseTime", "version"
] as const satisfies ReadonlyArray<keyof ReturnType<typeof exportRecord>>

const find = (id: string) =>
  Effect.flatMap(SqlClient, (sql) => sql<ContactRow>`SELECT ${sql.unsafe(columns)} FROM core_team_contacts WHERE id = ${id}`).pipe(Effect.map((rows) => rows[0]))

const missed = (id: string) =>
  Effect.flatMap(find(id), (current): Effect.Effect<never, NotFound | Conflict> =>
    current === undefined ? Effect.fail(new NotFound({ error: messages.notFound })) : Effect.fail(new Conflict({ error: messages.stale })))

/** What a contact says and who sent it: an admin's to change (the priority is handling). */
const contentColumns = [
  "contactName", "contactEmail", "contactOrganization", "contactRole", "category", "subject", "details",
  "projectName", "projectStage", "piIntegration", "projectWebsite"
] as const

const changesContent = (before: ContactRow, content: ReturnType<typeof submissionColumns>, submittedAt: Date) =>
  contentColumns.some((column) => content[column] !== before[column]) || submittedAt.getTime() !== before.submittedAt.getTime()

export const ContactHandlers = HttpApiBuilder.group(AdminApi, "contacts", (handlers) =>
  handlers
    .handle("list", ({ query }) =>
      Effect.flatMap(wantsCsv(query.format), (csv) =>
        csv
          ? csvResponse({ name: "core-team-contacts", fields: exportFields, record: exportRecord, rows: exportContacts(query) })
          : Effect.map(listContacts(query), (data) => HttpServerResponse.jsonUnsafe({ success: true as const, data }))).pipe(Effect.orDie))
    .handle("create", ({ payload }) =>
      Effect.gen(function*() {
        const staff = yield* optionalSession
        const ip = yield* clientIp
        // A public message was counted against its address before the body was read (server/auth/public-forms.ts).
        if (staff !== undefined) yield* Effect.provideService(requireAdmin, CurrentSession, staff)
        const id = randomUUID()
        // The public site sends who, what and which project; the rest is the spec's defaults.
        const handling = staff === undefined ? handlingColumns({ contactInfo: payload.contactInfo, inquiry: payload.inquiry }) : handlingColumns(payload)
        yield* Effect.gen(function*() {
          const sql = yield* SqlClient
          yield* sql`INSERT INTO core_team_contacts ${sql.insert({
            id,
            ...submissionColumns(payload),
            ...handling,
            ...stamps(handling.status, undefined),
            ipAddress: ip
          })}`
          const event = { action: "contact.create" as const, entityId: id, toState: handling.status }
          if (staff === undefined) yield* recordActivity({ ...event, actorId: null, actorEmail: null, ip })
          else yield* Effect.provideService(recordAdminActivity(event), CurrentSession, staff)
        }).pipe(inTransaction)
        return { success: true as const, message: messages.received, data: { _id: id } }
      }).pipe(Effect.catchTag("SqlError", Effect.die)))
    .handle("one", ({ params }) =>
      Effect.flatMap(find(params.id), (row) =>
        row === undefined ? Effect.fail(new NotFound({ error: messages.notFound })) : Effect.succeed({ success: true as const, data: { contact: contactOf(row) } })
      ).pipe(Effect.catchTag("SqlError", Effect.die)))
    .handle("update", ({ params, payload }) =>
      Effect.gen(function*() {
        const session = yield* CurrentSession
        const sql = yield* SqlClient
        const before = yield* find(params.id)
        if (before === undefined) return yield* new NotFound({ error: messages.notFound })
        // A change made on an old copy is stale before it is anything else.
        if (before.version !== payload.version) return yield* new Conflict({ error: messages.stale })
        const content = submissionColumns(payload)
        const handling = handlingColumns({ ...payload, submittedAt: payload.submittedAt ?? before.submittedAt.toISOString() })
        // Moderators handle a contact; what it says and who sent it are an admin's to change.
        if (session.user.role === "moderator" && changesContent(before, content, handling.submittedAt)) return yield* new Forbidden({ error: messages.handlingOnly })
        const rows = yield* sql<ContactRow>`UPDATE core_team_contacts SET ${sql.update({
          ...content,
          ...handling,
          ...stamps(handling.status, before),
          updatedAt: new Date()
        })}, version = version + 1
          WHERE id = ${params.id} AND version = ${payload.version} RETURNING ${sql.unsafe(columns)}`
        const row = rows[0]
        if (row === undefined) return yield* missed(params.id)
        yield* recordAdminActivity({
          action: before.status === row.status ? "contact.update" : "contact.status",
          entityId: row.id,
          fromState: before.status,
          toState: row.status,
          details: { version: row.version }
        })
        return { success: true as const, data: { contact: contactOf(row) } }
      }).pipe(inTransaction, Effect.catchTag("SqlError", Effect.die)))
    .handle("remove", ({ params, query }) =>
      Effect.gen(function*() {
        yield* requireAdmin
        const sql = yield* SqlClient
        const rows = yield* sql<ContactRow>`DELETE FROM core_team_contacts WHERE id = ${params.id} AND version = ${query.version} RETURNING ${sql.unsafe(columns)}`
        if (rows[0] === undefined) return yield* missed(params.id)
        yield* recordAdminActivity({ action: "contact.delete", entityId: params.id, fromState: rows[0].status, toState: null })
        return { success: true as const }
      }).pipe(inTransaction, Effect.catchTag("SqlError", Effect.die))))
