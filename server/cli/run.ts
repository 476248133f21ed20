import { Cause, Effect, Exit, Layer } from "effect"
import { platformLayer } from "../app.ts"
import { readConfig } from "../platform/config.ts"

/**
 * Runs a command-line task against the configured database (migrated first) and exits:
 * 0 on success, 1 with one line on stderr on failure.
 */
export const runCli = <A, E>(task: Effect.Effect<A, E, Layer.Success<ReturnType<typeof platformLayer>>>) => {
  const program = Effect.gen(function*() {
    const config = yield* readConfig(process.env)
    return yield* Effect.scoped(Layer.build(platformLayer(config)).pipe(
      Effect.flatMap((context) => Effect.provideContext(task, context))
    ))
  })
  Effect.runPromiseExit(program).then((exit) => {
    if (Exit.isSuccess(exit)) process.exit(0)
    const failure = exit.cause.reasons.find(Cause.isFailReason)
    const error = failure?.error
    console.error(error instanceof Error || (typeof error === "object" && error !== null && "message" in error)
      ? String((error as { message: unknown }).message)
      : Cause.pretty(exit.cause))
    process.exit(1)
  })
}
