import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { randomUUID } from "node:crypto"
import { AdminApi } from "../../contract/api.ts"
import { BadRequest, NotFound } from "../../contract/common.ts"
import { scamReportMessages as messages } from "../../contract/scam-reports.ts"
import { requireEditor as requireEditorOf } from "../auth/roles.ts"
import { clientIp } from "../platform/client-address.ts"
import { createRecord, removeRecord, updateRecord } from "../platform/record-writes.ts"
import { csvResponse, wantsCsv } from "../platform/lists.ts"
import { type ReportRow, reportOf, listReports, exportReports, find, relatedReports, reportTable } from "./repository.ts"

const requireAdmin = requireEditorOf(messages.readOnly)

/** The columns of a report export, named as the API names them. */
const exportFields = [
  "_id",
  "scamType",
  "description",
  "evidence",
  "walletAddress",
  "reporterContact",
  "ipAddress",
  "status",
  "priority",
  "adminNotes",
  "createdAt",
  "updatedAt",
  "version"
] as const

export const ScamReportHandlers = HttpApiBuilder.group(AdminApi, "scamReports", (handlers) =>
  handlers
    .handle("report", ({ payload }) =>
      Effect.gen(function* () {
        // Counted against the address before the body was read (server/auth/public-forms.ts).
        const ip = yield* clientIp
        // The reporter's fields only; status new and priority normal are the table's defaults.
        const { row } = yield* createRecord<ReportRow>(reportTable, {
          values: {
            id: randomUUID(),
            scamType: payload.scamType,
            description: payload.description.trim(),
            evidence: payload.evidence?.trim() ?? "",
            walletAddress: payload.walletAddress?.trim() ?? "",
            reporterContact: payload.reporterContact?.trim() ?? "",
            ipAddress: ip
          },
          events: (created) => ({ action: "scam-report.create", entityId: created.id, toState: created.status }),
          actor: { ip }
        })
        return { success: true as const, message: messages.received, data: { _id: row.id } }
      })
    )
    .handle("list", ({ query }) =>
      Effect.flatMap(wantsCsv(query.format), (csv) =>
        csv
          ? csvResponse({ name: "scam-reports", fields: exportFields, record: reportOf, rows: exportReports(query) })
          : Effect.map(listReports(query), (data) => HttpServerResponse.jsonUnsafe({ success: true as const, data }))
      )
    )
    .handle("one", ({ params }) =>
      Effect.flatMap(find(params.id), (row) =>
        row === undefined
          ? Effect.fail(new NotFound({ error: messages.notFound }))
          : Effect.succeed({ success: true as const, data: { report: reportOf(row) } })
      )
    )
    .handle("related", ({ params }) =>
      Effect.gen(function* () {
        const report = yield* find(params.id)
        if (report === undefined) return yield* new NotFound({ error: messages.notFound })
        return { success: true as const, data: { reports: (yield* relatedReports(report)).map(reportOf) } }
      })
    )
    .handle("change", ({ params, payload }) =>
      Effect.gen(function* () {
        const given = (["status", "priority", "notes"] as const).filter((field) => payload[field] !== undefined)
        if (given.length !== 1) return yield* new BadRequest({ error: messages.oneChange })
        const field = given[0]!
        const column = field === "notes" ? "adminNotes" : field
        const value = field === "notes" ? payload.notes!.trim() : payload[field]!
        const { after } = yield* updateRecord<ReportRow>(reportTable, {
          id: params.id,
          expectedVersion: payload.version,
          changes: () => ({ [column]: value }),
          events: (before, row) => ({
            action: `scam-report.${field}`,
            entityId: row.id,
            fromState: field === "notes" ? null : before[field],
            toState: field === "notes" ? null : row[field],
            details: { version: row.version, ...(field === "notes" ? { notes: row.adminNotes } : {}) }
          })
        })
        return { success: true as const, data: { report: reportOf(after) } }
      })
    )
    .handle("remove", ({ params, query }) =>
      Effect.gen(function* () {
        yield* requireAdmin
        yield* removeRecord<ReportRow>(reportTable, {
          id: params.id,
          expectedVersion: query.version,
          events: (before) => ({ action: "scam-report.delete", entityId: before.id, fromState: before.status, toState: null })
        })
        return { success: true as const }
      })
    )
)
