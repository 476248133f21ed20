import { Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { recordActivity } from "../platform/activity-log.ts"
import { inTransaction } from "../platform/database.ts"

/** How often the job looks for posts whose time has come: a post goes out at most this late. */
export const SCHEDULER_INTERVAL = "15 seconds"

/**
 * Publishes every scheduled post whose time has come, `publishedAt` = `scheduledAt`. Rows are
 * locked with SKIP LOCKED, so two server processes never publish the same post twice; a server
 * that was down catches up on its first run.
 */
export const publishDuePosts = Effect.gen(function*() {
  const sql = yield* SqlClient
  const published = yield* sql<{ id: string; slug: string }>`
    WITH due AS (
      SELECT id FROM blog_posts
      WHERE status = 'scheduled' AND scheduled_at <= now()
      ORDER BY scheduled_at
      LIMIT 100
      FOR UPDATE SKIP LOCKED
    )
    UPDATE blog_posts p
    SET status = 'published', published_at = p.scheduled_at, scheduled_at = NULL,
        updated_at = now(), version = p.version + 1
    FROM due WHERE p.id = due.id
    RETURNING p.id, p.slug`
  for (const post of published) {
    yield* recordActivity({
      actorId: null,
      actorEmail: null,
      action: "blog.publish_scheduled",
      entityId: post.id,
      fromState: "scheduled",
      toState: "published",
      ip: null
    })
  }
  return published.length
}).pipe(inTransaction)

/** Runs the job now and then every interval for as long as the server runs; a failed run is logged and retried. */
export const schedulerLayer = Layer.effectDiscard(
  publishDuePosts.pipe(
    Effect.tap((count) => (count > 0 ? Effect.logInfo(`Published ${count} scheduled post(s)`) : Effect.void)),
    Effect.catchCause((cause) => Effect.logError("Scheduled publishing failed", cause)),
    Effect.repeat(Schedule.spaced(SCHEDULER_INTERVAL)),
    Effect.forkScoped
  )
)
