import { Effect } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { AdminApi } from "../../contract/api.ts"
import { IDEMPOTENCY_KEY_HEADER } from "../../contract/idempotency.ts"
import { confirmFirst } from "../lib/confirm-gate.ts"
import type { CallAs, CallInput } from "../lib/store/handle.ts"
import { type ApiFailure, readApiFailure, toApiFailure } from "./decode.ts"
import { sessionToken, tokenRefused } from "./session.ts"
import { trackedRead } from "./stream-position.ts"

export { type ApiFailure, toApiFailure } from "./decode.ts"
export type { CallAs } from "../lib/store/handle.ts"
export type { CsvFile } from "../../contract/lists.ts"

type Client = HttpApiClient.ForApi<typeof AdminApi>

const makeClient = (token: string | undefined) =>
  HttpApiClient.make(AdminApi, {
    baseUrl: globalThis.location?.origin ?? "http://localhost:8080",
    transformClient: (client) => (token === undefined ? client : HttpClient.mapRequest(client, HttpClientRequest.bearerToken(token)))
  }).pipe(Effect.provide(FetchHttpClient.layer))

/**
 * The client for the last token asked for, made once: making one builds the encoders and
 * decoders of every endpoint in the contract, a measurable part of a next page
 * (docs/architecture.md, "First screen"). A session has one token; a new one makes a new client.
 */
let made: { readonly token: string | undefined; readonly client: Client } | undefined
const clientFor = (token: string | undefined): Effect.Effect<Client> =>
  made !== undefined && made.token === token
    ? Effect.succeed(made.client)
    : Effect.tap(makeClient(token), (client) => Effect.sync(() => void (made = { token, client })))

/**
 * List endpoints answer JSON, or CSV when asked for it (docs/api.md); the console asks for JSON,
 * so a CSV answer here is a wrong answer.
 */
export const jsonOnly = <A>(answer: A | string): Effect.Effect<A, ApiFailure> =>
  typeof answer === "string" ? Effect.fail({ status: undefined, message: "Unexpected answer from the server: CSV instead of JSON" }) : Effect.succeed(answer)

/** `callApi` for a list endpoint, whose answer must be its JSON page (see `jsonOnly`). */
export const callListApi = <A, E>(use: (client: Client) => Effect.Effect<A | string, E>): Promise<A> =>
  callApi((client) => Effect.flatMap(use(client), jsonOnly))

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"])

/**
 * Writes sent straight to the server: signing in and out (the store belongs to a session),
 * protected data (never written to the browser, not even in the outbox: docs/security.md) and
 * uploads (a file, not JSON).
 */
const DIRECT = /^\/api\/(auth|admin\/auth|admin\/protected-data|upload)(\/|$)/u

/** A change nobody named: the refusal alert's words when its screen is gone. */
const unnamed: CallAs = { kind: "", recordIds: [], effect: {}, label: "A change", failed: "The server refused a change", quiet: true }

/** Statuses whose answer has no body (the Response constructor refuses one). */
const NO_BODY = new Set([204, 205, 304])

const bodyOf = (body: BodyInit | null | undefined): { readonly json: unknown } | undefined => {
  if (body === undefined || body === null) return { json: undefined }
  const text = typeof body === "string" ? body : body instanceof Uint8Array ? new TextDecoder().decode(body) : undefined
  if (text === undefined) return undefined
  try {
    return { json: JSON.parse(text) as unknown }
  } catch {
    return undefined
  }
}

/**
 * Every change the console makes is a command (docs/architecture.md, "The browser's store"): with
 * the store open, a write goes into its outbox and out after every command made before it, its id
 * the `Idempotency-Key`, kept across a reload until the server answers, and the call resolves with
 * that answer; before the store opens it is sent at once with a key made here, so a proxy's retry
 * is applied once (docs/api.md, "Commands, exactly once").
 */
const commandFetch =
  (as: CallAs): typeof fetch =>
  async (input, init) => {
    const method = (init?.method ?? "GET").toUpperCase()
    if (!WRITES.has(method)) return trackedRead(fetch(input, init))
    const url = new URL(input instanceof Request ? input.url : String(input), globalThis.location?.origin)
    // A change that matters waits for the person to confirm it's them (src/lib/confirm-gate.ts).
    await confirmFirst(url.pathname)
    // Straight to the server, never through the outbox, which would keep the request (a protected
    // value) in the browser; with no key, as nothing of theirs needs a repeat (docs/security.md).
    if (DIRECT.test(url.pathname)) return fetch(input, init)
    const body = bodyOf(init?.body)
    // The store's handle is signed-in code: loaded only for a write that may be a command.
    const store = body === undefined ? undefined : (await import("../lib/store/handle.ts")).currentStore()
    if (store === undefined || body === undefined) {
      const headers = new Headers(init?.headers)
      headers.set(IDEMPOTENCY_KEY_HEADER, crypto.randomUUID())
      return fetch(input, { ...init, headers })
    }
    const answer = await store.call({ ...as, method: method as CallInput["method"], path: `${url.pathname}${url.search}`, body: body.json })
    return new Response(NO_BODY.has(answer.status) || answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "content-type": "application/json" }
    })
  }

/** Sign-in and "Confirm it's you": their 401 refuses a code or a passkey, not the session (docs/security.md). */
const OWN_REFUSALS = /^\/api\/admin\/auth(\/|$)/u

/** `commandFetch`, telling the session's end: a 401 to any other call made with the session's token (docs/security.md, "What stays in the browser"). */
const sessionFetch =
  (as: CallAs, token: string | undefined): typeof fetch =>
  async (input, init) => {
    const response = await commandFetch(as)(input, init)
    const path = new URL(input instanceof Request ? input.url : String(input), globalThis.location?.origin).pathname
    if (response.status === 401 && !OWN_REFUSALS.test(path)) tokenRefused(token)
    return response
  }

/**
 * Runs one call against the API; resolves with the decoded answer or rejects with an `ApiFailure`.
 * A write is a command (`commandFetch`); `as` names what it does to the records a screen shows.
 */
export const callApi = <A, E>(use: (client: Client) => Effect.Effect<A, E>, as: CallAs = unnamed): Promise<A> => {
  const token = sessionToken()
  return Effect.runPromise(
    clientFor(token).pipe(
      Effect.flatMap((client) => Effect.provideService(use(client), FetchHttpClient.Fetch, sessionFetch(as, token))),
      Effect.catch((error) => Effect.flatMap(readApiFailure(error), Effect.fail)),
      Effect.catchDefect((defect) => Effect.fail(toApiFailure(defect)))
    )
  )
}
