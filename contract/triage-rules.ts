import { Schema } from "effect"
import { Id, Timestamp } from "./common.ts"

/**
 * The triage desk's rules (docs/api.md, "The triage desk"): which records wait for a staff
 * decision, what every such record carries besides its own fields, and the words of a refusal.
 * Apart from the desk's endpoints, so each area's record schema takes the fields without a circle.
 */

/** The areas whose records come to the desk, by their activity-log (and store) names. */
export const triageAreas = ["listing", "scam-report", "contact", "inquiry"] as const
export type TriageArea = (typeof triageAreas)[number]

/** The statuses in which a record of each area waits for a decision. */
export const waitingStatuses: Readonly<Record<TriageArea, ReadonlyArray<string>>> = {
  listing: ["pending"],
  "scam-report": ["new", "under_review"],
  contact: ["new"],
  inquiry: ["pending", "paid"]
}

/** The status a duplicate goes to: the area's closing decision, with the record it repeats named. */
export const duplicateStatus: Readonly<Record<TriageArea, string>> = {
  listing: "rejected",
  "scam-report": "dismissed",
  contact: "closed",
  inquiry: "rejected"
}

/** Priorities across areas, highest first; a contact's `medium` is the desk's `normal`. */
export const triagePriorities = ["urgent", "high", "normal", "low"] as const
export type TriagePriority = (typeof triagePriorities)[number]

/** The longest snooze: a year on the server's clock. */
export const MAX_SNOOZE_DAYS = 366

/** What every record the desk shows carries: who handles it, until when it sleeps, what it repeats. */
export const triageFields = {
  /** The admin user handling it; null: nobody yet. */
  ownerId: Schema.NullOr(Id),
  /** Off the desk until then (the server's clock); null: not snoozed. */
  snoozedUntil: Schema.NullOr(Timestamp),
  /** The record of the same area it was closed as a duplicate of; null: none. */
  duplicateOf: Schema.NullOr(Id)
}

export const triageMessages = {
  oneChange: "Send exactly one of owner, snoozedUntil or duplicateOf.",
  noOwner: "That admin user does not exist or is disabled.",
  snoozePast: "The time to snooze until must be in the future.",
  snoozeTooLong: `A snooze may last at most ${MAX_SNOOZE_DAYS} days.`,
  duplicateSelf: "An item cannot be a duplicate of itself.",
  duplicateMissing: "The item it duplicates does not exist.",
  notWaiting: "This item is no longer waiting for a decision. Reload the desk.",
  notFound: "This item no longer exists. Reload the desk.",
  stale: "This item was changed by someone else since you read it."
} as const
