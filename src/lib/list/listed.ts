import type { ListQuery } from "../../../machines/list.ts"
import type { QuerySpec } from "./query-string.ts"

type Fields = Readonly<Record<string, unknown>>

/**
 * Whether a record, as the browser's store has it, is in the list the query asks for, where the
 * record itself says so (docs/architecture.md, "The list pattern"): each filter set names a field
 * of the record holding one of the filter's values; under a search, the row was read matching it
 * (`before`) and none of the fields the search matches (`searches`) changed since. A new record
 * under a search, a list that does not say what its search matches, a filter no field names (a
 * date, an owner), or a sort on a field the change moved: undefined, the server decides and the
 * list is read again.
 */
export const listedBy =
  (spec: QuerySpec, query: ListQuery) =>
  (record: object, before?: object): boolean | undefined => {
    const fields = record as Fields
    const was = before as Fields | undefined
    if (query.search.trim() !== "") {
      const searched = spec.searches
      if (was === undefined || searched === undefined || searched.some((name) => JSON.stringify(fields[name]) !== JSON.stringify(was[name]))) return undefined
    }
    if (query.sort !== undefined && was !== undefined && fields[query.sort] !== was[query.sort]) return undefined
    let listed = true
    for (const [name, value] of Object.entries(query.filters)) {
      const field = fields[name]
      const said = typeof field === "string" || typeof field === "boolean" ? String(field) : undefined
      if (said === undefined || spec.filters?.[name]?.includes(said) !== true) return undefined
      if (said !== value) listed = false
    }
    return listed
  }
