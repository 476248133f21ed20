import { PGlite } from "@electric-sql/pglite"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Redacted, String as Str } from "effect"
import { SqlClient as SqlClientTag, type SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { pgliteStream } from "./pglite-bridge.ts"

export type Engine = "pglite" | "postgresql"

export interface DatabaseInfo {
  readonly engine: Engine
}
export class Database extends Context.Service<Database, DatabaseInfo>()("platform/Database") {}

export type DatabaseTarget =
  | { readonly engine: "postgresql"; readonly url: string }
  | { readonly engine: "pglite"; readonly dataDir: string | undefined }

/** `DATABASE_URL` picks PostgreSQL; without it PGlite lives in `DATA_DIR/db`. */
export const targetFrom = (config: { databaseUrl: string | undefined; dataDir: string }): DatabaseTarget =>
  config.databaseUrl !== undefined
    ? { engine: "postgresql", url: config.databaseUrl }
    : { engine: "pglite", dataDir: join(config.dataDir, "db") }

const names = {
  transformResultNames: Str.snakeToCamel,
  transformQueryNames: Str.camelToSnake
}

const openPglite = (dataDir: string | undefined) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true })
      return PGlite.create(dataDir ?? "memory://", { extensions: { pg_trgm } })
    }),
    (db) => Effect.promise(() => db.close())
  )

const pgliteClient = (dataDir: string | undefined) =>
  PgClient.layerFrom(
    Effect.gen(function*() {
      const db = yield* openPglite(dataDir)
      return yield* PgClient.makeClient({
        stream: pgliteStream(db),
        ssl: false,
        username: "postgres",
        database: "postgres",
        ...names
      })
    })
  )

const postgresClient = (url: string) =>
  PgClient.layer({ url: Redacted.make(url), maxConnections: 10, ...names })

/** The SQL client for the configured engine, plus which engine it is. */
export const databaseLayer = (
  target: DatabaseTarget
): Layer.Layer<SqlClient | PgClient.PgClient | Database, SqlError> =>
  Layer.merge(
    target.engine === "postgresql" ? postgresClient(target.url) : pgliteClient(target.dataDir),
    Layer.succeed(Database, { engine: target.engine })
  )

/** Runs `effect` in one transaction: all of its writes land, or none do. */
export const inTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClientTag
    return yield* sql.withTransaction(effect)
  })
