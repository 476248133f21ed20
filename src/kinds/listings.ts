import { type ModerationAction, statusAfter } from "../../contract/listing-rules.ts"
import type { Listing } from "../../contract/listings.ts"
import { type Done, moderationErrors } from "../../machines/listing-moderation.ts"
import { LISTING_KIND } from "../api/listings.ts"
import { callTo } from "../api/endpoints.ts"
import type { CommandInput } from "../lib/store/console-store.ts"
import type { Decision } from "./decision.ts"

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

type Words = { readonly label: string; readonly failed: string }

/** A moderation's key, on the queues and the desk: `a` approves, `r` rejects, `p` sets pending again. */
export const moderationKeys = { approve: "a", reject: "r", pending: "p" } as const satisfies Record<ModerationAction, string>

/** One listing moved by its own call at the version shown (the store names the one it reaches the server at), with the reason kept as its notes. */
const moderate = (listing: { readonly _id: string; readonly version: number }, action: ModerationAction, words: Words, notes = ""): CommandInput => ({
  kind: LISTING_KIND,
  recordIds: [listing._id],
  ...moderationCalls.moderate(listing._id),
  body: { action, version: listing.version, ...(notes === "" ? {} : { notes }) },
  effect: { status: statusAfter[action], ...(notes === "" ? {} : { moderationNotes: notes }) },
  answer: "data.listing",
  ...words
})

/**
 * A queue's change (machines/listing-moderation.ts) as a command: one listing by its own call, a
 * selection by the bulk call (all or none). Its effect, the new status, shows at once.
 */
export const moveCommand = (done: Done, words: Words): CommandInput => {
  const [only] = done.moves
  if (done.moves.length === 1 && only !== undefined) return { ...moderate(only, done.action, words), commandId: done.commandId }
  const recordIds = done.moves.map((move) => move._id)
  return {
    kind: LISTING_KIND,
    commandId: done.commandId,
    recordIds,
    ...moderationCalls.bulk,
    body: { ids: recordIds, action: done.action },
    effect: { status: statusAfter[done.action] },
    answer: "data.listings",
    ...words
  }
}

/** Undoes a queue's change: each listing's move by the event its command's answer named, in order after it. */
export const undoCommands = (done: Done, words: Words): ReadonlyArray<CommandInput> =>
  done.moves.map((move) => ({
    kind: LISTING_KIND,
    recordIds: [move._id],
    ...moderationCalls.undo(move._id),
    body: { eventId: { $answerOf: done.commandId, $path: done.moves.length === 1 ? "data.eventId" : `data.listings.[${move._id}].eventId` } },
    effect: { status: move.from },
    answer: "data.listing",
    ...words
  }))

/**
 * A pending listing approved (`a`) or rejected (`r`, with a reason where the desk asks one, kept
 * as its moderation notes): the desk's decisions, the same call the queues' changes make.
 */
const move = (action: "approve" | "reject", name: string): Decision<Listing> => ({
  id: `listing:${action}`,
  key: moderationKeys[action],
  name,
  hint: "approve, reject",
  when: (listing) => listing.status === "pending",
  asksReason: action === "reject",
  movesOn: true,
  commands: (listing, { title, reason }) => [moderate(listing, action, { label: `${name}: ${title}`, failed: moderationErrors.move }, reason)]
})

export const listingDecisions: ReadonlyArray<Decision<Listing>> = [move("approve", "Approve"), move("reject", "Reject")]
