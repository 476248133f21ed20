import { Effect, Layer, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi } from "../../contract/api.ts"
import { Authorization, CurrentSession } from "../../contract/auth.ts"
import { BadRequest, Unauthorized } from "../../contract/common.ts"
import { Config } from "../platform/config.ts"
import { clientIp } from "../platform/client-address.ts"
import { requireAllowedIp } from "./allowed-ips.ts"
import { messages } from "./policy.ts"
import { closeSession, findSession } from "./sessions.ts"
import { SignIn } from "./sign-in.ts"
import { noteAdmin } from "../platform/request-log.ts"

/** Resolves the bearer token to a live session, or answers 401. */
export const AuthorizationLive = Layer.effect(
  Authorization,
  Effect.gen(function* () {
    const services = yield* Effect.context<Effect.Services<ReturnType<typeof findSession>>>()
    const config = yield* Config
    return Authorization.of({
      bearer: (httpEffect, { credential }) =>
        Effect.gen(function* () {
          const ip = yield* Effect.provideService(clientIp, Config, config)
          const token = Redacted.value(credential)
          const session = yield* findSession(token, ip).pipe(Effect.provideContext(services), Effect.catchTag("SqlError", Effect.die))
          if (session === undefined) return yield* new Unauthorized({ error: messages.sessionInvalid })
          noteAdmin((yield* HttpServerRequest.HttpServerRequest).source, session.user._id)
          return yield* Effect.provideService(httpEffect, CurrentSession, { id: session.id, user: session.user, ip })
        })
    })
  })
)

/**
 * The session a request's bearer token names: undefined without a token, `null` when the token
 * names no live session. From an address outside the allowed-address list any token is a 403,
 * before it is looked at (findSession), and that failure stays typed, for the endpoint to declare.
 */
const tokenSession = Effect.gen(function* () {
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
 * For a write open to the public and to staff alike (the core-team form): the caller's session,
 * or undefined without a token. A token that names no live session is a 401: a signed-out
 * console must not post as the public.
 */
export const optionalSession = Effect.flatMap(tokenSession, (session) =>
  session === null ? Effect.fail(new Unauthorized({ error: messages.sessionInvalid })) : Effect.succeed(session)
)

/**
 * For a read open to the public and to staff alike (contract/public-reads.ts): the reader's
 * session, or undefined for the public. A token that names no live session reads as the public
 * reads, and nothing more.
 */
export const readerSession = Effect.map(tokenSession, (session) => session ?? undefined)

export const AuthHandlers = HttpApiBuilder.group(
  AdminApi,
  "auth",
  Effect.fn(function* (handlers) {
    const signIn = yield* SignIn
    return handlers
      .handle("signIn", ({ payload }) =>
        Effect.gen(function* () {
          const ip = yield* clientIp
          yield* requireAllowedIp(ip)
          const request = yield* HttpServerRequest.HttpServerRequest
          if (payload.otp !== undefined) {
            const userAgent = request.headers["user-agent"] ?? null
            return yield* signIn.verifyCode({ email: payload.email, code: payload.otp, attempt: payload.attempt, ip, userAgent, browserKey: payload.browser })
          }
          if (payload.role !== undefined) return yield* signIn.requestCode(payload.email, payload.role, ip, payload.browser)
          return yield* new BadRequest({ error: messages.missingStep })
        }).pipe(Effect.catchTag("SqlError", Effect.die))
      )
      .handle("check", () =>
        Effect.gen(function* () {
          const session = yield* CurrentSession
          return { success: true as const, user: session.user }
        })
      )
      .handle("logout", () =>
        Effect.gen(function* () {
          const session = yield* CurrentSession
          yield* closeSession({ id: session.id, user: session.user }, session.ip)
          return { success: true as const }
        }).pipe(Effect.orDie)
      )
  })
)
