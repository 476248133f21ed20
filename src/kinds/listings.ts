import type { Listing } from "../../contract/listings.ts"
import { moderationErrors } from "../../machines/listing-moderation.ts"
import { LISTING_KIND, moderationCalls } from "../api/listings.ts"
import type { Decision } from "./decision.ts"

/**
 * A pending listing approved (`a`) or rejected (`r`, with a reason where the desk asks one, kept
 * as its moderation notes). The queues make the same call with an undo (machines/listing-moderation.ts).
 */
const move = (action: "approve" | "reject", key: string, name: string): Decision<Listing> => ({
  id: `listing:${action}`,
  key,
  name,
  hint: "approve, reject",
  when: (listing) => listing.status === "pending",
  asksReason: action === "reject",
  movesOn: true,
  commands: (listing, { title, reason }) => [
    {
      kind: LISTING_KIND,
      recordIds: [listing._id],
      ...moderationCalls.moderate(listing._id),
      body: { action, version: listing.version, ...(reason === "" ? {} : { notes: reason }) },
      effect: { status: action === "approve" ? "approved" : "rejected", ...(reason === "" ? {} : { moderationNotes: reason }) },
      answer: "data.listing",
      label: `${name}: ${title}`,
      failed: moderationErrors.move
    }
  ]
})

export const listingDecisions: ReadonlyArray<Decision<Listing>> = [move("approve", "a", "Approve"), move("reject", "r", "Reject")]
