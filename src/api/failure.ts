import { type CallFailure, statusOnly } from "../../contract/call-failure.ts"

/** A failed call, reduced to what the screens need: the status (when the server answered) and one message. */
export type ApiFailure = CallFailure

export const field = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null && key in value ? (value as Record<string, unknown>)[key] : undefined

/** A request that got no answer: the network's message, else "Network error". */
export const networkFailure = (error: unknown): ApiFailure => {
  const text = field(error, "message")
  return { status: undefined, message: typeof text === "string" && text !== "" ? text : "Network error" }
}

/** An answer with a failing status: its `error`, else `HTTP {status}: request failed`. */
export const answerFailure = (status: number, body: unknown): ApiFailure => {
  const message = field(body, "error")
  return { status, message: typeof message === "string" ? message : statusOnly(status) }
}

/** An answer the contract's schema refuses. */
export const unexpectedAnswer = (why: string): ApiFailure => ({ status: undefined, message: `Unexpected answer from the server: ${why}` })
