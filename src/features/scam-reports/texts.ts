import type { ScamReport, ScamReportPriority, ScamReportStatus } from "../../../contract/scam-reports.ts"
import { fetchFailed } from "../../lib/failure-words.ts"
import { reportPriorityWords, reportStatusWords } from "../../kinds/scam-reports.ts"

/** What the history dialog calls a report: its wallet address, or its type when it named none. */
export const reportLabel = (report: ScamReport) => report.walletAddress || report.scamType

/** The scam-report screen's texts; quoted ones are docs/product-spec.md's exact words (§2, §8). */
export const scamTexts = {
  title: "Scam Reports Management",
  refresh: "Refresh",
  loading: "Loading reports...",
  loadFailed: fetchFailed("reports"),
  empty: "No reports found",
  emptyFiltered: "No scam reports match the current filters",
  countsLabel: "Reports by status",
  total: "Total",
  statuses: reportStatusWords,
  priorities: reportPriorityWords,
  filters: { status: "Status", scamType: "Scam type", priority: "Priority" },
  allOf: (label: string) => `All ${label === "Status" ? "statuses" : label === "Priority" ? "priorities" : "types"}`,
  searchLabel: "Search reports",
  searchPlaceholder: "Search description, wallet, contact...",
  title8: (id: string) => `Report #${id.slice(-8)}`,
  statusOf: (title: string) => `Status of ${title}`,
  priorityOf: (title: string) => `Priority of ${title}`,
  details: "Details",
  detailsHint: "Enter",
  wallet: "Wallet",
  contact: "Contact",
  evidence: "Evidence",
  ipAddress: "Reported from",
  reported: (date: string) => `Reported ${date}`,
  type: "Type",
  adminNotes: "Admin Notes",
  notesPlaceholder: "What was checked, who was told…",
  saveNotes: "Save notes",
  savingNotes: "Saving…",
  close: "Close",
  dismiss: "Dismiss",
  newReports: (count: number) => `${count} new ${count === 1 ? "report" : "reports"}`
} as const

/** The spec's colours (§4): status new blue, under review yellow, resolved green, dismissed gray. */
export const statusColors = { new: "blue", under_review: "yellow", resolved: "green", dismissed: "gray" } as const satisfies Record<ScamReportStatus, string>
/** Priority low gray, normal blue, high orange, urgent red. */
export const priorityColors = { low: "gray", normal: "blue", high: "orange", urgent: "red" } as const satisfies Record<ScamReportPriority, string>
