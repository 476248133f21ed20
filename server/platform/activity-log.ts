import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { CurrentSession } from "../../contract/auth.ts"

export interface ActivityEvent {
  readonly actorId: string | null
  readonly actorEmail: string | null
  /** What happened, as `area.verb`: `auth.sign_in`, `address.update`. */
  readonly action: string
  readonly entity: string
  readonly entityId: string | null
  readonly fromState?: string | null
  readonly toState?: string | null
  readonly ip: string | null
  readonly details?: Record<string, unknown>
}

/**
 * Appends one event to the activity log. Call it inside the transaction of the change it
 * records, so both are written or neither is.
 */
export const recordActivity = (event: ActivityEvent) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    yield* sql`INSERT INTO activity_log ${sql.insert({
      actorId: event.actorId,
      actorEmail: event.actorEmail,
      action: event.action,
      entity: event.entity,
      entityId: event.entityId,
      fromState: event.fromState ?? null,
      toState: event.toState ?? null,
      ip: event.ip,
      details: event.details === undefined ? null : JSON.stringify(event.details)
    })}`
  })

/** An event done by the signed-in admin of this request: actor and address come from the session. */
export const recordAdminActivity = (event: Omit<ActivityEvent, "actorId" | "actorEmail" | "ip">) =>
  Effect.gen(function*() {
    const session = yield* CurrentSession
    yield* recordActivity({ ...event, actorId: session.user._id, actorEmail: session.user.email, ip: session.ip })
  })
