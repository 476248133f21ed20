import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi } from "../../contract/api.ts"
import { EventEntry, type EventType } from "../../contract/events.ts"
import { encodableAs } from "../platform/encodable.ts"
import { csvResponse, wantsCsv } from "../platform/lists.ts"
import { exportQueue, listQueue, type ListingRow, type QueueQuery } from "../listings/repository.ts"
import { createListing, editListing, removeListing } from "../listings/writes.ts"
import { eventEntryOf as entryOf, eventFields as fields } from "../listings/records.ts"
import { plainText } from "../../contract/text.ts"

/** `?type=events` is the listing type `event`. */
const typeOf = (type: EventType): "event" | "hackathon" => (type === "events" ? "event" : "hackathon")

const entryAnswerable = encodableAs(EventEntry)
/** Inside each write's transaction: the row encodes as its answer, or the write rolls back (docs/api.md). */
const answerable = (row: ListingRow) => Effect.as(entryAnswerable(entryOf(row)), row)

/** The input as it is stored: name and description in their columns, the rest in `details`. */
const stored = (input: object, before?: ListingRow) => {
  const values = input as Readonly<Record<string, unknown>>
  const details: Record<string, unknown> = Object.fromEntries(
    fields.map((field) => [field, typeof values[field] === "string" ? String(values[field]).trim() : ""])
  )
  details.featured = typeof values.featured === "boolean" ? values.featured : before?.details.featured === true
  return { name: plainText(values.name).trim(), description: plainText(values.description).trim(), details }
}

interface EventQuery extends Pick<QueueQuery, "search" | "page" | "limit" | "status" | "when"> {
  readonly type: EventType
  readonly featured?: "true" | "false" | undefined
  readonly format?: "json" | "csv" | undefined
}

const queueOf = (query: EventQuery): QueueQuery => ({
  types: [typeOf(query.type)],
  status: query.status,
  search: query.search,
  page: query.page,
  limit: query.limit,
  when: query.when,
  details: query.featured === undefined ? {} : { featured: query.featured }
})

const exportFields = [
  "_id",
  "type",
  "name",
  "description",
  "startsAt",
  "endsAt",
  "location",
  "website",
  "image",
  "featured",
  "status",
  "moderationNotes",
  "createdAt",
  "updatedAt",
  "version"
]

export const EventsHandlers = HttpApiBuilder.group(AdminApi, "events", (handlers) =>
  handlers
    .handle("list", ({ query }) => {
      const filtered = queueOf(query)
      return Effect.flatMap(wantsCsv(query.format), (csv) =>
        csv
          ? csvResponse({
              name: query.type,
              fields: exportFields,
              record: (row: ListingRow) => entryOf(row) as unknown as Record<string, unknown>,
              rows: exportQueue(filtered)
            })
          : Effect.map(listQueue(filtered), ({ rows, pagination, counts }) =>
              HttpServerResponse.jsonUnsafe({ success: true, data: { [query.type]: rows.map(entryOf), pagination, counts } })
            )
      )
    })
    .handle("create", ({ query, payload }) =>
      Effect.map(createListing(typeOf(query.type), stored(payload), answerable), (row) => ({ success: true as const, data: { listing: entryOf(row) } }))
    )
    .handle("update", ({ params, query, payload }) =>
      Effect.map(
        editListing([typeOf(query.type)], params.id, payload.version, (before) => stored(payload, before), { answerable }),
        (row) => ({
          success: true as const,
          data: { listing: entryOf(row) }
        })
      )
    )
    // Moderators may feature a record (the `f` key), as they may change its status.
    .handle("setFeatured", ({ params, query, payload }) =>
      Effect.map(
        editListing([typeOf(query.type)], params.id, payload.version, (before) => ({ details: { ...before.details, featured: payload.featured } }), {
          answerable,
          moderators: true,
          event: (before, row) => ({
            action: "listing.featured",
            entityId: row.id,
            fromState: String(before.details.featured === true),
            toState: String(payload.featured),
            details: { type: row.type, name: row.name, version: row.version }
          })
        }),
        (row) => ({ success: true as const, data: { listing: entryOf(row) } })
      )
    )
    .handle("remove", ({ params, query }) => removeListing([typeOf(query.type)], params.id, query.version))
)
