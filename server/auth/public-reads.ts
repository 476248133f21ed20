import { Effect, Layer } from "effect"
import { PublicRead, Reader } from "../../contract/public-reads.ts"
import { Config } from "../platform/config.ts"
import { readerSession } from "./http.ts"
import { findSession } from "./sessions.ts"

/**
 * The reads open to the public and to staff alike (contract/public-reads.ts): the reader's
 * session is resolved once, here, before the handler runs; a token from outside the
 * allowed-address list is the 403 the contract declares, never a defect of some handler.
 */
export const PublicReadLive = Layer.effect(
  PublicRead,
  Effect.gen(function* () {
    const services = yield* Effect.context<Config | Effect.Services<ReturnType<typeof findSession>>>()
    return (httpEffect) =>
      Effect.gen(function* () {
        const session = yield* readerSession.pipe(Effect.provideContext(services), Effect.catchTag("SqlError", Effect.die))
        return yield* Effect.provideService(httpEffect, Reader, { session })
      })
  })
)
