import { industries } from "../../../contract/advertising-industries.ts"
import { inquiryStatuses } from "../../../contract/advertising-rules.ts"
import type { QuerySpec } from "../../lib/list/query-string.ts"

/** What the inquiries screen's URL may hold (start-up reads it the same way: ./first-page.ts). */
export const inquiryQuerySpec = { filters: { status: inquiryStatuses, industry: industries } } as const satisfies QuerySpec
