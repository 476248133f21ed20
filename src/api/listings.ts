import type { Listing, ListingCounts, ListingInput } from "../../contract/listings.ts"
import type { Pagination } from "../../contract/common.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"
import communityPage from "virtual:answer-schemas/communityPage"
import influencerPage from "virtual:answer-schemas/influencerPage"
import { getChecked } from "./checked-answer.ts"
import { getCsv } from "./csv.ts"
import { type CommunityType, listingPagePath } from "./list-paths.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")
import type { CallAs, CsvFile } from "./client.ts"

/** The two types with a screen of their own. */
export type { CommunityType }

type ListingPageAnswer<Field extends string> = {
  readonly data: { readonly [K in Field]: ReadonlyArray<Listing> } & { readonly pagination: Pagination; readonly counts: ListingCounts }
}

export type ListingsPage = ListPage<Listing> & { readonly counts: ListingCounts }

/** The screen's CSV: every listing its search and status filter match. */
export const exportListings = (type: CommunityType, q: ListQuery): Promise<CsvFile> =>
  getCsv(listingPagePath(type, q), type === "community" ? "communities.csv" : "influencers.csv")

/**
 * A page of the screen's queue with its four counts (one call: `…/combined`): the one start-up
 * asked for if it is this one, else a request checked the same way, without effect's client.
 */
export const listListings = async (type: CommunityType, q: ListQuery): Promise<ListingsPage> => {
  if (type === "community") {
    const answer = await getChecked<ListingPageAnswer<"communities">>(listingPagePath(type, q), communityPage)
    return { rows: answer.data.communities, pagination: answer.data.pagination, counts: answer.data.counts }
  }
  const answer = await getChecked<ListingPageAnswer<"influencers">>(listingPagePath(type, q), influencerPage)
  return { rows: answer.data.influencers, pagination: answer.data.pagination, counts: answer.data.counts }
}

/** Adds a listing (pending), or edits one at the version it was read. */
export const saveListing = async (type: CommunityType, target: Listing | null, input: ListingInput, as?: CallAs): Promise<Listing> => {
  const { callApi } = await api()
  const answer = await callApi((client) => {
    const group = type === "community" ? client.communities : client.influencers
    return target === null ? group.create({ payload: input }) : group.update({ params: { id: target._id }, payload: { ...input, version: target.version } })
  }, as)
  return answer.data.listing
}

export const deleteListing = async (type: CommunityType, listing: Listing, as?: CallAs): Promise<void> => {
  const { callApi } = await api()
  await callApi(
    (client) => (type === "community" ? client.communities : client.influencers).remove({ params: { id: listing._id }, query: { version: listing.version } }),
    as
  )
}

/** The store's kind for listings: the change stream's area (contract/stream.ts). */
export const LISTING_KIND = "listing"
