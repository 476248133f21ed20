import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { TooManyRequests } from "../../contract/common.ts"

export interface RateLimitRule {
  /** What is counted, e.g. `otp-email`. */
  readonly name: string
  readonly limit: number
  readonly windowSeconds: number
}

export interface RateLimitVerdict {
  readonly allowed: boolean
  /** This hit's number in its window: 1 for the first. */
  readonly hits: number
  readonly retryAfterSeconds: number
}

/**
 * Counts one hit for `subject` under `rule` in a fixed window kept in the database, so the
 * count holds across restarts and across server processes. The upsert is atomic.
 */
export const hit = (rule: RateLimitRule, subject: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const window = rule.windowSeconds
    const rows = yield* sql<{ hits: number; retryAfter: number }>`
      INSERT INTO rate_limits (key, window_start, hits) VALUES (${`${rule.name}:${subject}`}, now(), 1)
      ON CONFLICT (key) DO UPDATE SET
        hits = CASE WHEN rate_limits.window_start <= now() - make_interval(secs => ${window}::int)
                    THEN 1 ELSE rate_limits.hits + 1 END,
        window_start = CASE WHEN rate_limits.window_start <= now() - make_interval(secs => ${window}::int)
                    THEN now() ELSE rate_limits.window_start END
      RETURNING hits,
        greatest(1, ceil(extract(epoch FROM (window_start + make_interval(secs => ${window}::int) - now()))))::int AS retry_after`
    const row = rows[0]
    return {
      allowed: row !== undefined && row.hits <= rule.limit,
      hits: row?.hits ?? 0,
      retryAfterSeconds: row?.retryAfter ?? window
    } satisfies RateLimitVerdict
  })

/** Whether `subject`'s next hit under `rule` would be refused, without counting one. */
export const exhausted = (rule: RateLimitRule, subject: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<{ retryAfter: number }>`
      SELECT greatest(1, ceil(extract(epoch FROM (window_start + make_interval(secs => ${rule.windowSeconds}::int) - now()))))::int AS retry_after
      FROM rate_limits
      WHERE key = ${`${rule.name}:${subject}`} AND hits >= ${rule.limit}
        AND window_start > now() - make_interval(secs => ${rule.windowSeconds}::int)`
    return rows[0] === undefined ? undefined : { retryAfterSeconds: rows[0].retryAfter }
  })

/** Takes back `subject`'s count under `rule`: what it counted did not happen after all. */
export const release = (rule: RateLimitRule, subject: string) =>
  Effect.flatMap(SqlClient, (sql) => sql`DELETE FROM rate_limits WHERE key = ${`${rule.name}:${subject}`}`)

/** "in 3 minutes", "in 5 hours": how long a refused client waits, rounded up (at least a minute). */
export const waitText = (seconds: number): string => {
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  if (minutes <= 120) return `in ${minutes} minute${minutes > 1 ? "s" : ""}`
  return `in ${Math.ceil(minutes / 60)} hours`
}

/**
 * Counts a hit and refuses with 429 when `subject` is over `rule`'s limit; `message` says what
 * was refused, given how long to wait ("in 3 minutes").
 */
export const guard = (rule: RateLimitRule, subject: string, message: (wait: string) => string) =>
  Effect.flatMap(hit(rule, subject), (verdict) =>
    verdict.allowed
      ? Effect.void
      : Effect.fail(new TooManyRequests({ error: message(waitText(verdict.retryAfterSeconds)), retryAfterSeconds: verdict.retryAfterSeconds }))
  )
