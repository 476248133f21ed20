import type { ListQuery } from "../../machines/list.ts"

/**
 * The API path of a list's page or export, from its query: written without the effect client,
 * so start-up can ask for the first page before that client has loaded (src/api/prefetch.ts).
 */
export const withParams = (path: string, params: Readonly<Record<string, string | undefined>>) => {
  const defined = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined)
  const text = new URLSearchParams(defined).toString()
  return text === "" ? path : `${path}?${text}`
}

const searchOf = (q: ListQuery) => (q.search.trim() === "" ? undefined : q.search.trim())
const pageOf = (q: ListQuery) => (q.page > 1 ? String(q.page) : undefined)

export interface AddressListParams {
  readonly search: string | undefined
  readonly sort: string | undefined
  readonly order: "asc" | "desc" | undefined
}

export const addressListParams = (q: ListQuery, sorts: ReadonlyArray<string>): AddressListParams => ({
  search: searchOf(q),
  sort: q.sort !== undefined && sorts.includes(q.sort) ? q.sort : undefined,
  order: q.order
})

export const addressPagePath = (kind: string, q: ListQuery, sorts: ReadonlyArray<string>) =>
  withParams(`/api/admin/addresses/${kind}`, { ...addressListParams(q, sorts), page: pageOf(q) })

export const addressExportPath = (kind: string, q: ListQuery, sorts: ReadonlyArray<string>) =>
  withParams(`/api/admin/addresses/${kind}`, { ...addressListParams(q, sorts), format: "csv" })

export const postListParams = (q: ListQuery, statuses: ReadonlyArray<string>) => {
  const status = q.filters.status
  return { status: status !== undefined && statuses.includes(status) ? status : undefined, search: searchOf(q) }
}

export const postPagePath = (q: ListQuery, statuses: ReadonlyArray<string>) =>
  withParams("/api/blog/posts", { ...postListParams(q, statuses), page: pageOf(q) })

export const postExportPath = (q: ListQuery, statuses: ReadonlyArray<string>) =>
  withParams("/api/blog/posts", { ...postListParams(q, statuses), format: "csv" })
