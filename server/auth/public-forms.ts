import { Context, Effect, Layer } from "effect"
import { HttpServerRequest } from "effect/http"
import { Unauthorized } from "../../contract/common.ts"
import { PublicForm, PublicFormLimit, Submitter } from "../../contract/public-forms.ts"
import { clientIp } from "../platform/client-address.ts"
import { Config } from "../platform/config.ts"
import { dieOnSqlError } from "../platform/database.ts"
import { guard } from "../platform/rate-limit.ts"
import { findSession } from "./caller.ts"
import { messages } from "./policy.ts"

const bearer = /^Bearer\s+(\S+)$/i

/**
 * The public forms' gate (contract/public-forms.ts), before the body is read or decoded: a
 * request with a token must name a live session from an allowed address (401 or 403 otherwise);
 * one without is counted against its address's limit for the form (429 once over it). So a
 * stranger's bodies, however large or wrong, cost one counted hit each and nothing past the
 * limit. The handler reads who sent the form (`Submitter`) where it cares (the core-team form).
 */
export const PublicFormLive = Layer.effect(
  PublicForm,
  Effect.gen(function* () {
    const services = yield* Effect.context<Config | Effect.Services<ReturnType<typeof findSession>>>()
    return (httpEffect, { endpoint }) =>
      Effect.gen(function* () {
        const limit = Context.getOption(endpoint.annotations as Context.Context<PublicFormLimit>, PublicFormLimit)
        const request = yield* HttpServerRequest.HttpServerRequest
        const ip = yield* clientIp.pipe(Effect.provideContext(services))
        const header = request.headers.authorization
        if (header !== undefined) {
          const session = yield* findSession(bearer.exec(header)?.[1] ?? "", ip).pipe(Effect.provideContext(services))
          if (session === undefined) return yield* new Unauthorized({ error: messages.sessionInvalid })
          return yield* Effect.provideService(httpEffect, Submitter, { session: { id: session.id, user: session.user, ip } })
        }
        if (limit._tag === "Some") {
          const { what } = limit.value
          yield* guard(limit.value, ip, (wait) => `Too many ${what} from your address. Try again ${wait}.`).pipe(Effect.provideContext(services), dieOnSqlError)
        }
        return yield* Effect.provideService(httpEffect, Submitter, { session: undefined })
      })
  })
)
