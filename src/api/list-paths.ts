import { addressSorts } from "../../contract/address-rules.ts"
import type { AddressKind } from "../../contract/addresses.ts"
import { postStatuses } from "../../contract/blog-rules.ts"
import type { ListQuery } from "../../machines/list.ts"
import { paths } from "virtual:answer-schemas"

/**
 * The API path of a list's page, from its query (the endpoint's path from the contract, built in): written without the effect client,
 * so start-up can ask for the first page before that client has loaded (src/api/prefetch.ts).
 */
export const withParams = (path: string, params: Readonly<Record<string, string | undefined>>) => {
  const defined = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined)
  const text = new URLSearchParams(defined).toString()
  return text === "" ? path : `${path}?${text}`
}

const searchOf = (q: ListQuery) => (q.search.trim() === "" ? undefined : q.search.trim())
const pageOf = (q: ListQuery) => (q.page > 1 ? String(q.page) : undefined)

export interface AddressListParams<Sort extends string> {
  readonly search: string | undefined
  readonly sort: Sort | undefined
  readonly order: "asc" | "desc" | undefined
}

export const addressListParams = <Sort extends string>(q: ListQuery, sorts: ReadonlyArray<Sort>): AddressListParams<Sort> => ({
  search: searchOf(q),
  sort: sorts.find((sort) => sort === q.sort),
  order: q.order
})

const addressPaths: Readonly<Record<AddressKind, string>> = {
  generated: paths.generatedAddresses,
  cex: paths.cexAddresses,
  "core-team": paths.coreTeamAddresses
}

export const addressPagePath = (kind: AddressKind, q: ListQuery) => withParams(addressPaths[kind], { ...addressListParams(q, addressSorts), page: pageOf(q) })

export const postListParams = (q: ListQuery, statuses: ReadonlyArray<string>) => {
  const status = q.filters.status
  return { status: status !== undefined && statuses.includes(status) ? status : undefined, search: searchOf(q) }
}

export const postPagePath = (q: ListQuery) => withParams(paths.posts, { ...postListParams(q, postStatuses), page: pageOf(q) })
