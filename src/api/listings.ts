import type { ListingStatus } from "../../contract/listing-rules.ts"
import type { Listing, ListingCounts, ListingInput } from "../../contract/listings.ts"
import type { Change, Done } from "../../machines/listing-moderation.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")
import type { CsvFile } from "./client.ts"

/** The two types with a screen of their own. */
export type CommunityType = "community" | "influencer"

export type ListingsPage = ListPage<Listing> & { readonly counts: ListingCounts }

const statusOf = (q: ListQuery): ListingStatus | undefined => {
  const status = q.filters.status
  return status === "pending" || status === "approved" || status === "rejected" ? status : undefined
}

/** The screen's CSV: every listing its search and status filter match. */
export const exportListings = async (type: CommunityType, q: ListQuery): Promise<CsvFile> => {
  const { callCsvApi } = await api()
  const status = statusOf(q)
  const query = { ...(q.search.trim() === "" ? {} : { search: q.search.trim() }), ...(status === undefined ? {} : { status }), format: "csv" as const }
  return type === "community"
    ? callCsvApi("communities.csv", (client) => client.communities.combined({ query, responseMode: "decoded-and-response" }))
    : callCsvApi("influencers.csv", (client) => client.influencers.combined({ query, responseMode: "decoded-and-response" }))
}

/** A page of the screen's queue with its four counts (one call: `…/combined`). */
export const listListings = async (type: CommunityType, q: ListQuery): Promise<ListingsPage> => {
  const { callListApi } = await api()
  const status = statusOf(q)
  const query = {
    ...(q.search.trim() === "" ? {} : { search: q.search.trim() }),
    ...(status === undefined ? {} : { status }),
    ...(q.page > 1 ? { page: q.page } : {})
  }
  if (type === "community") {
    const answer = await callListApi((client) => client.communities.combined({ query }))
    return { rows: answer.data.communities, pagination: answer.data.pagination, counts: answer.data.counts }
  }
  const answer = await callListApi((client) => client.influencers.combined({ query }))
  return { rows: answer.data.influencers, pagination: answer.data.pagination, counts: answer.data.counts }
}

/** Adds a listing (pending), or edits one at the version it was read. */
export const saveListing = async (type: CommunityType, target: Listing | null, input: ListingInput): Promise<Listing> => {
  const { callApi } = await api()
  const answer = await callApi((client) => {
    const group = type === "community" ? client.communities : client.influencers
    return target === null ? group.create({ payload: input }) : group.update({ params: { id: target._id }, payload: { ...input, version: target.version } })
  })
  return answer.data.listing
}

export const deleteListing = async (type: CommunityType, listing: Listing): Promise<void> => {
  const { callApi } = await api()
  await callApi((client) =>
    (type === "community" ? client.communities : client.influencers).remove({ params: { id: listing._id }, query: { version: listing.version } })
  )
}

/** One change: one listing by its own call, a selection by the bulk call (all or none). */
export const moveListings = async (change: Change): Promise<Done> => {
  const { callApi } = await api()
  const [only] = change.listings
  if (change.listings.length === 1 && only !== undefined) {
    const answer = await callApi((client) =>
      client.listingsAdmin.moderate({ params: { id: only._id }, payload: { action: change.action, version: only.version } })
    )
    const { listing, eventId } = answer.data
    return {
      action: change.action,
      moves: [{ _id: listing._id, name: listing.name, from: only.status, to: listing.status, version: listing.version, eventId }]
    }
  }
  const answer = await callApi((client) =>
    client.listingsAdmin.bulk({ payload: { ids: change.listings.map((listing) => listing._id), action: change.action } })
  )
  const before = new Map(change.listings.map((listing) => [listing._id, listing]))
  return {
    action: change.action,
    moves: answer.data.listings.map((moved) => ({
      _id: moved._id,
      name: before.get(moved._id)?.name ?? "",
      from: before.get(moved._id)?.status ?? moved.status,
      to: moved.status,
      version: moved.version,
      eventId: moved.eventId
    }))
  }
}

/** Undoes a change: each listing's move by its event, all at once. */
export const undoChange = async (done: Done | null): Promise<void> => {
  const { callApi } = await api()
  await Promise.all(
    (done?.moves ?? []).map((move) => callApi((client) => client.listingsAdmin.undo({ params: { id: move._id }, payload: { eventId: move.eventId } })))
  )
}
