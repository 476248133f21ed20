/**
 * Listing moderation's rules, without effect, so the server, the machine and the console share
 * them (docs/api.md, "Listings"). The spec's transitions: pending → approved | rejected,
 * approved → pending, rejected → approved. Undo is not a transition: it puts back exactly the
 * change it names, which is how a rejected listing returns to pending.
 */
export const listingTypes = ["community", "influencer", "business", "startup", "project", "event", "hackathon"] as const
export type ListingType = (typeof listingTypes)[number]

export const listingStatuses = ["pending", "approved", "rejected"] as const
export type ListingStatus = (typeof listingStatuses)[number]

export const moderationActions = ["approve", "reject", "pending"] as const
export type ModerationAction = (typeof moderationActions)[number]

/** The status each action asks for. */
export const statusAfter: Readonly<Record<ModerationAction, ListingStatus>> = {
  approve: "approved",
  reject: "rejected",
  pending: "pending"
}

/** Where a listing may go from each status. */
export const legalMoves: Readonly<Record<ListingStatus, ReadonlyArray<ListingStatus>>> = {
  pending: ["approved", "rejected"],
  approved: ["pending"],
  rejected: ["approved"]
}

export const canMove = (from: ListingStatus, to: ListingStatus): boolean => legalMoves[from].includes(to)

/** The actions legal on a listing with this status, in the order the screens show them. */
export const legalActions = (status: ListingStatus): ReadonlyArray<ModerationAction> =>
  moderationActions.filter((action) => canMove(status, statusAfter[action]))

/** The most listings one bulk call may change. */
export const MAX_BULK = 500

export const listingMessages = {
  illegal: (current: ListingStatus, wanted: ListingStatus) => `This listing is ${current}; it cannot be set to ${wanted}.`,
  stale: "This listing was changed by someone else since you read it.",
  notFound: "This listing no longer exists. Reload the list.",
  changedAfter: "This listing changed after your action.",
  notUndoable: "That activity event is not a status change of this listing.",
  readOnly: "Moderators can change a listing's status and notes, but not create, edit or delete listings.",
  bulkRefused: "No listing was changed: some of them cannot take this action.",
  duplicateIds: "Each listing may be named once."
} as const
