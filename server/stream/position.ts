import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { STREAM_POSITION_HEADER } from "../../contract/stream-position.ts"
import { adminOf } from "../platform/request-log.ts"
import { latestEventIdReader } from "./repository.ts"

const STREAM_PATH = "/api/admin/stream"

/**
 * `Stream-Position` on staff's reads (contract/stream-position.ts; docs/api.md, "Live changes"):
 * the newest activity-log event id, taken before the read begins, so every change the read could
 * lack comes after it in the stream. Only on an API GET that answers 200 to a session its endpoint
 * checked (server/auth/http.ts notes it); the position is read before the handler for any GET
 * with a token (one indexed `max`); a database that cannot say leaves the answer without it (the console then reads
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
        // Only to a session the endpoint checked: a public read sent with any token says nothing of the log.
        const staff = adminOf(request.source) !== undefined
        return response.status === 200 && staff && before !== undefined ? HttpServerResponse.setHeader(response, STREAM_POSITION_HEADER, before) : response
      })
  }),
  { global: true }
)
