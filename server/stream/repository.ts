import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { streamedAreas } from "../../contract/stream.ts"
import { dieOnSqlError } from "../platform/database.ts"

/**
 * What the change stream reads (docs/architecture.md, "Live changes"): the events a batch of
 * notices names, what followed an event id, and the records those events are about, one
 * statement per area, whatever the number of records.
 */

/** An activity-log event of a streamed area, as the stream needs it. */
export interface EventRow {
  readonly id: string
  readonly entity: string
  readonly action: string
  readonly entityId: string
  readonly actorId: string | null
  readonly version: number | null
  readonly removed: boolean
  readonly changes: Readonly<Record<string, unknown>> | string | null
}

/** `id` is text here: an `ORDER BY` names the table's column (a bigint), or 100 would come before 99. */
const eventColumns = "id::text AS id, entity, action, entity_id, actor_id::text AS actor_id, version, removed, changes"

/** The events named by a batch of notices, in the log's order. */
export const eventsByIds = (ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (ids.length === 0) return [] as ReadonlyArray<EventRow>
    const sql = yield* SqlClient
    return yield* sql<EventRow>`SELECT ${sql.unsafe(eventColumns)} FROM activity_log
      WHERE id IN ${sql.in(ids.map((id) => BigInt(id).toString()))} AND entity_id IS NOT NULL ORDER BY activity_log.id`
  }).pipe(dieOnSqlError)

/** What followed `afterId` in the streamed areas (a reconnect's catch-up; at most `limit`). */
export const eventsAfter = (afterId: string, limit: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    return yield* sql<EventRow>`SELECT ${sql.unsafe(eventColumns)} FROM activity_log
      WHERE id > ${afterId}::bigint AND entity IN ${sql.in(streamedAreas)} AND entity_id IS NOT NULL
      ORDER BY activity_log.id LIMIT ${limit}`
  }).pipe(dieOnSqlError)

/** The id of the newest activity event: where a first connection starts. */
export const latestEventId = Effect.flatMap(SqlClient, (sql) =>
  Effect.map(sql<{ id: string }>`SELECT coalesce(max(id), 0)::text AS id FROM activity_log`, (rows) => rows[0]?.id ?? "0")
).pipe(dieOnSqlError)

/** `latestEventId` on this server's database, for what runs outside a request's services (a middleware: ./position.ts). */
export const latestEventIdReader = Effect.map(SqlClient, (sql) => Effect.provideService(latestEventId, SqlClient, sql))

/** Where an area's records are read: the table (with its alias), the columns its answer is made of, the id column. */
export interface RecordSource {
  readonly from: string
  readonly columns: string
  readonly id: string
}

/** The records of one area among `ids` (those still there), in one statement. */
export const recordsByIds = (source: RecordSource, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (ids.length === 0) return [] as ReadonlyArray<Readonly<Record<string, unknown>>>
    const sql = yield* SqlClient
    return yield* sql<Readonly<Record<string, unknown>>>`SELECT ${sql.unsafe(source.columns)} FROM ${sql.unsafe(source.from)}
      WHERE ${sql.unsafe(source.id)} IN ${sql.in(ids)}`
  }).pipe(dieOnSqlError)
