import { Effect } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest, type HttpClientResponse } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { AdminApi } from "../../contract/api.ts"
import type { CsvFile } from "../../contract/lists.ts"
import { type ApiFailure, readApiFailure, toApiFailure } from "./decode.ts"
import { sessionToken } from "./session.ts"

export { type ApiFailure, toApiFailure } from "./decode.ts"
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

const fileNameOf = (disposition: string | undefined, fallback: string) => /filename="([^"]+)"/.exec(disposition ?? "")?.[1] ?? fallback

/**
 * `callApi` for a list endpoint asked for its CSV (`format: "csv"`, `responseMode:
 * "decoded-and-response"`): the text, named as the server's `content-disposition` names it.
 */
export const callCsvApi = <A, E>(
  fallbackName: string,
  use: (client: Client) => Effect.Effect<readonly [A | string, HttpClientResponse.HttpClientResponse], E>
): Promise<CsvFile> =>
  callApi((client) =>
    Effect.flatMap(use(client), ([answer, response]) =>
      typeof answer === "string"
        ? Effect.succeed({ text: answer, name: fileNameOf(response.headers["content-disposition"], fallbackName) })
        : Effect.fail({ status: undefined, message: "Unexpected answer from the server: JSON instead of CSV" })
    )
  )

/** `callApi` for a list endpoint, whose answer must be its JSON page (see `jsonOnly`). */
export const callListApi = <A, E>(use: (client: Client) => Effect.Effect<A | string, E>): Promise<A> =>
  callApi((client) => Effect.flatMap(use(client), jsonOnly))

/** Runs one call against the API; resolves with the decoded answer or rejects with an `ApiFailure`. */
export const callApi = <A, E>(use: (client: Client) => Effect.Effect<A, E>): Promise<A> =>
  Effect.runPromise(
    clientFor(sessionToken()).pipe(
      Effect.flatMap(use),
      Effect.catch((error) => Effect.flatMap(readApiFailure(error), Effect.fail)),
      Effect.catchDefect((defect) => Effect.fail(toApiFailure(defect)))
    )
  )
