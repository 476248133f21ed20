import { Context, type Duration, Effect, Layer, Schedule } from "effect"
import { updateRecords } from "../platform/record-writes.ts"
import { duePosts, type PostRow, postTable, publishedAsScheduled } from "./repository.ts"

/**
 * How often the job looks for posts whose time has come: a post goes out at most this late. A test
 * server provides a shorter one (tests/support/server.ts), so a story of a scheduled post waits
 * seconds, not a quarter of a minute.
 */
export const SchedulerInterval = Context.Reference<Duration.Input>("blog/SchedulerInterval", { defaultValue: () => "15 seconds" })

/**
 * Publishes every scheduled post whose time has come, `publishedAt` = `scheduledAt`, as one change
 * of many records on the write path (server/platform/record-writes.ts), by nobody. Rows are
 * locked with SKIP LOCKED, so two server processes never publish the same post twice; a server
 * that was down catches up on its first run (100 posts a run).
 */
export const publishDuePosts = Effect.map(
  updateRecords<PostRow>(postTable, {
    where: duePosts,
    skipLocked: true,
    set: publishedAsScheduled,
    events: (before) => ({ action: "blog.publish_scheduled", entityId: before.id, fromState: "scheduled", toState: "published" }),
    actor: { ip: null }
  }),
  ({ changed }) => changed.length
)

/** Runs the job now and then every interval for as long as the server runs; a failed run is logged and retried. */
export const schedulerLayer = Layer.effectDiscard(
  Effect.flatMap(SchedulerInterval, (interval) =>
    publishDuePosts.pipe(
      Effect.tap((count) => (count > 0 ? Effect.logInfo(`Published ${count} scheduled post(s)`) : Effect.void)),
      Effect.catchCause((cause) => Effect.logError("Scheduled publishing failed", cause)),
      Effect.repeat(Schedule.spaced(interval)),
      Effect.forkScoped
    )
  )
)
