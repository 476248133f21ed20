import { addressSorts } from "../../contract/address-rules.ts"
import type { AddressKind } from "../../contract/addresses.ts"
import { postStatuses } from "../../contract/blog-rules.ts"
import type { ListingStatus } from "../../contract/listing-rules.ts"
import type { VentureType } from "../../contract/ventures.ts"
import type { EventType } from "../../contract/events.ts"
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

interface AddressListParams<Sort extends string> {
  readonly search: string | undefined
  readonly sort: Sort | undefined
  readonly order: "asc" | "desc" | undefined
}

const addressListParams = <Sort extends string>(q: ListQuery, sorts: ReadonlyArray<Sort>): AddressListParams<Sort> => ({
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

const postListParams = (q: ListQuery, statuses: ReadonlyArray<string>) => {
  const status = q.filters.status
  return { status: status !== undefined && statuses.includes(status) ? status : undefined, search: searchOf(q) }
}

export const postPagePath = (q: ListQuery) => withParams(paths.posts, { ...postListParams(q, postStatuses), page: pageOf(q) })

/** The two listing queues the combined call serves (the listings' own types, not the ventures'). */
export type CommunityType = "community" | "influencer"

const listingPaths: Readonly<Record<CommunityType, string>> = { community: paths.communities, influencer: paths.influencers }

/** A queue's status filter (the screen's query holds only the listing statuses: ../lib/list/query-string.ts). */
const listingStatusOf = (q: ListQuery) => q.filters.status as ListingStatus | undefined

/** The API path of a listing queue's page with its counts (`…/combined`), from its query. */
export const listingPagePath = (type: CommunityType, q: ListQuery) =>
  withParams(listingPaths[type], { search: searchOf(q), status: listingStatusOf(q), page: pageOf(q) })

/** A yes/no filter of the URL as the API's "true"/"false". */
const yesNo = (value: string | undefined) => (value === "yes" ? "true" : value === "no" ? "false" : undefined)

const venturePaths: Readonly<Record<VentureType, string>> = { business: paths.businesses, startup: paths.startups, project: paths.projects }

/** The API path of a venture list's page with its counts, from its query. */
export const venturePagePath = (type: VentureType, q: ListQuery) =>
  withParams(venturePaths[type], {
    search: searchOf(q),
    status: listingStatusOf(q),
    stage: q.filters.stage,
    projectStatus: q.filters.projectStatus,
    isActive: yesNo(q.filters.active),
    page: pageOf(q)
  })

/** The API path of a page of events or hackathons with its counts, from its query. */
export const eventPagePath = (type: EventType, q: ListQuery) =>
  withParams(paths.events, {
    type,
    search: searchOf(q),
    status: listingStatusOf(q),
    when: q.filters.when,
    featured: yesNo(q.filters.featured),
    page: pageOf(q)
  })

/** The API path of a page of a list whose filters go to the API under their own names: the search, each filter, the page. */
export const filteredPagePath = (path: string, q: ListQuery) =>
  withParams(path, { search: searchOf(q), ...Object.fromEntries(Object.entries(q.filters).sort(([a], [b]) => a.localeCompare(b))), page: pageOf(q) })

/** The API path of a page of scam reports: each filter, "all" where none is set (as the spec's screen sends it), the search, the page. */
export const reportPagePath = (q: ListQuery) =>
  withParams(paths.reports, {
    status: q.filters.status ?? "all",
    scamType: q.filters.scamType ?? "all",
    priority: q.filters.priority ?? "all",
    search: searchOf(q),
    page: pageOf(q)
  })
