import type { ScamReport, ScamReportPriority, ScamReportStatus } from "../../contract/scam-reports.ts"
import { scamReportPriorities, scamReportStatuses } from "../../contract/scam-report-rules.ts"
import { triageErrors } from "../../machines/scam-report.ts"
import { reportChangeCommand } from "../api/scam-reports.ts"
import type { Decision } from "./decision.ts"

/** A report's statuses and priorities in the spec's words (docs/product-spec.md §2 "Scam Reports"). */
export const reportStatusWords = {
  new: "New",
  under_review: "Under Review",
  resolved: "Resolved",
  dismissed: "Dismissed"
} as const satisfies Record<ScamReportStatus, string>
export const reportPriorityWords = { low: "Low", normal: "Normal", high: "High", urgent: "Urgent" } as const satisfies Record<ScamReportPriority, string>

/** The decision that sets `field` to `value`. */
export const reportDecision = (change: { readonly field: "status" | "priority"; readonly value: string }): Decision<ScamReport> | undefined =>
  reportDecisions.find((decision) => decision.id === `scam-report:${change.field}:${change.value}`)

/** A report's notes with a reason added on a line of its own. */
const withReason = (notes: string, reason: string) => (notes === "" ? reason : `${notes}\n${reason}`)

/**
 * `1`–`4` the status (a dismissal asks a reason, kept in the admin notes after it; back to New
 * is not a decision), Shift+`1`–`4` the priority (never a decision: the report stays current).
 */
export const reportStatusDecisions: ReadonlyArray<Decision<ScamReport>> = scamReportStatuses.map((status, at): Decision<ScamReport> => ({
  id: `scam-report:status:${status}`,
  key: String(at + 1),
  name: `Set status ${reportStatusWords[status]}`,
  hint: "set the status (new, under review, resolved, dismissed)",
  when: (report) => report.status !== status,
  asksReason: status === "dismissed",
  movesOn: status !== "new",
  ...(status === "new" ? { stays: (title: string) => `${title} is back to New: not a decision, so it stays current.` } : {}),
  commands: (report, { title, reason }) => {
    const changed = reportChangeCommand({ field: "status", value: status, report }, report.version, {
      label: `${reportStatusWords[status]}: ${title}`,
      failed: triageErrors.status
    })
    if (reason === "") return [changed]
    // The reason goes in the notes, after the status (the store names the version it makes).
    const notes = withReason(report.adminNotes, reason)
    return [
      changed,
      { ...changed, body: { notes, version: report.version }, effect: { adminNotes: notes }, label: `Admin Notes: ${title}`, failed: triageErrors.notes }
    ]
  }
}))

export const reportPriorityDecisions: ReadonlyArray<Decision<ScamReport>> = scamReportPriorities.map((priority, at): Decision<ScamReport> => ({
  id: `scam-report:priority:${priority}`,
  key: `shift+${at + 1}`,
  name: `Set priority ${reportPriorityWords[priority]}`,
  hint: "set the priority (low, normal, high, urgent): the report stays current until j/k",
  when: (report) => report.priority !== priority,
  asksReason: false,
  movesOn: false,
  commands: (report, { title }) => [
    reportChangeCommand({ field: "priority", value: priority, report }, report.version, {
      label: `${reportPriorityWords[priority]}: ${title}`,
      failed: triageErrors.priority
    })
  ]
}))

export const reportDecisions: ReadonlyArray<Decision<ScamReport>> = [...reportStatusDecisions, ...reportPriorityDecisions]
