import type { ActivityArea, ActivityEntry } from "../../contract/activity.ts"
import type { AddressKind } from "../../contract/addresses.ts"
import type { ListingType } from "../../contract/listings.ts"
import { ACTIVITY_PATH, directoryPaths, listingPaths, settingsPaths } from "./paths.ts"

const searchFor = (path: string, label: string | null) =>
  label === null || label === "" ? path : `${path}?${new URLSearchParams({ search: label }).toString()}`

/**
 * Where the console shows an event's record: a post's editor by its slug, otherwise its list
 * searched for its name (the lists find a record by what it is called). Null when the record is
 * gone or has no screen.
 */
export const recordHref = (entry: Pick<ActivityEntry, "area" | "entityId" | "record">): string | null => {
  const { label, kind, slug } = entry.record
  switch (entry.area as ActivityArea) {
    case "blog":
      return slug === null ? null : `/blog/${encodeURIComponent(slug)}/edit`
    case "address":
      return label === null ? null : searchFor((directoryPaths as Partial<Record<string, string>>)[kind as AddressKind] ?? directoryPaths.generated, label)
    case "listing": {
      const path = listingPaths[kind as ListingType] as string | undefined
      return label === null || path === undefined ? null : searchFor(path, label)
    }
    case "scam-report":
      return label === null ? null : searchFor("/scam-reports", label)
    case "contact":
      return label === null ? null : searchFor("/core-team", label)
    case "inquiry":
      return label === null ? null : searchFor("/advertising-inquiries", label)
    case "admin":
      return label === null ? null : searchFor(settingsPaths.admins, label)
    case "session":
      return settingsPaths.sessions
    case "ip":
      return settingsPaths.ips
    case "protected-data":
    case "settings":
      return "/settings"
    default:
      return null
  }
}

/** Everything that happened to one record, as the activity log's filter. */
export const historyHref = (entityId: string) => `${ACTIVITY_PATH}?${new URLSearchParams({ record: entityId }).toString()}`

/** "listing.status" as a person reads it: "status". */
export const verbOf = (action: string) => action.slice(action.indexOf(".") + 1).replaceAll("_", " ")
