import type { AddressKind } from "../../contract/addresses.ts"
import type { ListingType } from "../../contract/listings.ts"

/**
 * The console's addresses that more than one feature links to, written once: features never
 * import each other (docs/architecture.md, "Layers"), so what one links to in another lives here.
 * Plain strings only: the first screen's start-up code reads them (no icons, no React).
 */

/** The activity log's one address: the shell knows it without the log's code. */
export const ACTIVITY_PATH = "/activity"
/** The triage desk (docs/console.md, "The triage desk"); the dashboard links to its views. */
export const TRIAGE_PATH = "/triage"

/** The settings screens that show admin records. */
export const settingsPaths = { admins: "/settings/admins", ips: "/settings/ips", sessions: "/settings/sessions", passkeys: "/settings/passkeys" } as const

/** Each listing type's screen. */
export const listingPaths = {
  community: "/communities",
  influencer: "/influencers",
  business: "/businesses",
  startup: "/startups",
  project: "/projects",
  event: "/events",
  hackathon: "/hackathons"
} as const satisfies Record<ListingType, string>

/** Each address directory's screen. */
export const directoryPaths = {
  generated: "/generated-addresses",
  cex: "/cex-addresses",
  "core-team": "/core-team-addresses"
} as const satisfies Record<AddressKind, string>

/** What "New event" and "New hackathon" ask from anywhere (src/lib/intents.ts): the queue's screen opens its form. */
export const newRecordIntent = (kind: string) => `new:${kind}`
