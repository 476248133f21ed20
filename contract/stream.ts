import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import { Id, ServiceBusy } from "./common.ts"

/** An activity-log event id: what `Last-Event-ID` names. */
export const EventId = Schema.String.check(
  Schema.isMaxLength(19, { message: "must be an event id" }),
  Schema.isPattern(/^\d+$/u, { message: "must be an event id" })
)

/**
 * One change, as small as it can be: which record and how, never its content. A console that
 * cares reads the record through the API, with its own rights.
 */
export const ChangeNotice = Schema.Struct({
  id: EventId,
  /** `scam-report.created|updated|deleted`, `inquiry.created|updated`, `listing.created|updated|deleted` (docs/api.md, "Live changes"). */
  type: Schema.String.check(Schema.isMaxLength(64)),
  entityId: Id
})
export type ChangeNotice = typeof ChangeNotice.Type

export const EVENT_STREAM_CONTENT_TYPE = "text/event-stream"

/** Server-sent events (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
const EventStream = Schema.String.pipe(HttpApiSchema.asText({ contentType: EVENT_STREAM_CONTENT_TYPE }))

/** The server-sent event names: `change` carries a ChangeNotice; `ready` the position a stream starts from. */
export const streamEvents = { change: "change", ready: "ready" } as const

export class StreamApi extends HttpApiGroup.make("stream")
  .add(
    HttpApiEndpoint.get("changes", "/api/admin/stream", {
      headers: { "last-event-id": Schema.optionalKey(EventId) },
      success: EventStream,
      // The server is stopping: the console comes back and the proxy sends it to another one.
      error: ServiceBusy
    }).annotate(OpenApi.Summary, "Server-sent change notices for signed-in staff; Last-Event-ID resumes after a reconnect; ends with the session")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Live changes")
  .annotate(OpenApi.Description, "A stream of small change notices (server-sent events), read with the bearer token.") {}
