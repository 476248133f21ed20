import type { PGlite } from "@electric-sql/pglite"
import { Duplex } from "node:stream"

const CANCEL_REQUEST_CODE = 80877102

const isCancelRequest = (chunk: Uint8Array): boolean =>
  chunk.length === 16 && new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength).getInt32(4) === CANCEL_REQUEST_CODE

/**
 * An in-process "socket" that feeds the PostgreSQL wire protocol straight into PGlite, so
 * `@effect/sql-pg` drives the embedded database exactly as it drives a server. PGlite has one
 * session, so the client must keep a single connection. The driver opens a second stream only
 * to send a CancelRequest, which PGlite cannot honour; that stream is closed unread, and the
 * query it meant to cancel runs to its end.
 */
export const pgliteStream = (db: PGlite) => {
  let sessionWasDropped = false
  return (): Duplex => {
    let first = true
    const duplex: Duplex = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, callback) {
        const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        if (first && isCancelRequest(bytes)) {
          duplex.push(null)
          callback()
          return
        }
        const reset = first && sessionWasDropped ? db.exec("ROLLBACK").catch(() => undefined) : Promise.resolve()
        first = false
        reset
          .then(() => db.execProtocolRawStream(bytes, { onRawData: (data) => duplex.push(Buffer.from(data)) }))
          .then(
            () => callback(),
            (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)))
          )
      },
      final(callback) {
        duplex.push(null)
        callback()
      },
      destroy(error, callback) {
        if (!first) sessionWasDropped = true
        callback(error)
      }
    })
    return duplex
  }
}
