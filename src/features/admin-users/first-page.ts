import { filteredPagePath } from "../../api/list-paths.ts"
import { settingsPaths } from "../../lib/paths.ts"
import { parseQuery, type QuerySpec } from "../../lib/list/query-string.ts"
import { paths } from "virtual:answer-schemas"

/** What the admins list's URL may hold: a search and a page (its screen takes it). */
export const adminQuerySpec = {} as const satisfies QuerySpec

/** The API path of the first page the admins screen will show for this address, if it is the screen (src/app/start/early-requests.ts). */
export const adminFirstPage = (pathname: string, search: string): string | undefined =>
  pathname === settingsPaths.admins ? filteredPagePath(paths.adminUsers, parseQuery(adminQuerySpec, search)) : undefined
