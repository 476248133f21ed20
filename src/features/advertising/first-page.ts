import { inquiryStatuses } from "../../../contract/advertising-rules.ts"
import { filteredPagePath } from "../../api/list-paths.ts"
import { firstPageAt } from "../../lib/list/query-string.ts"
import { paths } from "virtual:answer-schemas"

/** The inquiries screen's address (./navigation.ts). */
export const INQUIRIES_PATH = "/advertising-inquiries"

/**
 * The API path of the first page the inquiries screen will show for this address, if it is the
 * screen, without the screen's code. It reads the URL as the screen does (./query.ts) but takes
 * any industry named: the industries stay out of every first screen's code, and one the screen
 * does not know costs a request it then does not take.
 */
export const inquiryFirstPage = firstPageAt(INQUIRIES_PATH, { filters: { status: inquiryStatuses }, textFilters: { industry: /^[^&=]+$/u } }, (query) =>
  filteredPagePath(paths.inquiries, query)
)
