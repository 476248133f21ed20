import type { ScamReport, ScamReportPriority, ScamReportStatus, ScamType } from "../../contract/scam-reports.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"
import type { ChangedReport, ReportChange } from "../../machines/scam-report.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")
import type { CsvFile } from "./client.ts"

export interface ScamReportsPage extends ListPage<ScamReport> {
  readonly statusCounts: ReadonlyArray<{ readonly _id: string; readonly count: number }>
  readonly scamTypeCounts: ReadonlyArray<{ readonly _id: string; readonly count: number }>
}

/** The screen's filters as the API takes them; a filter not set is "all", as the spec's screen sends it. */
const filtersOf = (q: ListQuery) => ({
  status: (q.filters.status ?? "all") as ScamReportStatus | "all",
  scamType: (q.filters.scamType ?? "all") as ScamType | "all",
  priority: (q.filters.priority ?? "all") as ScamReportPriority | "all",
  ...(q.search.trim() === "" ? {} : { search: q.search.trim() })
})

/** The screen's CSV: every report its search and filters match. */
export const exportScamReports = async (q: ListQuery): Promise<CsvFile> => {
  const { callCsvApi } = await api()
  return callCsvApi("scam-reports.csv", (client) =>
    client.scamReports.list({ query: { ...filtersOf(q), format: "csv" }, responseMode: "decoded-and-response" })
  )
}

/** A page of reports (20) with the counts of all reports by status and by type. */
export const listScamReports = async (q: ListQuery): Promise<ScamReportsPage> => {
  const { callListApi } = await api()
  const answer = await callListApi((client) => client.scamReports.list({ query: { ...filtersOf(q), ...(q.page > 1 ? { page: q.page } : {}) } }))
  return {
    rows: answer.data.reports,
    pagination: answer.data.pagination,
    statusCounts: answer.data.statusCounts,
    scamTypeCounts: answer.data.scamTypeCounts
  }
}

/** One change of one report (status, priority or notes) at the version it was read. */
export const changeScamReport = async (change: ReportChange): Promise<ChangedReport> => {
  const { callApi } = await api()
  const payload =
    change.field === "notes"
      ? { notes: change.value, version: change.report.version }
      : change.field === "status"
        ? { status: change.value, version: change.report.version }
        : { priority: change.value, version: change.report.version }
  const answer = await callApi((client) => client.scamReports.change({ params: { id: change.report._id }, payload }))
  return answer.data.report
}

/** One report as staff see it (a card refreshed after another admin's change). */
export const oneScamReport = async (id: string): Promise<ScamReport> => {
  const { callApi } = await api()
  return (await callApi((client) => client.scamReports.one({ params: { id } }))).data.report
}
