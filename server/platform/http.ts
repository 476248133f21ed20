import { ByteSize, Effect, Layer } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { acceptedEncodings, compressJson } from "./compression.ts"
import { API_DOCS_PATH } from "./api-docs.ts"
import { diskFullMessage } from "./disk.ts"
import { DatabaseBusy } from "./postgres-client.ts"
import { ServerWrites } from "./write-outcomes.ts"

/**
 * The console's policy. Its inline scripts (in `index.html`: the early start, made by
 * src/app/start/preload-signed-in.ts, and the reload's picture, src/lib/list/kept-paint.ts) are
 * allowed by their hashes, which the console routes add to `index.html`'s own header; every other
 * response gets the policy without them.
 */
export const consolePolicyAllowing = (scriptHashes: ReadonlyArray<string>) =>
  [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes].join(" "),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'"
  ].join("; ")

const consolePolicy = consolePolicyAllowing([])

/** The API docs page runs the bundled Scalar viewer, which needs inline script and styles. */
const docsPolicy = consolePolicy.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")

/** Uploaded images are shown by the public site too, and must never act as a page. */
const uploadHeaders = {
  "content-security-policy": "default-src 'none'; sandbox",
  "cross-origin-resource-policy": "cross-origin"
}

const securityHeaders = (path: string, isApi: boolean, ownPolicy: string | undefined): Record<string, string> => ({
  "content-security-policy": ownPolicy ?? (path === API_DOCS_PATH ? docsPolicy : consolePolicy),
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
  ...(isApi ? { "cache-control": "no-store" } : {}),
  ...(path.startsWith("/uploads/") ? uploadHeaders : {})
})

const statusMessages: Record<number, string> = {
  400: "Bad request",
  401: "Sign-in required",
  403: "You are not allowed to do this",
  404: "Not found",
  405: "Method not allowed",
  413: "Request body too large",
  415: "Unsupported content type: send JSON",
  429: "Too many requests",
  500: "Internal server error",
  507: diskFullMessage,
  503: "Service unavailable"
}

const isJson = (response: HttpServerResponse.HttpServerResponse): boolean => {
  const type = "contentType" in response.body ? response.body.contentType : undefined
  return type?.includes("json") === true
}

/** An API failure that something other than a handler produced, in the spec's `{ success, error }` shape. */
export const apiFailure = (status: number, error?: string) =>
  HttpServerResponse.jsonUnsafe({ success: false, error: error ?? statusMessages[status] ?? `HTTP ${status}` }, { status })

const refusalAnswer = (refusal: Refusal) =>
  HttpServerResponse.jsonUnsafe(
    {
      success: false,
      error: refusal.error,
      ...(refusal.tag === undefined ? {} : { _tag: refusal.tag }),
      ...(refusal.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: refusal.retryAfterSeconds })
    },
    { status: refusal.status }
  )

/**
 * The `Retry-After` header of a 429 or 503 whose body says `retryAfterSeconds` (contract/common.ts:
 * `TooManyRequests`, `ServiceBusy`), so a client or proxy that reads only headers waits as long.
 */
const withRetryAfter = (response: HttpServerResponse.HttpServerResponse) => {
  if ((response.status !== 429 && response.status !== 503) || response.headers["retry-after"] !== undefined) return response
  const body = response.body
  if (body._tag !== "Uint8Array" || !body.contentType.includes("json")) return response
  try {
    const seconds: unknown = (JSON.parse(new TextDecoder().decode(body.body)) as { retryAfterSeconds?: unknown }).retryAfterSeconds
    return typeof seconds === "number" && Number.isInteger(seconds) && seconds > 0
      ? HttpServerResponse.setHeader(response, "retry-after", String(seconds))
      : response
  } catch {
    return response
  }
}

const isWrite = (method: string) => method !== "GET" && method !== "HEAD" && method !== "OPTIONS"

/**
 * Applied to every response: security headers, `no-store` on the API, and any API answer
 * that is an error without a JSON body (an empty 400, a 415, a crash) turned into one. It sees
 * every API write's outcome too, for `/api/health` (write-outcomes.ts).
 */
