import type { ListQuery } from "../../../machines/list.ts"
import type { QuerySpec } from "./query-string.ts"

type Fields = Readonly<Record<string, unknown>>

/** A time the server stamps on a write (`updatedAt`): never what a search matches. */
const STAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d/u

/**
 * Text of the record that changed since the row was read (`before`), besides the filters' own
 * fields and the times a write stamps: what a search might have matched differently.
 */
const textChanged = (record: Fields, before: Fields, filters: ListQuery["filters"]) =>
  Object.keys({ ...record, ...before }).some((name) => {
    const now = record[name]
    const was = before[name]
    if (name in filters || JSON.stringify(now) === JSON.stringify(was)) return false
    if (typeof now === "string" && typeof was === "string" && STAMP.test(now) && STAMP.test(was)) return false
    return typeof now === "string" || typeof was === "string" || typeof now === "object" || typeof was === "object"
  })

/**
 * Whether a record, as the browser's store has it, is in the list the query asks for, where the
 * record itself says so (docs/architecture.md, "The list pattern"): each filter set names a field
 * of the record holding one of the filter's values; under a search, the row was read matching it
 * (`before`) and no text of it changed since. A new record under a search (its ranking is the
 * server's), a filter no field names (a date, an owner), or a sort on a field the change moved:
 * undefined, the server decides and the list is read again.
 */
export const listedBy =
  (spec: QuerySpec, query: ListQuery) =>
  (record: object, before?: object): boolean | undefined => {
    const fields = record as Fields
    const was = before as Fields | undefined
    if (query.search.trim() !== "" && (was === undefined || textChanged(fields, was, query.filters))) return undefined
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
