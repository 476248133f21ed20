import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, PubSub, Queue, Schedule } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import type { ChangeNotice } from "../../contract/stream.ts"
import { type RecordedEvent, RecordedEvents } from "./activity-log.ts"
import { Database, inTransaction } from "./database.ts"

/**
 * The change feed behind `GET /api/admin/stream` (docs/architecture.md, "Live changes"). A
 * notice is small: which record changed and how, never its content; a screen that cares reads
 * the record through the API, with its rights. Each notice is an activity-log event, so its id
 * is the event's id: a reconnecting console names the last id it saw and gets what followed
 * from the log, whichever process wrote it.
 *
 * Delivery: on PostgreSQL a change is announced with `NOTIFY admin_changes` after its
 * transaction commits, and every server process (this one included) hears it on one listening
 * connection and hands it to its own streams. PGlite is one process: the notice goes straight to
 * the local subscribers.
 */

export const CHANGES_CHANNEL = "admin_changes"

/** The areas whose activity events are notices, and the activity actions that make them. */
const noticeType = (entity: string, action: string): string => {
  const verb = action.split(".").at(-1)
  return `${entity}.${verb === "create" || verb === "submit" ? "created" : verb === "delete" ? "deleted" : "updated"}`
}

const STREAMED_ENTITIES: ReadonlyArray<string> = ["scam-report", "inquiry", "listing"]

export interface ChangeFeedService {
  readonly hub: PubSub.PubSub<ChangeNotice>
}

export class ChangeFeed extends Context.Service<ChangeFeed, ChangeFeedService>()("platform/ChangeFeed") {}

/** A notice for an activity event. */
const noticeOf = (eventId: string, entity: string, action: string, entityId: string): ChangeNotice => ({
  id: eventId,
  type: noticeType(entity, action),
  entityId
})

const isNotice = (value: unknown): value is ChangeNotice =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as ChangeNotice).id === "string" &&
  typeof (value as ChangeNotice).type === "string" &&
  typeof (value as ChangeNotice).entityId === "string"

/** Tells every console about committed changes (after the transaction that recorded them). */
const announce = (notices: ReadonlyArray<ChangeNotice>) =>
  Effect.gen(function* () {
    if (notices.length === 0) return
    const database = yield* Database
    if (database.engine !== "postgresql") {
      // One process holds the embedded database: its own streams are all there are. A process
      // without a feed (the command line holding the data folder) has no stream to tell.
      const feed = yield* Effect.serviceOption(ChangeFeed)
      if (feed._tag === "Some") yield* PubSub.publishAll(feed.value.hub, notices)
      return
    }
    const sql = yield* SqlClient
    // One NOTIFY per notice keeps each payload far under PostgreSQL's 8000-byte limit; all of
    // them in one statement, so a bulk change of 500 costs one round trip.
    yield* sql`SELECT pg_notify(${CHANGES_CHANNEL}, payload) FROM json_array_elements_text(${JSON.stringify(notices.map((notice) => JSON.stringify(notice)))}::json) AS payload`
  }).pipe(
    // The change is committed and the caller has its answer; a lost notice costs a console a
    // reload, not data. It is logged, never turned into an error of the request.
    Effect.catchCause((cause) => Effect.logWarning("Announcing a change failed", cause))
  )

/**
 * Runs a change in one transaction and, once it has committed, announces the events it recorded
 * in the streamed areas: a rolled-back change records nothing that is announced.
 */
export const announcing = <A, E, R>(change: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const recorded: Array<RecordedEvent> = []
    const result = yield* inTransaction(Effect.provideService(change, RecordedEvents, recorded))
    yield* announce(
      recorded.flatMap((event) => {
        const area = event.action.slice(0, event.action.indexOf("."))
        return STREAMED_ENTITIES.includes(area) && event.entityId !== null ? [noticeOf(event.id, area, event.action, event.entityId)] : []
      })
    )
    return result
  })

/** What followed `afterId` in the activity log, as notices (a reconnect's catch-up; at most `limit`). */
export const noticesAfter = (afterId: string, limit = 500) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<{ id: string; entity: string; action: string; entityId: string }>`
      SELECT id::text AS id, entity, action, entity_id FROM activity_log
      WHERE id > ${afterId}::bigint AND entity IN ${sql.in(STREAMED_ENTITIES)} AND entity_id IS NOT NULL
      ORDER BY id LIMIT ${limit}`
    return rows.map((row) => noticeOf(row.id, row.entity, row.action, row.entityId))
  })

/** The id of the newest activity event: where a first connection starts. */
export const latestEventId = Effect.flatMap(SqlClient, (sql) =>
  Effect.map(sql<{ id: string }>`SELECT coalesce(max(id), 0)::text AS id FROM activity_log`, (rows) => rows[0]?.id ?? "0")
)

/**
 * The feed of this server: a hub for its streams and, on PostgreSQL, one connection listening for
 * every process's notices. When that connection drops, it listens again after a pause that grows
 * to 30 s; consoles catch up from the log when they reconnect.
 */
export const changeFeedLayer = Layer.effect(
  ChangeFeed,
  Effect.gen(function* () {
    const hub = yield* Effect.acquireRelease(PubSub.unbounded<ChangeNotice>(), PubSub.shutdown)
    const database = yield* Database
    if (database.engine === "postgresql") {
      const pg = yield* PgClient.PgClient
      const listenOnce = Effect.scoped(
        Effect.gen(function* () {
          const notifications = yield* pg.listen(CHANGES_CHANNEL)
          return yield* Effect.forever(
            Effect.flatMap(Queue.take(notifications), ({ payload }) =>
              Effect.suspend(() => {
                try {
                  const notice: unknown = JSON.parse(payload)
                  return isNotice(notice) ? PubSub.publish(hub, notice) : Effect.void
                } catch {
                  return Effect.void
                }
              })
            )
          )
        })
      )
      yield* Effect.forkScoped(
        listenOnce.pipe(
          Effect.catchCause((cause) => Effect.logWarning("Listening for changes failed; listening again", cause)),
          Effect.repeat(Schedule.min([Schedule.exponential("250 millis"), Schedule.spaced("30 seconds")]))
        )
      )
    }
    return { hub }
  })
)
