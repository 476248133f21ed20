import { Cause, Effect, Exit, Runtime } from "effect"
import { join } from "node:path"
import { readConfig, serverConfigProblem } from "./platform/config.ts"
import { dataFolderProblem, startProblem } from "./platform/disk-space.ts"

const config = Effect.runSyncExit(readConfig(process.env))
if (Exit.isFailure(config)) {
  const failure = config.cause.reasons[0]
  console.error(failure !== undefined && failure._tag === "Fail" ? failure.error.message : "Invalid configuration")
  process.exit(1)
}

const problem =
  serverConfigProblem(config.value) ??
  dataFolderProblem(config.value) ??
  // The embedded database cannot start cleanly on a full disk: say so instead (platform/disk-space.ts).
  (config.value.databaseUrl === undefined ? startProblem(join(config.value.dataDir, "db"), config.value.diskReserveMb) : undefined)
if (problem !== undefined) {
  console.error(problem)
  process.exit(1)
}

// Loaded only once the configuration is known to be good, so a bad one fails at once.
const { NodeRuntime } = await import("@effect/platform-node")
const { Layer } = await import("effect")
const { serverLayer } = await import("./app.ts")
const { DataFolderInUse } = await import("./platform/data-lock.ts")
const { port, host } = config.value
/** What stops the server before it serves, in one line: a data folder another process holds (data-lock.ts), a port taken. */
const oneLine = (error: unknown): string | undefined => {
  if (error instanceof DataFolderInUse) return error.message
  const code = (error as { readonly cause?: { readonly code?: unknown } } | undefined)?.cause?.code
  if (code === "EADDRINUSE")
    return `Port ${port} on ${host} is in use by another program: stop it, or start on another port with PORT (PORT=${port + 1} npm start).`
  if (code === "EACCES") return `Port ${port} on ${host} needs privileges this user does not have: set PORT to 1024 or above.`
  return undefined
}
Layer.launch(serverLayer(config.value)).pipe(
  Effect.catch((error) => {
    const line = oneLine(error)
    return line === undefined
      ? Effect.fail(error)
      : Effect.sync(() => {
          console.error(line)
          process.exit(1)
        })
  }),
  // Stopped by SIGTERM or SIGINT, once everything has closed in order, is a clean exit
  // (docs/deploy.md, "Stopping a server"): 0, not the 130 of an interrupted program.
  (main) =>
    NodeRuntime.runMain(main, {
      teardown: (exit, onExit) => (Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit))
    })
)
