import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { dieOnSqlError } from "../platform/database.ts"
import { CONTACTS_PAGE_SIZE, contactMessages as messages, type CoreTeamContact } from "../../contract/contacts.ts"
import type { ContactStatus } from "../../contract/contact-rules.ts"
import { type VersionedTable } from "../platform/record-writes.ts"
import { triageColumns, triageOf, type TriageRow } from "../platform/triage-fields.ts"
import { EXPORT_BATCH, keysetRows, listFilters, pageWindow, paginate } from "../platform/lists.ts"

/**
 * Core-team contacts in the database: the row, its columns, its answer, the list's page and
 * export, and the table the write path (server/platform/record-writes.ts) changes.
 */

export interface ContactRow extends TriageRow {
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
  response, internal_notes, follow_up_required, expected_response_time, ${triageColumns}, created_at, updated_at, version`

export const contactOf = (row: ContactRow): CoreTeamContact => ({
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
  readonly priority?: string | undefined
}

const filtersOf = (sql: SqlClient, query: ListQuery) =>
  listFilters(
    sql,
    [
      ["status", query.status],
      ["priority", query.priority]
    ],
    query.search
  )

/** A page of contacts, newest submission first, and how many match, in one statement. */
export const listContacts = (query: ListQuery) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const { page, limit, offset } = pageWindow({ ...query, limit: query.limit ?? CONTACTS_PAGE_SIZE })
    const filters = sql.and(filtersOf(sql, query))
    const rows = yield* sql<ContactRow & { readonly matching: number }>`
      SELECT ${sql.unsafe(columns)}, count(*) OVER ()::int AS matching FROM core_team_contacts WHERE ${filters}
      ORDER BY submitted_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
    // A page past the end has no row to carry the count.
    const total =
      rows[0]?.matching ?? (offset === 0 ? 0 : ((yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM core_team_contacts WHERE ${filters}`)[0]?.n ?? 0))
    return { contacts: rows.map(contactOf), pagination: paginate(page, limit, total) }
  }).pipe(dieOnSqlError)

export const exportContacts = (query: ListQuery) =>
  keysetRows((after: (ContactRow & { readonly sortKey: string }) | undefined) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const filters = [
        ...filtersOf(sql, query),
        ...(after === undefined ? [] : [sql`(submitted_at, id) < (CAST(${after.sortKey} AS timestamptz), ${after.id}::uuid)`])
      ]
      return yield* sql<ContactRow & { readonly sortKey: string }>`
        SELECT ${sql.unsafe(columns)}, submitted_at::text AS sort_key FROM core_team_contacts WHERE ${sql.and(filters)}
        ORDER BY submitted_at DESC, id DESC LIMIT ${EXPORT_BATCH}`
    })
  )

export const find = (id: string) =>
  Effect.flatMap(SqlClient, (sql) => sql<ContactRow>`SELECT ${sql.unsafe(columns)} FROM core_team_contacts WHERE id = ${id}`).pipe(
    Effect.map((rows) => rows[0]),
    dieOnSqlError
  )

/** Contacts on the one write path (server/platform/record-writes.ts). */
export const contactTable: VersionedTable = { table: "core_team_contacts", columns, messages: { notFound: messages.notFound, stale: messages.stale } }
