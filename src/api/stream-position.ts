import { STREAM_POSITION_HEADER } from "../../contract/stream-position.ts"

/**
 * Where the change stream stood when the server read this load's answers (contract/stream-position.ts):
 * the earliest position any staff read of this load carried. The browser's store, with no event
 * of its own to resume from (a first visit), starts its stream there (src/lib/store/stream.ts):
 * the catch-up brings whatever those answers lack, so the first page is not read again.
 */
let earliest: bigint | undefined

/** Notes an answer's position; the answer itself goes on unread. */
export const notePosition = (response: Response): Response => {
  const position = response.headers.get(STREAM_POSITION_HEADER)
  if (position !== null && /^\d{1,19}$/u.test(position)) {
    const at = BigInt(position)
    if (earliest === undefined || at < earliest) earliest = at
  }
  return response
}

/** The earliest position this load's reads carried, if any carried one. */
export const firstReadPosition = (): string | undefined => earliest?.toString()
