import type { ListingStatus } from "../../contract/listing-rules.ts"
import type { Listing, ListingCounts, ListingInput } from "../../contract/listings.ts"
import type { Done } from "../../machines/listing-moderation.ts"
import type { CommandInput } from "../lib/store/console-store.ts"
import { callTo } from "./endpoints.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")
import type { CallAs, CsvFile } from "./client.ts"

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

/**
 * The moderation calls a command makes (contract/listings.ts, `ListingsAdminApi`: moderate, undo,
 * bulk). A command is data the outbox keeps across reloads, so it names its call by method and
 * path: the contract's (`callTo`).
 */
export const moderationCalls = {
  moderate: (id: string) => callTo("listingModerate", { id }),
  undo: (id: string) => callTo("listingUndo", { id }),
  bulk: callTo("listingBulk", {})
} as const

/** The store's kind for listings: the change stream's area (contract/stream.ts). */
export const LISTING_KIND = "listing"

/**
 * One change as a command (docs/architecture.md, "The browser's store"): one listing by its own
 * call, naming the version the person saw (after this browser's own waiting changes to it), a
 * selection by the bulk call (all or none). Its effect, the new status, shows at once.
 */
export const moveCommand = (done: Done, words: { readonly label: string; readonly failed: string }): CommandInput => {
  const [only] = done.moves
  const to = only?.to ?? "pending"
  const common = { kind: LISTING_KIND, commandId: done.commandId, recordIds: done.moves.map((move) => move._id), effect: { status: to }, ...words }
  return done.moves.length === 1 && only !== undefined
    ? { ...common, ...moderationCalls.moderate(only._id), body: { action: done.action, version: only.version }, answer: "data.listing" }
    : { ...common, ...moderationCalls.bulk, body: { ids: common.recordIds, action: done.action }, answer: "data.listings" }
}

/** Undoes a change: each listing's move by the event its command's answer named, in order after it. */
export const undoCommands = (done: Done, words: { readonly label: string; readonly failed: string }): ReadonlyArray<CommandInput> =>
  done.moves.map((move) => ({
    kind: LISTING_KIND,
    recordIds: [move._id],
    ...moderationCalls.undo(move._id),
    body: { eventId: { $answerOf: done.commandId, $path: done.moves.length === 1 ? "data.eventId" : `data.listings.[${move._id}].eventId` } },
    effect: { status: move.from },
    answer: "data.listing",
    ...words
  }))
