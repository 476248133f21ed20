import { Deferred, Effect, Exit } from "effect"
import type { HttpServerResponse } from "effect/http"
import { ServiceBusy } from "../../contract/common.ts"

/**
 * Answers kept in this server's memory, by key, each under an area whose change drops them all
 * (docs/decisions.md, "The public's reads"). What one reader's read fetched, every reader of
 * the same key gets without the database: one read at a time per key (the others wait for it and
 * share its answer), so however many ask, the database is asked once per change.
 *
 * - A change announced in an area outdates its answers at once (`invalidate`), and an answer
 *   being read when the change came is not kept: the next reader waits for a new read, and gets
 *   the outdated answer only if that read is refused (`ServiceBusy`: the database's line full),
 *   within the `freshMs + staleMs` of its age, never a 503 for a page that was kept.
 * - Without an announcement an answer is served `freshMs`, then read again behind the answer:
 *   the kept one is served meanwhile, and while the database refuses that read, for `staleMs`
 *   more at most.
 * - `fill` is told whether the key has a kept answer: a key never kept (a 404, a page nobody
 *   asked for) is read in another line than one read again, so a flood of those never keeps the
 *   known pages from being read (server/auth/public-reads.ts).
 * - At most `maxBytes` of answers are kept, the least recently read dropped first; an answer
 *   over `maxEntryBytes`, and anything but a 200 with its bytes, is never kept.
 */
export interface ResponseCacheLimits {
  readonly freshMs: number
  readonly staleMs: number
  readonly maxBytes: number
  readonly maxEntryBytes: number
}

interface Entry {
  readonly area: string
  readonly generation: number
  readonly response: HttpServerResponse.HttpServerResponse
  readonly bytes: number
  readonly storedAt: number
}

/** A read under way: the answer it got (undefined when it got none to share) for those who wait on it. */
interface UnderWay {
  readonly generation: number
  readonly done: Deferred.Deferred<HttpServerResponse.HttpServerResponse | undefined>
}

/** Reads a key's answer; `kept` says whether the key has an answer in memory (outdated or not). */
export type Fill<E, R> = (kept: boolean) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>

export interface ResponseCache {
  /** The answer for `key` in `area`: kept, shared with a read under way, or read by `fill`. */
  readonly get: <E, R>(key: string, area: string, fill: Fill<E, R>) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  /** Outdates every answer of `area`; reads under way are not kept. */
  readonly invalidate: (area: string) => void
  readonly invalidateAll: () => void
  /** Answers kept and their bytes, for the metrics and the tests. */
  readonly size: () => { readonly entries: number; readonly bytes: number }
}

/** A read the database's line turned away, or a wait it bounded (docs/deploy.md, "A stalled server"): the key's answer is unknown, not changed. */
const refused = (error: unknown): boolean => error instanceof ServiceBusy

const keptBytes = (response: HttpServerResponse.HttpServerResponse): number | undefined =>
  response.status === 200 && response.body._tag === "Uint8Array" ? response.body.body.byteLength : undefined

export const makeResponseCache = (limits: ResponseCacheLimits, now: () => number = () => performance.now()): ResponseCache => {
  const entries = new Map<string, Entry>()
  const fills = new Map<string, UnderWay>()
  // Each invalidation is a new tick; an area's generation is the tick of the last one that touched it.
  const invalidated = new Map<string, number>()
  let tick = 0
  let allInvalidated = 0
  let bytes = 0
  const generationOf = (area: string) => Math.max(invalidated.get(area) ?? 0, allInvalidated)

  const drop = (key: string) => {
    const entry = entries.get(key)
    if (entry === undefined) return
    entries.delete(key)
    bytes -= entry.bytes
  }

  const store = (key: string, area: string, generation: number, response: HttpServerResponse.HttpServerResponse) => {
    if (generation !== generationOf(area)) return
    // What was kept is outdated by this answer, kept or not (a post removed since is a 404 now).
    drop(key)
    const size = keptBytes(response)
    if (size === undefined || size > limits.maxEntryBytes) return
    entries.set(key, { area, generation, response, bytes: size, storedAt: now() })
    bytes += size
    // A Map iterates in insertion order, and a read moves its key to the end: the first is the least recently read.
    for (const oldest of entries.keys()) {
      if (bytes <= limits.maxBytes) break
      drop(oldest)
    }
  }

  /** Reads `key` with `fill`, for whoever waits on it too; keeps the answer if nothing changed in `area` meanwhile. */
  const read = <E, R>(key: string, area: string, fill: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) => {
    const own: UnderWay = { generation: generationOf(area), done: Deferred.makeUnsafe() }
    fills.set(key, own)
    return fill.pipe(
      Effect.tap((response) => Effect.sync(() => store(key, area, own.generation, response))),
      // Refused, the kept answer stands; any other failure (a post gone since: NotFound) is the key's answer now.
      Effect.tapError((error) => Effect.sync(() => (refused(error) || own.generation !== generationOf(area) ? undefined : drop(key)))),
      Effect.onExit((exit) =>
        Effect.sync(() => {
          if (fills.get(key) === own) fills.delete(key)
          Deferred.doneUnsafe(own.done, Exit.succeed(Exit.isSuccess(exit) ? exit.value : undefined))
        })
      )
    )
  }

  /** Waits for the read of `key` under way (of this generation), or reads it; a read that got no answer to share is made again. */
  const shared = <E, R>(key: string, area: string, fill: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) => {
    const underWay = fills.get(key)
    if (underWay === undefined || underWay.generation !== generationOf(area)) return read(key, area, fill)
    return Effect.flatMap(Deferred.await(underWay.done), (response) => (response === undefined ? fill : Effect.succeed(response)))
  }

  return {
    get: (key, area, fill) =>
      Effect.suspend(() => {
        const entry = entries.get(key)
        if (entry === undefined) return shared(key, area, fill(false))
        entries.delete(key)
        entries.set(key, entry)
        const age = now() - entry.storedAt
        if (age >= limits.freshMs + limits.staleMs) {
          drop(key)
          return shared(key, area, fill(true))
        }
        // Outdated by a change: read it again, and answer what was kept only if that read is refused.
        if (entry.generation !== generationOf(area)) return Effect.catchIf(shared(key, area, fill(true)), refused, () => Effect.succeed(entry.response))
        if (age < limits.freshMs) return Effect.succeed(entry.response)
        // Read it again behind the answer: the kept one is the answer meanwhile, and while the database refuses the read.
        const refresh = fills.has(key) ? Effect.void : Effect.asVoid(Effect.forkDetach(Effect.ignore(read(key, area, fill(true)))))
        return Effect.as(refresh, entry.response)
      }),
    invalidate: (area) => {
      invalidated.set(area, ++tick)
    },
    invalidateAll: () => {
      allInvalidated = ++tick
    },
    size: () => ({ entries: entries.size, bytes })
  }
}
