import { Effect } from "effect"
import { inTransaction } from "../platform/database.ts"
import { forgetOnNotify } from "../platform/notify.ts"
import type { AdminUser } from "../../contract/auth.ts"

/** A live session as the server acts on it; the cache owns the shape it keeps (repository.ts reads and writes it). */
export interface ActiveSession {
  readonly id: string
  readonly user: AdminUser
}

/**
 * Live sessions seen in the last few seconds, so an admin request costs one query, not two.
 * Anything that ends sessions (logout, disabling an admin) empties it in this process at once
 * and tells every other server process through `NOTIFY session_revoked`.
 */
const TTL_MS = 10_000
const MAX_ENTRIES = 10_000
const entries = new Map<string, { readonly session: ActiveSession; readonly until: number }>()
/** Moves on each emptying: a session read before it is not remembered after it. */
let generation = 0

export const REVOKED_CHANNEL = "session_revoked"

export const recallSession = (tokenHash: string): ActiveSession | undefined => {
  const entry = entries.get(tokenHash)
  if (entry === undefined) return undefined
  if (entry.until > Date.now()) return entry.session
  entries.delete(tokenHash)
  return undefined
}

/** The cache's current generation, taken before reading a session from the database. */
export const cacheGeneration = () => generation

/** Remembers a session read during `readAt`, unless the cache was emptied since. */
export const rememberSession = (tokenHash: string, session: ActiveSession, readAt: number) => {
  if (readAt !== generation) return
  if (entries.size >= MAX_ENTRIES) entries.clear()
  entries.set(tokenHash, { session, until: Date.now() + TTL_MS })
}

/** Who wants to hear that sessions may have ended (open change streams re-check theirs). */
const forgetListeners = new Set<() => void>()

/** Calls `listener` whenever sessions may have ended, here or in another process; returns the way to stop. */
export const onSessionsEnded = (listener: () => void) => {
  forgetListeners.add(listener)
  return () => void forgetListeners.delete(listener)
}

export const forgetSessions = () => {
  generation += 1
  entries.clear()
  for (const listener of forgetListeners) listener()
}

/**
 * Runs `effect`, which ends sessions, in one transaction, and empties this process's cache once
 * it has committed (or failed): emptied before the commit, a request in between could cache the
 * still-live session again for the cache's lifetime.
 */
export const endingSessions = <A, E, R>(effect: Effect.Effect<A, E, R>) => inTransaction(effect).pipe(Effect.ensuring(Effect.sync(forgetSessions)))

/** On PostgreSQL other processes (more servers, the admin command) may end sessions: listen for them. */
export const listenForRevocations = forgetOnNotify(REVOKED_CHANNEL, forgetSessions, "session revocations")
