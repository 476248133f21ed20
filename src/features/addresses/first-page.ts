import { addressPagePath } from "../../api/list-paths.ts"
import { parseQuery } from "../../lib/list/query-string.ts"
import { addressQuerySpec, directoryOfPath } from "./directories.ts"

/** The API path of the first page a directory screen will show for this address, if it is one. */
export const addressFirstPage = (pathname: string, search: string): string | undefined => {
  const spec = directoryOfPath(pathname)
  return spec === undefined ? undefined : addressPagePath(spec.kind, parseQuery(addressQuerySpec, search))
}
