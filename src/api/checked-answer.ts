import { firstFailure, type JsonSchema } from "../../contract/json-check.ts"
import { getJson, takeArrived, takePrefetched } from "./prefetch.ts"
import { answerFailure, networkFailure, unexpectedAnswer } from "./failure.ts"

/**
 * An answer fetched at start-up, before the client (src/api/prefetch.ts), read as the client
 * reads one: checked against the contract's schema, a failure in the spec's words. The schemas
 * come compiled from the contract (`virtual:answer-schemas`, tools/first-screen/answer-schemas.ts), so
 * the first screen trusts its first answers without loading effect; each is one whose decoded
 * value is its JSON, so the checked JSON is the value.
 */
export const checkedAnswer = async <A>(answer: Promise<Response>, schema: JsonSchema): Promise<A> => {
  const response = await answer.catch((error: unknown) => Promise.reject(networkFailure(error)))
  const body: unknown = await response.json().catch(() => undefined)
  if (!response.ok) throw answerFailure(response.status, body)
  const failure = firstFailure(schema, body)
  if (failure !== undefined) throw unexpectedAnswer(failure)
  return body as A
}

/**
 * A GET of `path` read the same way: start-up's answer if it asked for this one, else a request
 * of its own. A directory's and the blog's pages go this way after the first too, so a page turn
 * or a search needs neither effect's client nor its chunk (docs/architecture.md, "Interactions").
 */
export const getChecked = <A>(path: string, schema: JsonSchema): Promise<A> => checkedAnswer<A>(takePrefetched(path) ?? getJson(path), schema)

/**
 * The answer start-up asked for at `path`, if it has already arrived, succeeded and matches the
 * contract's schema: taken at once, so a first render can show it. Anything else stays for
 * `checkedAnswer`, which reports it the usual way.
 */
export const arrivedChecked = <A>(path: string, schema: JsonSchema): A | undefined =>
  takeArrived(path, ({ ok, body }) => (ok && firstFailure(schema, body) === undefined ? (body as A) : undefined))
