import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import {
  BadRequest,
  Conflict,
  Forbidden,
  Id,
  ListFormat,
  LongText,
  NotFound,
  Ok,
  PageNumber,
  PageSize,
  Pagination,
  RecordId,
  RequiredLongText,
  SearchText,
  ShortText,
  Text,
  Timestamp,
  TooManyRequests,
  Version,
  VersionParam
} from "./common.ts"
import { CsvExport } from "./lists.ts"
import { formLimits, PublicForm, PublicFormLimit } from "./public-forms.ts"
import { triageFields } from "./triage-rules.ts"
import { scamReportPriorities, scamReportStatuses, scamTypeLabels, scamTypes } from "./scam-report-rules.ts"

export const ScamReportStatus = Schema.Literals(scamReportStatuses)
export type ScamReportStatus = typeof ScamReportStatus.Type

export const ScamReportPriority = Schema.Literals(scamReportPriorities)
export type ScamReportPriority = typeof ScamReportPriority.Type

export { scamTypeLabels }
export const ScamType = Schema.Literals(scamTypes)
export type ScamType = typeof ScamType.Type

/** What the public site sends (docs/product-spec.md §3); the server adds the rest. */
export const ScamReportInput = Schema.Struct({
  scamType: ScamType,
  description: RequiredLongText,
  evidence: Schema.optionalKey(LongText),
  walletAddress: Schema.optionalKey(Text(200)),
  reporterContact: Schema.optionalKey(ShortText)
})
export type ScamReportInput = typeof ScamReportInput.Type

/** A report as staff see it: the reporter's client address included, which no public answer carries. */
export const ScamReport = Schema.Struct({
  _id: Id,
  scamType: ScamType,
  description: RequiredLongText,
  evidence: LongText,
  walletAddress: Schema.String,
  reporterContact: Schema.String,
  ipAddress: Schema.String,
  status: ScamReportStatus,
  priority: ScamReportPriority,
  adminNotes: LongText,
  ...triageFields,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Version
})
export type ScamReport = typeof ScamReport.Type

const Count = Schema.Struct({ _id: Schema.String, count: Schema.Int })

export const ScamReportList = Schema.Struct({
  reports: Schema.Array(ScamReport),
  pagination: Pagination,
  statusCounts: Schema.Array(Count),
  scamTypeCounts: Schema.Array(Count)
})

/** A page of reports with the counts of all reports by status and by type. */
export const ScamReportPage = Schema.Struct({ success: Schema.Literal(true), data: ScamReportList })
export type ScamReportPage = typeof ScamReportPage.Type

/** A filter's value, or "all" for none (the spec's screens send "all"). */
const orAll = <S extends Schema.Top>(values: S) => Schema.optionalKey(Schema.Union([values, Schema.Literal("all")]))

/** What the Details modal's form saves: the admin notes (the console checks them with this). */
export const ScamNotesInput = Schema.Struct({ notes: LongText })

/** One change of a report: exactly one of status, priority or notes, with the version it was read at. */
export const ScamReportChange = Schema.Struct({
  status: Schema.optionalKey(ScamReportStatus),
  priority: Schema.optionalKey(ScamReportPriority),
  notes: Schema.optionalKey(ScamNotesInput.fields.notes),
  version: Version
})

const oneReport = Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ report: ScamReport }) })

export const scamReportMessages = {
  oneChange: "Send exactly one of status, priority or notes.",
  stale: "This report was changed by someone else since you read it.",
  notFound: "This report no longer exists. Reload the list.",
  readOnly: "Only admins may delete reports.",
  received: "Thank you: your report has been received."
} as const

/** Scam reports (docs/product-spec.md §2 "Scam Reports"): public reporting, staff triage. */
export class ScamReportsApi extends HttpApiGroup.make("scamReports")
  .add(
    HttpApiEndpoint.post("report", "/api/report-scam", {
      payload: ScamReportInput,
      success: Schema.Struct({ success: Schema.Literal(true), message: Schema.String, data: Schema.Struct({ _id: Id }) }),
      error: [BadRequest, TooManyRequests]
    })
      .middleware(PublicForm)
      .annotate(PublicFormLimit, formLimits.scamReport)
      .annotate(OpenApi.Summary, "Report a scam (no token; limited per client address)"),
    HttpApiEndpoint.get("list", "/api/report-scam", {
      query: {
        page: Schema.optionalKey(PageNumber),
        limit: Schema.optionalKey(PageSize),
        search: Schema.optionalKey(SearchText),
        status: orAll(ScamReportStatus),
        scamType: orAll(ScamType),
        priority: orAll(ScamReportPriority),
        format: Schema.optionalKey(ListFormat)
      },
      success: [ScamReportPage, CsvExport]
    })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "List reports (status, type, priority, search, page) with the counts of all reports; ?format=csv exports every match"),
    HttpApiEndpoint.get("one", "/api/report-scam/:id", {
      params: { id: RecordId },
      success: oneReport,
      error: [NotFound]
    })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "One report as staff see it (a console refreshing a card after a change notice)"),
    HttpApiEndpoint.get("related", "/api/report-scam/:id/related", {
      params: { id: RecordId },
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ reports: Schema.Array(ScamReport) }) }),
      error: [NotFound]
    })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "The other reports on the same wallet address or naming an address of its evidence, newest first (at most 50)"),
    HttpApiEndpoint.patch("change", "/api/report-scam/:id", {
      params: { id: RecordId },
      payload: ScamReportChange,
      success: oneReport,
      error: [BadRequest, Conflict, NotFound]
    })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "Change a report's status, priority or notes, naming the version it was read at"),
    HttpApiEndpoint.delete("remove", "/api/report-scam/:id", {
      params: { id: RecordId },
      query: { version: VersionParam },
      success: Ok,
      error: [Forbidden, Conflict, NotFound]
    })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "Delete a report (admins), naming the version it was read at")
  )
  .annotate(OpenApi.Title, "Scam reports")
  .annotate(OpenApi.Description, "Scams reported by the public, triaged by staff.") {}
