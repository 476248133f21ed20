import { industries, inquiryStatuses } from "../../../contract/advertising-rules.ts"
import { filteredPagePath } from "../../api/list-paths.ts"
import { parseQuery, type QuerySpec } from "../../lib/list/query-string.ts"
import { paths } from "virtual:answer-schemas"

/** What the inquiries list's URL may hold (its screen takes it), without the screen's code. */
export const inquiryQuerySpec = { filters: { status: inquiryStatuses, industry: industries } } as const satisfies QuerySpec

/** The API path of the first page the inquiries screen will show for this address, if it is the screen (src/app/start/early-requests.ts). */
export const inquiryFirstPage = (pathname: string, search: string): string | undefined =>
  pathname === "/advertising-inquiries" ? filteredPagePath(paths.inquiries, parseQuery(inquiryQuerySpec, search)) : undefined
