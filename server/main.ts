import { NodeRuntime } from "@effect/platform-node"
import { Effect, Exit, Layer } from "effect"
import { serverLayer } from "./app.ts"
import { readConfig } from "./platform/config.ts"

const config = Effect.runSyncExit(readConfig(process.env))
if (Exit.isFailure(config)) {
  const failure = config.cause.reasons[0]
  console.error(failure !== undefined && failure._tag === "Fail" ? failure.error.message : "Invalid configuration")
  process.exit(1)
}

Layer.launch(serverLayer(config.value)).pipe(NodeRuntime.runMain)
