import { industries, inquiryStatuses } from "../../../contract/advertising-rules.ts"
import { filteredPagePath } from "../../api/list-paths.ts"
import { firstPageAt, type QuerySpec } from "../../lib/list/query-string.ts"
import { paths } from "virtual:answer-schemas"

/** The inquiries screen's address (./navigation.ts) and what its URL may hold (its screen takes it), without the screen's code. */
export const INQUIRIES_PATH = "/advertising-inquiries"
export const inquiryQuerySpec = { filters: { status: inquiryStatuses, industry: industries } } as const satisfies QuerySpec

/** The API path of the first page the inquiries screen will show for this address, if it is the screen. */
export const inquiryFirstPage = firstPageAt(INQUIRIES_PATH, inquiryQuerySpec, (query) => filteredPagePath(paths.inquiries, query))
