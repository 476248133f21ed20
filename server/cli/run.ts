import { Cause, Effect, Exit, Layer } from "effect"
import { join, resolve } from "node:path"
import type { platformLayer } from "../app.ts"
import { type AppConfig, readConfig } from "../platform/config.ts"

const messageOf = (error: unknown): string | undefined =>
  error instanceof Error || (typeof error === "object" && error !== null && "message" in error) ? String(error.message) : undefined

/** The configuration from the environment, or one line on stderr and exit 1. */
export const configOrExit = (): AppConfig => {
  const exit = Effect.runSyncExit(readConfig(process.env))
  if (Exit.isSuccess(exit)) return exit.value
  const failure = exit.cause.reasons.find(Cause.isFailReason)
  console.error(messageOf(failure?.error) ?? "Invalid configuration")
  return process.exit(1)
}

/** The embedded database's folder, or undefined on PostgreSQL. */
export const embeddedFolder = (config: AppConfig): string | undefined => (config.databaseUrl === undefined ? join(config.dataDir, "db") : undefined)

/**
 * `npm run NAME -- FILE` on the embedded database: the file's absolute path, the configuration
 * and the data folder. A missing or extra argument prints the usage, and on PostgreSQL
 * `postgresHint` is printed instead; both exit 1.
 */
export const embeddedFileCommand = (name: string, postgresHint: (file: string) => string) => {
  const file = process.argv[2]
  if (file === undefined || process.argv.length > 3) {
    console.error(`Usage: npm run ${name} -- FILE`)
    return finish(1)
  }
  const config = configOrExit()
  const folder = embeddedFolder(config)
  if (folder === undefined) {
    console.error(postgresHint(file))
    return finish(1)
  }
  return { path: resolve(file), config, folder }
}

/** Ends the process with `code`, after stdout and stderr have been written out. */
export const finish = (code: number): never => {
  process.exitCode = code
  return process.exit(code)
}

/**
 * Runs a command-line task against the configured database (migrated first) and exits with the
 * task's exit code (0 when it gives none); a failure is one line on stderr and exit 1.
 */
export const runCli = <E>(task: Effect.Effect<number | void, E, Layer.Success<ReturnType<typeof platformLayer>>>) => {
  const program = Effect.gen(function* () {
    const config = yield* readConfig(process.env)
    // The server's layers load only for a task that opens the database: a command a running
    // server takes through its admin channel, or a refusal, never pays for them.
    const app = yield* Effect.promise(() => import("../app.ts"))
    return yield* Effect.scoped(Layer.build(app.platformLayer(config)).pipe(Effect.flatMap((context) => Effect.provideContext(task, context))))
  })
  void Effect.runPromiseExit(program).then((exit) => {
    if (Exit.isSuccess(exit)) finish(typeof exit.value === "number" ? exit.value : 0)
    else {
      const failure = exit.cause.reasons.find(Cause.isFailReason)
      console.error(messageOf(failure?.error) ?? Cause.pretty(exit.cause))
      finish(1)
    }
  })
}
