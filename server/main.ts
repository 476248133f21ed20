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
Layer.launch(serverLayer(config.value)).pipe(
  // A data folder another process holds: one line naming it, nothing touched (data-lock.ts).
  Effect.catch((error) =>
    error instanceof DataFolderInUse
      ? Effect.sync(() => {
          console.error(error.message)
          process.exit(1)
        })
      : Effect.fail(error)
  ),
  // Stopped by SIGTERM or SIGINT, once everything has closed in order, is a clean exit
  // (docs/deploy.md, "Stopping a server"): 0, not the 130 of an interrupted program.
  (main) =>
    NodeRuntime.runMain(main, {
      teardown: (exit, onExit) => (Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit))
    })
)
