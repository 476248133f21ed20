import { Context, Effect, Layer, PubSub } from "effect"
import type { ActivityArea } from "../../contract/activity.ts"
import { type ChangeEventData, streamEvents } from "../../contract/stream.ts"
import { ChangeFeed } from "../platform/change-feed.ts"
import { type StreamKind, streamKinds } from "./kinds.ts"
import { type EventRow, eventsAfter, eventsByIds, recordsByIds } from "./repository.ts"

/**
 * Changes as the stream sends them (docs/architecture.md, "Live changes"): each server reads the
 * events a notice names and their records once, in one statement per area, writes each event's
 * text once, and every stream of that server sends it to a reader who may read its area.
 */

/** A change ready to send: whose area it is, who did it (a session's own events), and its text. */
export interface LiveChange {
  readonly id: string
  readonly area: string
  readonly actorId: string | null
  /** The whole server-sent event. */
  readonly text: string
}

/** One server-sent event. */
export const sseEvent = (name: string, id: string, data: unknown) => `id: ${id}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`

/** How many events one statement names at most. */
const BATCH = 500

type Stored = Readonly<Record<string, readonly [unknown, unknown] | null>>
type Row = Readonly<Record<string, unknown>>

const storedChanges = (changes: EventRow["changes"]): Stored =>
  changes === null ? {} : typeof changes === "string" ? (JSON.parse(changes) as Stored) : (changes as Stored)

const verbOf = (action: string) => action.slice(action.lastIndexOf(".") + 1)

/** A removal is `deleted`; a record's first version (whatever the area calls the verb: `ip.allow`) is `created`. */
const typeOf = (area: string, event: EventRow, removed: boolean) => {
  const verb = verbOf(event.action)
  const created = event.version === 1 || verb === "create" || verb === "submit"
  return `${area}.${removed ? "deleted" : created ? "created" : "updated"}`
}

/** The changed fields' new values: a hidden one (kept as null by history) never. */
const newValues = (changes: Stored, hidden: ReadonlyArray<string>) =>
  Object.fromEntries(Object.entries(changes).flatMap(([field, pair]) => (pair === null || hidden.includes(field) ? [] : [[field, pair[1]]])))

const withoutHidden = (fields: object, hidden: ReadonlyArray<string>) =>
  hidden.length === 0 ? fields : Object.fromEntries(Object.entries(fields).filter(([field]) => !hidden.includes(field)))

/** The list a record belongs to: its kind column now, or as the change left it (a removal: as it was), else its area. */
const listOf = (kind: StreamKind | undefined, area: string, row: Row | undefined, changes: Stored) => {
  const column = kind?.kindColumn
  if (column === undefined) return area
  const pair = changes[column]
  const value = row?.[column] ?? pair?.[1] ?? pair?.[0]
  return typeof value === "string" ? value : area
}

const liveChangeOf = (event: EventRow, rows: ReadonlyMap<string, Row> | undefined): LiveChange => {
  const area = event.entity
  const kind = streamKinds[area as ActivityArea]
  const changes = storedChanges(event.changes)
  const removed = event.removed || verbOf(event.action) === "delete"
  const row = removed || kind === undefined ? undefined : rows?.get(kind.rowId(event.entityId))
  const version = removed ? null : event.version
  const hidden = kind?.hidden ?? []
  // The record as read is the record at this event's version only when it has not moved on since.
  const current = kind !== undefined && row !== undefined && version !== null && row.version === version
  const data: ChangeEventData = {
    type: typeOf(area, event, removed),
    area,
    kind: listOf(kind, area, row, changes),
    entityId: event.entityId,
    version,
    changes: removed ? {} : newValues(changes, hidden),
    fields: current ? (withoutHidden(kind.fieldsOf(row), hidden) as ChangeEventData["fields"]) : null
  }
  return { id: event.id, area, actorId: event.actorId, text: sseEvent(streamEvents.change, event.id, data) }
}

/** The events as changes to send, their records read in one statement per area. */
const resolve = (events: ReadonlyArray<EventRow>) =>
  Effect.gen(function* () {
    const wanted = new Map<string, Set<string>>()
    for (const event of events) {
      const kind = streamKinds[event.entity as ActivityArea]
      if (kind === undefined || event.removed || event.version === null) continue
      const ids = wanted.get(event.entity) ?? new Set<string>()
      wanted.set(event.entity, ids.add(kind.rowId(event.entityId)))
    }
    const records = new Map<string, ReadonlyMap<string, Row>>()
    for (const [area, ids] of wanted) {
      const rows = yield* recordsByIds(streamKinds[area as ActivityArea]!.source, [...ids])
      records.set(area, new Map(rows.map((row) => [String(row.id), row])))
    }
    return events.map((event) => liveChangeOf(event, records.get(event.entity)))
  })

/** The most changes a reconnect's catch-up sends; a console that missed more reads its lists again. */
export const CATCH_UP_LIMIT = 500

/**
 * What followed `afterId`, ready to send (a reconnect's catch-up), when it is at most `limit`
 * changes; undefined when more followed: the catch-up would not be all of it.
 */
export const changesAfter = (afterId: string, limit = CATCH_UP_LIMIT) =>
  Effect.flatMap(eventsAfter(afterId, limit + 1), (events) => (events.length > limit ? Effect.succeed(undefined) : resolve(events)))

/** The changes of one batch of notices, in the log's order, `BATCH` events to a statement. */
const changesOf = (ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sorted = [...new Set(ids)].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
    const changes: Array<LiveChange> = []
    for (let start = 0; start < sorted.length; start += BATCH)
      changes.push(...(yield* Effect.flatMap(eventsByIds(sorted.slice(start, start + BATCH)), resolve)))
    return changes
  })

export interface LiveChangesService {
  /** Batches of changes, in the log's order within each. */
  readonly hub: PubSub.PubSub<ReadonlyArray<LiveChange>>
}

export class LiveChanges extends Context.Service<LiveChanges, LiveChangesService>()("stream/LiveChanges") {}

/**
 * This server's changes: it takes every notice the feed has heard since it last looked, reads
 * them together, and hands the result to its streams. A failed read is logged; consoles catch up
 * from the log when they reconnect.
 */
export const liveChangesLayer = Layer.effect(
  LiveChanges,
  Effect.gen(function* () {
    const feed = yield* ChangeFeed
    const hub = yield* Effect.acquireRelease(PubSub.unbounded<ReadonlyArray<LiveChange>>(), PubSub.shutdown)
    const notices = yield* PubSub.subscribe(feed.hub)
    const next = Effect.flatMap(PubSub.takeAll(notices), (batches) => changesOf(batches.flat())).pipe(
      Effect.flatMap((changes) => (changes.length === 0 ? Effect.void : PubSub.publish(hub, changes))),
      Effect.catchCause((cause) => Effect.logWarning("Reading announced changes failed", cause))
    )
    yield* Effect.forkScoped(Effect.forever(next))
    return { hub }
  })
)
