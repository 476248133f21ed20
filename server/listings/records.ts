import type { EventEntry } from "../../contract/events.ts"
import type { AnyVenture, VentureType } from "../../contract/ventures.ts"
import { listingOf, type ListingRow } from "./repository.ts"

/**
 * A listing as its type's staff screen reads it: the shared fields, and a venture's or an
 * event's own fields out of `details`. The endpoints of each type answer with these, and so does
 * the change stream (server/stream/kinds.ts).
 */

/** Businesses, startups and projects: each type's own fields, in the order its CSV lists them. */
export const ventureFields: Readonly<Record<VentureType, ReadonlyArray<string>>> = {
  business: ["category", "industry", "website", "location", "founded", "employees", "revenue"],
  startup: ["category", "stage", "website", "location", "founded", "teamSize", "funding"],
  project: ["category", "projectStatus", "website", "github", "team", "technologies"]
}

/** What a venture's field is when a record never set it: empty text, an empty list, or absent (counts). */
const emptyOf: Readonly<Record<string, unknown>> = {
  website: "",
  location: "",
  founded: "",
  revenue: "",
  funding: "",
  github: "",
  team: [],
  technologies: []
}

export const ventureOf = (row: ListingRow): AnyVenture => {
  const details = Object.fromEntries(
    ventureFields[row.type as VentureType].flatMap((field) => {
      const value = row.details[field] ?? emptyOf[field]
      return value === undefined ? [] : [[field, value]]
    })
  )
  return { ...listingOf(row), isActive: row.isActive, ...details } as AnyVenture
}

/** An event's or a hackathon's own fields, kept in `details` as text. */
export const eventFields = ["startsAt", "endsAt", "location", "website", "image"] as const

export const eventEntryOf = (row: ListingRow): EventEntry => ({
  ...listingOf(row),
  type: row.type as EventEntry["type"],
  featured: row.details.featured === true,
  ...Object.fromEntries(eventFields.map((field) => [field, typeof row.details[field] === "string" ? row.details[field] : ""]))
})

/** Any listing as the staff endpoint of its type answers it. */
export const staffListingOf = (row: ListingRow): object => {
  if (row.type === "business" || row.type === "startup" || row.type === "project") return ventureOf(row)
  if (row.type === "event" || row.type === "hackathon") return eventEntryOf(row)
  return listingOf(row)
}
