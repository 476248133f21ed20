import { PgClient } from "@effect/sql-pg"
import { Effect, Semaphore } from "effect"
import type * as Scope from "effect/Scope"
import * as Client from "effect/sql/SqlClient"
import type { Connection } from "effect/sql/SqlConnection"
import { SqlError, UnknownError } from "effect/sql/SqlError"
import * as Statement from "effect/sql/Statement"
import type { DatabaseLimits } from "./config.ts"

/**
 * The SQL client of a server on PostgreSQL, every wait bounded (docs/deploy.md, "A stalled
 * server"). Another server stopped in the middle of a transaction (SIGSTOP, a frozen VM) keeps
 * its row locks; without bounds every writer of that row waited for it, each holding one of the
 * pool's connections, until the pool was full and reads and readiness waited too. So:
 *
 * - each connection tells PostgreSQL how long a statement may wait for a lock, how long a
 *   statement may run, and how long a transaction may sit idle before PostgreSQL ends it (which
 *   frees a stalled server's locks);
 * - transactions may hold only `transactionsAtOnce` of the pool's connections, so a pile of
 *   writers waiting on one row never takes the connections reads and readiness need;
 * - every wait for a connection (and for a transaction's turn) ends after `poolWaitMs` with
 *   `DatabaseBusy`, which the one place that maps defects answers 503 with Retry-After (http.ts).
 *
 * sql-pg's own client cannot bound the wait for its pool, so this one is made with effect's
 * `SqlClient.make` over sql-pg's pool, as sql-pg makes its own: the same compiler, row names
 * and COMMIT check. Each statement takes its connection with `reserve` (sql-pg's cheaper
 * borrowing is not reachable from outside it): about 23 µs of this process's CPU per `SELECT 1`
 * against 18 µs with sql-pg's client (2026-11-26, six at a time); the timer is about 1 µs of it.
 */

/** No connection (or no turn for a transaction) came free within `DATABASE_POOL_WAIT_MS`. */
export class DatabaseBusy extends Error {
  constructor(waitedMs: number) {
    super(`No database connection came free within ${waitedMs} ms`)
    this.name = "DatabaseBusy"
  }
}

/** The limits as PostgreSQL's own settings, sent when each connection starts (milliseconds; 0 is none). */
const sessionSettings = (limits: DatabaseLimits): Record<string, string> => ({
  lock_timeout: String(limits.lockTimeoutMs),
  statement_timeout: String(limits.statementTimeoutMs),
  idle_in_transaction_session_timeout: String(limits.idleInTransactionTimeoutMs)
})

const failure = (message: string, cause: unknown, operation: string) => new SqlError({ reason: new UnknownError({ cause, message, operation }) })

/** PostgreSQL answers `ROLLBACK` to the COMMIT of a transaction a failed statement aborted: that is a failure, not a commit. */
const commitChecked = (connection: Connection) =>
  Effect.flatMap(connection.executeRaw("COMMIT", []), (result) =>
    typeof result === "object" && result !== null && "command" in result && result.command === "ROLLBACK"
      ? Effect.fail(failure("COMMIT rolled back an aborted transaction", new Error("COMMIT rolled back an aborted transaction"), "commit"))
      : Effect.void
  )

/**
 * Statements that end a transaction or one of its savepoints. The savepoints are a nested
 * transaction's (a write inside the `Idempotency-Key`'s transaction, docs/api.md, "Commands,
 * exactly once").
 */
const endsTransactionOrSavepoint = (sql: string) => sql === "ROLLBACK" || sql.startsWith("ROLLBACK TO SAVEPOINT ") || sql.startsWith("RELEASE SAVEPOINT ")

/**
 * A transaction's connection. A ROLLBACK it cannot send because the connection is gone has
 * nothing left to do: PostgreSQL rolled the transaction back when the connection ended (as it
 * does to one idle past the idle-in-transaction timeout while its server was stopped). The
 * failure the rollback was for (a 409, say) is then the answer, not the lost connection. The same
 * holds for a savepoint's: its failure goes on to the outer transaction, whose next statement, or
 * COMMIT, meets the lost connection (503), and nothing commits. Without this a refusal that met
 * the lost connection at its savepoint was answered 500 (its failure and the rollback's, mixed).
 */
const rollbackSafe = (connection: Connection): Connection => ({
  execute: (sql, params, transformRows) =>
    endsTransactionOrSavepoint(sql)
      ? Effect.catchIf(
          connection.execute(sql, params, transformRows),
          (error) => error.reason._tag === "ConnectionError",
          () => Effect.succeed([])
        )
      : connection.execute(sql, params, transformRows),
  executeRaw: (sql, params) => connection.executeRaw(sql, params),
  executeStream: (sql, params, transformRows) => connection.executeStream(sql, params, transformRows),
  executeValues: (sql, params) => connection.executeValues(sql, params),
  executeValuesUnprepared: (sql, params) => connection.executeValuesUnprepared(sql, params),
  executeUnprepared: (sql, params, transformRows) => connection.executeUnprepared(sql, params, transformRows)
})

export const makeBoundedPgClient = (options: PgClient.PgPoolConfig, limits: DatabaseLimits, transactionsAtOnce: number) =>
  Effect.gen(function* () {
    const pg = yield* PgClient.make({ ...options, startupParameters: { ...options.startupParameters, ...sessionSettings(limits) } })
    const transactions = yield* Semaphore.make(transactionsAtOnce)
    const withinWait = <A>(acquire: Effect.Effect<A, SqlError, Scope.Scope>) =>
      Effect.timeoutOrElse(acquire, {
        duration: limits.poolWaitMs,
        orElse: () => Effect.fail(failure("Waited too long for a database connection", new DatabaseBusy(limits.poolWaitMs), "acquire"))
      })
    const client = yield* Client.make({
      acquirer: withinWait(pg.reserve),
      // The outermost transaction only: a nested one runs on its parent's connection.
      transactionAcquirer: withinWait(Effect.andThen(Semaphore.takeScoped(transactions, 1), Effect.map(pg.reserve, rollbackSafe))),
      compiler: PgClient.makeCompiler(options.transformQueryNames, options.transformJson),
      transformRows:
        options.transformResultNames === undefined ? undefined : Statement.defaultTransforms(options.transformResultNames, options.transformJson).array,
      driver: "pg",
      spanAttributes: [["db.system.name", "postgresql"]],
      prepareTransactionControls: true,
      commit: commitChecked,
      releaseSavepoint: (name) => `RELEASE SAVEPOINT ${name}`
    })
    const bounded: PgClient.PgClient = Object.assign(client, {
      [PgClient.TypeId]: PgClient.TypeId,
      config: pg.config,
      json: pg.json,
      listen: pg.listen,
      notify: pg.notify
    })
    return bounded
  })
