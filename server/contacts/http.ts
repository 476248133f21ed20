import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { randomUUID } from "node:crypto"
import { AdminApi } from "../../contract/api.ts"
import { CurrentSession } from "../../contract/auth.ts"
import { Forbidden, NotFound } from "../../contract/common.ts"
import { type ContactInput, contactMessages as messages } from "../../contract/contacts.ts"
import type { ContactStatus } from "../../contract/contact-rules.ts"
import { Submitter } from "../../contract/public-forms.ts"
import { requireEditor as requireEditorOf } from "../auth/roles.ts"
import { createRecord, removeRecord, updateRecord } from "../platform/record-writes.ts"
import { clientIp } from "../platform/client-address.ts"
import { csvResponse, wantsCsv } from "../platform/lists.ts"
import { type ContactRow, contactOf, listContacts, exportContacts, find, contactTable } from "./repository.ts"

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

/** A contact as one CSV line's record: the nested fields flattened, named as the API nests them. */
const exportRecord = (row: ContactRow) => {
  const contact = contactOf(row)
  return {
    _id: contact._id,
    "contactInfo.name": contact.contactInfo.name,
    "contactInfo.email": contact.contactInfo.email,
    "contactInfo.organization": contact.contactInfo.organization,
    "contactInfo.role": contact.contactInfo.role,
    "inquiry.category": contact.inquiry.category,
    "inquiry.priority": contact.inquiry.priority,
    "inquiry.subject": contact.inquiry.subject,
    "inquiry.details": contact.inquiry.details,
    "projectInfo.name": contact.projectInfo.name,
    "projectInfo.website": contact.projectInfo.website,
    status: contact.status,
    submittedAt: contact.submittedAt,
    respondedAt: contact.respondedAt,
    resolvedAt: contact.resolvedAt,
    assignedTo: contact.assignedTo,
    followUpRequired: contact.followUpRequired,
    expectedResponseTime: contact.expectedResponseTime,
    version: contact.version
  }
}
const exportFields = [
  "_id",
  "contactInfo.name",
  "contactInfo.email",
  "contactInfo.organization",
  "contactInfo.role",
  "inquiry.category",
  "inquiry.priority",
  "inquiry.subject",
  "inquiry.details",
  "projectInfo.name",
  "projectInfo.website",
  "status",
  "submittedAt",
  "respondedAt",
  "resolvedAt",
  "assignedTo",
  "followUpRequired",
  "expectedResponseTime",
  "version"
] as const satisfies ReadonlyArray<keyof ReturnType<typeof exportRecord>>

/** What a contact says and who sent it: an admin's to change (the priority is handling). */
const contentColumns = [
  "contactName",
  "contactEmail",
  "contactOrganization",
  "contactRole",
  "category",
  "subject",
  "details",
  "projectName",
  "projectStage",
  "piIntegration",
  "projectWebsite"
] as const

const changesContent = (before: ContactRow, content: ReturnType<typeof submissionColumns>, submittedAt: Date) =>
  contentColumns.some((column) => content[column] !== before[column]) || submittedAt.getTime() !== before.submittedAt.getTime()

export const ContactHandlers = HttpApiBuilder.group(AdminApi, "contacts", (handlers) =>
  handlers
    .handle("list", ({ query }) =>
      Effect.flatMap(wantsCsv(query.format), (csv) =>
        csv
          ? csvResponse({ name: "core-team-contacts", fields: exportFields, record: exportRecord, rows: exportContacts(query) })
          : Effect.map(listContacts(query), (data) => HttpServerResponse.jsonUnsafe({ success: true as const, data }))
      )
    )
    .handle("create", ({ payload }) =>
      Effect.gen(function* () {
        // Staff's token was checked, and a public message counted against its address, before the body was read (server/auth/public-forms.ts).
        const staff = (yield* Submitter).session
        const ip = yield* clientIp
        if (staff !== undefined) yield* Effect.provideService(requireAdmin, CurrentSession, staff)
        // The public site sends who, what and which project; the rest is the spec's defaults.
        const handling = staff === undefined ? handlingColumns({ contactInfo: payload.contactInfo, inquiry: payload.inquiry }) : handlingColumns(payload)
        const { row } = yield* createRecord<ContactRow>(contactTable, {
          values: { id: randomUUID(), ...submissionColumns(payload), ...handling, ...stamps(handling.status, undefined), ipAddress: ip },
          events: (row) => ({ action: "contact.create", entityId: row.id, toState: row.status }),
          actor: staff === undefined ? { ip } : { session: staff }
        })
        return { success: true as const, message: messages.received, data: { _id: row.id } }
      })
    )
    .handle("one", ({ params }) =>
      Effect.flatMap(find(params.id), (row) =>
        row === undefined
          ? Effect.fail(new NotFound({ error: messages.notFound }))
          : Effect.succeed({ success: true as const, data: { contact: contactOf(row) } })
      )
    )
    .handle("update", ({ params, payload }) =>
      Effect.gen(function* () {
        const session = yield* CurrentSession
        const content = submissionColumns(payload)
        const handlingOf = (before: ContactRow) => handlingColumns({ ...payload, submittedAt: payload.submittedAt ?? before.submittedAt.toISOString() })
        const { after } = yield* updateRecord<ContactRow, Forbidden>(contactTable, {
          id: params.id,
          expectedVersion: payload.version,
          // Moderators handle a contact; what it says and who sent it are an admin's to change.
          refuse: (before) =>
            session.user.role === "moderator" && changesContent(before, content, handlingOf(before).submittedAt)
              ? Effect.fail(new Forbidden({ error: messages.handlingOnly }))
              : Effect.void,
          changes: (before) => {
            const handling = handlingOf(before)
            return { ...content, ...handling, ...stamps(handling.status, before) }
          },
          events: (before, after) => ({
            action: before.status === after.status ? "contact.update" : "contact.status",
            entityId: after.id,
            fromState: before.status,
            toState: after.status,
            details: { version: after.version }
          })
        })
        return { success: true as const, data: { contact: contactOf(after) } }
      })
    )
    .handle("remove", ({ params, query }) =>
      Effect.gen(function* () {
        yield* requireAdmin
        yield* removeRecord<ContactRow>(contactTable, {
          id: params.id,
          expectedVersion: query.version,
          events: (before) => ({ action: "contact.delete", entityId: before.id, fromState: before.status, toState: null })
        })
        return { success: true as const }
      })
    )
)
