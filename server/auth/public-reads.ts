import { Effect, Layer } from "effect"
import { TooManyRequests } from "../../contract/common.ts"
import { PublicRead, publicReadMessages, publicReads, Reader } from "../../contract/public-reads.ts"
import { makeAddressLimit } from "../platform/address-limit.ts"
import { makeAdmission } from "../platform/admission.ts"
import { clientIp } from "../platform/client-address.ts"
import { Config } from "../platform/config.ts"
import { Database } from "../platform/database.ts"
import { waitText } from "../platform/rate-limit.ts"
import { findSession, tokenSession } from "./caller.ts"

/**
 * The reads open to the public and to staff alike (contract/public-reads.ts). The reader's
 * session is resolved once, here, before the handler runs; a token from outside the
 * allowed-address list is the 403 the contract declares, never a defect of some handler.
 *
 * A staff reader goes straight through. The public is counted per address in this server's
 * memory (429 past the limit, before any query), and its reads run a few at a time, a third of
 * the database connections at most (one on PGlite), with a short line behind them and 503 past
 * it: however many anonymous readers come, the rest of the pool stays the staff's.
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
        return yield* admitted(Effect.provideService(httpEffect, Reader, { session: undefined }))
      })
  })
)