export const httpHygiene = HttpRouter.middleware(
  Effect.gen(function* () {
    const writes = yield* ServerWrites
    return (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const path = request.url.split("?")[0] ?? "/"
        const isApi = path === "/api" || path.startsWith("/api/")
        const response = yield* httpEffect.pipe(
          Effect.catchDefect((defect) => {
            if (isBodyTooLarge(defect)) return Effect.succeed(apiFailure(413, `Request body too large: at most ${MAX_BODY_MIB} MiB`))
            const refusal = databaseRefusal(defect)
            if (refusal?.status === 507) writes.refusedForSpace()
            return refusal !== undefined ? Effect.succeed(refusalAnswer(refusal)) : Effect.logError("Unhandled defect", defect).pipe(Effect.as(apiFailure(500)))
          })
        )
        if (isApi && isWrite(request.method) && response.status < 400) writes.succeeded()
        const shaped = isApi && response.status >= 400 && !isJson(response) ? apiFailure(response.status) : withRetryAfter(response)
        const compressed = isApi ? compressJson(shaped, acceptedEncodings(request.headers["accept-encoding"])) : shaped
        return HttpServerResponse.setHeaders(compressed, securityHeaders(path, isApi, isApi ? undefined : response.headers["content-security-policy"]))
      })
  }),
  { global: true }
)

/** JSON bodies are small; uploads get their own limit. */
export const MAX_BODY_MIB = 1

export const bodyLimit = Layer.succeed(HttpIncomingMessage.MaxBodySize, ByteSize.mebibytes(MAX_BODY_MIB))

/** What a 503 from the database says; the request changed nothing and may be sent again. */
export const databaseBusyMessage = "The database is busy: nothing was changed. Try again in a moment."

/** How long a client is told to wait after a database 503: a lock held by a stalled server is freed within seconds. */
const DATABASE_RETRY_SECONDS = 2

interface Refusal {
  readonly status: number
  readonly error: string
  readonly tag?: string
  readonly retryAfterSeconds?: number
}

const textInvalid: Refusal = { status: 400, error: "Invalid request: text must be UTF-8 without NUL characters" }
const tooLong: Refusal = { status: 400, error: "Invalid request: a value is too long" }
const busy: Refusal = { status: 503, error: databaseBusyMessage, tag: "ServiceBusy", retryAfterSeconds: DATABASE_RETRY_SECONDS }

/**
 * What the database refused because of the request, not because of us (docs/api.md, "Answers and errors"):
 * input the contract let through but PostgreSQL cannot take, and a unique key taken by a
 * concurrent write; and what it could not do now (docs/deploy.md, "A stalled server"): a lock
 * not granted within the lock timeout, a statement past its timeout, a transaction ended for
 * idling, a deadlock, a database restarting or out of connections. The handler's transaction
 * has already rolled back when this runs.
 */
const refusals: Record<string, Refusal> = {
  "22021": textInvalid,
  "22P05": textInvalid,
  "22P02": { status: 400, error: "Invalid request: a value is not of the expected form" },
  "22001": tooLong,
  "22003": { status: 400, error: "Invalid request: a number is out of range" },
  "22007": { status: 400, error: "Invalid request: a date is not valid" },
  "22008": { status: 400, error: "Invalid request: a date is out of range" },
  "54000": tooLong,
  // The disk filled between the reserve's check and the write (disk.ts), or PostgreSQL's own disk is full: nothing was written.
  "53100": { status: 507, error: diskFullMessage, tag: "InsufficientStorage" },
  "23505": { status: 409, error: "This conflicts with a record saved at the same moment. Reload and try again." },
  "55P03": busy,
  "57014": busy,
  "25P03": busy,
  "40001": busy,
  "40P01": busy,
  "53300": busy,
  "57P01": busy,
  "57P03": busy
}

/** A lost connection, or no connection within DATABASE_POOL_WAIT_MS (postgres-client.ts). */
const isUnreachable = (link: object) => link instanceof DatabaseBusy || ("_tag" in link && link._tag === "ConnectionError" && "isRetryable" in link)

const databaseRefusal = (defect: unknown): Refusal | undefined => {
  const failure = inCauseChain(defect, (link) => ("code" in link && typeof link.code === "string" && link.code in refusals) || isUnreachable(link))
  if (failure === undefined) return undefined
  return "code" in failure && typeof failure.code === "string" && failure.code in refusals ? refusals[failure.code] : busy
}

/** The first error in `defect`'s chain of causes (`cause`, or effect's `reason`) that `matches`. */
const inCauseChain = (defect: unknown, matches: (link: object) => boolean): object | undefined => {
  let current: unknown = defect
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth++) {
    if (matches(current)) return current
    current = "cause" in current ? current.cause : "reason" in current ? current.reason : undefined
  }
  return undefined
}

/** The body reader fails with a "maxBytes exceeded" cause somewhere down the chain. */
const isBodyTooLarge = (defect: unknown): boolean => inCauseChain(defect, (link) => "maxBytes" in link) !== undefined

/** Any `/api/*` path no endpoint claims. */
export const apiNotFound = HttpRouter.add("*", "/api/*", (request) =>
  Effect.succeed(apiFailure(404, `Not found: ${request.method} ${request.url.split("?")[0]}`))
)
