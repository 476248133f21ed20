import type { PGlite } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Redacted, String as Str } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient as SqlClientTag, type SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { randomBytes } from "node:crypto"
import { mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import type { DatabaseLimits } from "./config.ts"
import { acquireDataLock, DataFolderInUse } from "./data-lock.ts"
import { pgliteStream } from "./pglite-bridge.ts"
import { makeBoundedPgClient } from "./postgres-client.ts"

export type Engine = "pglite" | "postgresql"

export interface DatabaseInfo {
  readonly engine: Engine
  /** The connections this server may open at most. */
  readonly maxConnections: number
  /** PostgreSQL: the name this server's connections give themselves (pg_stat_activity). */
  readonly applicationName?: string
  /**
   * PGlite on a folder: a consistent copy of the whole database as a gzipped tar, taken after a
   * checkpoint while no statement runs (docs/architecture.md, "Backup and restore").
   */
  readonly dump?: () => Promise<Blob>
}
export class Database extends Context.Service<Database, DatabaseInfo>()("platform/Database") {}

export type DatabaseTarget =
  | { readonly engine: "postgresql"; readonly url: string }
  | {
      readonly engine: "pglite"
      /** A folder; none keeps the database in memory. */
      readonly dataDir: string | undefined
      /**
       * An in-memory database's starting files, as `dumpDataDir` writes them: the tests start each
       * of their databases from one image of a new cluster instead of creating the cluster again
       * (seconds each; docs/testing.md, "How the suite runs").
       */
      readonly image?: Blob
      /** PostgreSQL's WebAssembly, compiled once by a process that opens many databases (the tests). */
      readonly compiled?: WebAssembly.Module
      /**
       * PostgreSQL's `shared_buffers` (default 128MB): the tests' small databases start in about
       * 0.5 s with 16MB against 1 s, the buffers being WebAssembly memory zeroed at every start
       * (docs/testing.md, "How the suite runs").
       */
      readonly sharedBuffers?: string
    }

/** `DATABASE_URL` picks PostgreSQL; without it PGlite lives in `DATA_DIR/db`. */
export const targetFrom = (config: { databaseUrl: string | undefined; dataDir: string }): DatabaseTarget =>
  config.databaseUrl !== undefined ? { engine: "postgresql", url: config.databaseUrl } : { engine: "pglite", dataDir: join(config.dataDir, "db") }

const names = {
  transformResultNames: Str.snakeToCamel,
  transformQueryNames: Str.camelToSnake
}

/**
 * PGlite with the extensions every embedded database opens with (a restore loads the same).
 * Imported only by a process that embeds the database: a server on PostgreSQL never holds
 * PGlite's code (docs/architecture.md, "Memory").
 */
export const createPglite = async (dataDir: string, options: PgliteOptions = {}): Promise<PGlite> => {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([import("@electric-sql/pglite"), import("@electric-sql/pglite/contrib/pg_trgm")])
  const { sharedBuffers, ...rest } = options
  const startParams = sharedBuffers === undefined ? {} : { startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}`] }
  return PGlite.create(dataDir, { extensions: { pg_trgm }, ...rest, ...startParams })
}

interface PgliteOptions {
  readonly loadDataDir?: Blob
  readonly pgliteWasmModule?: WebAssembly.Module
  readonly sharedBuffers?: string
}

/**
 * Locks `dataDir` for this process (see data-lock.ts), then opens PGlite on it; closes and
 * unlocks in that order. A folder another live process holds fails here, before PGlite or
 * this process has touched it.
 */
export const openPglite = (dataDir: string | undefined, options: PgliteOptions = {}) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        if (dataDir === undefined) return { db: await createPglite("memory://", options), lock: undefined }
        mkdirSync(dirname(dataDir), { recursive: true })
        const lock = acquireDataLock(dataDir)
        try {
          mkdirSync(dataDir, { recursive: true })
          return { db: await createPglite(dataDir, options), lock }
        } catch (error) {
          lock.release()
          throw error
        }
      },
      catch: (error) => (error instanceof DataFolderInUse ? error : new Error(`Could not open the database in ${dataDir}: ${String(error)}`))
    }),
    ({ db, lock }) => Effect.promise(() => db.close().finally(() => lock?.release()))
  )

const pgliteLayer = (target: Extract<DatabaseTarget, { readonly engine: "pglite" }>) =>
  Layer.effectContext(
    Effect.gen(function* () {
      const { db } = yield* openPglite(target.dataDir, {
        ...(target.image === undefined ? {} : { loadDataDir: target.image }),
        ...(target.compiled === undefined ? {} : { pgliteWasmModule: target.compiled }),
        ...(target.sharedBuffers === undefined ? {} : { sharedBuffers: target.sharedBuffers })
      })
      const client = yield* PgClient.makeClient({
        stream: pgliteStream(db),
        ssl: false,
        username: "postgres",
        database: "postgres",
        ...names
      })
      const info: DatabaseInfo = {
        engine: "pglite",
        maxConnections: 1,
        // The tar is read from the files in one synchronous step, so it is the state of one
        // instant: what a crash would leave, which PostgreSQL recovers from its WAL; the
        // checkpoint first makes that recovery short.
        dump: () => Effect.runPromise(Effect.asVoid(client`CHECKPOINT`)).then(() => db.dumpDataDir("gzip"))
      }
      return Context.make(PgClient.PgClient, client).pipe(Context.add(SqlClientTag, client), Context.add(Database, info))
    })
  ).pipe(Layer.provide(Reactivity.layer))

const POSTGRES_CONNECTIONS = 10
/** Each server keeps one connection listening per NOTIFY channel: sessions, allowed addresses, changes. */
const LISTENING_CONNECTIONS = 3
/** Connections transactions never take, so reads and readiness find one while writers wait on a lock. */
const KEPT_FOR_READS = 2
const TRANSACTIONS_AT_ONCE = POSTGRES_CONNECTIONS - LISTENING_CONNECTIONS - KEPT_FOR_READS

/**
 * The SQL client for the configured engine, plus which engine it is. On PostgreSQL, `limits`
 * bound every wait (postgres-client.ts); without them (migrations, which may wait for a running
 * server and take as long as they need) nothing is bounded. PGlite is one connection inside this
 * process: no other process can hold its locks, so it has nothing to bound.
 */
export const databaseLayer = (target: DatabaseTarget, limits?: DatabaseLimits): Layer.Layer<SqlClient | PgClient.PgClient | Database, SqlError | Error> => {
  if (target.engine === "pglite") return pgliteLayer(target)
  // Each server's connections carry a name of their own, so its pool can be told apart.
  const applicationName = `admin-console ${process.pid} ${randomBytes(4).toString("hex")}`
  const options = { url: Redacted.make(target.url), maxConnections: POSTGRES_CONNECTIONS, applicationName, ...names }
  return Layer.merge(
    PgClient.layerFrom(limits === undefined ? PgClient.make(options) : makeBoundedPgClient(options, limits, TRANSACTIONS_AT_ONCE)),
    Layer.succeed(Database, { engine: "postgresql", maxConnections: POSTGRES_CONNECTIONS, applicationName })
  )
}

/**
 * A database failure as a defect: every repository ends its reads and writes here (and so do the
 * few services that hold a transaction of their own), so no handler sees `SqlError` and a handler
 * maps only its area's refusals (docs/architecture.md, "Areas"). The HTTP hygiene answers the
 * defect (platform/http.ts): what PostgreSQL refused because of the request (22xxx 400, 23505
 * 409), a busy or stalled database (503), a full disk (507); anything else is a 500.
 */
export const dieOnSqlError = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, SqlError>, R> =>
  (effect as Effect.Effect<A, E | SqlError, R>).pipe(
    Effect.catchTag("SqlError", Effect.die) // the one place a database failure becomes a defect (record-writes.ts maps unique keys first)
  ) as Effect.Effect<A, Exclude<E, SqlError>, R>

/** Runs `effect` in one transaction: all of its writes land, or none do. */
export const inTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClientTag
    return yield* sql.withTransaction(effect)
  })

/** One round trip to the database: how long it took (ms), for the health check. */
export const pingDatabase = Effect.gen(function* () {
  const sql = yield* SqlClientTag
  const started = performance.now()
  yield* sql`SELECT 1`
  return Math.round((performance.now() - started) * 100) / 100
})

/** The database's size on its disk, in whole megabytes (what a server on PostgreSQL can know of that disk). */
export const databaseSizeMb = Effect.gen(function* () {
  const sql = yield* SqlClientTag
  const rows = yield* sql<{ bytes: string }>`SELECT pg_database_size(current_database())::text AS bytes`
  return Math.ceil(Number(rows[0]?.bytes ?? 0) / (1024 * 1024))
})

/** This server's connections by state (`active`, `idle`…): PostgreSQL's own view of them; PGlite is one, open. */
export const connectionsByState = Effect.gen(function* () {
  const database = yield* Database
  if (database.applicationName === undefined) return [{ state: "open", count: 1 }]
  const sql = yield* SqlClientTag
  return yield* sql<{ state: string; count: number }>`
    SELECT coalesce(state, 'unknown') AS state, count(*)::int AS count FROM pg_stat_activity
    WHERE application_name = ${database.applicationName} GROUP BY 1 ORDER BY 1`
})
