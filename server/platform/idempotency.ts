import { Context, Effect, Layer, type Types } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql/SqlClient"
import { createHash, createHmac } from "node:crypto"
import { BadRequest, failureClasses, KeyReused } from "../../contract/common.ts"
import { Idempotency, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, idempotencyMessages, KeptAnswer } from "../../contract/idempotency.ts"
import { Config } from "./config.ts"
import { dieOnSqlError, inTransaction } from "./database.ts"
import { OutcomeKeeping } from "./kept-outcomes.ts"
import { loadOtpKey } from "./secrets.ts"

/**
 * Who a key belongs to: the person a request's session names ("admin:<id>"), or the public. A
 * person's key stays theirs across sessions, so a command sent again after signing in again is
 * still answered once; the app provides it from the sessions (server/auth/caller.ts).
 */
export class IdempotencyScope extends Context.Service<IdempotencyScope, Effect.Effect<string, never, HttpServerRequest.HttpServerRequest>>()(
  "platform/IdempotencyScope"
) {}

/** Answers a repeat may not be: they say "nothing was done, try again" (or depend on the session). */
const UNKEPT = new Set([401, 403, 429, 503])

const classes = new Map(failureClasses.map((failure) => [String(failure.ast.annotations?.identifier), failure] as const))
const statusOf = (tag: string) => Number(classes.get(tag)?.ast.annotations?.httpApiStatus ?? 500)

/** A refusal the endpoint failed with: its class's tag and fields, as it is answered and kept. */
const isFailure = (error: unknown): error is { readonly _tag: string } =>
  typeof error === "object" && error !== null && typeof (error as { _tag?: unknown })._tag === "string" && classes.has((error as { _tag: string })._tag)

/**
 * The failure again, as its class, from what was kept. It was the endpoint's own failure the first
 * time, so it is one the endpoint declares: effect types those as `unhandled` in a middleware.
 */
const failureFrom = (tag: string, fields: Record<string, unknown>): Types.unhandled => {
  const Failure = classes.get(tag)
  const failure: unknown =
    Failure === undefined ? new KeyReused({ error: idempotencyMessages.reused }) : new (Failure as unknown as new (fields: unknown) => unknown)(fields)
  return failure as Types.unhandled
}

interface Kept {
  readonly route: string
  readonly bodyLength: number
  readonly bodyHash: string | null
  readonly status: number | null
  readonly contentType: string | null
  readonly body: Uint8Array | null
  readonly failure: string | null
  readonly recordId: string | null
}

/** Which endpoint a command is for, as the contract declares what of its answer may be kept. */
type Keeping = "answer" | "outcome"

const pathOf = (url: string) => url.replace(/^[a-z]+:\/\/[^/]+/i, "")

/**
 * What the request carried, as the key is compared by: the body's hash (a multipart upload by its
 * length alone). A command kept as its outcome carries a secret its answer is not kept for: its
 * hash is keyed with the server's secret as codes are (secrets.ts), so a copy of the database
 * cannot test guesses of a value with it. Any other command's answer is kept whole anyway.
 */
const bodyHashOf = (request: HttpServerRequest.HttpServerRequest, secret: string | undefined) =>
  (request.headers["content-type"] ?? "").startsWith("multipart/")
    ? Effect.succeed("multipart")
    : Effect.map(
        Effect.orElseSucceed(request.arrayBuffer, () => new ArrayBuffer(0)),
        (bytes) => (secret === undefined ? createHash("sha256") : createHmac("sha256", secret)).update(new Uint8Array(bytes)).digest("hex")
      )

/**
 * The command's first run: the endpoint, its answer kept with the key in the transaction of its
 * write, so a write without its kept answer (or the reverse) is never committed. A refusal is kept
 * too (its own writes rolled back within), a success with its bytes, or (an `outcome` endpoint's)
 * with the record it named; what may not be kept leaves no key behind.
 */
