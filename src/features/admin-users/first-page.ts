import { filteredPagePath } from "../../api/list-paths.ts"
import { settingsPaths } from "../../lib/paths.ts"
import { firstPageAt, type QuerySpec } from "../../lib/list/query-string.ts"
import { paths } from "virtual:answer-schemas"

/** What the admins list's URL may hold: a search and a page (its screen takes it). */
export const adminQuerySpec = {} as const satisfies QuerySpec

/** The API path of the first page the admins screen will show for this address, if it is the screen. */
export const adminFirstPage = firstPageAt(settingsPaths.admins, adminQuerySpec, (query) => filteredPagePath(paths.adminUsers, query))
