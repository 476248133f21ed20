import type { FieldIssue } from "./common.ts"

/**
 * How an invoked call failed, as the machines see it: `status` is set when the server
 * answered, unset when it could not be reached. The console's API layer rejects with this shape.
 * `issues` are the fields a 400 named (or the form's own check, before anything was sent):
 * a form shows each under its field (docs/architecture.md, "Forms").
 */
export interface CallFailure {
  readonly status: number | undefined
  readonly message: string
  readonly issues?: ReadonlyArray<FieldIssue>
}

/** What an answer that carried no words of the server's says: its status alone. */
export const statusOnly = (status: number): string => `HTTP ${status}: request failed`

const isIssue = (value: unknown): value is FieldIssue =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { path?: unknown }).path === "string" &&
  typeof (value as { message?: unknown }).message === "string"

/** The field issues a failure carries, if any. */
export const issuesOf = (error: unknown): ReadonlyArray<FieldIssue> => {
  const issues = typeof error === "object" && error !== null && "issues" in error ? error.issues : undefined
  return Array.isArray(issues) ? issues.filter(isIssue) : []
}

export const failureOf = (error: unknown): CallFailure => {
  if (typeof error !== "object" || error === null || !("message" in error)) return { status: undefined, message: String(error) }
  const status = "status" in error && typeof error.status === "number" ? error.status : undefined
  const issues = issuesOf(error)
  return { status, message: String(error.message), ...(issues.length > 0 ? { issues } : {}) }
}

/** The server's own words, when the server answered with some (a bare status is none). */
export const serverMessageOf = (error: unknown): string | null => {
  const failure = failureOf(error)
  return failure.status === undefined || failure.message === statusOnly(failure.status) ? null : failure.message
}

/** The server's own words when it answered with some, `otherwise` when it did not (no answer, or no words). */
export const serverMessageOr = (error: unknown, otherwise: string): string => {
  const message = serverMessageOf(error)
  return message === null || message === "" ? otherwise : message
}

/**
 * A failure in the screen's own words ("Failed to create address"), followed by the server's
 * (": Identifier index is being rebuilt") when it gave any: an answer with nothing to say adds no
 * "HTTP 500: request failed" to the screen's words.
 */
export const saidWith = (words: string, failure: Pick<CallFailure, "status" | "message">): string =>
  failure.status !== undefined && (failure.message === "" || failure.message === statusOnly(failure.status)) ? words : `${words}: ${failure.message}`
