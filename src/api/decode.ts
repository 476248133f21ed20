import { Effect } from "effect"
import { statusOfFailure } from "../../contract/common.ts"
import { issuesOf, statusOnly } from "../../contract/call-failure.ts"
import { answerFailure, type ApiFailure, field, networkFailure, unexpectedAnswer } from "./failure.ts"

export type { ApiFailure } from "./failure.ts"

/**
 * The spec's wrapper rules, in one place: the answer's `error`, else `HTTP {status}: {text}`,
 * else the network message, else "Network error". An answer that does not match its schema
 * is an error too, never a silent undefined.
 */
export const toApiFailure = (error: unknown): ApiFailure => {
  const tag = field(error, "_tag")
  const message = field(error, "error")
  if (typeof message === "string" && typeof tag === "string") {
    const issues = issuesOf(error)
    return { status: statusOfFailure[tag], message, ...(issues.length > 0 ? { issues } : {}) }
  }
  if (tag === "HttpClientError") {
    const reason = field(error, "reason")
    const response = field(reason, "response")
    const status = field(response, "status")
    if (typeof status === "number") {
      return { status, message: field(reason, "_tag") === "DecodeError" ? `HTTP ${status}: unexpected answer` : statusOnly(status) }
    }
    return networkFailure(field(reason, "cause"))
  }
  if (tag === "SchemaError") return unexpectedAnswer(String(field(error, "message")))
  return networkFailure(error)
}

/**
 * `toApiFailure`, reading the body of a failing answer that is not one of the contract's
 * failures (a proxy's 500 or 502, a status the contract does not declare) as the spec's wrapper
 * does: its `error` first, else `HTTP {status}: request failed` (src/api/failure.ts,
 * `answerFailure`).
 */
export const readApiFailure = (error: unknown): Effect.Effect<ApiFailure> => {
  const reason = field(error, "reason")
  const response = field(reason, "response")
  const status = field(response, "status")
  const text = field(response, "text")
  // A status the contract declares whose body is not the failure it declares (a proxy's 500), or one it does not declare.
  const unread = field(reason, "_tag") === "StatusCodeError" || field(reason, "description") === "undeclared status code"
  if (field(error, "_tag") !== "HttpClientError" || !unread) return Effect.succeed(toApiFailure(error))
  if (typeof status !== "number" || !Effect.isEffect(text)) return Effect.succeed(toApiFailure(error))
  return (text as Effect.Effect<string, unknown>).pipe(
    Effect.map((body) => {
      try {
        return answerFailure(status, JSON.parse(body) as unknown)
      } catch {
        return answerFailure(status, undefined)
      }
    }),
    Effect.orElseSucceed(() => answerFailure(status, undefined))
  )
}
