import type { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import * as Migrator from "effect/sql/Migrator"
import type { SqlClient } from "effect/sql/SqlClient"
import { type Database, databaseLayer } from "../../server/platform/database.ts"
import { migrations } from "../../server/platform/migrations.ts"
import type { engines } from "./database.ts"

/**
 * Runs `program` on a fresh database of `engine` migrated only up to migration `first` (left
 * out): the program arranges rows as they were then, and `yield* migrate` brings them to today.
 * The database is dropped after.
 */
export const beforeMigration = async <A>(
  engine: (typeof engines)[number],
  first: string,
  program: Effect.Effect<A, unknown, SqlClient | PgClient.PgClient | Database>
): Promise<A> => {
  const database = await engine.empty()
  const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < first))
  try {
    return await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const context = yield* Layer.build(databaseLayer(database.target))
          yield* Effect.provideContext(Migrator.make({})({ loader: Migrator.fromRecord(before), table: "schema_migrations" }), context)
          return yield* Effect.provideContext(program, context)
        })
      )
    )
  } finally {
    await database.drop()
  }
}
