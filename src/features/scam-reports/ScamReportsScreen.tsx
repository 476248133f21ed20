import "./scam-reports.css"
import type { ScamReport } from "../../../contract/scam-reports.ts"
import { scamReportPriorities as priorities, scamReportStatuses as statuses, scamTypeLabels, scamTypes } from "../../../contract/scam-report-rules.ts"
import { reportQuerySpec } from "./first-page.ts"
import { exportScamReports, listScamReports, type ScamReportsPage } from "../../api/scam-reports.ts"
import { countsOf, filterOf, selectable } from "../../lib/list/declarations.ts"
import { ListScreen, listTextsOf } from "../../ui/list/ListScreen.tsx"
import { ScamReportCard } from "./ScamReportCard.tsx"
import { ScamReportDetails } from "./ScamReportDetails.tsx"
import { reportLabel, scamTexts as t } from "./texts.ts"
import { useReportTriage } from "./use-report-triage.ts"

const spec = {
  title: t.title,
  refresh: t.refresh,
  noun: "scam reports",
  querySpec: reportQuerySpec,
  fetchPage: listScamReports,
  // A report another admin changed shows its new copy; one that arrived is announced, the rows and focus staying put.
  store: "scam-report" as const,
  arrivals: t.newReports,
  idOf: (report: ScamReport) => report._id,
  history: { kind: "scam-report" as const, labelOf: reportLabel },
  exportCsv: exportScamReports,
  selectable,
  filters: [
    filterOf("status", t.filters.status, t.allOf(t.filters.status), statuses, (value) => t.statuses[value], {
      show: (label) => `Show ${label.toLowerCase()} reports`
    }),
    filterOf("scamType", t.filters.scamType, t.allOf(t.filters.scamType), scamTypes, (value) => scamTypeLabels[value]),
    filterOf("priority", t.filters.priority, t.allOf(t.filters.priority), priorities, (value) => t.priorities[value])
  ],
  clearFilters: "Show all reports",
  counts: countsOf({
    label: t.countsLabel,
    filter: "status",
    total: t.total,
    cards: statuses.map((value) => [value, t.statuses[value]] as const),
    of: (page: ScamReportsPage) => ({
      total: page.statusCounts.reduce((sum, count) => sum + count.count, 0),
      ...Object.fromEntries(page.statusCounts.map((count) => [count._id, count.count]))
    })
  })
}

/**
 * docs/product-spec.md §2 "Scam Reports", triaged from the keyboard on the one list screen
 * (./use-report-triage.ts); new reports are announced without moving the list, and a card
 * another admin changed shows its new copy in place.
 */
export const ScamReportsScreen = () => {
  const { screen, triage, open, details, current, set, openDetails } = useReportTriage(spec)
  return (
    <ListScreen
      screen={screen}
      texts={{ ...listTextsOf(t), empty: screen.filtered ? t.emptyFiltered : t.empty }}
      view={{
        cards: {
          label: t.title,
          card: (row, waiting) => (
            <ScamReportCard report={current(row)} onSet={(change) => set(row, change)} onDetails={() => openDetails(row)} waiting={waiting} />
          )
        }
      }}
    >
      <ScamReportDetails details={open ? details : null} triage={triage} />
    </ListScreen>
  )
}
