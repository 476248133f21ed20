import { Schema } from "effect"
import { statusOfFailure } from "../../contract/common.ts"
import type { CallFailure } from "../../machines/call-failure.ts"

/** A failed call, reduced to what the screens need: the status (when the server answered) and one message. */
export type ApiFailure = CallFailure

const field = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null && key in value ? (value as Record<string, unknown>)[key] : undefined

/**
 * The spec's wrapper rules, in one place: the answer's `error`, else `HTTP {status}: {text}`,
 * else the network message, else "Network error". An answer that does not match its schema
 * is an error too, never a silent undefined.
 */
export const toApiFailure = (error: unknown): ApiFailure => {
  const tag = field(error, "_tag")
  const message = field(error, "error")
  if (typeof message === "string" && typeof tag === "string") return { status: statusOfFailure[tag], message }
  if (tag === "HttpClientError") {
    const reason = field(error, "reason")
    const response = field(reason, "response")
    const status = field(response, "status")
    if (typeof status === "number") {
      return { status, message: `HTTP ${status}: ${field(reason, "_tag") === "DecodeError" ? "unexpected answer" : "request failed"}` }
    }
    const cause = field(reason, "cause")
    const network = field(cause, "message")
    return { status: undefined, message: typeof network === "string" && network !== "" ? network : "Network error" }
  }
  if (tag === "SchemaError") return { status: undefined, message: `Unexpected answer from the server: ${String(field(error, "message"))}` }
  const text = field(error, "message")
  return { status: undefined, message: typeof text === "string" && text !== "" ? text : "Network error" }
}

/**
 * An answer fetched without the client (a prefetch at start-up), read as the client reads one:
 * decoded with its schema, a failure in the spec's words.
 */
export const decodeAnswer = async <S extends Schema.Top>(answer: Promise<Response>, schema: S): Promise<S["Type"]> => {
  const response = await answer.catch((error: unknown) => Promise.reject(toApiFailure(error)))
  const body: unknown = await response.json().catch(() => undefined)
  if (!response.ok) {
    const message = field(body, "error")
    const failure: ApiFailure = { status: response.status, message: typeof message === "string" ? message : `HTTP ${response.status}: request failed` }
    throw failure
  }
  return Schema.decodeUnknownPromise(schema as unknown as Schema.Decoder<S["Type"]>)(body).catch((error: unknown) => Promise.reject(toApiFailure(error)))
}
