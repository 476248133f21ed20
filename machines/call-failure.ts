/**
 * How an invoked call failed, as the machines see it: `status` is set when the server
 * answered, unset when it could not be reached. The console's API layer rejects with this shape.
 */
export interface CallFailure {
  readonly status: number | undefined
  readonly message: string
}

export const failureOf = (error: unknown): CallFailure =>
  typeof error === "object" && error !== null && "message" in error
    ? { status: "status" in error && typeof error.status === "number" ? error.status : undefined, message: String(error.message) }
    : { status: undefined, message: String(error) }

/** The server's own words, when the server answered. */
export const serverMessageOf = (error: unknown): string | null => {
  const failure = failureOf(error)
  return failure.status === undefined ? null : failure.message
}
