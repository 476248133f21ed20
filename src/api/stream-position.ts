import { STREAM_POSITION_HEADER } from "../../contract/stream-position.ts"
import { sessionToken } from "./session.ts"

/**
 * Where the change stream stood when the server read this session's answers in this load
 * (contract/stream-position.ts): the earliest position any of its staff reads carried. The
 * browser's store, with no event of its own to resume from (a first visit, a new sign-in), starts
 * its stream there (src/lib/store/stream.ts): the catch-up brings whatever those answers lack, so
 * the first page is not read again.
 */
let earliest: { readonly token: string | undefined; readonly at: bigint } | undefined

/** Notes an answer's position; the answer itself goes on unread. */
export const notePosition = (response: Response): Response => {
  const position = response.headers.get(STREAM_POSITION_HEADER)
  if (position !== null && /^\d{1,19}$/u.test(position)) {
    const token = sessionToken()
    const at = BigInt(position)
    if (earliest === undefined || earliest.token !== token || at < earliest.at) earliest = { token, at }
  }
  return response
}

/** The earliest position this session's reads carried in this load, if any carried one. */
export const firstReadPosition = (): string | undefined => (earliest !== undefined && earliest.token === sessionToken() ? earliest.at.toString() : undefined)
