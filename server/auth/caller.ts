import { Effect, Layer } from "effect"
import { HttpServerRequest } from "effect/http"
import { requireAllowedIp } from "../allowed-ips/repository.ts"
import { clientIp } from "../platform/client-address.ts"
import { Config } from "../platform/config.ts"
import { IdempotencyScope } from "../platform/idempotency.ts"
import { noteAdmin } from "../platform/request-log.ts"
import { liveSession } from "../sessions/repository.ts"

/**
 * Who is calling: the live session a token names, found only for a client address the
 * allowed-address list covers (403 otherwise, before the token is looked at), so no endpoint that
 * reads a token can forget the list (docs/security.md, "Allowed addresses").
 */
export const findSession = (token: string, ip: string) => Effect.andThen(requireAllowedIp(ip), liveSession(token))

/**
 * The session a request's bearer token names: undefined without a token, `null` when the token
 * names no live session. From an address outside the allowed-address list any token is a 403,
 * before it is looked at, and that failure stays typed, for the endpoint to declare.
 */
export const tokenSession = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const header = request.headers.authorization
  if (header === undefined) return undefined
  const ip = yield* clientIp
  const token = /^Bearer (.+)$/i.exec(header)?.[1]?.trim() ?? ""
  const session = yield* findSession(token, ip)
  if (session === undefined) return null
  noteAdmin(request.source, session.user._id)
  return { id: session.id, user: session.user, ip }
})

/**
 * Whose a command's key is (server/platform/idempotency.ts): the person the request's session
 * names, whichever session, so a command sent again after signing in again is still answered once;
 * the public's otherwise (and for a token that names no live session: the endpoint refuses it).
 */
export const IdempotencyScopeLive = Layer.effect(
  IdempotencyScope,
  Effect.gen(function* () {
    const services = yield* Effect.context<Config | Effect.Services<ReturnType<typeof findSession>>>()
    return Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const token = /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1]?.trim()
      if (token === undefined) return "public"
      const session = yield* findSession(token, yield* clientIp)
      return session === undefined ? "public" : `admin:${session.user._id}`
    }).pipe(
      Effect.provideContext(services),
      Effect.orElseSucceed(() => "public")
    )
  })
)
