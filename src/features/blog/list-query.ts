import { postStatuses } from "../../../contract/blog-rules.ts"
import { postPagePath } from "../../api/list-paths.ts"
import { firstPageAt, type QuerySpec } from "../../lib/list/query-string.ts"

/** What the blog list's URL may hold: the status filter (search and page are every list's). */
export const blogQuerySpec = { filters: { status: postStatuses } } as const satisfies QuerySpec

/** The API path of the first page the blog list will show for this address, if it is the list. */
export const blogFirstPage = firstPageAt("/blog", blogQuerySpec, postPagePath)
