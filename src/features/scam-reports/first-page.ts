import { scamReportPriorities, scamReportStatuses, scamTypes } from "../../../contract/scam-report-rules.ts"
import { reportPagePath } from "../../api/list-paths.ts"
import { parseQuery, type QuerySpec } from "../../lib/list/query-string.ts"

/** What the reports list's URL may hold (its screen takes it), without the screen's code. */
export const reportQuerySpec = { filters: { status: scamReportStatuses, scamType: scamTypes, priority: scamReportPriorities } } as const satisfies QuerySpec

/** The API path of the first page the reports screen will show for this address, if it is the screen (src/app/start/early-requests.ts). */
export const reportFirstPage = (pathname: string, search: string): string | undefined =>
  pathname === "/scam-reports" ? reportPagePath(parseQuery(reportQuerySpec, search)) : undefined
