import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { randomUUID } from "node:crypto"
import { inquiryMessages as messages, type InquirySubmission } from "../../contract/advertising.ts"
import { AdminApi } from "../../contract/api.ts"
import { Conflict, NotFound } from "../../contract/common.ts"
import { canMoveInquiry, type InquiryStatus } from "../../contract/advertising-rules.ts"
import { createRecord, updateRecord } from "../platform/record-writes.ts"
import { clientIp } from "../platform/client-address.ts"
import { csvResponse, wantsCsv } from "../platform/lists.ts"
import { type InquiryRow, inquiryOf, type ListQuery, listInquiries, exportInquiries, find, inquiryTable } from "./repository.ts"

const exportFields = [
  "_id",
  "companyName",
  "contactName",
  "email",
  "phone",
  "website",
  "industry",
  "budget",
  "campaignType",
  "duration",
  "selectedPlan",
  "targetAudience",
  "campaignGoals",
  "additionalInfo",
  "status",
  "adminNotes",
  "paymentId",
  "txid",
  "amount",
  "createdAt",
  "updatedAt",
  "version"
] as const

const list = (query: ListQuery & { readonly format?: "json" | "csv" | undefined }) =>
  Effect.flatMap(wantsCsv(query.format), (csv) =>
    csv
      ? csvResponse({ name: "advertising-inquiries", fields: exportFields, record: inquiryOf, rows: exportInquiries(query) })
      : Effect.map(listInquiries(query), (data) => HttpServerResponse.jsonUnsafe({ success: true as const, data }))
  )

/**
 * Moves an inquiry on as contract/advertising-rules.ts allows (the same status keeps it, for the
 * notes), at the version it was read, logging the move in its transaction.
 */
const move = (id: string, change: { readonly status: InquiryStatus; readonly adminNotes?: string | undefined; readonly version: number }) =>
  Effect.map(
    updateRecord<InquiryRow, Conflict>(inquiryTable, {
      id,
      expectedVersion: change.version,
      refuse: (before) =>
        canMoveInquiry(before.status, change.status) ? Effect.void : Effect.fail(new Conflict({ error: messages.illegal(before.status, change.status) })),
      changes: () => ({ status: change.status, ...(change.adminNotes === undefined ? {} : { adminNotes: change.adminNotes.trim() }) }),
      events: (before, row) => ({
        action: before.status === row.status ? "inquiry.notes" : "inquiry.status",
        entityId: row.id,
        fromState: before.status,
        toState: row.status,
        details: { version: row.version }
      })
    }),
    ({ after }) => ({ success: true as const, data: { inquiry: inquiryOf(after) } })
  )

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
  status: textOf(payload.paymentId) !== "" && textOf(payload.txid) !== "" ? ("paid" as const) : ("pending" as const)
})

export const AdvertisingHandlers = HttpApiBuilder.group(AdminApi, "advertising", (handlers) =>
  handlers
    .handle("submit", ({ payload }) =>
      Effect.gen(function* () {
        // Counted against the address before the body was read (server/auth/public-forms.ts).
        const ip = yield* clientIp
        const { row } = yield* createRecord<InquiryRow>(inquiryTable, {
          values: { id: randomUUID(), ...submission(payload), ipAddress: ip },
          events: (created) => ({ action: "inquiry.create", entityId: created.id, toState: created.status }),
          actor: { ip }
        })
        return { success: true as const, message: messages.received, data: { _id: row.id } }
      })
    )
    .handle("list", ({ query }) => list(query))
    .handle("adminList", ({ query }) => list(query))
    .handle("one", ({ params }) =>
      Effect.flatMap(find(params.id), (row) =>
        row === undefined
          ? Effect.fail(new NotFound({ error: messages.notFound }))
          : Effect.succeed({ success: true as const, data: { inquiry: inquiryOf(row) } })
      )
    )
    .handle("update", ({ params, payload }) => move(params.id, payload))
    .handle("adminStatus", ({ params, payload }) => move(params.id, payload))
)
