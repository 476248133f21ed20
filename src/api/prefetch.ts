import { sessionHeaders, sessionToken } from "./session.ts"
import { trackedRead } from "./stream-position.ts"

/**
 * Answers asked for at start-up, before the code that needs them has loaded: with a stored
 * token, the session check and the first page of the list in the address bar go out at once,
 * beside the chunks (docs/architecture.md, "First screen"). Each answer is taken once, by the
 * call that would otherwise have made the same request.
 */
interface Prefetched {
  readonly answer: Promise<Response>
  /** Settles once the answer has been read into `arrived`, or could not be. */
  readonly read: Promise<void>
  /** The answer's status and JSON body, once both have arrived: a screen's first render can show them. */
  arrived?: { readonly ok: boolean; readonly status: number; readonly body: unknown }
}

const waiting = new Map<string, Prefetched>()

/** The session's token is part of the key: an answer asked for under another session is not this one's. */
const keyOf = (path: string) => `${sessionToken() ?? ""} ${path}`

/** A GET of `path`'s JSON with the session's token, as start-up and `getChecked` both ask. */
export const getJson = (path: string): Promise<Response> => trackedRead(fetch(path, { headers: { ...sessionHeaders(), accept: "application/json" } }))

export const prefetch = (path: string): void => {
  const key = keyOf(path)
  if (waiting.has(key)) return
  const answer = getJson(path)
  // Read as soon as it arrives, from a copy: the answer itself stays unread for `takePrefetched`.
  const read = answer
    .then((response) =>
      response
        .clone()
        .json()
        .then((body: unknown) => {
          entry.arrived = { ok: response.ok, status: response.status, body }
        })
    )
    .catch(() => undefined)
  const entry: Prefetched = { answer, read }
  waiting.set(key, entry)
}

/**
 * Settles when every answer asked for so far has been read (or could not be), or after
 * `atMostMs`: the first render waits for them rather than committing loading states it would
 * replace a moment later.
 */
export const startingAnswersRead = (atMostMs: number): Promise<void> =>
  Promise.race([
    Promise.all([...waiting.values()].map((entry) => entry.read)).then(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, atMostMs))
  ])

/** The prefetched answer for this token and path, once; afterwards the caller asks itself. */
export const takePrefetched = (path: string): Promise<Response> | undefined => {
  const key = keyOf(path)
  const entry = waiting.get(key)
  waiting.delete(key)
  return entry?.answer
}

/**
 * The prefetched answer's status and body if they have already arrived, taken (once) when
 * `accept` takes them: the first screen shows its first page in its first commit. An answer not
 * accepted stays for `takePrefetched`, so its failure is reported the usual way.
 */
export const takeArrived = <A>(path: string, accept: (arrived: NonNullable<Prefetched["arrived"]>) => A | undefined): A | undefined => {
  const key = keyOf(path)
  const arrived = waiting.get(key)?.arrived
  const taken = arrived === undefined ? undefined : accept(arrived)
  if (taken !== undefined) waiting.delete(key)
  return taken
}
