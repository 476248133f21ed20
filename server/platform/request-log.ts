import { randomUUID } from "node:crypto"
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { Metrics } from "./metrics.ts"

/**
 * One JSON line per request (docs/deploy.md, "Logs"): when it ended, its id (also sent back as
 * `X-Request-Id`), method, route (the pattern, never the address as asked, so no query string,
 * token or code), status, duration and the signed-in admin's id. Taken at the Node server
 * itself, so every answer is seen, whichever layer made it, and a streamed answer is timed to
 * its end; the same figures feed the metrics.
 */

export interface RequestLine {
  readonly time: string
  readonly requestId: string
  readonly method: string
  readonly route: string
  /** 499: the client went away before an answer was sent. */
  readonly status: number
  readonly durationMs: number
  readonly adminId: string | null
}

/** An id a proxy already gave the request (nginx's `$request_id`) is kept when it is a plain token. */
const givenId = /^[A-Za-z0-9._-]{8,128}$/

const admins = new WeakMap<object, string>()

/** Marks the request (the Node request an effect request wraps: `request.source`) as made by `adminId`. */
export const noteAdmin = (source: unknown, adminId: string) => {
  if (typeof source === "object" && source !== null) admins.set(source, adminId)
}

/** The admin whose session the request was made in, once the session was checked (`noteAdmin`). */
export const adminOf = (source: unknown): string | undefined => (typeof source === "object" && source !== null ? admins.get(source) : undefined)

export interface RequestLogOptions {
  readonly write: (line: string) => void
  readonly metrics: Metrics
  /** The route pattern a request's method and path fall under. */
  readonly routeOf: (method: string, path: string) => string
  /** Whether the server is stopping (platform/lifecycle.ts). */
  readonly draining: () => boolean
}

/**
 * Watches every request `server` takes (to be called before anything else listens to it), and
 * while the server stops, closes each connection as soon as its answer is done.
 */
export const observeRequests = <S extends Server>(server: S, options: RequestLogOptions): S => {
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const started = performance.now()
    const given = request.headers["x-request-id"]
    const requestId = typeof given === "string" && givenId.test(given) ? given : randomUUID()
    response.setHeader("x-request-id", requestId)
    response.once("close", () => {
      const durationMs = Math.round((performance.now() - started) * 100) / 100
      const method = request.method ?? "GET"
      const route = options.routeOf(method, (request.url ?? "/").split("?")[0] ?? "/")
      const status = response.headersSent ? response.statusCode : 499
      options.metrics.observe({ route, method, status, seconds: durationMs / 1000 })
      const line: RequestLine = { time: new Date().toISOString(), requestId, method, route, status, durationMs, adminId: admins.get(request) ?? null }
      options.write(JSON.stringify(line))
      // A stopping server waits for its connections: one whose answer is done is closed now,
      // instead of idling until its keep-alive runs out (Node closes only those idle when the
      // stop began).
      if (options.draining()) setImmediate(() => server.closeIdleConnections())
    })
  })
  return server
}

export interface RoutePattern {
  readonly method: string
  readonly path: string
}

/** How much a segment of a pattern takes: its own word, any one segment, or the rest. */
const breadth = (segment: string) => (segment === "*" ? 2 : segment.startsWith(":") ? 1 : 0)

/** Which of two patterns is the narrower, read left to right as the router reads them: a word before a parameter, a parameter before `*`. */
const narrowerFirst = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => {
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const difference = breadth(a[index] ?? "") - breadth(b[index] ?? "")
    if (difference !== 0) return difference
  }
  return 0
}

/**
 * The route of a request among `patterns` (`/api/blog/posts/:slug`): a segment starting with `:`
 * takes any one segment, a final `*` the rest; of several that fit, the narrowest, as the router
 * picks it (`/api/listings/admin/:type` before `/api/listings/:type/:id`, both before `/api/*`,
 * however many parameters each has). What fits none is `other` (the console's pages and files).
 */
export const routeMatcher = (patterns: ReadonlyArray<RoutePattern>) => {
  const compiled = patterns
    .map(({ method, path }) => ({ method: method.toUpperCase(), path, segments: path.split("/").filter((segment) => segment !== "") }))
    .sort((a, b) => narrowerFirst(a.segments, b.segments))
  const fits = (segments: ReadonlyArray<string>, pattern: ReadonlyArray<string>) =>
    pattern.at(-1) === "*"
      ? segments.length >= pattern.length - 1 && pattern.slice(0, -1).every((part, index) => part.startsWith(":") || part === segments[index])
      : segments.length === pattern.length && pattern.every((part, index) => (part.startsWith(":") ? segments[index] !== "" : part === segments[index]))
  return (method: string, path: string): string => {
    const asked = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase()
    const segments = path.split("/").filter((segment) => segment !== "")
    return compiled.find((pattern) => (pattern.method === asked || pattern.method === "*") && fits(segments, pattern.segments))?.path ?? "other"
  }
}

/** The method and path of every endpoint of an HttpApi (its `groups` and their `endpoints`). */
export const endpointsOf = (api: {
  readonly groups: Readonly<Record<string, { readonly endpoints: Readonly<Record<string, { readonly method: string; readonly path: string }>> }>>
}): ReadonlyArray<RoutePattern> => Object.values(api.groups).flatMap((group) => Object.values(group.endpoints).map(({ method, path }) => ({ method, path })))
