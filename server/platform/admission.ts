import { Effect, Semaphore } from "effect"
import { ServiceBusy } from "../../contract/common.ts"

/**
 * A bound on heavy work held in memory at once (docs/architecture.md, "Memory"): `running` at a
 * time, up to `waiting` more in line; beyond that a request is refused at once with 503 and a
 * wait, before it reads anything. One who waits has not read its body yet, so it holds only
 * its socket: the sender is slowed by TCP, not by our memory.
 */
export const makeAdmission = (options: { readonly running: number; readonly waiting: number; readonly busy: string; readonly retryAfterSeconds: number }) =>
  Effect.map(Semaphore.make(options.running), (semaphore) => {
    let admitted = 0
    return <A, E, R>(work: Effect.Effect<A, E, R>): Effect.Effect<A, E | ServiceBusy, R> =>
      Effect.suspend((): Effect.Effect<A, E | ServiceBusy, R> => {
        if (admitted >= options.running + options.waiting) {
          return Effect.fail(new ServiceBusy({ error: options.busy, retryAfterSeconds: options.retryAfterSeconds }))
        }
        admitted += 1
        return semaphore.withPermit(work).pipe(Effect.ensuring(Effect.sync(() => void (admitted -= 1))))
      })
  })
