import { Context, Effect, Layer } from "effect"

/**
 * Where a server is in its life, for a graceful stop (docs/deploy.md, "Stopping a server"). On
 * SIGTERM the server first drains: it says it is no longer ready (`/api/health/ready` is 503),
 * and whatever holds a connection open for good (a change stream) lets go of it, telling its
 * client to come back, which through the proxy lands on another server. Then the HTTP server
 * stops taking connections and finishes what is in flight (bounded), and only then do the
 * background workers and the database close.
 */
export interface Lifecycle {
  readonly draining: () => boolean
  /** Calls `listener` when draining begins (at once if it has); gives back how to stop listening. */
  readonly onDrain: (listener: () => void) => () => void
  readonly drain: () => void
}

export const makeLifecycle = (): Lifecycle => {
  let draining = false
  const listeners = new Set<() => void>()
  return {
    draining: () => draining,
    onDrain: (listener) => {
      if (draining) listener()
      else listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    drain: () => {
      if (draining) return
      draining = true
      for (const listener of listeners) listener()
      listeners.clear()
    }
  }
}

export class ServerLifecycle extends Context.Service<ServerLifecycle, Lifecycle>()("platform/ServerLifecycle") {}

/**
 * Begins the drain when its scope closes. Built after the HTTP server (it is given the server),
 * so its finalizer runs first: streams are let go before the server waits for its connections.
 */
export const drainFirst = (lifecycle: Lifecycle) => Layer.effectDiscard(Effect.addFinalizer(() => Effect.sync(lifecycle.drain)))
