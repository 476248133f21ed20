import { Effect, PubSub, Queue, Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import type { SqlClient } from "effect/sql/SqlClient"
import { AdminApi } from "../../contract/api.ts"
import { CurrentSession } from "../../contract/auth.ts"
import { EVENT_STREAM_CONTENT_TYPE, type ReadyEventData, streamEvents } from "../../contract/stream.ts"
import { ServiceBusy } from "../../contract/common.ts"
import { serverStates } from "../../contract/system.ts"
import { readableAreas } from "../auth/roles.ts"
import { ServerLifecycle } from "../platform/lifecycle.ts"
import { CHANGE_STREAMS_OPEN, ServerMetrics } from "../platform/metrics.ts"
import { onSessionsEnded } from "../sessions/cache.ts"
import { isSessionLive } from "../sessions/repository.ts"
import { changesAfter, type LiveChange, LiveChanges, sseEvent as event } from "./changes.ts"
import { latestEventId } from "./repository.ts"

/** A comment line every 15 s keeps proxies from closing a quiet stream, and re-checks the session. */
export const HEARTBEAT = "15 seconds"
/** How long a console waits before reconnecting (the `retry` field). */
const RETRY_MS = 2000
/**
 * When this server stops, how soon its streams' consoles reconnect (through the proxy, to
 * another server): at once, spread over a second so they don't all come in the same instant.
 */
const reconnectSoon = () => `retry: ${100 + Math.floor(Math.random() * 900)}\n\n`

const later = (id: string, than: string) => BigInt(id) > BigInt(than)

/**
 * `GET /api/admin/stream` (docs/api.md, "Live changes"). The stream subscribes to this server's
 * changes before it reads the log, so nothing falls between catch-up and live changes; a change
 * already sent by the catch-up is not sent twice. A reader gets the changes of the areas they may
 * read (`readableAreas`, the activity log's rule), each written once for every stream. It ends when the session does: at once when a session
 * is revoked anywhere (the revocation notice), at the next heartbeat when it times out, and when
 * this server stops (telling the console to come back at once, docs/deploy.md).
 */
export const StreamHandlers = HttpApiBuilder.group(AdminApi, "stream", (handlers) =>
  handlers.handle("changes", ({ headers }) =>
    Effect.gen(function* () {
      const session = yield* CurrentSession
      const live = yield* LiveChanges
      const areas = readableAreas(session.user.role)
      const readable = (change: LiveChange) =>
        (areas.all as ReadonlyArray<string>).includes(change.area) ||
        ((areas.own as ReadonlyArray<string>).includes(change.area) && change.actorId === session.user._id)
      const lifecycle = yield* ServerLifecycle
      const open = (yield* ServerMetrics).level(CHANGE_STREAMS_OPEN)
      if (lifecycle.draining()) return yield* new ServiceBusy({ error: serverStates.stopping, retryAfterSeconds: 1 })
      const context = yield* Effect.context<SqlClient>()
      const resumeAfter = headers["last-event-id"]
      const body = Stream.callback<string, never, SqlClient>((queue) =>
        Effect.gen(function* () {
          open.up()
          yield* Effect.addFinalizer(() => Effect.sync(open.down))
          const stopping = lifecycle.onDrain(() => {
            Queue.offerUnsafe(queue, reconnectSoon())
            Queue.endUnsafe(queue)
          })
          yield* Effect.addFinalizer(() => Effect.sync(stopping))
          const subscription = yield* PubSub.subscribe(live.hub)
          // A console away for longer than a catch-up carries starts from now, told so: it reads its lists again.
          const caughtUp = resumeAfter === undefined ? [] : yield* changesAfter(resumeAfter)
          const complete = caughtUp !== undefined
          let last = caughtUp?.at(-1)?.id ?? (complete ? resumeAfter : undefined) ?? (yield* latestEventId)
          yield* Queue.offer(queue, `retry: ${RETRY_MS}\n\n`)
          for (const change of caughtUp ?? []) if (readable(change)) yield* Queue.offer(queue, change.text)
          yield* Queue.offer(queue, event(streamEvents.ready, last, { after: last, complete } satisfies ReadyEventData))
          yield* Effect.forkScoped(
            Effect.forever(
              Effect.flatMap(PubSub.take(subscription), (changes) => {
                const sent: Array<string> = []
                for (const change of changes) {
                  if (!later(change.id, last)) continue
                  last = change.id
                  if (readable(change)) sent.push(change.text)
                }
                return sent.length === 0 ? Effect.void : Queue.offerAll(queue, sent)
              })
            )
          )
          const endIfSessionEnded = Effect.flatMap(isSessionLive(session.id), (live) => (live ? Effect.void : Queue.end(queue)))
          yield* Effect.forkScoped(
            Effect.forever(Effect.andThen(Effect.sleep(HEARTBEAT), Effect.andThen(endIfSessionEnded, Queue.offer(queue, ": heartbeat\n\n"))))
          )
          // Sessions ended somewhere: this one may be among them.
          const checks = yield* Queue.sliding<void>(1)
          const stop = onSessionsEnded(() => void Queue.offerUnsafe(checks, undefined))
          yield* Effect.addFinalizer(() => Effect.sync(stop))
          yield* Effect.forkScoped(Effect.forever(Effect.andThen(Queue.take(checks), endIfSessionEnded)))
        }).pipe(Effect.catchCause(() => Queue.end(queue)))
      )
      return HttpServerResponse.stream(body.pipe(Stream.encodeText, Stream.provideContext(context)), {
        contentType: EVENT_STREAM_CONTENT_TYPE,
        headers: { "cache-control": "no-store", "x-accel-buffering": "no" }
      })
    })
  )
)
