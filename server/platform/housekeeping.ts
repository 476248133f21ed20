import { Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/** How often the housekeeping job runs. */
export const HOUSEKEEPING_INTERVAL = "10 minutes"

/**
 * Deletes what has stopped mattering (docs/security.md, "Sign-in"): expired one-time codes (their
 * attempts go with them), rate-limit windows older than a day (the longest window is a day),
 * browsers no longer known (unused for 90 days), command keys two days old, sessions a day past their end or revocation,
 * failed mail a week old, and passkey challenges and second steps past their end. Returns how many rows went, by table.
 */
export const purgeExpired = Effect.gen(function* () {
  const sql = yield* SqlClient
  const rows = yield* sql<{ codes: number; limits: number; browsers: number; keys: number; sessions: number; mail: number; challenges: number; steps: number }>`
    WITH codes AS (DELETE FROM sign_in_codes WHERE expires_at <= now() RETURNING 1),
    limits AS (DELETE FROM rate_limits WHERE window_start <= now() - interval '1 day' RETURNING 1),
    browsers AS (DELETE FROM known_browsers WHERE expires_at <= now() RETURNING 1),
    keys AS (DELETE FROM idempotency_keys WHERE created_at <= now() - interval '2 days' RETURNING 1),
    sessions AS (DELETE FROM sessions WHERE coalesce(revoked_at, expires_at) <= now() - interval '1 day' RETURNING 1),
    mail AS (DELETE FROM mail_outbox WHERE failed_at <= now() - interval '7 days' RETURNING 1),
    challenges AS (DELETE FROM passkey_challenges WHERE expires_at <= now() RETURNING 1),
    steps AS (DELETE FROM sign_in_steps WHERE expires_at <= now() RETURNING 1)
    SELECT (SELECT count(*)::int FROM codes) AS codes, (SELECT count(*)::int FROM limits) AS limits,
      (SELECT count(*)::int FROM browsers) AS browsers, (SELECT count(*)::int FROM keys) AS keys,
      (SELECT count(*)::int FROM sessions) AS sessions, (SELECT count(*)::int FROM mail) AS mail,
      (SELECT count(*)::int FROM challenges) AS challenges, (SELECT count(*)::int FROM steps) AS steps`
  return rows[0] ?? { codes: 0, limits: 0, browsers: 0, keys: 0, sessions: 0, mail: 0, challenges: 0, steps: 0 }
})

/** Runs the purge now and then every interval while the server runs; a failed run is logged. */
export const housekeepingLayer = Layer.effectDiscard(
  purgeExpired.pipe(
    Effect.catchCause((cause) => Effect.logError("Housekeeping failed", cause)),
    Effect.repeat(Schedule.spaced(HOUSEKEEPING_INTERVAL)),
    Effect.forkScoped
  )
)
