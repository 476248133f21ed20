import { Effect, PubSub, Queue, Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import type { SqlClient } from "effect/sql/SqlClient"
import { AdminApi } from "../../contract/api.ts"
import { CurrentSession } from "../../contract/auth.ts"
import { EVENT_STREAM_CONTENT_TYPE, type ReadyEventData, streamEvents } from "../../contract/stream.ts"
import { type Role, ServiceBusy } from "../../contract/common.ts"
import { serverStates } from "../../contract/system.ts"
import { readableAreas } from "../auth/roles.ts"
import { ServerLifecycle } from "../platform/lifecycle.ts"
import { CHANGE_STREAMS_OPEN, ServerMetrics } from "../platform/metrics.ts"
import { onSessionsEnded } from "../sessions/cache.ts"
import { liveSessionRole } from "../sessions/repository.ts"
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

/** What a reader of `role` hears: the areas they may read (`readableAreas`, the activity log's rule), and in their own areas what they did. */
const hearing = (role: Role, readerId: string) => {
  const areas = readableAreas(role)
  return (change: LiveChange) =>
    (areas.all as ReadonlyArray<string>).includes(change.area) || ((areas.own as ReadonlyArray<string>).includes(change.area) && change.actorId === readerId)
}

/**
 * `GET /api/admin/stream` (docs/api.md, "Live changes"). The stream subscribes to this server's
 * changes before it reads the log, so nothing falls between catch-up and live changes; a change
 * already sent by the catch-up is not sent twice. A reader gets the changes they may read, each
 * written once for every stream. It is its session's, at the role the session had when it
 * opened: it ends when the session ends or its role changes, at once when that happens anywhere
 * (the revocation notice), at the next heartbeat at the latest; and before it sends a change only
 * a higher role than the lowest may read, it reads the session's role again, so a change made
 * after a demotion never reaches the demoted reader, whichever notice comes first. Ended for a new
 * role, it tells the console to come back at once, with that role. It also ends when this server
 * stops (telling the console to come back at once, docs/deploy.md).
 */
export const StreamHandlers = HttpApiBuilder.group(AdminApi, "stream", (handlers) =>
  handlers.handle("changes", ({ headers }) =>
    Effect.gen(function* () {
      const session = yield* CurrentSession
      const live = yield* LiveChanges
      const role = session.user.role
      const readable = hearing(role, session.user._id)
      // What the lowest role would hear too needs no second look at the session.
      const anyoneHears = hearing("moderator", session.user._id)
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
          // Sessions ended or lowered somewhere, from now on: this one may be among them.
          const checks = yield* Queue.sliding<void>(1)
          const stop = onSessionsEnded(() => void Queue.offerUnsafe(checks, undefined))
          yield* Effect.addFinalizer(() => Effect.sync(stop))
          const subscription = yield* PubSub.subscribe(live.hub)
          /** Whether the session still acts with the stream's role; if not, the stream ends (at once back under a new role). */
          const stillItsOwn = Effect.gen(function* () {
            const now = yield* liveSessionRole(session.id)
            if (now === role) return true
            if (now !== undefined) yield* Queue.offer(queue, reconnectSoon())
            yield* Queue.end(queue)
            return false
          })
          const send = (changes: ReadonlyArray<LiveChange>) =>
            Effect.gen(function* () {
              const sent = changes.filter(readable)
              if (sent.length === 0) return
              if (!sent.every(anyoneHears) && !(yield* stillItsOwn)) return
              yield* Queue.offerAll(
                queue,
                sent.map((change) => change.text)
              )
            })
          // A console away for longer than a catch-up carries starts from now, told so: it reads its lists again.
          const caughtUp = resumeAfter === undefined ? [] : yield* changesAfter(resumeAfter)
          const complete = caughtUp !== undefined
          let last = caughtUp?.at(-1)?.id ?? (complete ? resumeAfter : undefined) ?? (yield* latestEventId)
          yield* Queue.offer(queue, `retry: ${RETRY_MS}\n\n`)
          yield* send(caughtUp ?? [])
          yield* Queue.offer(queue, event(streamEvents.ready, last, { after: last, complete } satisfies ReadyEventData))
          yield* Effect.forkScoped(
            Effect.forever(
              Effect.flatMap(PubSub.take(subscription), (changes) => {
                const fresh = changes.filter((change) => later(change.id, last))
                last = fresh.at(-1)?.id ?? last
                return send(fresh)
              })
            )
          )
          yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(HEARTBEAT), Effect.andThen(stillItsOwn, Queue.offer(queue, ": heartbeat\n\n")))))
          yield* Effect.forkScoped(Effect.forever(Effect.andThen(Queue.take(checks), stillItsOwn)))
        }).pipe(Effect.catchCause(() => Queue.end(queue)))
      )
      return HttpServerResponse.stream(body.pipe(Stream.encodeText, Stream.provideContext(context)), {
        contentType: EVENT_STREAM_CONTENT_TYPE,
        headers: { "cache-control": "no-store", "x-accel-buffering": "no" }
      })
    })
  )
)
