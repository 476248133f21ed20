import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import {
  BadRequest,
  Conflict,
  Forbidden,
  Id,
  listQueryFields,
  LongText,
  NotFound,
  Ok,
  OptionalPublicUrl,
  Pagination,
  RecordId,
  RequiredLongText,
  RequiredText,
  ShortText,
  Timestamp,
  Url,
  Version,
  VersionParam
} from "./common.ts"
import { endsBeforeStart, eventMessages } from "./event-rules.ts"
import { ListingCounts, ListingStatus } from "./listings.ts"
import { CsvExport } from "./lists.ts"
import { triageFields } from "./triage-rules.ts"

/** Events and hackathons share one shape and one path: `/api/ecosystem?type=events|hackathons`. */
export const EventType = Schema.Literals(["events", "hackathons"])
export type EventType = typeof EventType.Type

/** A date and time as the form sends it: ISO 8601 with its offset, or empty. */
const DateTime = Schema.Union([Timestamp, Schema.Literal("")])

/**
 * What staff type for an event or a hackathon (docs/product-spec.md §3, §5: name and
 * description required). Dates, place, website and image are ours: an event without dates is of
 * little use to the public site (docs/decisions.md).
 */
const eventFields = {
  name: RequiredText,
  description: RequiredLongText,
  startsAt: Schema.optionalKey(DateTime),
  endsAt: Schema.optionalKey(DateTime),
  /** A place, or "online". */
  location: Schema.optionalKey(ShortText),
  website: Schema.optionalKey(Schema.Union([Url, Schema.Literal("")])),
  image: OptionalPublicUrl,
  featured: Schema.optionalKey(Schema.Boolean)
}

/** An event ends at or after it starts, said at the end date (contract/event-rules.ts). */
const datesInOrder = Schema.makeFilter((input: { readonly startsAt?: string; readonly endsAt?: string }) =>
  endsBeforeStart(input) ? { path: ["endsAt"], issue: eventMessages.endsBeforeStart } : true
)

export const EventInput = Schema.Struct(eventFields).check(datesInOrder)

/**
 * The dates and their order alone: a form checks it beside `EventInput`, so "Ends must be at or
 * after Starts" is said while other fields are still wrong (a struct's own check runs only once
 * all its fields are right).
 */
export const EventDates = Schema.Struct({ startsAt: eventFields.startsAt, endsAt: eventFields.endsAt }).check(datesInOrder)
export type EventInput = typeof EventInput.Type

export const EventEntry = Schema.Struct({
  ...eventFields,
  _id: Id,
  type: Schema.Literals(["event", "hackathon"]),
  status: ListingStatus,
  moderationNotes: LongText,
  featured: Schema.Boolean,
  ...triageFields,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Version
})
export type EventEntry = typeof EventEntry.Type

const typeQuery = { type: EventType }
const one = Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ listing: EventEntry }) })
/** A page of events or hackathons with the four counts, the rows under the type's own name. */
export const EventListPage = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({
    events: Schema.optionalKey(Schema.Array(EventEntry)),
    hackathons: Schema.optionalKey(Schema.Array(EventEntry)),
    pagination: Pagination,
    counts: ListingCounts
  })
})

export type EventListPage = typeof EventListPage.Type

/** The spec's one form for both: GET and POST on the list, PUT and DELETE on one, by `type`. */
export class EventsApi extends HttpApiGroup.make("events")
  .add(
    HttpApiEndpoint.get("list", "/api/ecosystem", {
      query: {
        ...listQueryFields,
        ...typeQuery,
        status: Schema.optionalKey(ListingStatus),
        featured: Schema.optionalKey(Schema.Literals(["true", "false"])),
        when: Schema.optionalKey(Schema.Literals(["upcoming", "past"]))
      },
      success: [EventListPage, CsvExport]
    }).annotate(OpenApi.Summary, "List events or hackathons (search, status, featured, upcoming or past, page) with the four counts, or export them as CSV"),
    HttpApiEndpoint.post("create", "/api/ecosystem", { query: typeQuery, payload: EventInput, success: one, error: [BadRequest, Forbidden] }).annotate(
      OpenApi.Summary,
      "Add an event or a hackathon (pending)"
    ),
    HttpApiEndpoint.put("update", "/api/ecosystem/:id", {
      params: { id: RecordId },
      query: typeQuery,
      payload: Schema.Struct({ ...eventFields, version: Version }).check(datesInOrder),
      success: one,
      error: [BadRequest, Forbidden, Conflict, NotFound]
    }).annotate(OpenApi.Summary, "Edit an event or a hackathon, naming the version it was read at"),
    HttpApiEndpoint.put("setFeatured", "/api/ecosystem/:id/featured", {
      params: { id: RecordId },
      query: typeQuery,
      payload: Schema.Struct({ featured: Schema.Boolean, version: Version }),
      success: one,
      error: [BadRequest, Conflict, NotFound]
    }).annotate(OpenApi.Summary, "Feature an event or a hackathon, or stop featuring it"),
    HttpApiEndpoint.delete("remove", "/api/ecosystem/:id", {
      params: { id: RecordId },
      query: { ...typeQuery, version: VersionParam },
      success: Ok,
      error: [Forbidden, Conflict, NotFound]
    }).annotate(OpenApi.Summary, "Delete an event or a hackathon, naming the version it was read at")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Events and hackathons")
  .annotate(OpenApi.Description, "Events and hackathons: listings with dates, moderated like the others, featured or not.") {}
