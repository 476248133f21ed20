import { PgClient } from "@effect/sql-pg"
import { Context, Deferred, Effect, Layer, PubSub, Queue, Schedule } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { streamedAreas } from "../../contract/stream.ts"
import { type RecordedEvent, RecordedEvents } from "./activity-log.ts"
import { Database, dieOnSqlError, inTransaction } from "./database.ts"

/**
 * The change feed behind `GET /api/admin/stream` (docs/architecture.md, "Live changes"). What
 * goes round is only the ids of committed activity-log events of the streamed areas: each server
 * reads those events and their records once (server/stream/changes.ts) and hands them to its own
 * streams, so a notice stays small whatever the record's size, and a reconnecting console names
 * the last id it saw and gets what followed from the log, whichever process wrote it.
 *
 * Delivery: on PostgreSQL a change is announced with `NOTIFY admin_changes` after its
 * transaction commits, and every server process (this one included) hears it on one listening
 * connection. PGlite is one process: the ids go straight to the local subscribers.
 */

export const CHANGES_CHANNEL = "admin_changes"

/** The actions of the announced events among `ids` in `areas` (what another process changed, for what this one keeps). */
export const announcedActions = (ids: ReadonlyArray<string>, areas: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (ids.length === 0 || areas.length === 0) return [] as ReadonlyArray<string>
    const sql = yield* SqlClient
    const rows = yield* sql<{ action: string }>`SELECT DISTINCT action FROM activity_log
      WHERE id IN ${sql.in(ids.map((id) => BigInt(id).toString()))} AND entity IN ${sql.in(areas)}`
    return rows.map((row) => row.action)
  }).pipe(dieOnSqlError)

/** Under PostgreSQL's 8000-byte limit of a NOTIFY payload, with room to spare. */
const PAYLOAD_BYTES = 7000

export interface ChangeFeedService {
  /** Batches of event ids, each in ascending order, as their changes committed. */
  readonly hub: PubSub.PubSub<ReadonlyArray<string>>
}

export class ChangeFeed extends Context.Service<ChangeFeed, ChangeFeedService>()("platform/ChangeFeed") {}

/**
 * This process's own changes, told once their transaction has committed and before their answer
 * leaves, so what a server keeps of them (the public's cache: server/auth/public-read-cache.ts)
 * is dropped before the writer reads again; other processes learn of them by the feed.
 */
export class CommittedChanges extends Context.Service<CommittedChanges, Set<(events: ReadonlyArray<RecordedEvent>) => void>>()("platform/CommittedChanges") {}

/** Event ids as NOTIFY payloads: comma-separated, each payload under the limit (a bulk change of 500 is one). */
export const payloadsOf = (ids: ReadonlyArray<string>): ReadonlyArray<string> => {
  const payloads: Array<string> = []
  let current = ""
  for (const id of ids) {
    if (current !== "" && current.length + 1 + id.length > PAYLOAD_BYTES) {
      payloads.push(current)
      current = ""
    }
    current = current === "" ? id : `${current},${id}`
  }
  if (current !== "") payloads.push(current)
  return payloads
}

/** A payload's event ids; none when it is not one (another version's notice). */
export const idsOf = (payload: string): ReadonlyArray<string> => {
  const ids = payload.split(",")
  return ids.every((id) => /^\d{1,19}$/u.test(id)) ? ids : []
}

/** Tells every server about committed changes (after the transaction that recorded them). */
const announce = (ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (ids.length === 0) return
    const database = yield* Database
    if (database.engine !== "postgresql") {
      // One process holds the embedded database: its own streams are all there are. A process
      // without a feed (the command line holding the data folder) has no stream to tell.
      const feed = yield* Effect.serviceOption(ChangeFeed)
      if (feed._tag === "Some") yield* PubSub.publish(feed.value.hub, ids)
      return
    }
    const sql = yield* SqlClient
    // Every payload in one statement: a bulk change of 500 costs one round trip.
    yield* sql`SELECT pg_notify(${CHANGES_CHANNEL}, payload) FROM json_array_elements_text(${JSON.stringify(payloadsOf(ids))}::json) AS payload`
  }).pipe(
    // The change is committed and the caller has its answer; a lost notice costs a console a
    // reload, not data. It is logged, never turned into an error of the request.
    Effect.catchCause((cause) => Effect.logWarning("Announcing a change failed", cause))
  )

const streamed = (event: RecordedEvent) =>
  event.entityId !== null && (streamedAreas as ReadonlyArray<string>).includes(event.action.slice(0, event.action.indexOf(".")))

/** Tells this process's listeners of `recorded` once the outermost transaction commits (a change inside an `Idempotency-Key`'s too). */
const tellOnCommit = (recorded: ReadonlyArray<RecordedEvent>) =>
  Effect.gen(function* () {
    const listeners = yield* Effect.serviceOption(CommittedChanges)
    if (listeners._tag === "None" || listeners.value.size === 0) return
    const sql = yield* SqlClient
    yield* sql.afterCommit(Effect.sync(() => listeners.value.forEach((listener) => listener(recorded))))
  })

/**
 * Runs a change in one transaction and, once it has committed, announces the events it recorded
 * in the streamed areas: a rolled-back change records nothing that is announced.
 */
export const announcing = <A, E, R>(change: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const recorded: Array<RecordedEvent> = []
    const result = yield* inTransaction(Effect.tap(Effect.provideService(change, RecordedEvents, recorded), () => tellOnCommit(recorded)))
    yield* announce(recorded.filter(streamed).map((event) => event.id))
    return result
  })

/** How long a start waits for PostgreSQL to confirm the change feed's `LISTEN`. */
const FIRST_LISTEN_WAIT = "10 seconds"

/**
 * The feed of this server: a hub for its readers and, on PostgreSQL, one connection listening for
 * every process's notices. When that connection drops, it listens again after a pause that grows
 * to 30 s; consoles catch up from the log when they reconnect. The server serves once PostgreSQL
 * has confirmed its first `LISTEN` (at most `FIRST_LISTEN_WAIT` after start): a stream that said
 * `ready` before then missed every other process's changes until its next reconnect.
 */
export const changeFeedLayer = Layer.effect(
  ChangeFeed,
  Effect.gen(function* () {
    const hub = yield* Effect.acquireRelease(PubSub.unbounded<ReadonlyArray<string>>(), PubSub.shutdown)
    const database = yield* Database
    if (database.engine === "postgresql") {
      const pg = yield* PgClient.PgClient
      const listening = yield* Deferred.make<void>()
      const listenOnce = Effect.scoped(
        Effect.gen(function* () {
          const notifications = yield* pg.listen(CHANGES_CHANNEL)
          yield* Deferred.succeed(listening, undefined)
          return yield* Effect.forever(
            Effect.flatMap(Queue.take(notifications), ({ payload }) => {
              const ids = idsOf(payload)
              return ids.length === 0 ? Effect.void : PubSub.publish(hub, ids)
            })
          )
        })
      )
      yield* Effect.forkScoped(
        listenOnce.pipe(
          Effect.catchCause((cause) => Effect.logWarning("Listening for changes failed; listening again", cause)),
          Effect.repeat(Schedule.min([Schedule.exponential("250 millis"), Schedule.spaced("30 seconds")]))
        )
      )
      // A database that refuses LISTEN does not stop the start: the loop above goes on trying.
      yield* Deferred.await(listening).pipe(Effect.timeoutOption(FIRST_LISTEN_WAIT))
    }
    return { hub }
  })
)
