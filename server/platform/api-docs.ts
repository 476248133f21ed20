import { Effect, Scope } from "effect"
import { HttpRouter } from "effect/http"
import { type HttpApi, type HttpApiGroup, HttpApiScalar } from "effect/http-api"

export const API_DOCS_PATH = "/api/docs"

/**
 * The API's documentation page, built on its first visit: Scalar's viewer is a 3 MB script that
 * effect's docs route reads when its layer is built and keeps (its module's source and the page,
 * about 12 MB of heap), which every server would otherwise hold from start for a page few open
 * (docs/architecture.md, "Memory"). Built once, in the server's own scope, then served as effect
 * serves it.
 */
export const apiDocs = <Id extends string, Groups extends HttpApiGroup.Constraint>(api: HttpApi.HttpApi<Id, Groups>) =>
  HttpRouter.use(
    Effect.fnUntraced(function* (router) {
      const serverScope: Scope.Scope = yield* Effect.scope
      const docsRoute = yield* Effect.cached(
        HttpRouter.toHttpEffect(HttpApiScalar.layer(api, { path: API_DOCS_PATH })).pipe(Effect.provideService(Scope.Scope, serverScope))
      )
      yield* router.add("GET", API_DOCS_PATH, Effect.flatten(docsRoute))
    })
  )
