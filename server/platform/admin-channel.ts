import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import { chmodSync, existsSync, rmSync } from "node:fs"
import { createServer, request } from "node:http"
import { join } from "node:path"
import { pipeline } from "node:stream/promises"
import type { Writable } from "node:stream"
import { Database } from "./database.ts"

/**
 * The running server's local admin channel (docs/architecture.md, "Backup and restore"): an HTTP
 * server on a Unix socket in the data folder, readable and writable by the folder's owner only
 * (mode 0600). While the server holds the embedded database, `npm run admin` and `npm run backup`
 * ask it here instead of opening the folder a second time. It listens only on that socket, never
 * on a network port, so only a person who can already read the data folder can use it.
 */

export const adminSocketPath = (dataDir: string) => join(dataDir, "admin.sock")

/** What a command printed and how it ended, the same whichever process ran it. */
export interface CommandResult {
  readonly code: number
  readonly out: string
  readonly err: string
}

/** Runs one `npm run admin` command line; the command line provides it (server/cli/admin-commands.ts). */
export type AdminCommandRunner = (args: ReadonlyArray<string>) => Effect.Effect<CommandResult, unknown, SqlClient | Database>

const MAX_BODY = 16 * 1024

const readBody = async (stream: AsyncIterable<Buffer>): Promise<string> => {
  let body = ""
  for await (const chunk of stream) {
    body += chunk.toString("utf8")
    if (body.length > MAX_BODY) throw new Error("too large")
  }
  return body
}

const isArgs = (value: unknown): value is ReadonlyArray<string> =>
  Array.isArray(value) && value.length <= 10 && value.every((item) => typeof item === "string" && item.length <= 200)

/** Listens on `DATA_DIR/admin.sock` for as long as the server runs; the socket goes with it. */
export const adminChannelLayer = (dataDir: string, executeAdminCommand: AdminCommandRunner) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const services = yield* Effect.context<SqlClient | Database>()
      const run = Effect.runPromiseWith(services)
      const database = yield* Database
      const path = adminSocketPath(dataDir)
      const server = createServer((req, res) => {
        const answer = (status: number, body: CommandResult) => {
          res.writeHead(status, { "content-type": "application/json" })
          res.end(JSON.stringify(body))
        }
        if (req.method === "POST" && req.url === "/admin") {
          readBody(req)
            .then((text) => {
              const parsed: unknown = JSON.parse(text)
              if (!isArgs(parsed)) return answer(400, { code: 1, out: "", err: "bad request\n" })
              return run(executeAdminCommand(parsed)).then((result) => answer(200, result))
            })
            .catch((error: unknown) => answer(500, { code: 1, out: "", err: `${String(error)}\n` }))
          return
        }
        if (req.method === "GET" && req.url === "/backup" && database.dump !== undefined) {
          database
            .dump()
            .then(async (blob) => {
              const bytes = Buffer.from(await blob.arrayBuffer())
              res.writeHead(200, { "content-type": "application/gzip", "content-length": String(bytes.length) })
              res.end(bytes)
            })
            .catch((error: unknown) => {
              if (!res.headersSent) answer(500, { code: 1, out: "", err: `Backup failed: ${String(error)}\n` })
              else res.destroy()
            })
          return
        }
        answer(404, { code: 1, out: "", err: "unknown request\n" })
      })
      yield* Effect.acquireRelease(
        Effect.callback<void, Error>((resume) => {
          // This process holds the folder's lock, so a socket file here is a dead server's.
          rmSync(path, { force: true })
          server.once("error", (error) => resume(Effect.fail(error)))
          server.listen(path, () => {
            chmodSync(path, 0o600)
            resume(Effect.void)
          })
        }),
        () =>
          Effect.callback<void>((resume) => {
            server.close(() => resume(Effect.void))
            server.closeAllConnections()
          })
      ).pipe(
        // A socket path longer than the system allows (about 100 bytes): the server still runs,
        // and the tools say the folder is in use, as they would without the channel.
        Effect.catch((error) => Effect.logWarning(`No admin channel at ${path}: ${error.message}`))
      )
    })
  )

/** Whether a server's admin channel exists for `dataDir` (the lock says whether it is live). */
export const hasAdminChannel = (dataDir: string) => existsSync(adminSocketPath(dataDir))

const ask = (dataDir: string, method: string, path: string, body?: string) =>
  new Promise<import("node:http").IncomingMessage>((resolve, reject) => {
    const req = request({ socketPath: adminSocketPath(dataDir), method, path, headers: { "content-type": "application/json" } }, resolve)
    req.once("error", reject)
    req.end(body)
  })

/** Runs `npm run admin` arguments in the server that holds `dataDir`. */
export const adminThroughServer = async (dataDir: string, args: ReadonlyArray<string>): Promise<CommandResult> => {
  const response = await ask(dataDir, "POST", "/admin", JSON.stringify(args))
  return JSON.parse(await readBody(response)) as CommandResult
}

/** Streams a backup of the database the server holds into `destination`. */
export const backupThroughServer = async (dataDir: string, destination: Writable): Promise<void> => {
  const response = await ask(dataDir, "GET", "/backup")
  if (response.statusCode !== 200) throw new Error((JSON.parse(await readBody(response)) as CommandResult).err.trim())
  await pipeline(response, destination)
}
