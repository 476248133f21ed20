import { statusOnly } from "../../../contract/call-failure.ts"
import { listenToChanges } from "../../api/change-stream.ts"
import { sessionHeaders } from "../../api/session.ts"
import { firstReadPosition, readsSettled } from "../../api/stream-position.ts"
import type { Answered, StoreTransport } from "../../lib/store/console-store.ts"

/** How long a command's answer may take before the link counts as lost. */
const SEND_TIMEOUT_MS = 15_000

/** The words of a refusal: the answer's `error` (the spec's wrapper rule), else its status. */
const messageOf = (status: number, body: unknown): string => {
  const error = typeof body === "object" && body !== null ? (body as { readonly error?: unknown }).error : undefined
  return typeof error === "string" && error !== "" ? error : statusOnly(status)
}

const readBody = async (response: Response): Promise<unknown> => {
  try {
    return (await response.json()) as unknown
  } catch {
    return undefined
  }
}

/**
 * How the browser's store reaches the server (src/lib/store/console-store.ts): a command is one
 * request with the session's bearer token and its id as the `Idempotency-Key` (docs/api.md,
 * "Commands, exactly once"), so sending it again after a lost answer applies it once; the
 * changes come from the session's one stream (src/api/change-stream.ts).
 */
export const storeTransport = (sessionEnded: () => void): StoreTransport => ({
  send: async ({ commandId, method, path, body }): Promise<Answered> => {
    const response = await fetch(path, {
      method,
      headers: { ...sessionHeaders(), "idempotency-key": commandId, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      cache: "no-store",
      // A server that went away without closing the connection must not hold the outbox (and its
      // lock) for ever: the command is sent again, with its key, once the link is tried again.
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS)
    })
    const answer = await readBody(response)
    const retryAfter = Number(response.headers.get("retry-after") ?? "")
    return {
      status: response.status,
      body: answer,
      message: messageOf(response.status, answer),
      retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 2000
    }
  },
  listen: (after, change, ready) =>
    listenToChanges(
      after,
      (streamed) =>
        change({
          id: streamed.id,
          type: streamed.type,
          kind: streamed.kind,
          changes: streamed.changes,
          area: streamed.area,
          entityId: streamed.entityId,
          version: streamed.version,
          fields: streamed.fields
        }),
      ready
    ),
  sessionEnded,
  firstRead: firstReadPosition,
  firstReadSettled: readsSettled
})
