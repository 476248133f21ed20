import { Effect, Layer, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi } from "../../contract/api.ts"
import { Authorization, CurrentSession } from "../../contract/auth.ts"
import { BadRequest, Unauthorized } from "../../contract/common.ts"
import { requireAllowedIp } from "../allowed-ips/repository.ts"
import { Config } from "../platform/config.ts"
import { dieOnSqlError } from "../platform/database.ts"
import { guard } from "../platform/rate-limit.ts"
import { clientIp } from "../platform/client-address.ts"
import { noteAdmin } from "../platform/request-log.ts"
import { closeSession, revokeByTokenHash } from "../sessions/repository.ts"
import { findSession } from "./caller.ts"
import { limits, messages } from "./policy.ts"
import { SignIn } from "./sign-in.ts"

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
          const session = yield* findSession(token, ip).pipe(Effect.provideContext(services))
          if (session === undefined) return yield* new Unauthorized({ error: messages.sessionInvalid })
          noteAdmin((yield* HttpServerRequest.HttpServerRequest).source, session.user._id)
          return yield* Effect.provideService(httpEffect, CurrentSession, { id: session.id, user: session.user, ip })
        })
    })
  })
)

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
        })
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
        })
      )
      .handle("revoke", ({ payload }) =>
        Effect.gen(function* () {
          // No bearer and no allowed-address check: it can only end a session, and a sign-out made
          // with no link may reach the server from another address (docs/api.md, "Sign-out").
          const ip = yield* clientIp
          yield* guard(limits.revocationsPerIp, ip, messages.tooMany)
          yield* revokeByTokenHash(payload.tokenHash, ip)
        }).pipe(dieOnSqlError)
      )
  })
)
