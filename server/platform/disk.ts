import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { statfs } from "node:fs/promises"
import { type AppConfig, Config } from "./config.ts"
import { Database } from "./database.ts"
import { freeBytes, readingOf } from "./disk-space.ts"
import { ServerWrites } from "./write-outcomes.ts"

/**
 * Room to write (docs/architecture.md, "A full disk").
 *
 * The embedded database cannot fail cleanly at the edge of a full disk: a commit that needs a new
 * 16 MB write-ahead-log segment it cannot create may spin at 100 % CPU for good. So the server
 * keeps a reserve on the disk under the data folder (`DISK_RESERVE_MB`, 64 by default): below
 * it, changes are refused with 507 before they reach the database, reads go on, `/api/health`
 * says so, and once space is freed changes are taken again, with no restart. A start below the
 * reserve is refused with one line saying why.
 *
 * PostgreSQL fails cleanly: a write it has no room for is refused (SQLSTATE 53100, answered 507
 * by http.ts) and the next one is taken once there is room. Its disk may be on another host and
 * it does not say how much room is left, so on PostgreSQL there is no reserve and the data
 * folder's disk is not watched: the database's disk is known by the writes it refuses
 * (write-outcomes.ts).
 */

export interface DiskReading {
  /** Free space on the data folder's disk; null on PostgreSQL, whose disk this server cannot measure. */
  readonly freeMb: number | null
  readonly reserveMb: number | null
  readonly low: boolean
}

/** The data folder's disk as it is now; a folder that cannot be read counts as a full disk. */
const dataFolderReading = (config: AppConfig) =>
  Effect.tryPromise(() => statfs(config.dataDir)).pipe(
    Effect.map(freeBytes),
    Effect.orElseSucceed(() => 0),
    Effect.map((free) => readingOf(free, config.diskReserveMb))
  )

/** Room to write as this server knows it now. */
export const diskReading = Effect.gen(function* () {
  const database = yield* Database
  if (database.engine === "postgresql") return { freeMb: null, reserveMb: null, low: (yield* ServerWrites).current().failing } satisfies DiskReading
  return (yield* dataFolderReading(yield* Config)) satisfies DiskReading
})

export const diskFullMessage = "The server's disk is full: changes can't be saved until space is freed. Reading still works."

/** Requests that change nothing, or only sign someone in or out (a few rows, within the reserve). */
const readsOrSignIn = (method: string, path: string) =>
  method === "GET" || method === "HEAD" || method === "OPTIONS" || path === "/api/admin/auth" || path === "/api/admin/auth/logout"

/** Below the reserve, every API change but signing in or out is answered 507 before it is read; on PostgreSQL, the database decides. */
export const diskGuard = HttpRouter.middleware(
  Effect.gen(function* () {
    const config = yield* Config
    const database = yield* Database
    return (httpEffect) =>
      Effect.gen(function* () {
        if (database.engine === "postgresql") return yield* httpEffect
        const request = yield* HttpServerRequest.HttpServerRequest
        const path = request.url.split("?")[0] ?? "/"
        if (!path.startsWith("/api/") || readsOrSignIn(request.method, path)) return yield* httpEffect
        if (!(yield* dataFolderReading(config)).low) return yield* httpEffect
        return HttpServerResponse.jsonUnsafe({ success: false, error: diskFullMessage, _tag: "InsufficientStorage" }, { status: 507 })
      })
  }),
  { global: true }
)
