import { useCallback, useMemo } from "react"
import { useLocation, useSearch } from "wouter"
import type { ListQuery } from "../../../machines/list.ts"
import { parseQuery, type QuerySpec, urlOf } from "./query-string.ts"

export { parseQuery, type QuerySpec, urlOf }

export interface UrlQuery {
  readonly query: ListQuery
  /** The sort and order in force, the default when the URL names none. */
  readonly sorted: { readonly sort: string | undefined; readonly order: "asc" | "desc" }
  /** Moves the list to another query; `replace` for typing, so each keystroke isn't a history entry. */
  readonly go: (next: Partial<ListQuery>, options?: { readonly replace?: boolean }) => void
  /** A filter set (or cleared with "") goes back to page 1. */
  readonly filter: (name: string, value: string) => void
  /** Clicking a header sorts by it ascending; clicking it again flips the order. */
  readonly sortBy: (sort: string) => void
  readonly urlFor: (next: Partial<ListQuery>) => string
}

/**
 * The list's query lives in the URL: typing, paging, sorting, filters, links and back/forward
 * all go through it, and the screen reads it back from there.
 */
export const useUrlQuery = (spec: QuerySpec): UrlQuery => {
  const [location, navigate] = useLocation()
  const search = useSearch()
  const query = useMemo(() => parseQuery(spec, search), [search, spec])
  const urlFor = useCallback((next: Partial<ListQuery>) => urlOf(location, { ...query, ...next }), [location, query])
  const go = useCallback(
    (next: Partial<ListQuery>, options: { readonly replace?: boolean } = {}) => navigate(urlFor(next), { replace: options.replace === true }),
    [navigate, urlFor]
  )
  // One object per query: screens memoize their commands on it.
  return useMemo(() => {
    const sort = query.sort ?? spec.defaultSort?.sort
    const sorted = {
      sort,
      order: query.order ?? (sort !== undefined && sort === spec.defaultSort?.sort ? spec.defaultSort.order : "asc")
    }
    return {
      query,
      sorted,
      go,
      urlFor,
      filter: (name, value) => go({ filters: { ...query.filters, [name]: value }, page: 1 }),
      sortBy: (sort) => go({ sort, order: sorted.sort === sort && sorted.order === "asc" ? "desc" : "asc", page: 1 })
    }
  }, [query, spec, go, urlFor])
}
