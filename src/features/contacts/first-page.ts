import { contactPriorities, contactStatuses } from "../../../contract/contact-rules.ts"
import { filteredPagePath } from "../../api/list-paths.ts"
import { firstPageAt, type QuerySpec } from "../../lib/list/query-string.ts"
import { paths } from "virtual:answer-schemas"

/** The contacts screen's address (./navigation.ts) and what its URL may hold (its screen takes it), without the screen's code. */
export const CONTACTS_PATH = "/core-team"
export const contactQuerySpec = { filters: { status: contactStatuses, priority: contactPriorities } } as const satisfies QuerySpec

/** The API path of the first page the contacts screen will show for this address, if it is the screen. */
export const contactFirstPage = firstPageAt(CONTACTS_PATH, contactQuerySpec, (query) => filteredPagePath(paths.contacts, query))
