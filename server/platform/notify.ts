import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Queue, Schedule } from "effect"
import { Database } from "./database.ts"

/**
 * Keeps a process's in-memory copy honest on PostgreSQL, where other processes (more servers,
 * the admin command) change the data too: calls `forget` on every `NOTIFY channel`, and when the
 * listening connection drops (notices may have been missed) forgets and listens again, after a
 * pause that grows to 30 s while the database stays away. PGlite is one process: the changer
 * forgets locally, and there is nothing to listen to.
 */
export const forgetOnNotify = (channel: string, forget: () => void, what: string) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const database = yield* Database
      if (database.engine !== "postgresql") return
      const pg = yield* PgClient.PgClient
      const listenOnce = Effect.scoped(
        Effect.gen(function* () {
          const notifications = yield* pg.listen(channel)
          forget()
          return yield* Effect.forever(Effect.andThen(Queue.take(notifications), Effect.sync(forget)))
        })
      )
      yield* Effect.forkScoped(
        listenOnce.pipe(
          Effect.catchCause((cause) => Effect.andThen(Effect.sync(forget), Effect.logWarning(`Listening for ${what} failed; listening again`, cause))),
          Effect.repeat(Schedule.min([Schedule.exponential("250 millis"), Schedule.spaced("30 seconds")]))
        )
      )
    })
  )