const firstRun = <E, R>(
  sql: SqlClient,
  hash: string,
  key: { readonly scope: string; readonly key: string; readonly keeping: Keeping },
  endpoint: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  Effect.gen(function* () {
    let named: string | undefined
    const outcome = yield* Effect.result(
      key.keeping === "outcome" ? Effect.provideService(endpoint, OutcomeKeeping, { repeatOf: undefined, named: (id) => void (named = id) }) : endpoint
    )
    if (outcome._tag === "Failure") {
      const error: unknown = outcome.failure
      const status = isFailure(error) ? statusOf(error._tag) : 500
      if (!isFailure(error) || UNKEPT.has(status) || (key.scope === "public" && status >= 400)) {
        yield* sql`DELETE FROM idempotency_keys WHERE scope = ${key.scope} AND key = ${key.key}`
      } else {
        yield* sql`UPDATE idempotency_keys SET body_hash = ${hash}, status = ${status}, failure = ${JSON.stringify(error)}
          WHERE scope = ${key.scope} AND key = ${key.key}`
      }
      return outcome
    }
    const response = outcome.success
    const body = response.body
    if (body._tag !== "Uint8Array" || UNKEPT.has(response.status) || response.status >= 500 || (key.keeping === "outcome" && named === undefined)) {
      yield* sql`DELETE FROM idempotency_keys WHERE scope = ${key.scope} AND key = ${key.key}`
    } else if (key.keeping === "outcome") {
      // The answer holds the record's secret: only which record it was is kept.
      yield* sql`UPDATE idempotency_keys SET body_hash = ${hash}, status = ${response.status}, record_id = ${named ?? null}
        WHERE scope = ${key.scope} AND key = ${key.key}`
    } else {
      yield* sql`UPDATE idempotency_keys SET body_hash = ${hash}, status = ${response.status}, content_type = ${body.contentType}, body = ${body.body}
        WHERE scope = ${key.scope} AND key = ${key.key}`
    }
    return outcome
  })

const replayed = (response: HttpServerResponse.HttpServerResponse) => HttpServerResponse.setHeader(response, "idempotent-replayed", "true")

/**
 * A repeat: the first answer again when it is the same request, else 422; nothing runs, but for a
 * command kept as its outcome, whose endpoint answers by reading its record again.
 */
const repeat = <E, R>(
  kept: Kept,
  request: { readonly route: string; readonly bodyLength: number; readonly hash: string },
  endpoint: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  Effect.gen(function* () {
    const reused = new KeyReused({ error: idempotencyMessages.reused })
    const same = kept.route === request.route && kept.bodyLength === request.bodyLength && kept.bodyHash === request.hash
    if (!same || kept.status === null) return yield* Effect.fail(reused)
    if (kept.failure !== null) {
      const fields = JSON.parse(kept.failure) as Record<string, unknown> & { readonly _tag: string }
      return yield* Effect.fail(failureFrom(fields._tag, fields))
    }
    if (kept.recordId !== null) return replayed(yield* Effect.provideService(endpoint, OutcomeKeeping, { repeatOf: kept.recordId, named: () => undefined }))
    return HttpServerResponse.uint8Array(kept.body ?? new Uint8Array(), {
      status: kept.status,
      contentType: kept.contentType ?? "application/json",
      headers: { "idempotent-replayed": "true" }
    })
  })

/**
 * The one middleware behind `Idempotency-Key` (contract/idempotency.ts; docs/api.md, "Commands,
 * exactly once"). The key's row is taken first, in the command's transaction: copies of one
 * command sent at once wait on it, and find the first's answer once it has committed. Keys live
 * two days (housekeeping.ts); a key is the caller's, never another person's.
 */
export const IdempotencyLive = Layer.effect(
  Idempotency,
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const scopeOf = yield* IdempotencyScope
    const secret = loadOtpKey(yield* Config)
    return (httpEffect, { endpoint }) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const key = request.headers[IDEMPOTENCY_KEY_HEADER]
        const keeping = Context.get(endpoint.annotations, KeptAnswer)
        // An answer that is a secret of its own (a session's token): nothing is kept, a repeat runs again.
        if (key === undefined || request.method === "GET" || request.method === "HEAD" || keeping === "nothing") return yield* httpEffect
        if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
          const issues = [{ path: IDEMPOTENCY_KEY_HEADER, message: idempotencyMessages.badKey }]
          return yield* new BadRequest({ error: `Invalid request header: ${IDEMPOTENCY_KEY_HEADER}: ${idempotencyMessages.badKey}`, issues })
        }
        const scope = yield* scopeOf
        const route = `${request.method} ${pathOf(request.url)}`
        const bodyLength = Number(request.headers["content-length"] ?? 0)
        const command = { scope, key, keeping }
        // Read before the endpoint, which reads it from here (the body is read once and kept).
        const hash = yield* bodyHashOf(request, keeping === "outcome" ? secret : undefined)
        const outcome = yield* inTransaction(
          Effect.gen(function* () {
            const taken = yield* sql`
              INSERT INTO idempotency_keys (scope, key, route, body_length) VALUES (${scope}, ${key}, ${route}, ${bodyLength})
              ON CONFLICT (scope, key) DO NOTHING RETURNING key`
            if (taken.length > 0) return yield* firstRun(sql, hash, command, httpEffect)
            const [kept] = yield* sql<Kept>`
              SELECT route, body_length, body_hash, status, content_type, body, failure, record_id FROM idempotency_keys
              WHERE scope = ${scope} AND key = ${key}`
            // Gone between the two statements (its first run kept nothing): this one is a first run.
            if (kept === undefined) return yield* Effect.result(httpEffect)
            return yield* Effect.result(repeat(kept, { route, bodyLength, hash }, httpEffect))
          })
        ).pipe(dieOnSqlError, Effect.provideService(SqlClient, sql))
        // Outside the transaction: a refusal kept with its key is answered without undoing the keeping.
        return yield* Effect.fromResult(outcome)
      })
  })
)
