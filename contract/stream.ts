import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import { activityAreas } from "./activity.ts"
import { Id, ServiceBusy } from "./common.ts"

const notAnEventId = "must be an event id"
/** The log's ids are PostgreSQL `bigint`s: none is past this one. */
const LAST_EVENT_ID = 9_223_372_036_854_775_807n
const digits = /^\d+$/u

/** An activity-log event id: what `Last-Event-ID` names; one no bigint holds is refused like words (a 400). */
export const EventId = Schema.String.check(
  Schema.isMaxLength(19, { message: notAnEventId }),
  Schema.isPattern(digits, { message: notAnEventId }),
  // Every check runs (the API reports each issue): words are the pattern's to refuse.
  Schema.makeFilter((id: string) => !digits.test(id) || BigInt(id) <= LAST_EVENT_ID || notAnEventId)
)

/**
 * One change as a `change` event's data (docs/api.md, "Live changes"): which record, and the
 * record as it is after the change, so a console's store applies it without asking again. The
 * event's id (the SSE `id:` line) is its activity-log event id.
 */
export const ChangeEventData = Schema.Struct({
  /** `<area>.created|updated|deleted` (`listing.updated`, `scam-report.created`, `session.updated`). */
  type: Schema.String.check(Schema.isMaxLength(64)),
  /** The activity-log area (`listing`, `address`, `admin`, ...): who may read it decides who hears it. */
  area: Schema.String.check(Schema.isMaxLength(32)),
  /** The list the record belongs to: a listing's type, an address's directory, else the area. */
  kind: Schema.String.check(Schema.isMaxLength(32)),
  entityId: Id,
  /** The version the change produced; null for a removal and for events that make no version (a sign-in). */
  version: Schema.NullOr(Schema.Int),
  /** The fields the change set, by the history's names, with their new values; a protected value never (left out). */
  changes: Schema.Record(Schema.String, Schema.Unknown),
  /**
   * The whole record at `version`, as its read endpoint answers staff (protected values left
   * out); null for a removal, and when the record had moved on (or gone) by the time the server
   * read it: the console then reads the record, or takes the next event's.
   */
  fields: Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown))
})
export type ChangeEventData = typeof ChangeEventData.Type

/**
 * A `ready` event's data: the stream is live from `after` (also the event's id, what the next
 * `Last-Event-ID` names). `complete` is false when the console was away for more changes than a
 * catch-up carries (server/stream/changes.ts, CATCH_UP_LIMIT): none of them was sent, the stream
 * starts from the newest, and the console reads what it shows again.
 */
export const ReadyEventData = Schema.Struct({ after: EventId, complete: Schema.Boolean })
export type ReadyEventData = typeof ReadyEventData.Type

/** The areas whose events the stream carries: every record kind the console shows, and sessions (an upload is no record of a list). */
export const streamedAreas = activityAreas.filter((area) => area !== "upload")

export const EVENT_STREAM_CONTENT_TYPE = "text/event-stream"

/** Server-sent events (docs/api.md, "Live changes"). */
const EventStream = Schema.String.pipe(HttpApiSchema.asText({ contentType: EVENT_STREAM_CONTENT_TYPE }))

/** The server-sent event names: `change` carries a ChangeEventData; `ready` the position a stream starts from. */
export const streamEvents = { change: "change", ready: "ready" } as const

export class StreamApi extends HttpApiGroup.make("stream")
  .add(
    HttpApiEndpoint.get("changes", "/api/admin/stream", {
      headers: { "last-event-id": Schema.optionalKey(EventId) },
      success: EventStream,
      // The server is stopping: the console comes back and the proxy sends it to another one.
      error: ServiceBusy
    }).annotate(
      OpenApi.Summary,
      "Server-sent changes for signed-in staff, each with the record's fields after it (ChangeEventData) within the reader's rights; Last-Event-ID resumes after a reconnect; ends with the session"
    )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Live changes")
  .annotate(
    OpenApi.Description,
    "A stream of changes (server-sent events), read with the bearer token: each `change` event's data is a ChangeEventData: type, area, kind, entityId, version, changes and the record's fields after the change, only of areas the reader may read, protected values never."
  ) {}
