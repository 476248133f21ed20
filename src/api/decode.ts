import { statusOfFailure } from "../../contract/common.ts"
import { issuesOf } from "../../machines/call-failure.ts"
import { type ApiFailure, field, networkFailure, unexpectedAnswer } from "./failure.ts"

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
      return { status, message: `HTTP ${status}: ${field(reason, "_tag") === "DecodeError" ? "unexpected answer" : "request failed"}` }
    }
    return networkFailure(field(reason, "cause"))
  }
  if (tag === "SchemaError") return unexpectedAnswer(String(field(error, "message")))
  return networkFailure(error)
}
