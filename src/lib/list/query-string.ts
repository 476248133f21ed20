import type { ListQuery } from "../../../machines/list.ts"

/** What a screen's URL may hold beyond search and page: its sortable columns and its filters' values. */
export interface QuerySpec {
  readonly sorts?: ReadonlyArray<string>
  /** The sort (and its order) when the URL names none. */
  readonly defaultSort?: { readonly sort: string; readonly order: "asc" | "desc" }
  readonly filters?: Readonly<Record<string, ReadonlyArray<string>>>
  /** Filters whose value is free text (a record id, a date), kept when it matches its pattern. */
  readonly textFilters?: Readonly<Record<string, RegExp>>
  /** The fields a search matches, as the server's own search does (./listed.ts): unsaid, only the server can say. */
  readonly searches?: ReadonlyArray<string>
}

/** The URL's query string as a list query; values the screen doesn't know are dropped. */
export const parseQuery = (spec: QuerySpec, search: string): ListQuery => {
  const params = new URLSearchParams(search)
  const page = Number.parseInt(params.get("page") ?? "1", 10)
  const sort = params.get("sort")
  const order = params.get("order")
  const filters: Record<string, string> = {}
  for (const [name, values] of Object.entries(spec.filters ?? {})) {
    const value = params.get(name)
    if (value !== null && values.includes(value)) filters[name] = value
  }
  for (const [name, pattern] of Object.entries(spec.textFilters ?? {})) {
    const value = params.get(name)
    if (value !== null && value.length <= 64 && pattern.test(value)) filters[name] = value
  }
  return {
    search: params.get("search") ?? "",
    page: Number.isNaN(page) || page < 1 ? 1 : page,
    sort: sort !== null && (spec.sorts ?? []).includes(sort) ? sort : undefined,
    order: order === "asc" || order === "desc" ? order : undefined,
    filters
  }
}

/**
 * A screen's first page for start-up (src/app/start/early-requests.ts): at `route`, the API path of
 * the page its URL's query asks for, read as the screen will read it.
 */
export const firstPageAt =
  (route: string, spec: QuerySpec, pagePath: (query: ListQuery) => string) =>
  (pathname: string, search: string): string | undefined =>
    pathname === route ? pagePath(parseQuery(spec, search)) : undefined

/** A list query as a path with its query string; defaults are left out, so URLs stay short. */
export const urlOf = (path: string, query: ListQuery): string => {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query.filters)) if (value !== "") params.set(name, value)
  if (query.search.trim() !== "") params.set("search", query.search.trim())
  if (query.page > 1) params.set("page", String(query.page))
  if (query.sort !== undefined) params.set("sort", query.sort)
  if (query.order !== undefined) params.set("order", query.order)
  const text = params.toString()
  return text === "" ? path : `${path}?${text}`
}
