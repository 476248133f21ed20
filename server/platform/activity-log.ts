import { Context, Effect, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import type { ActivityArea } from "../../contract/activity.ts"
import { CurrentSession } from "../../contract/auth.ts"
import type { Changes } from "./record-history.ts"

const areaOf = (action: string) => action.slice(0, action.indexOf("."))

export interface ActivityEvent {
  readonly actorId: string | null
  readonly actorEmail: string | null
  /**
   * What happened, as `area.verb` (`session.sign_in`, `address.update`): the area is the
   * record's one entity name, so the log's `entity` column is always the action's first part
   * (docs/api.md, "Activity log"). What else tells the record apart (an address's kind, a
   * listing's type) goes in `details`.
   */
  readonly action: `${ActivityArea}.${string}`
  readonly entityId: string | null
  readonly fromState?: string | null
  readonly toState?: string | null
  readonly ip: string | null
  readonly details?: Record<string, unknown>
  /** Record history (record-history.ts): the version the change produced and the fields it changed. */
  readonly version?: number
  readonly changes?: Changes
  readonly removed?: boolean
}

const columnsOf = (event: ActivityEvent) => ({
  actorId: event.actorId,
  actorEmail: event.actorEmail,
  action: event.action,
  entity: areaOf(event.action),
  entityId: event.entityId,
  fromState: event.fromState ?? null,
  toState: event.toState ?? null,
  ip: event.ip,
  details: event.details === undefined ? null : JSON.stringify(event.details),
  version: event.version ?? null,
  changes: event.changes === undefined ? null : JSON.stringify(event.changes),
  removed: event.removed ?? false
})

/** An event recorded during one change: what `announcing` (server/platform/change-feed.ts) tells consoles once it commits. */
export interface RecordedEvent {
  readonly id: string
  readonly action: string
  readonly entityId: string | null
}

/** Where a change that announces itself collects the events it records. */
export class RecordedEvents extends Context.Service<RecordedEvents, Array<RecordedEvent>>()("platform/RecordedEvents") {}

/**
 * Appends events to the activity log in one statement, and answers their ids in the same order
 * (a change that can be undone names its event: server/listings/http.ts). Call it inside the
 * transaction of the change it records, so both are written or neither is.
 */
export const recordActivities = (events: ReadonlyArray<ActivityEvent>) =>
  Effect.gen(function* () {
    const [first, ...rest] = events.map(columnsOf)
    if (first === undefined) return [] as ReadonlyArray<string>
    const sql = yield* SqlClient
    const rows = yield* sql<{ id: string }>`INSERT INTO activity_log ${sql.insert([first, ...rest])} RETURNING id::text AS id`
    // Ids are drawn from the sequence row by row, so in order they follow the events given.
    const ids = rows.map((row) => row.id).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
    const collector = yield* Effect.serviceOption(RecordedEvents)
    if (Option.isSome(collector))
      collector.value.push(...events.map((event, index) => ({ id: ids[index] ?? "", action: event.action, entityId: event.entityId })))
    return ids
  })

/** Appends one event to the activity log (see `recordActivities`); answers its id. */
export const recordActivity = (event: ActivityEvent) => Effect.map(recordActivities([event]), (ids) => ids[0] ?? "")

/** Events done by the signed-in admin of this request: actor and address come from the session. */
export const recordAdminActivities = (events: ReadonlyArray<Omit<ActivityEvent, "actorId" | "actorEmail" | "ip">>) =>
  Effect.gen(function* () {
    const session = yield* CurrentSession
    return yield* recordActivities(events.map((event) => ({ ...event, actorId: session.user._id, actorEmail: session.user.email, ip: session.ip })))
  })

/** An event done by the signed-in admin of this request: actor and address come from the session. */
export const recordAdminActivity = (event: Omit<ActivityEvent, "actorId" | "actorEmail" | "ip">) =>
  Effect.map(recordAdminActivities([event]), (ids) => ids[0] ?? "")
