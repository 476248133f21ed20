import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { type MailMessage, Mailer } from "./mail.ts"

/**
 * Mail leaves through a table, after the answer (docs/security.md, "Sign-in"): the request that
 * wants a mail writes an outbox row in its own transaction and answers at once, the same way
 * whether or not a mail was due; a worker in each server process sends due rows, retrying with
 * backoff until the mail's useful life ends. Rows are claimed with a lease (`FOR UPDATE SKIP
 * LOCKED`), so two servers on one PostgreSQL never send the same mail. A sent mail's row is
 * deleted (it holds a code); a mail that could not be sent keeps its error, without its text,
 * for `/api/health`.
 */

export const MAX_ATTEMPTS = 8
const LEASE_SECONDS = 60
const POLL_MS = 2_000

/** Seconds before attempt `n + 1`, after `n` failures: 2, 4, 8… at most 120. */
export const backoffSeconds = (failures: number) => Math.min(120, 2 ** failures)

/** Queues `message` in the caller's transaction; it is useless after `ttlMinutes`. */
export const enqueueMail = (message: MailMessage, ttlMinutes: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    yield* sql`
      INSERT INTO mail_outbox (recipient, subject, body, expires_at)
      VALUES (${message.to}, ${message.subject}, ${message.text}, now() + make_interval(mins => ${ttlMinutes}::int))`
  })

interface OutboxRow {
  readonly id: string
  readonly recipient: string
  readonly subject: string
  readonly body: string
  readonly attempts: number
  readonly expired: boolean
}

/** Sends what is due now; returns how many were sent and how many failed this round. */
export const sendDueMail = Effect.gen(function* () {
  const sql = yield* SqlClient
  const mailer = yield* Mailer
  const claimed = yield* sql<OutboxRow>`
    UPDATE mail_outbox SET next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS}::int)
    WHERE id IN (
      SELECT id FROM mail_outbox WHERE failed_at IS NULL AND next_attempt_at <= now()
      ORDER BY next_attempt_at LIMIT 20 FOR UPDATE SKIP LOCKED)
    RETURNING id::text AS id, recipient, subject, body, attempts, expires_at <= now() AS expired`
  let sent = 0
  let failed = 0
  for (const row of claimed) {
    if (row.expired) {
      yield* sql`UPDATE mail_outbox SET failed_at = now(), subject = '', body = '',
        last_error = coalesce(last_error, 'expired before it could be sent') WHERE id = ${row.id}::bigint`
      failed += 1
      continue
    }
    const outcome = yield* Effect.exit(mailer.send({ to: row.recipient, subject: row.subject, text: row.body }))
    if (outcome._tag === "Success") {
      yield* sql`DELETE FROM mail_outbox WHERE id = ${row.id}::bigint`
      sent += 1
      continue
    }
    failed += 1
    const reason = outcome.cause.reasons.find((item) => item._tag === "Fail")
    const message = reason?._tag === "Fail" ? reason.error.message : "unexpected failure"
    const attempts = row.attempts + 1
    yield* Effect.logError(`Mail to ${row.recipient} failed (attempt ${attempts} of ${MAX_ATTEMPTS}): ${message}`)
    if (attempts >= MAX_ATTEMPTS) {
      yield* sql`UPDATE mail_outbox SET attempts = ${attempts}, failed_at = now(), subject = '', body = '', last_error = ${message}
        WHERE id = ${row.id}::bigint`
    } else {
      yield* sql`UPDATE mail_outbox SET attempts = ${attempts}, last_error = ${message},
        next_attempt_at = now() + make_interval(secs => ${backoffSeconds(attempts)}::int) WHERE id = ${row.id}::bigint`
    }
  }
  return { sent, failed }
})

export interface MailHealth {
  readonly pending: number
  readonly failedLastDay: number
  readonly lastError: string | null
}

export const mailHealth = Effect.gen(function* () {
  const sql = yield* SqlClient
  const rows = yield* sql<MailHealth>`
    SELECT
      (SELECT count(*)::int FROM mail_outbox WHERE failed_at IS NULL) AS pending,
      (SELECT count(*)::int FROM mail_outbox WHERE failed_at > now() - interval '1 day') AS failed_last_day,
      (SELECT last_error FROM mail_outbox WHERE last_error IS NOT NULL ORDER BY coalesce(failed_at, next_attempt_at) DESC LIMIT 1) AS last_error`
  return rows[0] ?? { pending: 0, failedLastDay: 0, lastError: null }
})

/** Wakes this process's worker now, instead of at its next poll. */
export class MailWorker extends Context.Service<MailWorker, { readonly wake: Effect.Effect<void> }>()("platform/MailWorker") {}

/** The worker: a round at start, then on every wake-up and at least every few seconds. */
export const mailWorkerLayer = Layer.effect(
  MailWorker,
  Effect.gen(function* () {
    // A wake-up during a round is remembered, so the mail queued meanwhile goes in the next round.
    let woken = false
    let wakeUp: (() => void) | undefined
    const nextWake = Effect.callback<void>((resume) => {
      if (woken) {
        woken = false
        resume(Effect.void)
        return
      }
      const timer = setTimeout(() => {
        wakeUp = undefined
        resume(Effect.void)
      }, POLL_MS)
      wakeUp = () => {
        wakeUp = undefined
        woken = false
        clearTimeout(timer)
        resume(Effect.void)
      }
      return Effect.sync(() => clearTimeout(timer))
    })
    const round = sendDueMail.pipe(
      Effect.catchCause((cause) => Effect.logError("The mail outbox round failed", cause)),
      Effect.asVoid
    )
    yield* Effect.forkScoped(Effect.forever(Effect.andThen(round, nextWake)))
    return {
      wake: Effect.sync(() => {
        woken = true
        wakeUp?.()
      })
    }
  })
)
