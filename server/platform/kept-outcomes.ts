import { Context, Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import type { NotFound } from "../../contract/common.ts"
import { dieOnSqlError } from "./database.ts"

/**
 * Commands whose answer holds a record's secret (`KeptAnswer` "outcome" in the contract; docs/api.md,
 * "Commands, exactly once"): the server keeps which record a keyed one made or changed, never its
 * answer, and answers a repeat by reading that record again. The key's middleware
 * (idempotency.ts) says which run this is; the endpoint says what its record is and how it reads.
 */
export interface OutcomeKeeping {
  /** The record a kept command named: this run is its repeat. */
  readonly repeatOf: string | undefined
  /** On a first run: the record the command made or changed, kept with its key. */
  readonly named: (recordId: string) => void
}

/** Set by the middleware for a keyed command of such an endpoint; none without a key. */
export const OutcomeKeeping = Context.Reference<OutcomeKeeping | undefined>("platform/OutcomeKeeping", { defaultValue: () => undefined })

/**
 * An endpoint whose answer holds a record's secret: `run` applies the command and names its
 * record; a repeat is answered by `readAgain` of that record as it is now, with the caller's
 * rights of now (the endpoint checks them before), and never applies the command a second time.
 */
export const answeredFromRecord = <A, E, R, E2, R2>(
  run: Effect.Effect<{ readonly recordId: string; readonly answer: A }, E, R>,
  readAgain: (recordId: string) => Effect.Effect<A, E2, R2>
): Effect.Effect<A, E | E2, R | R2> =>
  Effect.gen(function* () {
    const keeping = yield* OutcomeKeeping
    if (keeping?.repeatOf !== undefined) return yield* readAgain(keeping.repeatOf)
    const { recordId, answer } = yield* run
    keeping?.named(recordId)
    return answer
  })

/**
 * In the transaction that removes a record: the commands kept as its outcome name it no more, and
 * a repeat of one is answered with `gone` (its area's "no longer exists"); it is not applied again.
 */
export const forgetRecord = (recordId: string, gone: NotFound) =>
  Effect.flatMap(
    SqlClient,
    (sql) => sql`UPDATE idempotency_keys SET record_id = NULL, status = 404, failure = ${JSON.stringify(gone)} WHERE record_id = ${recordId}`
  ).pipe(dieOnSqlError)
