import { STREAM_POSITION_HEADER } from "../../contract/stream-position.ts"
import { sessionToken } from "./session.ts"

/**
 * Where the change stream stood when the server read this session's answers in this load
 * (contract/stream-position.ts): the earliest position any of its staff reads carried. The
 * browser's store, with no event of its own to resume from (a first visit, a new sign-in), starts
 * its stream there (src/lib/store/stream.ts): the catch-up brings whatever those answers lack, so
 * the first page is not read again. A read still on its way may have been read earlier than any
 * answered: the position is known only once none is (`readsSettled`).
 */
let earliest: { readonly token: string | undefined; readonly at: bigint } | undefined
let inFlight = 0
let settled: Array<() => void> = []

const note = (response: Response, token: string | undefined) => {
  const position = response.headers.get(STREAM_POSITION_HEADER)
  if (position === null || !/^\d{1,19}$/u.test(position)) return
  const at = BigInt(position)
  if (earliest === undefined || earliest.token !== token || at < earliest.at) earliest = { token, at }
}

/** A read of the session's, counted while it is on its way, its position noted when it answers (under the session it was sent in). */
export const trackedRead = (answer: Promise<Response>): Promise<Response> => {
  const token = sessionToken()
  inFlight += 1
  const done = () => {
    inFlight -= 1
    if (inFlight > 0) return
    const waiting = settled
    settled = []
    for (const resolve of waiting) resolve()
  }
  return answer.then(
    (response) => {
      note(response, token)
      done()
      return response
    },
    (error: unknown) => {
      done()
      throw error
    }
  )
}

/** The earliest position this session's reads carried in this load, if every read sent has answered and one carried it. */
export const firstReadPosition = (): string | undefined =>
  inFlight === 0 && earliest !== undefined && earliest.token === sessionToken() ? earliest.at.toString() : undefined

/** Once every read sent so far has answered, or after `atMostMs`: the position then (undefined if a read is still on its way). */
export const readsSettled = (atMostMs: number): Promise<string | undefined> =>
  new Promise<void>((resolve) => {
    if (inFlight === 0) return resolve()
    settled.push(resolve)
    setTimeout(resolve, atMostMs)
  }).then(firstReadPosition)
