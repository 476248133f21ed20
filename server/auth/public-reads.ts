import { Effect, Layer } from "effect"
import { HttpServerRequest } from "effect/http"
import { TooManyRequests } from "../../contract/common.ts"
import { PublicRead, publicReadMessages, publicReads, Reader } from "../../contract/public-reads.ts"
import { makeAddressLimit } from "../platform/address-limit.ts"
import { makeAdmission } from "../platform/admission.ts"
import { clientIp } from "../platform/client-address.ts"
import { Config } from "../platform/config.ts"
import { Database } from "../platform/database.ts"
import { waitText } from "../platform/rate-limit.ts"
import { makeResponseCache } from "../platform/response-cache.ts"
import { findSession, tokenSession } from "./caller.ts"
import { invalidateOnChanges, PUBLIC_CACHE_LIMITS, publicCacheKey } from "./public-read-cache.ts"

/**
 * The reads open to the public and to staff alike (contract/public-reads.ts). The reader's
 * session is resolved once, here, before the handler runs; a token from outside the
 * allowed-address list is the 403 the contract declares, never a defect of some handler.
 *
 * A staff reader goes straight through. The public is counted per address in this server's
 * memory (429 past the limit, before any query). What the public reads most (a list's pages, a
 * post, the categories and tags) is answered from this server's memory while nothing changed
 * (public-read-cache.ts): a flood of those costs the database one read per page and change, and
 * an ordinary visitor's page is answered whatever else the flood asks. The rest runs a few at a
 * time, a third of the database connections at most (one on PGlite), with a short line behind
 * them and 503 past it; reading a kept page again has a line of its own, one at a time, so a
 * flood of searches, of 404s or of pages nobody else reads never keeps the known pages from being
 * read (and while that line refuses, the kept answer is served): however many anonymous readers
 * come, the rest of the pool stays the staff's.
 */
export const PublicReadLive = Layer.effect(
  PublicRead,
  Effect.gen(function* () {
    const services = yield* Effect.context<Config | Effect.Services<ReturnType<typeof findSession>>>()
    const { maxConnections } = yield* Database
    const counted = makeAddressLimit(publicReads.perAddress)
    const admitted = yield* makeAdmission({
      running: Math.max(1, Math.floor(maxConnections * publicReads.connectionShare)),
      waiting: publicReads.waiting,
      busy: publicReadMessages.busy,
      retryAfterSeconds: 1
    })
    const kept = makeResponseCache(PUBLIC_CACHE_LIMITS)
    yield* invalidateOnChanges(kept)
    const filled = yield* makeAdmission({ running: 1, waiting: publicReads.waiting, busy: publicReadMessages.busy, retryAfterSeconds: 1 })
    return (httpEffect) =>
      Effect.gen(function* () {
        // A token that names no live session reads as the public reads, and nothing more.
        const session = (yield* tokenSession.pipe(Effect.provideContext(services))) ?? undefined
        if (session !== undefined) return yield* Effect.provideService(httpEffect, Reader, { session })
        const verdict = counted(yield* clientIp.pipe(Effect.provideContext(services)))
        if (!verdict.allowed) {
          return yield* new TooManyRequests({
            error: publicReadMessages.tooMany(waitText(verdict.retryAfterSeconds)),
            retryAfterSeconds: verdict.retryAfterSeconds
          })
        }
        const read = Effect.provideService(httpEffect, Reader, { session: undefined })
        const cacheable = publicCacheKey(yield* HttpServerRequest.HttpServerRequest)
        if (cacheable === undefined) return yield* admitted(read)
        // Reading a kept page again has its own line; a key never kept (a 404, a page nobody read) waits in the general one.
        return yield* kept.get(cacheable.key, cacheable.area, (known) => (known ? filled(read) : admitted(read)))
      })
  })
)
