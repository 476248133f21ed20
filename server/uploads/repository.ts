import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { recordAdminActivity } from "../platform/activity-log.ts"
import { dieOnSqlError, inTransaction } from "../platform/database.ts"
import { createHash } from "node:crypto"

/**
 * Uploaded images in the database (migration 0013, docs/architecture.md "Uploads"): one row per
 * file with its type, size and hash, its bytes in chunks. A file is written once, whole, in one
 * transaction, and never changed: its name is new each time, so a reader needs no lock.
 */

/** The bytes of a stored file come in chunks of this size (the last one shorter). */
export const CHUNK_BYTES = 256 * 1024

export interface StoredUpload {
  /** Where it is served, after `/uploads/`: `blog/<32 hex>.png`. */
  readonly path: string
  readonly mime: string
  readonly size: number
  readonly sha256: string
  readonly chunkSize: number
}

/** The hex SHA-256 of `bytes`: the stored hash, and the ETag a download answers with. */
export const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

/**
 * Stores `bytes` under `path`, in the caller's transaction; a path already stored is left as it
 * is (the import of old files may meet one a first attempt moved). Whether it was written.
 */
export const insertUpload = (path: string, mime: string, bytes: Uint8Array) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const added = yield* sql<{ path: string }>`
      INSERT INTO uploads (path, mime, size, sha256, chunk_size)
      VALUES (${path}, ${mime}, ${bytes.length}, ${sha256Of(bytes)}, ${CHUNK_BYTES})
      ON CONFLICT (path) DO NOTHING RETURNING path`
    if (added.length === 0) return false
    for (let seq = 0; seq * CHUNK_BYTES < bytes.length; seq++) {
      const chunk = bytes.subarray(seq * CHUNK_BYTES, (seq + 1) * CHUNK_BYTES)
      yield* sql`INSERT INTO upload_chunks (path, seq, bytes) VALUES (${path}, ${seq}, ${chunk})`
    }
    return true
  }).pipe(dieOnSqlError)

/** Stores a file a signed-in admin uploaded, and the event that says so, in one transaction. */
export const storeUpload = (path: string, mime: string, bytes: Uint8Array, event: Parameters<typeof recordAdminActivity>[0]) =>
  Effect.andThen(insertUpload(path, mime, bytes), recordAdminActivity(event)).pipe(inTransaction, dieOnSqlError)

/** What is known of a stored file, without its bytes; undefined when there is none. */
export const findUpload = (path: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<StoredUpload>`SELECT path, mime, size, sha256, chunk_size FROM uploads WHERE path = ${path}`
    return rows[0]
  }).pipe(dieOnSqlError)

/** One chunk of a stored file's bytes (empty past its end). */
export const uploadChunk = (path: string, seq: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<{ bytes: Uint8Array }>`SELECT bytes FROM upload_chunks WHERE path = ${path} AND seq = ${seq}`
    return rows[0]?.bytes ?? new Uint8Array(0)
  }).pipe(dieOnSqlError)
