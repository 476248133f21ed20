import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { statfs } from "node:fs/promises"
import { existsSync, statfsSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { Config } from "./config.ts"

/**
 * The disk under the data folder (docs/architecture.md, "A full disk"). The embedded database
 * cannot fail cleanly at the edge of a full disk: a commit that needs a new 16 MB write-ahead-log
 * segment it cannot create may spin at 100 % CPU for good. So the server keeps a reserve
 * (`DISK_RESERVE_MB`, 64 by default): below it, changes are refused with 507 before they reach
 * the database, reads go on, `/api/health` says so, and once space is freed changes are taken
 * again, with no restart. A start below the reserve is refused with one line saying why.
 */

export const MB = 1024 * 1024

export interface DiskReading {
  readonly freeMb: number
  readonly reserveMb: number
  readonly low: boolean
}

const readingOf = (free: number, reserveMb: number): DiskReading => ({
  freeMb: Math.floor(free / MB),
  reserveMb,
  low: free < reserveMb * MB
})

/** Free space for this process on the disk that holds `folder`, in bytes. */
const freeBytes = (stats: { readonly bavail: number; readonly bsize: number }) => stats.bavail * stats.bsize

/** The disk as it is now; a folder that cannot be read counts as a full disk. */
export const diskReading = Effect.gen(function* () {
  const config = yield* Config
  const free = yield* Effect.tryPromise(() => statfs(config.dataDir)).pipe(
    Effect.map(freeBytes),
    Effect.orElseSucceed(() => 0)
  )
  return readingOf(free, config.diskReserveMb)
})

export const diskFullMessage = "The server's disk is full: changes can't be saved until space is freed. Reading still works."

/** `folder`, or its nearest parent that exists (a first start makes the folder). */
const existing = (folder: string): string => (existsSync(folder) || dirname(folder) === folder ? folder : existing(dirname(folder)))

/** Why a start is refused, or undefined: the disk that will hold `folder` is below the reserve. */
export const startProblem = (folder: string, reserveMb: number): string | undefined => {
  const reading = readingOf(freeBytes(statfsSync(existing(resolve(folder)))), reserveMb)
  return reading.low
    ? `Cannot start: the disk that holds ${folder} has ${reading.freeMb} MB free, and the embedded database needs at least ` +
        `${reserveMb} MB (DISK_RESERVE_MB). Free some space and start again.`
    : undefined
}

/** Requests that change nothing, or only sign someone in or out (a few rows, within the reserve). */
const readsOrSignIn = (method: string, path: string) =>
  method === "GET" || method === "HEAD" || method === "OPTIONS" || path === "/api/admin/auth" || path === "/api/admin/auth/logout"

/** Below the reserve, every API change but signing in or out is answered 507 before it is read. */
export const diskGuard = HttpRouter.middleware(
  Effect.gen(function* () {
    const config = yield* Config
    return (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const path = request.url.split("?")[0] ?? "/"
        if (!path.startsWith("/api/") || readsOrSignIn(request.method, path)) return yield* httpEffect
        const reading = yield* Effect.provideService(diskReading, Config, config)
        if (!reading.low) return yield* httpEffect
        return HttpServerResponse.jsonUnsafe({ success: false, error: diskFullMessage, _tag: "InsufficientStorage" }, { status: 507 })
      })
  }),
  { global: true }
)
