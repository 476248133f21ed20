import { scamReportPriorities, scamReportStatuses, scamTypes } from "../../../contract/scam-report-rules.ts"
import { reportPagePath } from "../../api/list-paths.ts"
import { firstPageAt, type QuerySpec } from "../../lib/list/query-string.ts"

/** The reports screen's address (./navigation.ts) and what its URL may hold (its screen takes it), without the screen's code. */
export const REPORTS_PATH = "/scam-reports"
export const reportQuerySpec = { filters: { status: scamReportStatuses, scamType: scamTypes, priority: scamReportPriorities } } as const satisfies QuerySpec

/** The API path of the first page the reports screen will show for this address, if it is the screen. */
export const reportFirstPage = firstPageAt(REPORTS_PATH, reportQuerySpec, reportPagePath)
