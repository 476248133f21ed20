/**
 * Answers asked for at start-up, before the code that needs them has loaded: with a stored
 * token, the session check and the first page of the list in the address bar go out at once,
 * beside the chunks (docs/architecture.md, "First screen"). Each answer is taken once, by the
 * call that would otherwise have made the same request.
 */
const waiting = new Map<string, Promise<Response>>()

const keyOf = (token: string, path: string) => `${token} ${path}`

export const prefetch = (token: string, path: string): void => {
  const key = keyOf(token, path)
  if (waiting.has(key)) return
  const answer = fetch(path, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } })
  answer.catch(() => undefined)
  waiting.set(key, answer)
}

/** The prefetched answer for this token and path, once; afterwards the caller asks itself. */
export const takePrefetched = (token: string, path: string): Promise<Response> | undefined => {
  const key = keyOf(token, path)
  const answer = waiting.get(key)
  waiting.delete(key)
  return answer
}
