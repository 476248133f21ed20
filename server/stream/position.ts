import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { STREAM_POSITION_HEADER } from "../../contract/stream-position.ts"
import { latestEventIdReader } from "./repository.ts"

const STREAM_PATH = "/api/admin/stream"

/**
 * `Stream-Position` on staff's reads (contract/stream-position.ts; docs/api.md, "Live changes"):
 * the newest activity-log event id, taken before the read begins, so every change the read could
 * lack comes after it in the stream. Only an API GET with a bearer token (staff's: the public's
 * reads carry none) that answers 200; a database that cannot say leaves the answer without it (the console then reads
 * its first page again once the stream is live, as it would without the header).
 */
export const streamPosition = HttpRouter.middleware(
  Effect.gen(function* () {
    const position = (yield* latestEventIdReader).pipe(Effect.catchDefect(() => Effect.succeed(undefined)))
    return (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const path = request.url.split("?")[0] ?? "/"
        if (request.method !== "GET" || request.headers.authorization === undefined || !path.startsWith("/api/") || path === STREAM_PATH)
          return yield* httpEffect
        const before = yield* position
        const response = yield* httpEffect
        return response.status === 200 && before !== undefined ? HttpServerResponse.setHeader(response, STREAM_POSITION_HEADER, before) : response
      })
  }),
  { global: true }
)
