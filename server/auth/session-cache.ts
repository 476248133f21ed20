import { Effect, Layer, Queue } from "effect"
import { PgClient } from "@effect/sql-pg"
import { SqlClient } from "effect/sql/SqlClient"
import { Database } from "../platform/database.ts"
import type { ActiveSession } from "./sessions.ts"

/**
 * Live sessions seen in the last few seconds, so an admin request costs one query, not two.
 * Anything that ends sessions (logout, disabling an admin) empties it in this process at once
 * and tells every other server process through `NOTIFY session_revoked`.
 */
const TTL_MS = 10_000
const MAX_ENTRIES = 10_000
const entries = new Map<string, { readonly session: ActiveSession; readonly until: number }>()

export const REVOKED_CHANNEL = "session_revoked"

export const recallSession = (tokenHash: string): ActiveSession | undefined => {
  const entry = entries.get(tokenHash)
  if (entry === undefined) return undefined
  if (entry.until > Date.now()) return entry.session
  entries.delete(tokenHash)
  return undefined
}

export const rememberSession = (tokenHash: string, session: ActiveSession) => {
  if (entries.size >= MAX_ENTRIES) entries.clear()
  entries.set(tokenHash, { session, until: Date.now() + TTL_MS })
}

export const forgetSessions = () => entries.clear()

/** Empties the cache here and, once the surrounding transaction commits, in every other process. */
export const announceRevocation = Effect.gen(function*() {
  const sql = yield* SqlClient
  forgetSessions()
  yield* sql`SELECT pg_notify(${REVOKED_CHANNEL}, '')`
})

/**
 * On PostgreSQL other processes (more servers, the admin command) may end sessions: listen for
 * them. PGlite has one process, where the local emptying is enough.
 */
export const listenForRevocations = Layer.effectDiscard(Effect.gen(function*() {
  const database = yield* Database
  if (database.engine !== "postgresql") return
  const pg = yield* PgClient.PgClient
  const notifications = yield* pg.listen(REVOKED_CHANNEL)
  yield* Effect.forkScoped(Effect.forever(Effect.andThen(Queue.take(notifications), Effect.sync(forgetSessions))))
}))
