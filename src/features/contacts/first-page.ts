import { contactPriorities, contactStatuses } from "../../../contract/contact-rules.ts"
import { filteredPagePath } from "../../api/list-paths.ts"
import { parseQuery, type QuerySpec } from "../../lib/list/query-string.ts"
import { paths } from "virtual:answer-schemas"

/** What the contacts list's URL may hold (its screen takes it), without the screen's code. */
export const contactQuerySpec = { filters: { status: contactStatuses, priority: contactPriorities } } as const satisfies QuerySpec

/** The API path of the first page the contacts screen will show for this address, if it is the screen (src/app/start/early-requests.ts). */
export const contactFirstPage = (pathname: string, search: string): string | undefined =>
  pathname === "/core-team" ? filteredPagePath(paths.contacts, parseQuery(contactQuerySpec, search)) : undefined
