import type { ScamReport, ScamReportPage } from "../../contract/scam-reports.ts"
import reportPage from "virtual:answer-schemas/reportPage"
import { getChecked } from "./checked-answer.ts"
import { getCsv } from "./csv.ts"
import { reportPagePath } from "./list-paths.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"
import type { ReportChange } from "../../machines/scam-report.ts"
import type { CommandInput } from "../lib/store/console-store.ts"
import { callTo } from "./endpoints.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")
import type { CallAs, CsvFile } from "./client.ts"

export interface ScamReportsPage extends ListPage<ScamReport> {
  readonly statusCounts: ReadonlyArray<{ readonly _id: string; readonly count: number }>
  readonly scamTypeCounts: ReadonlyArray<{ readonly _id: string; readonly count: number }>
}

/** The screen's CSV: every report its search and filters match. */
export const exportScamReports = (q: ListQuery): Promise<CsvFile> => getCsv(reportPagePath(q), "scam-reports.csv")

/** A page of reports (20) with the counts of all reports by status and by type: the one start-up asked for if it is this one, else a request checked the same way. */
export const listScamReports = async (q: ListQuery): Promise<ScamReportsPage> => {
  const answer = await getChecked<{ readonly data: ScamReportPage["data"] }>(reportPagePath(q), reportPage)
  return {
    rows: answer.data.reports,
    pagination: answer.data.pagination,
    statusCounts: answer.data.statusCounts,
    scamTypeCounts: answer.data.scamTypeCounts
  }
}

/** The store's kind for scam reports: the change stream's area (contract/stream.ts). */
export const REPORT_KIND = "scam-report"

/**
 * A status or priority change as a command (docs/architecture.md, "The browser's store"), naming
 * the version the person saw after their own changes still on their way.
 */
export const reportChangeCommand = (
  change: Exclude<ReportChange, { readonly field: "notes" }>,
  version: number,
  words: { readonly label: string; readonly failed: string }
): CommandInput => ({
  kind: REPORT_KIND,
  recordIds: [change.report._id],
  ...callTo("reportChange", { id: change.report._id }),
  body: { [change.field]: change.value, version },
  effect: { [change.field]: change.value },
  answer: "data.report",
  ...words
})

/** The admin notes of one report, at the version the details opened at; `as`: what it does in the browser's store. */
export const saveReportNotes = async (change: ReportChange, as?: CallAs): Promise<unknown> => {
  const { callApi } = await api()
  const answer = await callApi(
    (client) => client.scamReports.change({ params: { id: change.report._id }, payload: { notes: change.value, version: change.report.version } }),
    as
  )
  return answer.data.report
}

/** The other reports on the same wallet or naming an address of its evidence, newest first. */
export const relatedScamReports = async (id: string): Promise<ReadonlyArray<ScamReport>> => {
  const { callListApi } = await api()
  return (await callListApi((client) => client.scamReports.related({ params: { id } }))).data.reports
}

/** One report as staff see it (a card refreshed after another admin's change). */
export const oneScamReport = async (id: string): Promise<ScamReport> => {
  const { callApi } = await api()
  return (await callApi((client) => client.scamReports.one({ params: { id } }))).data.report
}
